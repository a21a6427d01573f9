"""Dado Romano on the shared server: create over HTTP, play over the WebSocket, restart."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
from sqlalchemy import text

import alea.romano as romano
from alea.server import Settings
from tests.server.support import Client, Database, LiveServer, connect, create_game, migrated_from

HUMAN = {"kind": "human"}
BOT = {"kind": "bot"}


def settings_for(db: Database, seed: int = 7) -> Settings:
    return Settings(
        database_url=db.url,
        bot_delay=0.0,
        idle_timeout=60.0,
        sqlite_synchronous="NORMAL",
        chance_rng=lambda: random.Random(seed),
    )


def romano_game(base: str, players: int) -> tuple[str, list[str]]:
    """A Dado Romano game of ``players`` humans, every seat claimed: (id, tokens by seat)."""
    created = create_game(base, [HUMAN] * players, game="romano", name="Seat 0")
    assert created["game"]["game"] == "romano"
    game_id = created["game"]["id"]
    tokens = [created["token"]]
    for seat in range(1, players):
        answer = httpx.post(f"{base}/api/games/{game_id}/seats/{seat}/claim", json={}, timeout=30)
        assert answer.status_code == 200, answer.text
        tokens.append(answer.json()["token"])
    return game_id, tokens


def choose(legal: list[str], rng: random.Random) -> str:
    """A scripted player: answers, declarations, Messalina and Nero, all from ``legal``."""
    return rng.choice(legal)


async def play(clients: list[Client], rng: random.Random, limit: int = 100_000) -> list[str]:
    """Play decisions until the game ends (or ``limit`` decisions); return the moves sent."""
    sent: list[str] = []
    while clients[0].status != "finished" and len(sent) < limit:
        movers = [c for c in clients if c.legal]
        if not movers:  # a bot is to move: wait for the next update
            await clients[0].until(lambda m: m["type"] == "update")
            continue
        assert len(movers) == 1, [c.seat for c in movers]
        mover = movers[0]
        action = choose(mover.legal, rng)
        await mover.send({"type": "action", "action": action, "version": mover.version})
        ack = await mover.until(lambda m: m["type"] in ("ack", "error"))
        assert ack["type"] == "ack", ack
        sent.append(action)
        for c in clients:
            await c.until_version(ack["version"])
    return sent


def check_views(client: Client) -> int:
    """Every update ``client`` got holds its own seat's view; legal only on its decisions."""
    checked = 0
    for msg in client.messages:
        if msg["type"] != "update":
            continue
        view = msg["view"]
        assert view["seat"] == client.seat
        assert msg["seat"] == client.seat
        if msg["legal"]:
            assert client.seat is not None
            assert view["current_player"] == client.seat
            assert msg["legal"] == view["legal_actions"]
        checked += 1
    return checked


async def errors(client: Client, other: Client) -> None:
    """Bad input is refused with the documented codes, and changes nothing."""

    async def refused(message: Any) -> dict[str, Any]:
        await client.send(message)
        return await client.until(lambda m: m["type"] == "error")

    version = client.version
    assert client.legal  # it is this client's decision
    assert (await refused({"type": "action", "action": "xyz", "version": version}))[
        "code"
    ] == "bad_notation"
    assert (await refused({"type": "action", "action": "roll:6", "version": version}))[
        "code"
    ] == "illegal_action"
    wrong = "N:3" if not any(a.startswith("N:") for a in client.legal) else "A:1"
    if wrong not in client.legal:
        answer = await refused({"type": "action", "action": wrong, "version": version})
        assert answer["code"] == "illegal_action"
    stale = await refused({"type": "action", "action": client.legal[0], "version": version + 9})
    assert stale["code"] == "stale_version"
    await other.send({"type": "action", "action": client.legal[0], "version": version})
    assert (await other.until(lambda m: m["type"] == "error"))["code"] == "not_your_turn"
    assert (await refused("not json"))["code"] == "malformed"
    assert client.version == version


async def follow(client: Client) -> None:
    """Read every update until the game ends (a client that stops reading is dropped)."""
    while client.status != "finished":
        await client.recv(60)


