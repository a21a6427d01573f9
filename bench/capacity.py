"""The figures of docs/deploy.md's capacity model, measured on one ``alea serve`` process.

On PostgreSQL (a private database beside ``--database-url``, dropped after) it
measures, in one run:

* **memory per game**: the server's resident set before and after creating ``--games``
  4-seat games with every seat claimed (all active, so all in memory), divided by them;
* **memory per socket**: the resident set before and after every seat opened its
  WebSocket and had its first view, divided by the sockets;
* **CPU per action**: the server's CPU (every thread) over ``--duration`` seconds of
  play at ``--think`` seconds, divided by the actions acknowledged meanwhile;
* **database writes per action**: PostgreSQL's own counters for the database
  (``pg_stat_database``: transactions committed, rows inserted, updated and deleted)
  over the same seconds, divided by the actions.

    python bench/capacity.py --games 200 --duration 30 \\
        --database-url postgresql+psycopg://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import asyncio
import random
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text

from private_db import private_database
from server_load import GameLog, Player, Stats, cpu_seconds, create_games, start_server

COUNTERS = (
    "SELECT xact_commit, tup_inserted, tup_updated, tup_deleted "
    "FROM pg_stat_database WHERE datname = current_database()"
)


def rss_mb(pid: int) -> float:
    """Resident set of process ``pid`` in MB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def db_counters(url: str) -> tuple[int, int, int, int]:
    """The database's commits and rows inserted, updated, deleted (PostgreSQL's view)."""
    engine = create_engine(url)
    with engine.connect() as conn:
        conn.execute(text("SELECT pg_stat_clear_snapshot()"))
        row = conn.execute(text(COUNTERS)).one()
    engine.dispose()
    return int(row[0]), int(row[1]), int(row[2]), int(row[3])


async def measure(args: argparse.Namespace, base: str, pid: int, url: str) -> dict[str, float]:
    found: dict[str, float] = {}
    before = rss_mb(pid)
    created = await create_games(base, args.games, 4)
    await asyncio.sleep(1.0)
    with_games = rss_mb(pid)
    found["mb_per_game"] = (with_games - before) / args.games
    stats, stop = Stats(), asyncio.Event()
    rng = random.Random(args.seed)
    ws_base = base.replace("http://", "ws://")
    players = [
        Player(
            ws_base, GameLog(game_id), token, args.think, random.Random(rng.random()), stats, stop
        )
        for game_id, tokens in created
        for token in tokens
    ]
    tasks = [
        asyncio.create_task(p.run(args.ramp * n / len(players))) for n, p in enumerate(players)
    ]
    deadline = time.perf_counter() + 120
    while any(p.seen < 0 for p in players) and time.perf_counter() < deadline:
        await asyncio.sleep(0.2)
    with_sockets = rss_mb(pid)
    found["kb_per_socket"] = (with_sockets - with_games) * 1024 / len(players)
    found["rss_mb"] = with_sockets
    await asyncio.sleep(args.warmup)
    sent0, acked0, cpu0 = stats.sent, stats.acked, cpu_seconds(pid)
    db0 = await asyncio.to_thread(db_counters, url)
    t0 = time.perf_counter()
    await asyncio.sleep(args.duration)
    elapsed = time.perf_counter() - t0
    actions = stats.acked - acked0
    cpu = cpu_seconds(pid) - cpu0
    stop.set()
    await asyncio.sleep(1.5)  # the counters of transactions just committed are flushed
    db1 = await asyncio.to_thread(db_counters, url)
    await asyncio.wait(tasks, timeout=10)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    # The counters run on 1.5 s past the measured seconds: count those actions too.
    extra = stats.acked - acked0 - actions
    per = max(actions + extra, 1)
    found.update(
        actions_per_s=actions / elapsed,
        cpu_ms_per_action=cpu / max(actions, 1) * 1000,
        commits_per_action=(db1[0] - db0[0]) / per,
        inserts_per_action=(db1[1] - db0[1]) / per,
        updates_per_action=(db1[2] - db0[2]) / per,
        deletes_per_action=(db1[3] - db0[3]) / per,
        errors=len(stats.errors),
        sent=stats.sent - sent0,
    )
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--ramp", type=float, default=5.0, help="seconds the sockets open over")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", required=True, help="PostgreSQL (a private db beside)")
    args = parser.parse_args()
    if args.games > 2000 or args.duration > 600:
        raise SystemExit("bounded benchmark: at most 2000 games and 600 s")
    load = Path("/proc/loadavg").read_text().split()[:3]
    with tempfile.TemporaryDirectory() as tmp, private_database(args.database_url) as url:
        proc: Any = None
        try:
            proc, base = start_server(url, Path(tmp), "FULL")
            found = asyncio.run(measure(args, base, proc.pid, url))
        finally:
            if proc is not None:
                proc.send_signal(signal.SIGINT)
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
    after = Path("/proc/loadavg").read_text().split()[:3]
    print(f"load average before {' '.join(load)}, after {' '.join(after)}")
    print(f"{args.games} games x 4 seats, 1 process, PostgreSQL, think {args.think} s")
    print(f"memory per game        {found['mb_per_game'] * 1024:8.1f} KB")
    print(f"memory per socket      {found['kb_per_socket']:8.1f} KB")
    print(f"resident set           {found['rss_mb']:8.1f} MB with every socket open")
    print(f"actions/s              {found['actions_per_s']:8.1f}")
    print(f"CPU per action         {found['cpu_ms_per_action']:8.2f} ms (every thread)")
    print(
        f"database per action    {found['commits_per_action']:.2f} commits, "
        f"{found['inserts_per_action']:.2f} rows inserted, "
        f"{found['updates_per_action']:.2f} updated, {found['deletes_per_action']:.2f} deleted"
    )
    print(f"errors                 {int(found['errors'])}")


if __name__ == "__main__":
    main()
