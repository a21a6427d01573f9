"""The one error type of the server: a refusal with a stable code.

Every part of the server (the commit path, seats, the referee, the routes and
the WebSocket) refuses by raising :class:`ServerError`; the HTTP app and the
WebSocket hub turn it into the same ``{"code", "message", "detail"}`` shape,
with the message in the client's language (:mod:`alea.server.i18n`).
"""

from __future__ import annotations

from typing import Any


class ServerError(Exception):
    """A refusal with a stable ``code`` (see :mod:`alea.server.i18n`) and an HTTP status."""

    def __init__(self, code: str, status: int = 400, detail: str = "", **params: Any) -> None:
        super().__init__(f"{code}: {detail or params}")
        self.code = code
        self.status = status
        self.detail = detail
        self.params = params
