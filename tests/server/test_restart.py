"""Kill the server process mid-game (SIGKILL, no shutdown code runs), restart it on the
same database, and finish the games: no acknowledged action may be lost."""

from __future__ import annotations

import asyncio
import contextlib
import random
from pathlib import Path
from typing import Any

import httpx

import alea.iacta as iacta
from tests.server.support import (
    Client,
    Database,
    ServerProcess,
    connect,
    create_game,
    human_game,
    play_turn,
)


async def play_until_killed(
    proc: ServerProcess, game_id: str, tokens: list[str], turns: int, rng: random.Random
) -> tuple[list[tuple[str, dict[str, Any]]], list[Client], str]:
    clients = [await connect(proc.ws_base, game_id, t) for t in tokens]
    acks = [await play_turn(clients, rng) for _ in range(turns)]
    # One more action is in flight when the process dies: it may or may not have been
    # stored, but it was never acknowledged, so either outcome keeps the promise.
    mover = next(c for c in clients if c.legal)
    in_flight = rng.choice(mover.legal)
    await mover.send({"type": "action", "action": in_flight, "version": mover.version})
    proc.kill()
    for c in clients:
        with contextlib.suppress(Exception):
            await c.close()
    return acks, clients, in_flight


async def finish(
    proc: ServerProcess,
    game_id: str,
    tokens: list[str],
    before: list[Client],
    acks: list[tuple[str, dict[str, Any]]],
    in_flight: str,
    rng: random.Random,
) -> list[str]:
    clients = [await connect(proc.ws_base, game_id, t) for t in tokens]
    log = clients[0].log
    events = [e for e, _ in log]
    # Everything acknowledged is there, at the index the ack gave.
    acked_versions = [ack["version"] for _, ack in acks]
    for action, ack in acks:
        assert clients[ack["seat"]].log[ack["index"]][0] == action
    # What each client had seen is a prefix of the rebuilt log (as that seat sees it).
    for old, new in zip(before, clients, strict=True):
        assert new.log[: len(old.log)] == old.log
    # The in-flight action is either wholly there (with its chance events) or not at all.
    last = max(acked_versions)
    mover = next(c for c in before if c.legal)
    assert mover.seat is not None
    assert len(log) == last or (clients[mover.seat].log[last][0] == in_flight and len(log) > last)
    while clients[0].status != "finished":
        await play_turn(clients, rng)
    for c in clients:
        await c.close()
    return events


def test_kill_mid_game_and_finish_with_nothing_lost(db: Database, tmp_path: Path) -> None:
    rng = random.Random(20)
    proc = ServerProcess(db.url, tmp_path, "--bot-delay", "0.01").start()
    try:
        game_id, tokens = human_game(proc.base, 4)
        bots = create_game(proc.base, [{"kind": "bot", "level": "easy"}] * 3, sit=False)
        acks, before, in_flight = asyncio.run(
            play_until_killed(proc, game_id, tokens, rng.randint(40, 90), rng)
        )
    finally:
        if proc.proc is not None and proc.proc.poll() is None:
            proc.kill()
    # Restart on the same database, twice over (a second kill right after start).
    second = ServerProcess(db.url, tmp_path, "--bot-delay", "0.01").start()
    second.kill()
    third = ServerProcess(db.url, tmp_path, "--bot-delay", "0.01").start()
    try:
        asyncio.run(finish(third, game_id, tokens, before, acks, in_flight, rng))
        record = httpx.get(f"{third.base}/api/games/{game_id}/replay").json()
        assert iacta.replay({"players": 4, "events": record["events"]}).is_terminal()
        # The bot game, cut off mid-way by the kill, resumed on its own and finished.
        bot_id = bots["game"]["id"]
        for _ in range(1200):
            if httpx.get(f"{third.base}/api/games/{bot_id}").json()["status"] == "finished":
                break
            asyncio.run(asyncio.sleep(0.05))
        assert httpx.get(f"{third.base}/api/games/{bot_id}").json()["status"] == "finished"
    finally:
        third.stop()
