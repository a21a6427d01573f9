"""What the rating tests share: signed-in players, a rated table, playing it out, counting."""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, create_engine, func, select

from alea.server.tables import rated_games_table, rating_history_table, ratings_table
from tests.server.accounts_support import Browser
from tests.server.support import Client, connect


@dataclass
class RatedTable:
    """A rated 4-seat table: two signed-in humans (seats 0 and 1) and two bots."""

    game_id: str
    tokens: list[str]
    players: list[Browser]


def rated_table(
    base: str,
    names: tuple[str, str] = ("Alice", "Bruno"),
    bots: tuple[str, str] = ("easy", "expert"),
) -> RatedTable:
    """Sign two players up, create a rated table with two bots of ``bots``' levels, both sit."""
    alice, bruno = Browser(base), Browser(base)
    for browser, name in ((alice, names[0]), (bruno, names[1])):
        answer = browser.sign_up(name)
        assert answer.status_code == 201, answer.text
    seats = [
        {"kind": "human"},
        {"kind": "human"},
        {"kind": "bot", "level": bots[0]},
        {"kind": "bot", "level": bots[1]},
    ]
    created = alice.post("/api/games", {"seats": seats, "rated": True, "name": names[0]})
    assert created.status_code == 201, created.text
    game_id = created.json()["game"]["id"]
    claimed = bruno.post(f"/api/games/{game_id}/seats/1/claim", {"name": names[1]})
    assert claimed.status_code == 200, claimed.text
    return RatedTable(game_id, [created.json()["token"], claimed.json()["token"]], [alice, bruno])


async def seated(ws_base: str, table: RatedTable) -> list[Client]:
    return [await connect(ws_base, table.game_id, token) for token in table.tokens]


async def step(clients: list[Client], rng: random.Random, timeout: float = 20.0) -> bool:
    """One move of the humans, or wait for the bots' next change; False when nothing
    happened within ``timeout`` (the server is stuck) or the game is over."""
    if clients[0].status == "finished":
        return False
    mover = next((c for c in clients if c.legal), None)
    try:
        if mover is None:
            version = clients[0].version
            await clients[0].until(
                lambda m: m["type"] == "update" and m["version"] > version, timeout
            )
        else:
            action = rng.choice(mover.legal)
            await mover.send({"type": "action", "action": action, "version": mover.version})
            reply = await mover.until(lambda m: m["type"] in ("ack", "error"), timeout)
            if reply["type"] == "error":
                # A move sent again after a wait that only looked like a stall: the first
                # one was made meanwhile. Anything else is a real refusal.
                assert reply["code"] in ("stale_version", "not_your_turn"), reply
            else:
                for c in clients:
                    await c.until_version(reply["version"], timeout)
    except TimeoutError:
        return False
    # Read whatever else has arrived, so every client knows the latest legal moves.
    for c in clients:
        while True:
            try:
                await c.recv(0.02)
            except TimeoutError:
                break
    return True


async def play_out(clients: list[Client], rng: random.Random) -> None:
    """Play the humans' moves (random legal ones) until the game is over."""
    while clients[0].status != "finished":
        assert await step(clients, rng), "the game stopped moving"
    for c in clients:
        await c.close()


def counts(url: str, game_id: str) -> dict[str, int]:
    """Rows of the rating tables (``guards`` only for ``game_id``)."""
    engine: Engine = create_engine(url)
    try:
        with engine.connect() as conn:
            guards = conn.execute(
                select(func.count())
                .select_from(rated_games_table)
                .where(rated_games_table.c.game_id == game_id)
            ).scalar_one()
            history = conn.execute(
                select(func.count())
                .select_from(rating_history_table)
                .where(rating_history_table.c.game_id == game_id)
            ).scalar_one()
            games = conn.execute(
                select(func.coalesce(func.sum(ratings_table.c.games), 0))
            ).scalar_one()
        return {"guards": int(guards), "history": int(history), "games": int(games)}
    finally:
        engine.dispose()


def status(url: str, game_id: str) -> str:
    from alea.server.tables import games_table

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return str(
                conn.execute(
                    select(games_table.c.status).where(games_table.c.id == game_id)
                ).scalar_one()
            )
    finally:
        engine.dispose()


def run(coro: Any) -> Any:
    """Run ``coro`` to the end, in a thread of its own (Playwright's sync API holds a loop)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()