async def scripted_game(server: LiveServer) -> None:
    game_id, tokens = romano_game(server.base, 3)
    clients = [await connect(server.ws_base, game_id, t) for t in tokens]
    watcher = await connect(server.ws_base, game_id, None)
    watching = asyncio.create_task(follow(watcher))
    rng = random.Random(3)
    assert [c.seat for c in clients] == [0, 1, 2]
    # Seat 0 rolls first: the server drew the dice until someone had a decision.
    await play(clients, rng, limit=1)
    mover = next((c for c in clients if c.legal), None)
    if mover is not None:
        await errors(mover, next(c for c in clients if c is not mover))
    await play(clients, rng)
    await watching
    await watcher.until_version(clients[0].version)
    final = clients[0].view
    assert final is not None and final["phase"] == "over"
    assert final["winners"]
    for c in clients:
        assert c.status == "finished"
        assert check_views(c) > 0
    assert check_views(watcher) > 0
    # The server's state is the replay of the log the clients saw (a paced table: every
    # die waited for its player's throw).
    log = [e for e, _ in clients[0].log]
    assert "throw" in log
    options = {"paced": True}
    truth = romano.replay({"game": "dado-romano", "players": 3, "options": options, "moves": log})
    assert truth.is_terminal() and truth.winners() == final["winners"]
    info = httpx.get(f"{server.base}/api/games/{game_id}").json()
    assert info["status"] == "finished" and info["game"] == "romano"
    assert info["result"]["winners"] == final["winners"]
    replay = httpx.get(f"{server.base}/api/games/{game_id}/replay").json()
    assert replay["events"] == log
    step = httpx.get(f"{server.base}/api/games/{game_id}/replay/5").json()
    assert step["steps"] == len(log) and step["view"]["seat"] is None
    for c in [*clients, watcher]:
        await c.close()


def test_romano_game_over_websocket(sqlite_db: Database) -> None:
    with LiveServer(settings_for(sqlite_db)) as server:
        asyncio.run(scripted_game(server))


def test_romano_create_rules(sqlite_db: Database) -> None:
    with LiveServer(settings_for(sqlite_db)) as server:
        six = create_game(server.base, [HUMAN] + [BOT] * 5, game="romano")
        assert six["game"]["players"] == 6 and six["game"]["status"] == "active"
        assert len({s["colour"] for s in six["game"]["seats"]}) == 6
        too_many = httpx.post(
            f"{server.base}/api/games", json={"game": "romano", "seats": [HUMAN] * 7}
        )
        assert too_many.status_code == 422
        assert too_many.json()["error"]["code"] == "bad_request"
        iacta_six = httpx.post(f"{server.base}/api/games", json={"seats": [HUMAN] * 6})
        assert iacta_six.status_code == 422
        unknown = httpx.post(
            f"{server.base}/api/games", json={"game": "chess", "seats": [HUMAN] * 2}
        )
        assert unknown.status_code == 422
        lobby = httpx.get(f"{server.base}/api/games").json()
        assert {g["game"] for g in lobby} == {"romano"}


async def first_part(server: LiveServer, game_id: str, token: str) -> tuple[list[Any], Any]:
    client = await connect(server.ws_base, game_id, token)
    await play([client], random.Random(5), limit=3)
    await client.close()
    return client.log, client.view


async def second_part(server: LiveServer, game_id: str, token: str, log: list[Any]) -> Client:
    client = await connect(server.ws_base, game_id, token)
    assert client.log == log  # the rebuilt game shows the same log
    await play([client], random.Random(6))
    await client.close()
    return client


def test_romano_restart_rebuilds(sqlite_db: Database) -> None:
    with LiveServer(settings_for(sqlite_db)) as server:
        created = create_game(server.base, [HUMAN, BOT], game="romano", name="Ann")
        game_id, token = created["game"]["id"], created["token"]
        log, _view = asyncio.run(first_part(server, game_id, token))
        assert len(log) > 3
    with LiveServer(settings_for(sqlite_db, seed=8)) as server:
        game = server.games.games[game_id]
        assert game.game_name == "romano"
        assert [e for e, _ in log] == game.state.history[: len(log)]
        client = asyncio.run(second_part(server, game_id, token, log))
        assert client.status == "finished"
        assert check_views(client) > 0


def test_migration_adds_game_kind(sqlite_db: Database) -> None:
    engine = migrated_from(
        sqlite_db.url,
        "0001",
        "INSERT INTO games (id, players, status, public, title, created_at, updated_at,"
        " version, result) VALUES ('old', 2, 'open', 1, '', 0, 0, 0, NULL)",
    )
    with engine.connect() as conn:
        assert conn.execute(text("SELECT game FROM games WHERE id = 'old'")).scalar() == "iacta"
    engine.dispose()
