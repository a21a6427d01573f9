"""The one error type of the server: a refusal with a stable code.

Every part of the server (the commit path, seats, the referee, the routes and
the WebSocket) refuses by raising :class:`ServerError`; the HTTP app and the
WebSocket hub turn it into the same ``{"code", "message", "detail"}`` shape,
with the message in the client's language (:mod:`alea.server.i18n`).
"""

from __future__ import annotations

from typing import Any

from alea.server import i18n


class ServerError(Exception):
    """A refusal with a stable ``code`` (see :mod:`alea.server.i18n`) and an HTTP status."""

    def __init__(self, code: str, status: int = 400, detail: str = "", **params: Any) -> None:
        super().__init__(f"{code}: {detail or params}")
        self.code = code
        self.status = status
        self.detail = detail
        self.params = params
        #: Extra HTTP headers of the refusal (e.g. ``Retry-After``).
        self.headers: dict[str, str] = {}


def error_body(code: str, language: str, detail: Any = "", **params: Any) -> dict[str, Any]:
    """The one shape of every HTTP refusal: ``{"error": {"code", "message", "detail"}}``.

    Used by the app's exception handlers and by the middlewares that answer before
    a route runs (a body too large), so no refusal ever has another shape.
    """
    params.setdefault("detail", detail)
    message = i18n.message(code, language, **params)
    return {"error": {"code": code, "message": message, "detail": detail}}
