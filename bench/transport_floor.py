"""The floor under the game server's CPU per action: the same traffic, no game at all.

``bench/server_load.py`` measures what ``alea serve`` spends per acknowledged action.
This bench asks how much of that any Python server on the same stack must spend, so
that a target can be judged against what is reachable: a *floor server* that knows
nothing of Alea Iacta Est receives each move as a WebSocket text frame, checks that it
is the seat's turn at the version it saw, and sends every seat of the table an
``update`` of the real one's size (4.3 KB, the median ``alea serve`` sends at a table of
four) with the version spliced into precomputed text; the mover's carries its
acknowledgement. No view, no legality, no log, no JSON encoding. Its clients play as
``server_load.py``'s do: every seat on its own socket, the seat to move waiting a
uniform random think time (mean ``--think``) before its move.

Stacks (``--stack``), each a child process measured from ``/proc`` over the window:

- ``raw``: an asyncio protocol on uvloop driving ``websockets``' sans-I/O protocol
  directly, each update framed and written at once: the least Python a WebSocket
  server written in Python can run per message.
- ``asgi``: what ``alea serve`` stands on: uvicorn with alea's own WebSocket protocol
  (``alea.server.fastsocket``, whose synchronous send the floor uses, as alea's hub
  does) and a Starlette WebSocket route receiving the moves.

With ``--database-url`` (PostgreSQL) each move is also stored before the updates go
out, one ``INSERT`` awaited on one asyncpg connection, a move at a time (``alea serve``
batches the moves that meet into one statement on one connection).

    python bench/transport_floor.py --stack raw --games 250 --think 1.0 --duration 20
    python bench/transport_floor.py --stack asgi --games 250 --think 1.0 --duration 20 \\
        --database-url postgresql://postgres@127.0.0.1:5432/test

It prints the floor server's CPU per action (user / system), the actions per second
and the latency from a move to its acknowledgement. Loopback only; bounded by
``--duration``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import secrets
import socket
import statistics
import struct
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
import websockets

from server_load import cpu_split, percentile
from serving import add_load_options

#: A server's text frame header for payloads of 126 to 65,535 bytes (RFC 6455 §5.2).
_HEAD16 = struct.Struct("!BBH").pack


def frame_text(payload: bytes) -> bytes:
    """One unmasked, final WebSocket text frame (what a server sends)."""
    size = len(payload)
    if size < 126:
        return bytes((0x81, size)) + payload
    if size < 65536:
        return _HEAD16(0x81, 126, size) + payload
    return struct.pack("!BBQ", 0x81, 127, size) + payload


class Table:
    """One game of the floor: whose turn, the version, and a send per connected seat."""

    def __init__(self, game: str, players: int, pad: str) -> None:
        self.game = game
        self.players = players
        self.version = 0
        self.to_move = 0
        self.pad = pad
        self.sends: dict[int, Callable[[str], Any]] = {}
        self.lock = asyncio.Lock()

    def update(self, seat: int, ack: int | None = None) -> str:
        acks = "" if ack is None else f',"acks":[{{"version":{ack}}}]'
        return (
            f'{{"type":"update","game":"{self.game}","version":{self.version},"seat":{seat},'
            f'"to_move":{self.to_move}{acks},"pad":"{self.pad}"}}'
        )

    async def act(self, seat: int, text: str | bytes, store: Any) -> str | None:
        """Apply one move; None, or the error to send back to the mover alone."""
        message = orjson.loads(text)
        async with self.lock:
            if message.get("version") != self.version or self.to_move != seat:
                return orjson.dumps({"type": "error", "code": "stale_version"}).decode()
            if store is not None:
                await store.execute(
                    "INSERT INTO floor_events (game, idx, event) VALUES ($1, $2, $3)",
                    self.game,
                    self.version,
                    str(message.get("action")),
                )
            acked = self.version
            self.version += 1
            self.to_move = (self.to_move + 1) % self.players
            for other, send in list(self.sends.items()):
                send(self.update(other, acked if other == seat else None))
        return None


class Tables:
    """Every table of a floor server, made when its first seat connects."""

    def __init__(self, players: int, size: int) -> None:
        self.players = players
        self.pad = "x" * max(0, size - 110)  # the rest of an update is about 110 bytes
        self.by_id: dict[str, Table] = {}

    def get(self, game: str) -> Table:
        table = self.by_id.get(game)
        if table is None:
            table = self.by_id[game] = Table(game, self.players, self.pad)
        return table


def parse_path(path: str) -> tuple[str, int]:
    """``/g/{game}/{seat}`` -> (game, seat)."""
    _, _, game, seat = path.split("?")[0].split("/")
    return game, int(seat)


async def serve_raw(sock: socket.socket, tables: Tables, store: Any) -> None:
    """The floor on uvloop and ``websockets``' sans-I/O protocol, nothing in between."""
    from websockets.frames import Opcode
    from websockets.http11 import Request
    from websockets.server import ServerProtocol

    class Floor(asyncio.Protocol):
        def connection_made(self, transport: Any) -> None:
            self.transport = transport
            self.ws = ServerProtocol(max_size=65536)
            self.table: Table | None = None
            self.seat = 0
            self.moves: set[asyncio.Task[None]] = set()  # referenced until done

        def send(self, text: str) -> None:
            if not self.transport.is_closing():
                self.transport.write(frame_text(text.encode()))

        def data_received(self, data: bytes) -> None:
            self.ws.receive_data(data)
            for event in self.ws.events_received():
                if isinstance(event, Request):
                    self.ws.send_response(self.ws.accept(event))
                    self.flush()
                    game, self.seat = parse_path(event.path)
                    self.table = tables.get(game)
                    self.table.sends[self.seat] = self.send
                    self.send(self.table.update(self.seat))
                elif event.opcode is Opcode.TEXT and self.table is not None:
                    move = asyncio.ensure_future(self.handle(self.table, event.data))
                    self.moves.add(move)
                    move.add_done_callback(self.moves.discard)
            self.flush()

        async def handle(self, table: Table, data: bytes) -> None:
            error = await table.act(self.seat, data, store)
            if error is not None:
                self.send(error)

        def flush(self) -> None:
            out = self.ws.data_to_send()
            if out:
                self.transport.write(b"".join(out))

        def connection_lost(self, exc: Exception | None) -> None:
            if self.table is not None and self.table.sends.get(self.seat) == self.send:
                del self.table.sends[self.seat]

    server = await asyncio.get_running_loop().create_server(Floor, sock=sock)
    async with server:
        await server.serve_forever()


