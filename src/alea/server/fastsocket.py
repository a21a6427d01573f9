"""uvicorn's WebSocket protocol with a synchronous send for the game's updates.

Why: every accepted move sends an ``update`` to each seat of the game, and each
of those frames went through five asynchronous layers (the connection's sender
task waking up, Starlette's ``WebSocket.send_text``, its exception wrapper,
uvicorn's ``send`` awaiting ``writable``, then the framing) before the bytes
reached the socket. Measured under load (``bench/server_load.py``, 250
four-player games) those layers cost more CPU than the framing and the send
itself, which ``websockets`` does in about 2 µs a frame.

:class:`FastSocketProtocol` is uvicorn's own sans-I/O protocol
(``websockets-sansio``) with one addition: the ASGI scope's ``extensions``
carry ``alea.send_now``, a plain function that frames a text message with the
same ``websockets`` state machine and writes it to the transport at once,
from the event loop's thread. It refuses (returns False, nothing sent)
whenever the ordinary path must decide instead: before the handshake, once a
close was sent or the peer has gone, and while the transport's buffer is
above its high-water mark (the client does not read: the ordinary path waits
for ``writable``, and :mod:`alea.server.hub` coalesces updates meanwhile). A
server run with another WebSocket implementation, or Starlette's test client,
has no ``alea.send_now``, and the hub keeps its task-based path; so does
everything but a text message (closes, the handshake's answer).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.http11 import Request

#: The scope extension naming the synchronous send (see the module's docstring).
SEND_NOW = "alea.send_now"
#: How ``alea serve --ws`` names this protocol, and the import path uvicorn loads.
NAME = "alea"
IMPORT_PATH = "alea.server.fastsocket:FastSocketProtocol"

SendNow = Callable[[str], bool]


class FastSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, plus :meth:`send_now` in the scope."""

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        # The app's task was only created: it reads the scope after this returns.
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][SEND_NOW] = self.send_now

    def send_now(self, text: str) -> bool:
        """Frame ``text`` and write it now; False (nothing sent) if the ordinary,
        awaiting path must send it instead."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or not self.writable.is_set()
            or self.transport.is_closing()
        ):
            return False
        try:
            self.conn.send_text(text.encode())
        except InvalidState:
            return False
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True


def socket_options(max_frame: int, ws: str = NAME) -> dict[str, Any]:
    """uvicorn's WebSocket settings of ``alea serve`` (``ws``: its ``--ws`` choice), which
    the test suite's in-process servers use too, so that they run the same path."""
    return {
        "ws": IMPORT_PATH if ws == NAME else ws,
        "ws_max_size": max_frame,
        # Updates are small and frequent: compressing each costs more CPU than it saves.
        "ws_per_message_deflate": False,
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
    }
