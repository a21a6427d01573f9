"""What rating costs: the finishing write of a rated game, and the leaderboard and profile.

On a fresh database (SQLite in a temporary directory, or ``--database-url``):

* **finishing write**: the transaction that stores a game's last event and result,
  alone (an unrated game) and together with its rating (a rated game: the
  ``rated_games`` guard, four seats' ratings read and written, the history rows),
  so the figure is what rating adds to the one write a rated game's end waits for;
* **leaderboard page**: ``GET /api/leaderboard``'s query over ``--accounts`` rated
  accounts (50 entries, from offset 0 and from the middle);
* **profile**: ``GET /api/players``'s reads for an account with ``--games`` games.

    .venv/bin/python bench/ratings.py --games 400 --accounts 5000

Prints medians and 95th percentiles in milliseconds, and the comparison with the
target: rating adds at most 5 ms to a finishing write (median), a leaderboard page
and a profile answer in under 50 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from alea.server.rating_store import leaderboard, op_rate_game, profile
from alea.server.tables import (
    GameRecord,
    SeatRecord,
    make_engine,
    migrate,
    ratings_table,
    users_table,
)
from alea.server.writes import op_append_events, op_create_game

TARGET_EXTRA_MS = 5.0
TARGET_READ_MS = 50.0


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=400, help="finished games of each kind")
    parser.add_argument("--accounts", type=int, default=5000, help="rated accounts")
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite:///{Path(tmp) / 'bench.sqlite'}"
        engine = make_engine(url)
        migrate(engine)
        rng = random.Random(1)
        now = time.time()
        with engine.begin() as conn:
            conn.execute(
                users_table.insert(),
                [
                    {
                        "id": f"u{i}",
                        "name": f"player{i}",
                        "name_key": f"player{i}",
                        "password_hash": "x",
                        "created_at": now,
                    }
                    for i in range(args.accounts)
                ],
            )
            conn.execute(
                ratings_table.insert(),
                [
                    {
                        "user_id": f"u{i}",
                        "game": "iacta",
                        "mu": rng.gauss(25, 4),
                        "sigma": rng.uniform(2, 8),
                        "games": 1,
                        "wins": 0,
                        "updated_at": now,
                    }
                    for i in range(args.accounts)
                ],
            )

        def new_game(game_id: str, rated: bool) -> None:
            seats = [
                SeatRecord(0, "human", None, "A", "h0", user_id="u0"),
                SeatRecord(1, "human", None, "B", "h1", user_id="u1"),
                SeatRecord(2, "bot", "easy", "C", None),
                SeatRecord(3, "bot", "hard", "D", None),
            ]
            record = GameRecord(
                game_id, 4, "active", True, "", now, now, 1, None, seats, ["x"], rated=rated
            )
            with engine.begin() as conn:
                op_create_game(record, [None])(conn)

        def finish(game_id: str, rated: bool) -> float:
            result = {"scores": rng.sample(range(40), 4), "winners": [rng.randrange(4)]}
            append = op_append_events(
                game_id, 1, ["end"], [0], status="finished", result=result, now=now
            )
            rate = op_rate_game(game_id, "iacta", result, now)
            started = time.perf_counter()
            with engine.begin() as conn:
                append(conn)
                if rated:
                    rate(conn)
            return (time.perf_counter() - started) * 1000

        figures: dict[str, list[float]] = {"unrated": [], "rated": []}
        for i in range(args.games):
            for kind in ("unrated", "rated"):
                game_id = f"{kind[0]}{i}"
                new_game(game_id, kind == "rated")
                figures[kind].append(finish(game_id, kind == "rated"))

        def timed(call: object, repeat: int = 50) -> list[float]:
            out = []
            for _ in range(repeat):
                started = time.perf_counter()
                call()  # type: ignore[operator]
                out.append((time.perf_counter() - started) * 1000)
            return out

        top = timed(lambda: leaderboard(engine, "iacta", 0, 50))
        middle = timed(lambda: leaderboard(engine, "iacta", args.accounts // 2, 50))
        own = timed(lambda: profile(engine, "player0"))
        engine.dispose()

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"database: {url.split(':')[0]}, {args.accounts} rated accounts, "
        f"{args.games} games each (load average {load:.1f} on {os.cpu_count()} cores)"
    )
    for kind, values in figures.items():
        print(
            f"finishing write, {kind:8}: median {statistics.median(values):6.2f} ms, "
            f"p95 {pct(values, 0.95):6.2f} ms"
        )
    extra = statistics.median(figures["rated"]) - statistics.median(figures["unrated"])
    verdict = "meets" if extra <= TARGET_EXTRA_MS else "MISSES"
    print(
        f"rating adds {extra:.2f} ms to the finishing write: "
        f"{verdict} the {TARGET_EXTRA_MS} ms target"
    )
    for name, values in (
        ("leaderboard page (top)", top),
        ("leaderboard page (middle)", middle),
        (f"profile ({args.games} games)", own),
    ):
        med = statistics.median(values)
        verdict = "meets" if med <= TARGET_READ_MS else "MISSES"
        print(
            f"{name:28}: median {med:6.2f} ms, p95 {pct(values, 0.95):6.2f} ms "
            f"({verdict} the {TARGET_READ_MS} ms target)"
        )


if __name__ == "__main__":
    main()