def serve_asgi(sock: socket.socket, tables: Tables, database_url: str | None) -> None:
    """The floor on uvicorn, alea's WebSocket protocol and a Starlette route."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    from alea.server.fastsocket import SEND_NOW, socket_options

    stores: list[Any] = []

    async def endpoint(ws: WebSocket) -> None:
        await ws.accept()
        game, seat = parse_path(ws.url.path)
        table = tables.get(game)
        send = ws.scope["extensions"][SEND_NOW]
        table.sends[seat] = send
        send(table.update(seat))
        try:
            while True:
                error = await table.act(seat, await ws.receive_text(), stores[0])
                if error is not None:
                    send(error)
        except WebSocketDisconnect:
            pass
        finally:
            if table.sends.get(seat) is send:
                del table.sends[seat]

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> Any:
        stores.append(await open_store(database_url))
        yield

    app = Starlette(routes=[WebSocketRoute("/g/{game}/{seat}", endpoint)], lifespan=lifespan)
    config = uvicorn.Config(app, log_level="warning", access_log=False, **socket_options(65536))
    uvicorn.Server(config).run(sockets=[sock])


class Store:
    """One asyncpg connection, one move's ``INSERT`` at a time (asyncpg runs one query per
    connection at once; a pool's acquire and release cost more CPU than the query)."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.lock = asyncio.Lock()

    async def execute(self, query: str, *values: Any) -> None:
        async with self.lock:
            await self.conn.execute(query, *values)


async def open_store(database_url: str | None) -> Store | None:
    """A connection to a fresh ``floor_events`` table, or None (no database)."""
    if not database_url:
        return None
    import asyncpg

    conn = await asyncpg.connect(database_url.replace("+psycopg", ""))
    await conn.execute("DROP TABLE IF EXISTS floor_events")
    await conn.execute("CREATE TABLE floor_events (game text, idx int, event text)")
    return Store(conn)


