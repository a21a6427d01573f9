"""Dado Romano's time limit on two processes (PostgreSQL and Redis): it fires once.

Both processes have the game in memory and watch its deadline, but only the one
holding the game's lease declares the last round; here the players' sockets are
at the *other* process, which hears the declaration through the fan-out. The
shortest limit the server accepts is one minute: the processes share a clock the test
moves (``SharedClock``) to a few seconds before the deadline, longer before it than
the processes' deadline watchers sleep between looks, so from then on each watches
the deadline arrive exactly as it would have after a real minute. Skips, saying
why, without PostgreSQL or Redis (tests/server/cluster_support.py).
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import httpx
from sqlalchemy import create_engine, text

from alea.server.config import Settings
from tests.server.cluster_support import Service, service, wait_for
from tests.server.support import Client, connect
from tests.server.test_romano_clock import has_last_round, post_game
from tests.server.test_romano_server import HUMAN, play

#: Seconds of the one-minute limit left when the test moves the clock forward: more than
#: the longest the processes' deadline watchers sleep between two looks at the clock
#: (``Settings.deadline_poll``, 5 s), so each has seen the jump before the deadline.
LEFT = Settings.deadline_poll + 2.0


def leases(svc: Service) -> list[int]:
    return [svc.health(p)["cluster"]["leases"] for p in svc.processes]


def stored_events(db_url: str, game_id: str) -> list[str]:
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text("SELECT event FROM events WHERE game_id = :g ORDER BY idx"), {"g": game_id}
            ).all()
    finally:
        engine.dispose()
    return [str(r[0]) for r in rows]


def test_the_time_limit_fires_once_while_the_sockets_are_at_the_other_process(
    tmp_path: Path,
) -> None:
    with service(tmp_path, 2, clock=True) as svc:
        a, b = svc.processes
        clock = svc.clock
        assert clock is not None
        created = post_game(
            a.base, {"seats": [HUMAN, HUMAN], "game": "romano", "name": "Anna", "time_limit": 1}
        )
        assert created.status_code == 201, created.text
        game_id = created.json()["game"]["id"]
        claimed = httpx.post(f"{b.base}/api/games/{game_id}/seats/1/claim", json={}, timeout=30)
        assert claimed.status_code == 200, claimed.text
        tokens = [created.json()["token"], claimed.json()["token"]]
        info = httpx.get(f"{a.base}/api/games/{game_id}", timeout=30).json()
        deadline = info["clock"]["deadline"]
        assert info["status"] == "active" and deadline <= clock.now() + 61
        assert (
            httpx.get(f"{b.base}/api/games/{game_id}", timeout=30).json()["clock"]
            == (info["clock"])
        )
        # A sweep gives the game's lease to one process; the sockets go to the other.
        assert wait_for(lambda: sum(leases(svc)) == 1, 15), leases(svc)
        holder = leases(svc).index(1)
        sockets = svc.processes[1 - holder]

        async def run() -> None:
            clients: list[Client] = [await connect(sockets.ws_base, game_id, t) for t in tokens]
            await play(clients, random.Random(3), limit=4)  # moves made at the socket side
            assert not has_last_round(clients[0])
            # Most of the minute passes at once; what is left is longer than a deadline
            # watcher sleeps before it looks at the clock again (Settings.deadline_poll).
            clock.advance(deadline - LEFT - clock.now())
            declared = await clients[0].until(
                lambda m: m["type"] == "update" and has_last_round(clients[0]),
                deadline - clock.now() + 20,
            )
            assert declared["clock"]["last_round"] is True
            await clients[1].until(lambda m: m["type"] == "update" and has_last_round(clients[1]))
            assert clock.now() >= deadline - 1  # not early
            await asyncio.sleep(3.0)  # every process has looked at its deadline by now
            for client in clients:
                assert [e for e, _ in client.log].count("last-round") == 1
            await play(clients, random.Random(4), limit=6)  # the game goes on
            for client in clients:
                await client.close()

        asyncio.run(run())
        assert stored_events(svc.db.url, game_id).count("last-round") == 1
        for proc in svc.processes:
            shown = httpx.get(f"{proc.base}/api/games/{game_id}", timeout=30).json()
            assert shown["clock"]["last_round"] is True
