"""Start-up time of ``alea serve`` with many unfinished games in its log.

Creates N unfinished 4-player games of Alea Iacta Est directly in a fresh
database (each played with random legal moves to a random point between 10% and
90% of a game, so its log holds 40 to 370 events, stored as the server stores
them), then times three starts of a real ``alea serve`` process, each from
launch until ``/api/health`` answers, and reads the server's own line
"rebuilt N unfinished games in X s":

1. ``--snapshot-every 0``: no snapshots, every log replayed from its start (the
   behaviour before snapshots);
2. snapshots on, none stored yet: every log replayed, and a snapshot of each game
   written (the first start after an upgrade);
3. snapshots on, restarted: each game starts from its snapshot and replays only
   the events after it.

PostgreSQL runs in a private database created beside the one the URL names and
dropped at the end (nothing is left in a shared database); SQLite in a
temporary file.

    python bench/startup.py --games 1000 [--database-url postgresql+psycopg://…/test]

Target (issue 15): serving again within 5 s of a restart with 1,000 unfinished games.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import httpx

import alea.iacta as iacta
from alea.server.storage import Store
from alea.server.tables import GameRecord, SeatRecord
from alea.server.writes import op_create_game
from private_db import private_database
from serving import start_alea_server

TARGET_S = 5.0


def random_game(rng: random.Random, game_id: str) -> tuple[GameRecord, list[int | None]]:
    """An unfinished game played at random part of the way, as the server stores one."""
    state = iacta.new_game(4)
    stop_at = rng.randint(40, 370)
    actors: list[int | None] = []
    while not state.is_terminal() and len(state.history) < stop_at:
        actors.append(state.actor())
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    while state.is_chance():  # the server commits chance with the action before it
        actors.append(state.actor())
        state.apply(state.sample_chance(rng))
    now = time.time()
    record = GameRecord(
        id=game_id,
        players=4,
        status="active",
        public=False,
        title="startup bench",
        created_at=now,
        updated_at=now,
        version=len(state.history),
        result=None,
        seats=[SeatRecord(seat, "human", None, f"p{seat}", f"{seat:x}" * 64) for seat in range(4)],
        events=list(state.history),
        game="iacta",
    )
    return record, actors


def fill(url: str, games: int, seed: int) -> int:
    """Store ``games`` unfinished games; returns the number of events stored."""
    store = Store(url, sqlite_synchronous="OFF")
    store.migrate()
    rng = random.Random(seed)
    events = 0
    batch = 50
    for first in range(0, games, batch):
        with store.engine.begin() as conn:
            for n in range(first, min(games, first + batch)):
                record, actors = random_game(rng, f"bench{n:07d}")
                op_create_game(record, actors)(conn)
                events += len(record.events)
    store.dispose()
    return events


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux), else NaN."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def timed_start(url: str, data_dir: Path, *extra: str) -> tuple[float, float, str, int]:
    """(seconds from launch to an answering ``/api/health``, CPU seconds the server used
    until then, the server's rebuild line, games it serves); then the server is stopped.
    The CPU seconds are the figure a busy machine disturbs least."""
    lines: list[str] = []
    started = time.perf_counter()
    proc, base = start_alea_server(
        "--database-url",
        url,
        "--data-dir",
        str(data_dir),
        "--log-level",
        "info",
        *extra,
        lines=lines,
        timeout=300,
    )
    elapsed = time.perf_counter() - started
    cpu = cpu_seconds(proc.pid)
    try:
        health = httpx.get(f"{base}/api/health", timeout=10).json()
    except (httpx.HTTPError, ValueError):
        health = {}
    time.sleep(1.0)  # let the snapshots written at start be committed before stopping
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
    rebuilt = next((line.strip() for line in lines if "rebuilt" in line), "")
    found = re.search(r"rebuilt .*", rebuilt)
    line = found.group(0) if found else "(no rebuild line)"
    return elapsed, cpu, line, int(health.get("games", -1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--database-url", default=None, help="default: SQLite in a temp dir")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.games > 5000:
        raise SystemExit("bounded benchmark: at most 5000 games")
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite:///{Path(tmp) / 'startup.sqlite'}"
        with private_database(url) as private:
            t0 = time.perf_counter()
            events = fill(private, args.games, args.seed)
            kind = private.split(":")[0]
            print(
                f"{kind}: {args.games} unfinished games, {events} events "
                f"(stored in {time.perf_counter() - t0:.1f} s)"
            )
            runs = [
                ("no snapshots (full replay)", ("--snapshot-every", "0")),
                ("first start with snapshots on", ()),
                ("restart from snapshots", ()),
            ]
            results = []
            for name, extra in runs:
                seconds, cpu, line, served = timed_start(private, Path(tmp), *extra)
                results.append(seconds)
                print(
                    f"{name:<30} {seconds:6.2f} s to serving ({cpu:5.2f} s CPU), "
                    f"{served} games; server: {line}"
                )
    print(f"load average of the machine: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    verdict = "meets" if results[-1] <= TARGET_S else "MISSES"
    print(
        f"start-up with snapshots {results[-1]:.2f} s vs {results[0]:.2f} s without: "
        f"{verdict} the target <= {TARGET_S:.0f} s"
    )


if __name__ == "__main__":
    main()
