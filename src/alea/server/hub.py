"""The WebSocket side: one :class:`Connection` per socket, and the message handlers.

Why a sender task with a "dirty" flag instead of a queue of updates: every
``update`` message carries the *whole* current view of the connection's seat
plus the log entries it has not seen yet, so updates never need to be
delivered one by one. When the game changes, each connection is only marked
dirty; its sender builds one update from the current state when it gets to
run. A slow phone on a bad network therefore receives fewer, fresher
messages, and can never make the server buffer an unbounded backlog or slow
down the other players. Small replies (errors, pongs) go through a short
outbox.

Who delivers: with the protocol of :mod:`alea.server.fastsocket` (what ``alea
serve`` runs), a change schedules :meth:`Connection._flush` once for the end of
the event loop's current turn, which writes the outbox and the update at once;
the sender task only takes over while the socket is paused (the client does not
read) or closing. Without it (another WebSocket implementation) the sender task
delivers everything. Either way the update is built after the code that changed
the game has finished, never half-way through a change.

Why the acknowledgement of a move rides in the mover's own ``update`` (its
``acks`` list) rather than in a frame of its own: every accepted move already
sends the mover an update, and each WebSocket frame costs the event loop about
as much as building a seat's view (framing, the send call, the kernel's
loopback), so the separate ``ack`` made five frames of a four-seat move where
four carry the same news. The commit path hands the acknowledgement to the
connection (``on_commit``) before it wakes anyone, so the one wake-up of the
mover's sender finds both the change and the ack.

The message schema is documented message by message in docs/server.md.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from alea.server import i18n, wire
from alea.server.account_service import Accounts
from alea.server.errors import ServerError
from alea.server.fastsocket import SEND_NOW, SendNow
from alea.server.games import REFEREE
from alea.server.outage import DatabaseOutage
from alea.server.room import Game, role_name
from alea.server.service import GameServer
from alea.server.snapshot import update_message

log = logging.getLogger("alea.server.hub")

PROTOCOL = 1
#: Small replies queued for one connection before the server stops reading its messages
#: until they are delivered (backpressure: a client that pipelines thousands of requests
#: is slowed down, not dropped). A connection whose replies stay undelivered for
#: ``Settings.slow_client_timeout`` seconds does not read and is closed.
MAX_OUTBOX = 256
#: Room above :data:`MAX_OUTBOX` for the replies of the one message being handled (a
#: handler queues at most two); past it the connection is dropped at once.
OUTBOX_SLACK = 16


class Connection:
    """One client socket attached to one game, as a seat or as a spectator."""

    def __init__(self, websocket: WebSocket, server: GameServer, game: Game) -> None:
        self.websocket = websocket
        self.server = server
        self.game = game
        #: The seat this socket speaks for, ``REFEREE`` for the human referee, None: spectator.
        self.seat: int | None = None
        self.joined = False
        self.language = i18n.DEFAULT_LANGUAGE
        #: How many log entries this client already has, and the game's ``log_epoch`` they
        #: belong to (another epoch: events were taken back, the whole log goes again).
        self.sent = 0
        self.epoch: int | None = None
        self._dirty = False
        self._outbox: collections.deque[str] = collections.deque()
        #: Acknowledgements (encoded JSON objects) for the next update's ``acks`` list.
        self._acks: list[str] = []
        self._wake = asyncio.Event()
        #: Set whenever the outbox has room again (the reader waits on it when full).
        self._drained = asyncio.Event()
        self._closed = False
        #: The protocol's synchronous send, if the server runs one (alea.server.fastsocket);
        #: with it, :meth:`_flush` delivers at the end of the loop's turn, without the task.
        extensions = websocket.scope.get("extensions") or {}
        self._send_now: SendNow | None = extensions.get(SEND_NOW)
        self._loop = asyncio.get_running_loop()
        #: A :meth:`_flush` is scheduled; the sender task is inside a send (it goes first).
        self._flush_due = False
        self._busy = False

    def mark_dirty(self) -> None:
        """The game changed: send a fresh update once the code that changed it is done."""
        if self.joined and not self._closed:
            self._dirty = True
            self._poke()

    def _poke(self) -> None:
        """Have what is queued delivered once the current turn of the event loop is done
        (by :meth:`_flush`, else by the sender task): an update is built from the game
        as that code left it, never half-way through a change."""
        if self._send_now is None:
            self._wake.set()
        elif not self._flush_due:
            self._flush_due = True
            self._loop.call_soon(self._flush)

    def _flush(self) -> None:
        """Deliver the outbox and the update at once through the protocol's synchronous
        send; whatever it refuses (the client does not read, the socket is closing) is
        left to the sender task, which awaits the socket. See alea.server.fastsocket."""
        self._flush_due = False
        send_now = self._send_now
        if self._closed or send_now is None:
            return
        if self._busy:  # the task is awaiting a send: it looks again afterwards
            self._wake.set()
            return
        try:
            while self._outbox:
                if not send_now(self._outbox[0]):
                    self._wake.set()
                    return
                self._outbox.popleft()
            if self._dirty or self._acks:
                text = self._update()
                if not send_now(text):
                    self._wake.set()
                    return
                self._delivered()
            if self.queued() < MAX_OUTBOX:
                self._drained.set()
        except Exception:  # a broken socket must never take the server down
            log.exception("send failed")
            self._closed = True
            self._wake.set()

    def _update(self) -> str:
        """The ``update`` this connection is due: the game now, the log entries it lacks,
        and its pending acknowledgements (:meth:`_delivered` marks them sent)."""
        game = self.game
        if self.sent > game.version or self.epoch != game.log_epoch:
            self.sent = 0  # events were taken back (undo, reload): start over
            self.epoch = game.log_epoch
        return update_message(game, self.seat, self.sent, self.server.clock, self._acks)

    def _delivered(self) -> None:
        """The update :meth:`_update` built is on its way: nothing is due any more."""
        self._dirty = False
        self._acks = []
        self.sent = self.game.version

    def queued(self) -> int:
        """Replies waiting to be delivered (the outbox and the acknowledgements)."""
        return len(self._outbox) + len(self._acks)

    def _may_queue(self) -> bool:
        """Whether one more message may be queued; a connection whose queue is full (it
        does not read its messages) is closed instead."""
        if self._closed:
            return False
        if self.queued() >= MAX_OUTBOX + OUTBOX_SLACK:
            log.warning("dropping a connection that does not read its messages")
            self._closed = True
            self._wake.set()
            return False
        return True

    def send(self, message: dict[str, Any]) -> None:
        """Queue a small reply (error, pong, welcome)."""
        if self._may_queue():
            self._outbox.append(wire.dumps(message))
            self._poke()

    def acknowledge(self, ack: dict[str, Any], message_id: Any = None) -> None:
        """Acknowledge this connection's committed action or undo in its next ``update``
        (its ``acks`` list, ``id`` the client's message id if it gave one), sent at once;
        see the module's docstring. Called by the commit path before it wakes the game's
        connections."""
        if message_id is not None:
            ack["id"] = message_id
        if self._may_queue():
            self._acks.append(wire.dumps(ack))
            self._poke()

    def error(self, err: ServerError, message_id: Any = None) -> None:
        params = dict(err.params)
        params.setdefault("detail", err.detail)
        reply: dict[str, Any] = {
            "type": "error",
            "code": err.code,
            "message": i18n.message(err.code, self.language, **params),
            "detail": err.detail,
            "version": self.game.version,
        }
        if message_id is not None:
            reply["id"] = message_id
        self.send(reply)

    async def run_sender(self) -> None:
        """Deliver queued replies, then the latest update if the game changed."""
        websocket = self.websocket
        try:
            while not self._closed:
                await self._wake.wait()
                self._wake.clear()
                self._busy = True
                while self._outbox and not self._closed:
                    await websocket.send_text(self._outbox.popleft())
                    if self.queued() < MAX_OUTBOX:
                        self._drained.set()
                if (self._dirty or self._acks) and not self._closed:
                    acked = bool(self._acks)
                    text = self._update()
                    self._delivered()
                    if acked:
                        self._drained.set()
                    await websocket.send_text(text)
                self._busy = False
        except (WebSocketDisconnect, RuntimeError, OSError):
            self._closed = True
        except Exception:  # a broken socket must never take the server down
            log.exception("sender failed")
            self._closed = True
        finally:
            if self._closed:
                with contextlib.suppress(Exception):
                    await websocket.close(1011)

    async def room_for_replies(self, timeout: float) -> bool:
        """Wait until the outbox has room for the replies of one more message.

        False if it stayed full for ``timeout`` seconds (the client does not read) or
        the connection closed meanwhile: the caller then drops the connection.
        """
        if self.queued() < MAX_OUTBOX:
            return not self._closed
        try:
            async with asyncio.timeout(timeout):
                while self.queued() >= MAX_OUTBOX and not self._closed:
                    self._drained.clear()
                    await self._drained.wait()
        except TimeoutError:
            return False
        return not self._closed

    async def close(self, code: int = 1000) -> None:
        self._closed = True
        self._wake.set()
        if self.websocket.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await self.websocket.close(code)


Handler = Callable[[Connection, dict[str, Any]], Awaitable[None]]


def _message_id(msg: dict[str, Any]) -> Any:
    value = msg.get("id")
    if isinstance(value, bool):
        return None
    if isinstance(value, int) or (isinstance(value, str) and len(value) <= 64):
        return value
    return None


async def _hello(conn: Connection, msg: dict[str, Any]) -> None:
    server, game = conn.server, conn.game
    if "lang" in msg:
        conn.language = i18n.language(msg.get("lang"))
    token = msg.get("token")
    seat = None if token is None or token == "" else game.authenticate(token)
    if seat is None and not msg.get("watch"):
        seat = await _account_seat(conn, msg.get("seat"))
    # The chat so far that this role may read (the whole of it: a new hello replaces it),
    # read before anything is sent, so that the welcome and first update go out together.
    try:
        lines: list[dict[str, Any]] | None = await server.chats.visible(game, seat)
    except DatabaseOutage:  # the database is restarting: join now, the chat comes later
        lines = None
    since = msg.get("since")
    conn.joined = True
    cluster = server.cluster
    if cluster is not None:  # the copy in memory now, caught up if nobody here watched it
        conn.game = game = cluster.current(game)
        await cluster.follow(game)
    game.attach(conn, seat, server.clock.now())
    if cluster is not None:
        cluster.follow_later(game)
        cluster.presence.seen(game.id, game.live_seats())
    known = since if isinstance(since, int) and not isinstance(since, bool) else 0
    conn.sent = known if 0 <= known <= game.version else 0
    conn.epoch = game.log_epoch
    # A client may name the last entry it holds (``last``): if the log no longer has it
    # there, an undo took entries back meanwhile (maybe before a restart), and the whole
    # log goes again rather than what follows a stale entry. Only the last one need be
    # compared: an undo takes back the last event only, and a connected client is sent
    # the whole log at once.
    last = msg.get("last")
    if conn.sent > 0 and last is not None and game.log_entries(seat, conn.sent - 1)[:1] != [last]:
        conn.sent = 0
    conn.send(
        {
            "type": "welcome",
            "protocol": PROTOCOL,
            "game": game.id,
            "seat": None if seat == REFEREE else seat,
            "role": role_name(seat),
            "players": game.players,
            "version": game.version,
            "idle_timeout": server.settings.idle_timeout,
            "bot_delay": server.settings.bot_delay,
            # The server's clock now: a client counts a deadline down against its own
            # clock corrected by the difference, so a phone set two minutes fast still
            # shows the true time left.
            "server_time": server.clock.now(),
            # The chat so far this role may read; later lines come as ``chat`` messages.
            # Left out while the database is out of reach (the client keeps what it has).
            **({"chat": lines} if lines is not None else {}),
        }
    )
    conn.mark_dirty()


async def _account_seat(conn: Connection, wanted: object) -> int | None:
    """Without a token, the seat a signed-in player's session cookie holds (accounts)."""
    accounts: Accounts | None = getattr(conn.websocket.app.state, "accounts", None)
    if accounts is None:
        return None
    websocket = conn.websocket
    return await accounts.socket_seat(websocket.cookies, websocket.headers, conn.game, wanted)


def _seated(conn: Connection) -> int:
    if conn.seat is None:
        raise ServerError("spectator", 403)
    return conn.seat


async def _action(conn: Connection, msg: dict[str, Any]) -> None:
    seat = _seated(conn)
    message_id = _message_id(msg)

    def acknowledge(index: int, version: int) -> None:
        reply: dict[str, Any] = {
            # The move as the log stores it (``S:21`` is stored, and acknowledged, as
            # ``S:12``), never the client's own spelling, so the ack and the log agree.
            "action": str(conn.game.state.history[index]),
            "index": index,
            "version": version,
        }
        conn.acknowledge(reply, message_id)

    await conn.server.core.act(
        conn.game, seat, msg.get("action"), msg.get("version"), on_commit=acknowledge
    )


async def _undo(conn: Connection, msg: dict[str, Any]) -> None:
    """Take back the seat's own last decision (the rule of :mod:`alea.undo`)."""
    seat = _seated(conn)
    message_id = _message_id(msg)

    def acknowledge(index: int, version: int) -> None:
        conn.acknowledge({"undo": True, "version": version}, message_id)

    await conn.server.core.undo(conn.game, seat, msg.get("version"), on_commit=acknowledge)


async def _say(conn: Connection, msg: dict[str, Any]) -> None:
    """The referee's riddle or question, or the answering player's answer (typed text)."""
    await conn.server.referee.say(conn.game, _seated(conn), msg.get("text"))


async def _chat(conn: Connection, msg: dict[str, Any]) -> None:
    """A chat line, in the channel of the connection's own role (alea.server.chat)."""
    client = conn.websocket.client
    await conn.server.chats.say(
        conn.game,
        conn.seat,
        msg.get("text"),
        msg.get("name"),
        client.host if client else "unknown",
    )


async def _rematch(conn: Connection, msg: dict[str, Any]) -> None:
    """Propose or accept (``accept``: true, the default) or decline the rematch, for the
    connection's own seat only."""
    accept = msg.get("accept", True)
    if not isinstance(accept, bool):
        raise ServerError("malformed", detail="'accept' must be true or false")
    await conn.server.rematches.answer(conn.game, conn.seat, accept)


async def _takeover(conn: Connection, msg: dict[str, Any]) -> None:
    seat = _seated(conn)
    await conn.server.seats.takeover(conn.game, seat, msg.get("seat"), msg.get("level"))


async def _reclaim(conn: Connection, msg: dict[str, Any]) -> None:
    await conn.server.seats.reclaim(conn.game, _seated(conn))


async def _fill_bots(conn: Connection, msg: dict[str, Any]) -> None:
    level = msg.get("level", "medium")
    await conn.server.seats.fill_with_bots(conn.game, _seated(conn), str(level))


async def _ping(conn: Connection, msg: dict[str, Any]) -> None:
    reply: dict[str, Any] = {"type": "pong", "version": conn.game.version}
    message_id = _message_id(msg)
    if message_id is not None:
        reply["id"] = message_id
    conn.send(reply)


async def _sync(conn: Connection, msg: dict[str, Any]) -> None:
    conn.sent = 0
    conn.mark_dirty()


HANDLERS: dict[str, Handler] = {
    "hello": _hello,
    "action": _action,
    "undo": _undo,
    "say": _say,
    "takeover": _takeover,
    "reclaim": _reclaim,
    "fill_bots": _fill_bots,
    "ping": _ping,
    "sync": _sync,
    "chat": _chat,
    "rematch": _rematch,
}
#: Messages allowed before ``hello``.
BEFORE_HELLO = frozenset({"hello", "ping"})


async def handle(conn: Connection, text: str) -> None:
    """Parse and dispatch one client message; every refusal becomes an ``error`` reply."""
    message_id: Any = None
    try:
        if len(text) > conn.server.settings.max_message:
            raise ServerError("malformed", detail="message too long")
        try:
            msg = wire.loads(text)
        except ValueError as err:  # ~1,000 nested brackets fit in a short message
            detail = "nested too deeply" if wire.too_deep(err) else "not JSON"
            raise ServerError("malformed", detail=detail) from None
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise ServerError("malformed", detail='expected an object with a "type"')
        message_id = _message_id(msg)
        kind = msg["type"]
        handler = HANDLERS.get(kind)
        if handler is None:
            raise ServerError("unknown_type", kind=kind[:40])
        if not conn.joined and kind not in BEFORE_HELLO:
            raise ServerError("not_joined")
        await handler(conn, msg)
    except ServerError as err:
        conn.error(err, message_id)


async def serve_socket(websocket: WebSocket, server: GameServer, game_id: str) -> None:
    """Run one WebSocket from accept to close.

    The handshake is answered at once; the game's lookup waits its turn at the gate of
    openings (:mod:`alea.server.admission`), which answers ``busy`` and closes with
    1013 ("try again later") when a burst is more than it can take in time.
    """
    await websocket.accept()
    try:
        async with server.admission.opening():
            game = await server.get(game_id)
    except ServerError as err:
        refusal: dict[str, Any] = {
            "type": "error",
            "code": err.code,
            "message": i18n.message(err.code, **err.params),
            "detail": err.detail,
        }
        if "retry_after" in err.params:
            refusal["retry_after"] = err.params["retry_after"]
        await websocket.send_text(wire.dumps(refusal))
        # 4404: nothing to come back to; 1013 (try again later): a burst too long to take in
        # time (busy), or the database restarting.
        await websocket.close(4404 if err.status == 404 else 1013)
        return
    conn = Connection(websocket, server, game)
    sender = asyncio.get_running_loop().create_task(conn.run_sender(), name="ws-sender")
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                conn.error(ServerError("malformed", detail="send text frames with JSON"))
                continue
            # Read no further while the replies so far wait to be delivered: the socket's
            # own flow control then slows a client that pipelines faster than it reads.
            if not await conn.room_for_replies(server.settings.slow_client_timeout):
                log.warning("dropping a connection that does not read its replies")
                break
            await handle(conn, text)
            if sender.done():
                break
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        conn.game.detach(conn, server.clock.now())
        if server.cluster is not None:
            server.cluster.presence.seen(conn.game.id, conn.game.live_seats())
        conn._closed = True
        conn._wake.set()
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender
