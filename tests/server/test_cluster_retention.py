"""Open games nobody joins, on several ``alea serve`` processes (PostgreSQL and Redis).

Each expires exactly once across the processes (the health checks' counts add up
to the games deleted), a socket watching it at *another* process keeps it, every
process stops serving it once it is gone (404 at all of them, also at the one
that had it in memory), and a process that never loaded a game expires it when
the process that created it is gone. Skips, saying why, without PostgreSQL or
Redis (tests/server/cluster_support.py).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx

from tests.server.cluster_support import Service, service, wait_for
from tests.server.support import ServerProcess, connect, create_game

TTL, POLL = 3.0, 0.3
HUMANS = [{"kind": "human"}, {"kind": "human"}]


def status(proc: ServerProcess, game_id: str) -> int:
    return httpx.get(f"{proc.base}/api/games/{game_id}", timeout=30).status_code


def expired_total(svc: Service) -> int:
    return sum(svc.health(p)["cluster"]["open_expired"] for p in svc.alive())


def test_open_games_expire_once_across_processes_unless_watched_anywhere(
    tmp_path: Path,
) -> None:
    extra = ("--open-game-ttl", str(TTL), "--retention-poll", str(POLL))
    with service(tmp_path, 2, *extra) as svc:
        a, b = svc.processes
        lonely = [create_game(a.base, HUMANS)["game"]["id"] for _ in range(4)]
        watched = create_game(a.base, HUMANS)["game"]["id"]
        for game_id in lonely:  # in memory at both processes
            assert status(b, game_id) == 200

        async def watch_from_b() -> None:
            client = await connect(b.ws_base, watched, None)
            try:
                gone = await asyncio.to_thread(
                    wait_for, lambda: all(status(a, g) == 404 for g in lonely), TTL + 20
                )
                assert gone, "the lonely games did not expire"
                # Past its time too, but watched at B: A's sweeps must keep it.
                await asyncio.sleep(TTL + 5 * POLL)
                assert status(a, watched) == 200
                assert status(b, watched) == 200
            finally:
                await client.close()

        asyncio.run(watch_from_b())
        # Gone for every process, whichever deleted them.
        assert all(status(b, g) == 404 for g in lonely)
        assert wait_for(lambda: expired_total(svc) == len(lonely), 5), expired_total(svc)
        # Nobody watches it any more: it expires (once) within the time and a few sweeps.
        assert wait_for(lambda: status(a, watched) == 404, TTL + 20)
        assert status(b, watched) == 404
        assert wait_for(lambda: expired_total(svc) == len(lonely) + 1, 5)

        # A process that never loaded them expires the games of a process that is gone.
        c = svc.add()
        orphans = [create_game(c.base, HUMANS)["game"]["id"] for _ in range(2)]
        c.kill()
        started = time.time()
        # Not asked for at A or B meanwhile (a look would load them there).
        total = len(lonely) + 1 + len(orphans)
        assert wait_for(lambda: expired_total(svc) == total, TTL + 20), expired_total(svc)
        assert time.time() - started >= TTL - 1  # not before their time
        assert all(status(a, g) == 404 and status(b, g) == 404 for g in orphans)
        time.sleep(5 * POLL)
        assert expired_total(svc) == total  # and once
