"""A bound on HTTP request bodies, enforced before anything reads them in full.

Without it a 500 MB ``POST /api/games`` was read into memory before the model
refused it (1.6 GB resident, every game frozen for seconds). This ASGI
middleware refuses a body whose ``Content-Length`` is over the limit at once,
without reading a byte of it, and counts the bytes of a body that arrives
without one (chunked) as they are received, stopping at the limit. Either way
the answer is ``413 too_large`` in the one error shape of the API.

WebSocket frames are bounded separately, by uvicorn (``ws_max_size``, from
:attr:`~alea.server.config.Settings.max_frame`), and messages by the hub.
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from alea.server import i18n
from alea.server.errors import error_body

CODE = "too_large"


class BodyTooLarge(HTTPException):
    """Raised from ``receive`` when a streamed body passes the limit.

    An :class:`HTTPException` on purpose: FastAPI turns any other error met while
    reading a body into a 400, but lets this one through to the app's handler.
    """

    def __init__(self, limit: int) -> None:
        # Closing the connection spares reading (and discarding) the rest of the body.
        super().__init__(413, detail=f"at most {limit} bytes", headers={"Connection": "close"})


class BodyLimit:
    """ASGI middleware: HTTP request bodies of at most ``max_body`` bytes."""

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        declared = headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_body):
            await self._refuse(headers, scope, receive, send)
            return
        received = 0
        limit = self.max_body

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLarge:
            if started:
                raise
            await self._refuse(headers, scope, receive, send)

    async def _refuse(self, headers: Headers, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer 413 and close the connection (the rest of the body is never read)."""
        language = i18n.language(headers.get("accept-language", ""))
        body = error_body(CODE, language, f"at most {self.max_body} bytes")
        response = JSONResponse(body, status_code=413, headers={"Connection": "close"})
        await response(scope, receive, send)
