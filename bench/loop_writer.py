"""CPU per committed move of the store's loop writer (PostgreSQL), from the event loop.

On PostgreSQL a batch made only of moves is one autocommit statement awaited on
the event loop (``alea.server.loopwriter``); on a quiet server nearly every batch
is one move, so this is the hot path's cost per acknowledged action. The bench
creates games in a private database beside the one ``--database-url`` names
(dropped afterwards), then commits moves one after another (each waits for the
previous, as a lone move does) in two ways:

* ``LoopWriter.commit``: the statement alone, awaited on the loop;
* ``Store.write``: the whole path of a move (the writer task's batch, the loop
  writer, the caller woken),

and prints, per commit, the CPU of this process (``time.process_time``: every thread
of it, not PostgreSQL's) and the wall time, as the median of ``--rounds`` rounds, and
the least round's CPU (on a shared machine the least disturbed by other work).
The loop is uvloop's, as under ``alea serve``, unless ``--asyncio``.

    python bench/loop_writer.py --database-url postgresql+psycopg://postgres@127.0.0.1:5432/test

Every commit is durable (fsync), so the wall time is mostly PostgreSQL's; the CPU
is what the server pays. The machine's load average is printed before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import time
from pathlib import Path

from alea.server.storage import Store
from alea.server.tables import GameRecord, SeatRecord
from alea.server.writes import AppendEvents, op_append_events, op_create_game
from private_db import private_database

#: Events a move appends (an action and a chance outcome, as a roll of the dice does).
EVENTS_PER_MOVE = 2


def game(game_id: str) -> GameRecord:
    """A four-player game being played, with its first event."""
    now = time.time()
    seats = [SeatRecord(i, "human", None, f"P{i}", "h" * 64) for i in range(4)]
    return GameRecord(
        id=game_id,
        players=4,
        status="active",
        public=True,
        title="",
        created_at=now,
        updated_at=now,
        version=1,
        result=None,
        seats=seats,
        events=["setup"],
    )


class Moves:
    """Moves for ``games`` games in turn, each at its game's current version."""

    def __init__(self, games: int) -> None:
        self.ids = [f"bench-{i}" for i in range(games)]
        self.versions = dict.fromkeys(self.ids, 1)
        self.turn = 0

    def next(self) -> AppendEvents:
        game_id = self.ids[self.turn % len(self.ids)]
        self.turn += 1
        start = self.versions[game_id]
        self.versions[game_id] = start + EVENTS_PER_MOVE
        events = [f"m{start + i}" for i in range(EVENTS_PER_MOVE)]
        return op_append_events(game_id, start, events, [0] * EVENTS_PER_MOVE)


def per_commit(began: tuple[float, float], count: int) -> tuple[float, float]:
    """CPU and wall microseconds per commit since ``began`` (process time, wall time)."""
    cpu = (time.process_time() - began[0]) / count * 1e6
    wall = (time.perf_counter() - began[1]) / count * 1e6
    return cpu, wall


def now() -> tuple[float, float]:
    return time.process_time(), time.perf_counter()


async def measure(url: str, args: argparse.Namespace) -> dict[str, list[tuple[float, float]]]:
    store = Store(url)
    await asyncio.to_thread(store.migrate)
    store.start()
    writer = store.loop_writer
    if writer is None:
        raise SystemExit("the store has no loop writer: a PostgreSQL URL is needed")
    moves = Moves(args.games)
    await asyncio.gather(*(store.write(op_create_game(game(i), [None])) for i in moves.ids))
    for _ in range(args.warmup):  # both paths, until the statement is prepared
        assert await writer.commit([moves.next()])
        await store.write(moves.next())
    found: dict[str, list[tuple[float, float]]] = {"LoopWriter.commit": [], "Store.write": []}
    for _ in range(args.rounds):
        began = now()
        for _ in range(args.moves):
            assert await writer.commit([moves.next()])
        found["LoopWriter.commit"].append(per_commit(began, args.moves))
        before = writer.commits
        began = now()
        for _ in range(args.moves):
            await store.write(moves.next())
        found["Store.write"].append(per_commit(began, args.moves))
        if writer.commits - before != args.moves:
            raise SystemExit("some moves were committed by the writer thread, not the loop")
    await store.close()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", required=True, help="PostgreSQL (a private db beside)")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=2000, help="commits per round and path")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--asyncio", action="store_true", help="asyncio's loop, not uvloop's")
    args = parser.parse_args()
    if not (1 <= args.games <= 1000 and 1 <= args.moves <= 100_000 and 1 <= args.rounds <= 20):
        raise SystemExit("bounded benchmark: 1-1000 games, 1-100000 moves, 1-20 rounds")
    if not args.asyncio:
        with contextlib.suppress(ImportError):
            import uvloop

            uvloop.install()
    print(f"load average before: {Path('/proc/loadavg').read_text().strip()}")
    with private_database(args.database_url) as url:
        found = asyncio.run(measure(url, args))
    print(f"load average after:  {Path('/proc/loadavg').read_text().strip()}")
    loop = "asyncio" if args.asyncio else "uvloop"
    print(f"{args.rounds} rounds of {args.moves} sequential one-move commits ({loop}):")
    for path, rounds in found.items():
        cpu = statistics.median(c for c, _ in rounds)
        wall = statistics.median(w for _, w in rounds)
        least = min(c for c, _ in rounds)
        each = ", ".join(f"{c:.0f}" for c, _ in rounds)
        print(
            f"  {path:<18} CPU {cpu:6.1f} µs/commit (least {least:.1f}; rounds: {each}), "
            f"wall {wall:6.1f} µs"
        )


if __name__ == "__main__":
    main()
