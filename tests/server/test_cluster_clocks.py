"""Time controls across two processes: one clock, whichever process holds the sockets.

The process that commits a move passes the turn and sets the clock; the other takes
that clock (from the announcement, or the stored row) instead of starting the turn
again on its own clock, so both show the same deadline and banks, and the turn times
out once, at the process holding the game's lease. Needs PostgreSQL and Redis (skips
otherwise, saying which is missing).
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import httpx

from tests.server.cluster_support import Service, service, wait_for
from tests.server.support import Client, connect, create_game, play_turn

HUMAN = {"kind": "human"}
#: The shortest real-time control the server accepts: 10 s a move, no bank.
CONTROL = {"mode": "realtime", "per_move": 10, "bank": 0, "on_timeout": "bot_move"}


def clock_at(base: str, game_id: str) -> dict[str, Any]:
    found: dict[str, Any] = httpx.get(f"{base}/api/games/{game_id}", timeout=10).json()
    return {"version": found["version"], "clock": found["time_control"]}


def timeouts(svc: Service) -> int:
    return sum(svc.health(p)["cluster"]["timeouts"] for p in svc.processes)


async def play_and_compare(svc: Service, game_id: str, tokens: list[str]) -> None:
    a, b = svc.processes
    # Seat 0's socket at one process, seat 1's at the other: each process commits
    # the moves of its own socket, and hears the other's.
    clients: list[Client] = [
        await connect(a.ws_base, game_id, tokens[0]),
        await connect(b.ws_base, game_id, tokens[1]),
    ]
    rng = random.Random(5)
    turns = 0
    for _ in range(12):
        _action, ack = await play_turn(clients, rng)
        at_a, at_b = clock_at(a.base, game_id), clock_at(b.base, game_id)
        assert at_a["version"] == at_b["version"] == ack["version"]
        assert at_a["clock"] == at_b["clock"], (at_a, at_b)
        turns += at_a["clock"]["seat"] != ack["seat"]
    assert turns >= 2  # the turn passed between the processes, both ways

    # Nobody moves now: the turn runs out once, and a bot plays it for the seat.
    assert timeouts(svc) == 0
    before = clock_at(a.base, game_id)
    timed = before["clock"]["seat"]
    assert before["clock"]["deadline"] <= time.time() + 10.5
    assert wait_for(lambda: timeouts(svc) >= 1, timeout=20)
    # A second process timing the turn out too would have done so by now (and the next
    # turn, the other seat's, runs 10 s before it could time out in its turn).
    await asyncio.sleep(2.5)
    assert timeouts(svc) == 1
    mover = clients[timed]
    await mover.until(lambda m: m["type"] == "update" and not m["legal"], timeout=20)
    at_a, at_b = clock_at(a.base, game_id), clock_at(b.base, game_id)
    assert at_a == at_b
    for client in clients:
        await client.close()


def test_the_turn_clock_is_one_across_two_processes(tmp_path: Path) -> None:
    with service(tmp_path, 2, "--bot-delay", "0.05") as svc:
        a, b = svc.processes
        created = create_game(a.base, [HUMAN, HUMAN], name="S0", time_control=CONTROL)
        game_id = created["game"]["id"]
        claimed = httpx.post(f"{b.base}/api/games/{game_id}/seats/1/claim", json={"name": "S1"})
        assert claimed.status_code == 200, claimed.text
        asyncio.run(play_and_compare(svc, game_id, [created["token"], claimed.json()["token"]]))