def serve(args: argparse.Namespace) -> None:
    """The child process: bind, print the port, serve until killed."""
    import uvloop

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(4096)
    print(sock.getsockname()[1], flush=True)
    tables = Tables(args.players, args.size)
    if args.stack == "raw":

        async def run() -> None:
            await serve_raw(sock, tables, await open_store(args.database_url))

        uvloop.run(run())
    else:
        serve_asgi(sock, tables, args.database_url)


@dataclass
class Stats:
    sent: int = 0
    acked: int = 0
    errors: int = 0
    latencies: list[float] = field(default_factory=list)


async def seat(
    url: str, seat_no: int, think: float, rng: random.Random, stats: Stats, stop: asyncio.Event
) -> None:
    """One seat: on each update where it is to move, think, then move at that version."""
    async with websockets.connect(url, max_size=2**22, ping_interval=None) as ws:
        sent_at = 0.0
        moving: asyncio.Task[None] | None = None

        async def move(version: int) -> None:
            nonlocal sent_at
            await asyncio.sleep(rng.uniform(0, 2 * think))
            if stop.is_set():
                return
            sent_at = time.perf_counter()
            stats.sent += 1
            await ws.send(orjson.dumps({"type": "act", "action": "x", "version": version}).decode())

        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue
            message = orjson.loads(text)
            if message["type"] == "error":
                stats.errors += 1
                continue
            if "acks" in message:
                stats.acked += 1
                stats.latencies.append(time.perf_counter() - sent_at)
            if message["to_move"] == seat_no and (moving is None or moving.done()):
                moving = asyncio.ensure_future(move(message["version"]))
        if moving is not None:
            moving.cancel()


async def drive(args: argparse.Namespace, port: int, pid: int) -> None:
    stats = Stats()
    stop = asyncio.Event()
    rng = random.Random(args.seed)
    games = [secrets.token_hex(6) for _ in range(args.games)]
    tasks = [
        asyncio.ensure_future(
            seat(
                f"ws://127.0.0.1:{port}/g/{game}/{s}",
                s,
                args.think,
                random.Random(rng.random()),
                stats,
                stop,
            )
        )
        for game in games
        for s in range(args.players)
    ]
    await asyncio.sleep(args.warmup)
    sent0, user0, system0, t0 = stats.sent, *cpu_split(pid), time.perf_counter()
    stats.latencies.clear()
    await asyncio.sleep(args.duration)
    sent, (user1, system1), elapsed = stats.sent - sent0, cpu_split(pid), time.perf_counter() - t0
    stop.set()
    failed = [r for r in await asyncio.gather(*tasks, return_exceptions=True) if r is not None]
    ms = 1000 / max(sent, 1)
    lat = [x * 1000 for x in stats.latencies]
    print(
        f"floor ({args.stack}{', PostgreSQL' if args.database_url else ''}): "
        f"{args.games} games of {args.players}, update {args.size} bytes"
    )
    print(
        f"actions/s          {sent / elapsed:8.1f}   errors {stats.errors}, "
        f"seats failed {len(failed)} {failed[:1]}"
    )
    print(
        f"server CPU         {(user1 - user0 + system1 - system0) * ms:8.3f} ms per action "
        f"(user {(user1 - user0) * ms:.3f} / system {(system1 - system0) * ms:.3f})"
    )
    if lat:
        print(
            f"latency            median {statistics.median(lat):.1f} ms, p99 "
            f"{percentile(lat, 0.99):.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stack", choices=("raw", "asgi"), default="raw")
    add_load_options(
        parser,
        games=250,
        duration=20.0,
        duration_help="seconds measured",
        think=1.0,
        think_help="mean seconds a seat waits before its move",
    )
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--size", type=int, default=4300, help="bytes of each update")
    parser.add_argument("--database-url", default=None, help="PostgreSQL: store each move")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args)
        return
    child = subprocess.Popen(
        [sys.executable, __file__, *sys.argv[1:], "--serve"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        # Its socket listens before it prints the port: the first openings wait in the
        # backlog while it starts (the warm-up is not measured).
        port = int(child.stdout.readline())
        import uvloop

        uvloop.run(drive(args, port, child.pid))
    finally:
        child.kill()
        child.wait()


if __name__ == "__main__":
    main()
