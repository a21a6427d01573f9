"""Memory soak of ``alea serve``: does the server's memory stay flat game after game?

Runs the server in this process (uvicorn in a thread, SQLite in a temporary
directory, or ``--database-url``) and keeps ``--tables`` games of four quick
bots playing, each watched by a WebSocket spectator, for ``--duration`` seconds.
It samples the resident set size and the games in memory every few seconds,
takes :mod:`tracemalloc` snapshots at the end of the warm-up and at the end,
and prints what grew most (by allocation site) and the slope of RSS per
thousand finished games over the measured part. A server that retains nothing
per game ends flat after the warm-up (the finished-game cache of 256 fills
during it).

    python bench/memory_soak.py --duration 300 --warmup 60 --tables 16

Only loopback traffic; every loop is bounded by ``--duration``.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import json
import os
import socket
import statistics
import sys
import tempfile
import threading
import time
import tracemalloc
import types
from pathlib import Path
from typing import Any

import httpx
import uvicorn
import websockets

from alea.server import Settings, create_app
from private_db import private_database  # bench/: a PostgreSQL run leaves nothing behind


def rss_mb() -> float:
    """This process's resident set size in MB (Linux ``/proc``)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def census() -> dict[str, int]:
    """Live objects by type (after a full collection): what a leak is made of."""
    gc.collect()
    counts: dict[str, int] = {}
    for obj in gc.get_objects():
        name = f"{type(obj).__module__}.{type(obj).__qualname__}"
        counts[name] = counts.get(name, 0) + 1
    return counts


def deep_size(roots: list[Any]) -> int:
    """Bytes held by ``roots`` and everything they reach through containers and object
    attributes (``__dict__``, ``__slots__`` and mypyc's native attributes), each object
    counted once."""
    seen: set[int] = set()
    stack = list(roots)
    total = 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, (type, types.ModuleType, types.FunctionType)):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, (tuple, list, set, frozenset)):
            stack.extend(obj)
        elif not isinstance(obj, (str, bytes, int, float, bool)) and obj is not None:
            names = list(getattr(obj, "__dict__", {}))
            for klass in type(obj).__mro__:
                names += list(getattr(klass, "__slots__", ()))
                names += list(getattr(klass, "__mypyc_attrs__", ()))
            for name in names:
                value = getattr(obj, name, None)
                if value is not None and name != "__dict__":
                    stack.append(value)
            if hasattr(obj, "__dict__"):
                stack.append(vars(obj))
    return total


def engine_memos() -> tuple[int, int]:
    """The engine's process-wide memo tables (the module-level ``_UPPER_CASE`` dicts of
    ``alea.iacta`` and ``alea.romano``; bounded by design): entries and bytes held."""
    tables = [
        value
        for name, module in list(sys.modules.items())
        if name.startswith(("alea.iacta", "alea.romano"))
        for attr, value in vars(module).items()
        if attr.startswith("_") and attr.isupper() and isinstance(value, dict)
    ]
    return sum(len(t) for t in tables), deep_size(tables)


def registries(server: Any) -> dict[str, int]:
    """The size of every dict, set, list and deque held by the server's parts (two
    levels deep): a registry keyed by game id that only grows shows here."""
    sizes: dict[str, int] = {}
    seen: set[int] = set()

    def visit(obj: Any, path: str, depth: int) -> None:
        if id(obj) in seen or depth > 2:
            return
        seen.add(id(obj))
        try:
            attrs = vars(obj)
        except TypeError:
            return
        for name, value in attrs.items():
            if isinstance(value, (dict, set, list, collections.deque)):
                sizes[f"{path}.{name}"] = len(value)
            elif type(value).__module__.startswith("alea."):
                visit(value, f"{path}.{name}", depth + 1)

    visit(server, "server", 0)
    return sizes


