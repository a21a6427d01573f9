"""Shared machinery for server and browser tests: databases, live servers, WebSocket clients.

Tests talk to a *real* server over real sockets (uvicorn on 127.0.0.1, an
ephemeral port), either in a thread of the test process (so a test can also
look at the server's full state as ground truth) or in a child process (so a
test can kill it with SIGKILL).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
import websockets
from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, text

import alea.game
from alea.server import Settings, create_app
from alea.server.fastsocket import socket_options
from alea.server.tables import GameRecord, SeatRecord, migrate

PG_ENV = "ALEA_TEST_DATABASE_URL"

#: One HTTP client for the requests the tests' helpers make (create a game, claim a seat,
#: read a state, move): ``httpx.get`` builds a client, and with it an SSL context, on every
#: call (some 30 ms of CPU), and the helpers that play a game to a position make hundreds.
#: Idle connections to a server that has stopped are dropped by the pool, not reused.
HTTP = httpx.Client(timeout=30)


class RandomBot:
    """A bot for tests: a random legal placement (re-rolls only when nothing else is legal)."""

    def act(self, view: dict[str, Any], legal_actions: list[Any], rng: random.Random) -> Any:
        placements = [a for a in legal_actions if not str(a).startswith("R:")]
        return rng.choice(placements or legal_actions)


def bot_factory() -> Any:
    """``alea.bots.for_game`` when the bots layer works here, else :class:`RandomBot` (tests
    only)."""
    try:
        from alea import bots

        probe = bots.make("easy")
        if not hasattr(probe, "act"):
            raise TypeError("no act")
    except Exception:
        return lambda game, level: RandomBot()
    return bots.for_game


def quick_bots(game: str, level: str) -> RandomBot:
    """The fastest possible bot of any game, for tests about the server rather than play."""
    return RandomBot()


class SleepyBot:
    """A bot that takes its time before a random legal move, like a searching bot.

    It sleeps rather than computes, so a test can keep many of them busy without
    loading the machine: what matters is that they occupy the workers they think in.
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.name = "sleepy"

    def act(self, view: dict[str, Any], legal_actions: list[Any], rng: random.Random) -> Any:
        time.sleep(self.seconds)
        return RandomBot().act(view, legal_actions, rng)


def sleepy_bots(game: str, level: str) -> SleepyBot:
    """Bots that think 0.3 s a move (module level, so worker processes can unpickle them)."""
    return SleepyBot(0.3)


class ShiftedClock:
    """The wall clock plus an offset a test moves forward (``Settings.clock``).

    Time still flows (countdowns in a browser move), but an hour-long time limit
    runs out the moment a test calls :meth:`advance`. Reading and moving a float
    across threads is safe enough for a test and its live server.
    """

    def __init__(self, offset: float = 0.0) -> None:
        self.offset = offset

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


# ----------------------------------------------------------------- databases


@dataclass
class Database:
    """A fresh database for one test: an SQLite file, or a private PostgreSQL schema."""

    kind: str
    url: str
    cleanup: Any = None


def postgres_url() -> str | None:
    return os.environ.get(PG_ENV) or None


@contextlib.contextmanager
def database(kind: str, tmp_path: Path) -> Iterator[Database]:
    """A database of ``kind`` ("sqlite" or "postgresql") that disappears afterwards."""
    if kind == "sqlite":
        yield Database(kind, f"sqlite:///{tmp_path / 'alea-test.sqlite'}")
        return
    base = postgres_url()
    if base is None:
        pytest.skip(
            f"PostgreSQL tests need {PG_ENV} (e.g. postgresql+psycopg://postgres@127.0.0.1:5432/test)"
        )
    schema = f"alea_t_{secrets.token_hex(6)}"
    admin = create_engine(base)
    with admin.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    sep = "&" if "?" in base else "?"
    try:
        yield Database(kind, f"{base}{sep}options=-csearch_path%3D{schema}")
    finally:
        with admin.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


DB_KINDS = ["sqlite", "postgresql"]


# -------------------------------------------------------------- live servers


