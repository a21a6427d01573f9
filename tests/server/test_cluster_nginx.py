"""A real load balancer: Debian's nginx, configured for WebSockets as docs/deploy.md shows,
in front of three ``alea serve`` processes on one PostgreSQL database and one Redis.

Clients know only nginx's address; which process answers a request or holds a
socket is nginx's choice. A game is played across the processes, one process is
killed with SIGKILL mid-game and the game goes on; bots move exactly once however
many processes could run them, and when the process driving a bot game dies
another takes it over within 5 s.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from alea.server.games import hosted, new_state
from tests.server.cluster_support import Nginx, Service, service, wait_for
from tests.server.support import Client, connect, create_game, play_turn

Deployment = tuple[Service, Nginx]


@pytest.fixture
def deployment(tmp_path: Path) -> Iterator[Deployment]:
    """Three processes behind nginx (skips without PostgreSQL, Redis or nginx)."""
    with (
        service(tmp_path, 3, "--bot-delay", "0.05") as svc,
        Nginx(tmp_path / "nginx", [p.base for p in svc.processes]) as lb,
    ):
        yield svc, lb


def decisions(events: list[str], players: int) -> int:
    """How many of a finished Alea Iacta Est log's events were a player's decision."""
    state = new_state(hosted("iacta"), players, "software")
    count = 0
    for event in events:
        if not state.is_chance():
            count += 1
        state.apply(event)
    return count


def status(base: str, game_id: str) -> dict[str, Any]:
    found: dict[str, Any] = httpx.get(f"{base}/api/games/{game_id}", timeout=10).json()
    return found


async def reconnect(
    ws_base: str, game_id: str, tokens: list[str], old: list[Client]
) -> list[Client]:
    """Every seat comes back through nginx with the log it had (as after a dropped socket)."""
    for c in old:
        with contextlib.suppress(Exception):
            await c.close()
    return [
        await connect(ws_base, game_id, t, known=c.log) for t, c in zip(tokens, old, strict=True)
    ]


async def play_through(lb: Nginx, svc: Service, game_id: str, tokens: list[str]) -> None:
    rng = random.Random(3)
    clients = [await connect(lb.ws_base, game_id, t) for t in tokens]
    acks = [await play_turn(clients, rng) for _ in range(20)]
    served_by = {svc.health(p)["cluster"]["heard"] > 0 for p in svc.processes}
    assert served_by == {True}, "nginx spread the sockets and requests over the processes"
    svc.processes[1].kill()  # SIGKILL: no shutdown code runs
    clients = await reconnect(lb.ws_base, game_id, tokens, clients)
    for _ in range(20):
        if clients[0].status != "active":
            break
        acks.append(await play_turn(clients, rng))
    # Nothing acknowledged was lost, and it stands where its ack said.
    for action, ack in acks:
        assert clients[ack["seat"]].log[ack["index"]][0] == action
    for c in clients:
        await c.close()


def test_a_game_through_nginx_survives_kill_9_of_a_process(deployment: Deployment) -> None:
    svc, lb = deployment
    created = create_game(lb.base, [{"kind": "human"}] * 4, name="S0")
    game_id = created["game"]["id"]
    tokens = [created["token"]]
    for seat in range(1, 4):
        claimed = httpx.post(
            f"{lb.base}/api/games/{game_id}/seats/{seat}/claim", json={"name": f"S{seat}"}
        )
        assert claimed.status_code == 200, claimed.text
        tokens.append(claimed.json()["token"])
    asyncio.run(play_through(lb, svc, game_id, tokens))
    assert status(lb.base, game_id)["version"] > 40


@pytest.mark.serial  # measures time: runs alone (tests/conftest.py)
def test_bots_move_exactly_once_and_survive_their_process(deployment: Deployment) -> None:
    svc, lb = deployment
    bots = [{"kind": "bot", "level": "easy"}] * 2
    # A bot game plays itself to the end; every process could drive it.
    first = create_game(lb.base, bots, sit=False)["game"]["id"]
    assert wait_for(lambda: status(lb.base, first)["status"] == "finished", 120, 0.2)
    events = httpx.get(f"{lb.base}/api/games/{first}/replay", timeout=10).json()["events"]
    health = [svc.health(p)["cluster"] for p in svc.processes]
    # Each decision was decided and stored by exactly one process, none twice or wasted.
    assert sum(h["bot_moves"] for h in health) == decisions(events, 2), health
    assert sum(h["bot_stale"] for h in health) == 0, health

    second = create_game(lb.base, bots, sit=False)["game"]["id"]
    assert wait_for(lambda: status(lb.base, second)["version"] > 10, 60)
    holders = [p for p in svc.processes if svc.health(p)["cluster"]["leases"] > 0]
    assert len(holders) == 1, "one process drives the bot game"
    holders[0].kill()
    at_kill = status(lb.base, second)["version"]
    killed = time.monotonic()
    assert wait_for(lambda: status(lb.base, second)["version"] > at_kill, 10, 0.05)
    taken_over = time.monotonic() - killed
    print(f"bot game taken over {taken_over:.2f} s after its process was killed")
    assert taken_over < 5.0
    assert wait_for(lambda: status(lb.base, second)["status"] == "finished", 120, 0.2)
    survivors = [svc.health(p)["cluster"] for p in svc.alive()]
    assert sum(h["taken_over"] for h in survivors) >= 1