def slope(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of ``(x, y)`` points (0 with fewer than two x values)."""
    if len({x for x, _ in points}) < 2:
        return 0.0
    return statistics.linear_regression([x for x, _ in points], [y for _, y in points]).slope


async def play_one(http: httpx.AsyncClient, ws_base: str, deadline: float, level: str) -> bool:
    """Create a table of four bots, watch it over the WebSocket to its end."""
    answer = await http.post("/api/games", json={"seats": [{"kind": "bot", "level": level}] * 4})
    answer.raise_for_status()
    game_id = answer.json()["game"]["id"]
    async with websockets.connect(f"{ws_base}/ws/games/{game_id}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        while time.monotonic() < deadline:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            except TimeoutError:
                return False
            if message.get("type") == "update" and message.get("status") == "finished":
                return True
    return False


async def drive(args: argparse.Namespace, base: str, ws_base: str, app: Any) -> None:
    started = time.monotonic()
    end = started + args.duration
    warm = started + args.warmup
    finished = 0
    samples: list[tuple[float, float, int, int]] = []  # (t, rss, finished, games in memory)
    first: tracemalloc.Snapshot | None = None
    counted: dict[str, int] = {}
    sized: dict[str, int] = {}
    finished_then = 0
    memos_then = (0, 0)
    server = app.state.server
    before: set[str] = set()  # games already in memory when tracing began

    async def table(http: httpx.AsyncClient) -> None:
        nonlocal finished
        while time.monotonic() < end:
            if await play_one(http, ws_base, end, args.level):
                finished += 1

    async def sampler() -> None:
        nonlocal first, counted, sized, finished_then, memos_then
        while time.monotonic() < end:
            await asyncio.sleep(args.every)
            gc.collect()
            now = time.monotonic() - started
            samples.append((now, rss_mb(), finished, len(server.games)))
            print(
                f"{now:7.1f} s  rss {samples[-1][1]:7.1f} MB  finished {finished:6d}  "
                f"in memory {samples[-1][3]:5d}",
                flush=True,
            )
            if args.census and not counted and time.monotonic() >= warm:
                counted, sized, finished_then = census(), registries(server), finished
                memos_then = engine_memos()
            if args.trace and first is None and time.monotonic() >= warm:
                before.update(server.games)
                tracemalloc.start(args.frames)
                first = tracemalloc.take_snapshot()

    limits = httpx.Limits(max_connections=args.tables + 4)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        await asyncio.gather(sampler(), *(table(http) for _ in range(args.tables)))
    gc.collect()
    measured = [s for s in samples if s[0] >= args.warmup + args.every]
    if first is not None:
        last = tracemalloc.take_snapshot()
        # What one finished game kept in memory weighs: drop the finished games created
        # since tracing began (all their allocations were traced) and see what is freed.
        traced = [
            g.id for i, g in server.games.items() if g.status == "finished" and i not in before
        ]
        held, _ = tracemalloc.get_traced_memory()
        for game_id in traced:
            server.games.pop(game_id, None)
        gc.collect()
        freed = held - tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        if traced:
            print(
                f"\na finished game kept in memory holds about {freed / len(traced) / 1024:.0f} KiB"
            )
        print(f"\ntop {args.top} allocation sites by growth since the warm-up:")
        for stat in last.compare_to(first, "traceback")[: args.top]:
            print(f"  {stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d} blocks")
            for line in stat.traceback.format(limit=args.frames)[-6:]:
                print(f"      {line}")
    if counted:
        games = max(1, finished - finished_then)
        now_counted, now_sized = census(), registries(server)
        grew = sorted(
            ((now_counted.get(k, 0) - counted.get(k, 0), k) for k in now_counted.keys() | counted),
            reverse=True,
        )
        print(f"\nobjects that grew most over the {games} games after the warm-up:")
        for diff, name in grew[: args.top]:
            print(f"  {diff:+9d} ({diff / games:+7.2f} per game) {name}")
        memos = engine_memos()
        print(
            f"\nthe engine's bounded memo tables: {memos_then[0]} -> {memos[0]} entries, "
            f"{memos_then[1] / 2**20:.1f} -> {memos[1] / 2**20:.1f} MiB "
            f"({(memos[1] - memos_then[1]) / games / 1024:+.2f} KiB per game)"
        )
        print("\nthe server's registries (at the warm-up -> at the end):")
        for name in sorted(now_sized.keys() | sized):
            if now_sized.get(name, 0) != sized.get(name, 0) or now_sized.get(name, 0) > 100:
                print(f"  {name}: {sized.get(name, 0)} -> {now_sized.get(name, 0)}")
    per_game = slope([(s[2], s[1]) for s in measured]) * 1000
    per_second = slope([(s[0], s[1]) for s in measured])
    print(
        f"\n{finished} games finished in {args.duration:.0f} s; measured after "
        f"{args.warmup:.0f} s of warm-up: RSS slope {per_game:+.2f} MB per 1000 games "
        f"({per_second * 60:+.2f} MB/min); RSS {measured[0][1] if measured else 0:.1f} -> "
        f"{measured[-1][1] if measured else 0:.1f} MB"
        + (" (tracemalloc on during the measure)" if args.trace else "")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=300.0)
    parser.add_argument("--warmup", type=float, default=60.0)
    parser.add_argument("--tables", type=int, default=16, help="games playing at once")
    parser.add_argument("--every", type=float, default=10.0, help="seconds between samples")
    parser.add_argument("--bot-processes", type=int, default=2)
    parser.add_argument("--level", default="easy", help="the bots' level")
    parser.add_argument(
        "--no-trace",
        dest="trace",
        action="store_false",
        help="no tracemalloc (it slows the server several times): RSS slope only",
    )
    parser.add_argument(
        "--census",
        action="store_true",
        help="count live objects by type and the server's registries at the end of the "
        "warm-up and at the end, and print what grew",
    )
    parser.add_argument(
        "--finished-cache", type=int, default=256, help="finished games kept in memory"
    )
    parser.add_argument("--frames", type=int, default=8, help="tracemalloc frames kept")
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument(
        "--database-url",
        default=None,
        help="default: SQLite in a temp dir; PostgreSQL: a private database beside it, dropped",
    )
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as tmp,
        private_database(args.database_url or f"sqlite:///{tmp}/soak.sqlite") as url,
    ):
        settings = Settings(
            database_url=url,
            bot_delay=0.0,
            bot_processes=args.bot_processes,
            finished_cache=args.finished_cache,
            sqlite_synchronous="NORMAL",
            create_rate="",
            bot_tables_per_client=0,
            serve_web=False,
            tune_gc=True,
        )
        app = create_app(settings)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        config = uvicorn.Config(app, log_level="warning", ws_max_size=settings.max_frame)
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        try:
            asyncio.run(drive(args, f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}", app))
        finally:
            server.should_exit = True
            thread.join(timeout=30)
            sock.close()


if __name__ == "__main__":
    main()