class LiveServer:
    """An app served by uvicorn in a background thread on 127.0.0.1 (ephemeral port)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.app = create_app(settings)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        # The WebSocket settings of ``alea serve``: the same protocol and send path.
        options = socket_options(settings.max_frame)
        config = uvicorn.Config(self.app, log_level="warning", **options)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    @property
    def games(self) -> Any:
        return self.app.state.server

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.time() + 30
        while not self.server.started:
            if time.time() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
        self.sock.close()


class ServerProcess:
    """``python -m alea serve`` as a child process, which a test may SIGKILL."""

    def __init__(
        self,
        database_url: str | None,
        data_dir: Path,
        *extra: str,
        env: dict[str, str] | None = None,
    ) -> None:
        self.database_url = database_url
        self.data_dir = data_dir
        self.extra = extra
        #: Environment variables the process gets besides the test's own.
        self.env = env or {}
        self.proc: subprocess.Popen[str] | None = None
        self.base = ""
        self.ws_base = ""
        self.output: list[str] = []

    def start(self) -> ServerProcess:
        """Start the process and wait until it serves (its URL printed, healthy)."""
        return self.spawn().ready()

    def spawn(self) -> ServerProcess:
        """Start the process without waiting for it: several may start at once, then
        :meth:`ready` waits for each."""
        database = ["--database-url", self.database_url] if self.database_url else []
        cmd = [
            sys.executable,
            "-m",
            "alea",
            "serve",
            "--port",
            "0",
            *database,
            "--data-dir",
            str(self.data_dir),
            "--log-level",
            "warning",
            *self.extra,
        ]
        self.proc = subprocess.Popen(
            cmd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
            env={**os.environ, **self.env},
        )
        return self

    def ready(self) -> ServerProcess:
        """Wait until the spawned process has printed its URL and answers its health check."""
        assert self.proc is not None and self.proc.stdout is not None
        deadline = time.time() + 60
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            self.output.append(line)
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if found:
                port = int(found.group(1))
                self.base = f"http://127.0.0.1:{port}"
                self.ws_base = f"ws://127.0.0.1:{port}"
                threading.Thread(target=self._drain, daemon=True).start()
                self._wait_healthy()
                return self
        raise RuntimeError("server did not print its URL:\n" + "".join(self.output))

    def _drain(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for line in self.proc.stdout:
            self.output.append(line)

    def _wait_healthy(self) -> None:
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                if httpx.get(self.base + "/api/health", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError("server not healthy:\n" + "".join(self.output))

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, exactly like a crash."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


# ---------------------------------------------------------- scripted clients


@dataclass
class Client:
    """A scripted WebSocket client that remembers every message it received."""

    ws: Any
    seat: int | None
    messages: list[dict[str, Any]] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    #: time.monotonic() at which each of ``messages`` arrived
    times: list[float] = field(default_factory=list)
    view: dict[str, Any] | None = None
    legal: list[str] = field(default_factory=list)
    version: int = 0
    status: str = ""
    log: list[list[Any]] = field(default_factory=list)
    #: Messages received but not yet returned (the update after its acks).
    unread: list[dict[str, Any]] = field(default_factory=list)

    async def send(self, message: Any) -> None:
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def recv(self, timeout: float = 20.0) -> dict[str, Any]:
        """The next message. An ``update`` that acknowledges this client's own actions
        (its ``acks``) is returned after one ``{"type": "ack", ...}`` per acknowledgement,
        so tests await acks as messages of their own (the update follows them)."""
        if self.unread:
            return self.unread.pop(0)
        text_ = await asyncio.wait_for(self.ws.recv(), timeout)
        self.raw.append(text_)
        msg: dict[str, Any] = json.loads(text_)
        acks = [{"type": "ack", **ack} for ack in msg.get("acks", ())]
        self.messages.extend([*acks, msg])
        self.times.extend([time.monotonic()] * (len(acks) + 1))
        self._take(msg)
        if acks:
            self.unread.extend([*acks[1:], msg])
            return acks[0]
        return msg

    def _take(self, msg: dict[str, Any]) -> None:
        """Keep the log, view, legal actions, version and status an ``update`` brings."""
        if msg["type"] == "update":
            if msg["log_start"] == len(self.log):
                self.log.extend(msg["log"])
            elif msg["log_start"] == 0:
                self.log = list(msg["log"])
            else:
                raise AssertionError(f"log gap: have {len(self.log)}, got from {msg['log_start']}")
            self.view = msg["view"]
            self.legal = msg["legal"]
            self.version = msg["version"]
            self.status = msg["status"]

    async def until(self, predicate: Any, timeout: float = 20.0) -> dict[str, Any]:
        """Receive until a message satisfies ``predicate``; return it."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching message")
            msg = await self.recv(left)
            if predicate(msg):
                return msg

    async def until_version(self, version: int, timeout: float = 20.0) -> dict[str, Any]:
        if self.version >= version and self.view is not None:
            return {"type": "update", "version": self.version}
        return await self.until(
            lambda m: m["type"] == "update" and m["version"] >= version, timeout
        )

    async def close(self) -> None:
        await self.ws.close()


