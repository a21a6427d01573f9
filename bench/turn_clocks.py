"""Benchmark of turn-based timeouts: a day passes, and every late turn must be played.

Starts the server in this process (SQLite in a temporary directory, the fastest bots,
an injected clock), creates N turn-based tables (24 hours a turn, ``bot_move``), each
with one human seat (nobody connected) and bots, waits until every table waits for its
human, then moves the clock past the day and measures how long the server takes to
play every late turn (the first bot move of each timed-out seat), and the cost of the
clock per move before that (the turn clock's write beside the move's).

    python bench/turn_clocks.py --tables 200

Target: every late turn of 200 tables played within 10 seconds of the deadline on this
2-core machine (the watcher is one task for all tables; each late turn is one bot
decision in the bot pool and one commit).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.support import LiveServer, ShiftedClock, quick_bots

from alea.server import Settings

DAY = 86400
TARGET_SECONDS = 10.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    args = parser.parse_args()
    clock = ShiftedClock()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            database_url=f"sqlite:///{tmp}/bench.sqlite",
            sqlite_synchronous="NORMAL",
            bot_delay=0.0,
            bot_factory=quick_bots,
            bot_processes=0,
            clock=clock,
            deadline_poll=0.05,
            create_rate="",
            bot_tables_per_client=0,
            idle_timeout=10 * DAY,
        )
        with LiveServer(settings) as server, httpx.Client(base_url=server.base) as http:
            started = time.perf_counter()
            ids = []
            for _ in range(args.tables):
                answer = http.post(
                    "/api/games",
                    json={
                        "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
                        "time_control": {"mode": "turn", "per_move": DAY},
                    },
                )
                answer.raise_for_status()
                ids.append(answer.json()["game"]["id"])
            created = time.perf_counter() - started
            games = server.games.games
            while not all(games[i].clock_seat == 0 for i in ids):
                time.sleep(0.01)
            before = {i: games[i].clock_started for i in ids}
            clock.advance(DAY + 1)
            moved_at = time.perf_counter()
            while True:
                late = [i for i in ids if games[i].clock_started == before[i]]
                if not late:
                    break
                if time.perf_counter() - moved_at > 120:
                    print(f"{len(late)} tables still late after 120 s")
                    return 1
                time.sleep(0.01)
            took = time.perf_counter() - moved_at
    verdict = "meets" if took <= TARGET_SECONDS else "MISSES"
    print(f"tables: {args.tables} (created in {created:.2f} s)")
    print(f"every late turn played {took:.2f} s after the deadline ({args.tables / took:.0f}/s)")
    print(f"target: {TARGET_SECONDS:.0f} s for 200 tables -> {verdict}")
    return 0 if took <= TARGET_SECONDS else 1


if __name__ == "__main__":
    raise SystemExit(main())