async def connect(
    ws_base: str,
    game_id: str,
    token: str | None,
    *,
    known: list[list[Any]] | None = None,
    lang: str = "en",
) -> Client:
    """Open a socket, say hello (with the log entries already ``known``), await an update."""
    ws = await websockets.connect(f"{ws_base}/ws/games/{game_id}", max_size=2**22)
    client = Client(ws, None)
    hello: dict[str, Any] = {"type": "hello", "token": token, "lang": lang}
    if known is not None:
        hello["since"] = len(known)
        client.log = list(known)
    await client.send(hello)
    welcome = await client.until(lambda m: m["type"] in ("welcome", "error"))
    if welcome["type"] == "error":
        raise AssertionError(f"hello refused: {welcome}")
    client.seat = welcome["seat"]
    await client.until(lambda m: m["type"] == "update")
    return client


async def unread_socket(server: LiveServer, game_id: str) -> Any:
    """A socket to ``game_id`` whose client stops reading at once: ``max_queue=1`` makes
    the client library stop reading from the socket, and a small receive buffer makes
    the server's sends block after kilobytes rather than the megabytes loopback's
    autotuned buffers take (which a loaded machine may never fill in a test's time)."""
    host, port = server.base.removeprefix("http://").split(":")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
    return await websockets.connect(
        f"{server.ws_base}/ws/games/{game_id}", max_size=2**22, max_queue=1, sock=sock
    )


def create_game(base: str, seats: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
    """POST /api/games; returns the JSON answer (game, seat, token, links)."""
    answer = HTTP.post(f"{base}/api/games", json={"seats": seats, **body})
    assert answer.status_code == 201, answer.text
    result: dict[str, Any] = answer.json()
    return result


def human_game(base: str, players: int, claim_at: str | None = None) -> tuple[str, list[str]]:
    """A game of ``players`` humans with every seat claimed; returns (id, tokens by seat).
    ``claim_at``: the other seats are claimed through that server (another process of
    the service), which then holds the game too."""
    created = create_game(base, [{"kind": "human"}] * players, name="Seat 0")
    game_id = created["game"]["id"]
    tokens = [created["token"]]
    for seat in range(1, players):
        answer = HTTP.post(
            f"{claim_at or base}/api/games/{game_id}/seats/{seat}/claim",
            json={"name": f"Seat {seat}"},
        )
        assert answer.status_code == 200, answer.text
        tokens.append(answer.json()["token"])
    return game_id, tokens


async def play_turn(clients: list[Client], rng: random.Random) -> tuple[str, dict[str, Any]]:
    """The client to move sends a random legal action; returns it with its ack."""
    mover = next(c for c in clients if c.legal)
    action = rng.choice(mover.legal)
    await mover.send({"type": "action", "action": action, "version": mover.version, "id": 1})
    ack = await mover.until(lambda m: m["type"] in ("ack", "error"))
    assert ack["type"] == "ack", ack
    ack["seat"] = mover.seat
    for c in clients:
        await c.until_version(ack["version"])
    return action, ack


def migrated_from(url: str, revision: str, insert: str) -> Engine:
    """A database built up to migration ``revision``, given one row by ``insert``, then
    migrated to the latest revision the way the server does it: for migration tests."""
    engine = create_engine(url)
    config = Config()
    config.set_main_option("script_location", "alea.server:migrations")
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, revision)
        conn.execute(text(insert))
    migrate(engine)
    return engine


def stored_game(
    game_id: str, events: int, seed: int, players: int = 2
) -> tuple[GameRecord, list[int | None]]:
    """A game of Alea Iacta Est played at random for ``events`` events (then to the next
    decision), or to its end if it ends first, as the server stores one: the record (active,
    or finished with its result) and the events' actors, for ``op_create_game``."""
    rng = random.Random(seed)
    state = alea.game.info("iacta").new_game(players)
    actors: list[int | None] = []
    while (len(state.history) < events or state.is_chance()) and not state.is_terminal():
        actors.append(state.actor())
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    now = time.time()
    record = GameRecord(
        id=game_id,
        players=players,
        status="finished" if state.is_terminal() else "active",
        public=False,
        title="",
        created_at=now,
        updated_at=now,
        version=len(state.history),
        result=state.result(),
        seats=[SeatRecord(s, "human", None, f"p{s}", f"{s}" * 64) for s in range(players)],
        events=list(state.history),
    )
    return record, actors
