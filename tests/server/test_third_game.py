"""A third game, served with no change to the server: the toy game of ``tests/contract``.

*High card* (``tests/contract/toy.py``) is registered with
:func:`alea.game.register` for these tests only, and then created, claimed,
played to the end (two people over WebSocket and HTTP, one bot), refused an
illegal move with a typed error, replayed, and rebuilt from its log after a
restart, all through the real app. The server has no bot of its own for it:
:func:`alea.bots.for_game` seats the uniform bot. Every message to a seat is
checked against the truth: no seat ever sees another's card before the end.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator

import httpx
import pytest

import alea.game
from alea import bots
from alea.server import Settings
from tests.contract import toy
from tests.server.support import Client, Database, LiveServer, connect, create_game


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    """High card is a game of the registry while each test runs, and only then."""
    alea.game.register(toy.INFO)
    try:
        yield
    finally:
        alea.game.unregister(toy.INFO.name)


def settings_for(db: Database) -> Settings:
    # No bot factory: the server asks alea.bots for the game's bot, as in production.
    return Settings(database_url=db.url, bot_delay=0.0, sqlite_synchronous="NORMAL")


def refused(answer: httpx.Response, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.json()["error"]["code"] == code, answer.text


def test_the_server_refuses_what_high_card_does_not_have(sqlite_db: Database) -> None:
    """Player counts, referee and time limit are read from the game's facts."""
    with LiveServer(settings_for(sqlite_db)) as server:
        url = f"{server.base}/api/games"
        five = {"game": "toy", "seats": [{"kind": "human"}] * 5}
        refused(httpx.post(url, json=five, timeout=30), 422, "bad_request")
        human = {"game": "toy", "seats": [{"kind": "human"}] * 2, "referee": "human"}
        refused(httpx.post(url, json=human, timeout=30), 422, "bad_referee")
        timed = {"game": "toy", "seats": [{"kind": "human"}] * 2, "time_limit": 30}
        refused(httpx.post(url, json=timed, timeout=30), 422, "bad_time_limit")
        unknown = {"game": "no-such-game", "seats": [{"kind": "human"}] * 2}
        refused(httpx.post(url, json=unknown, timeout=30), 422, "bad_request")
        created = create_game(server.base, [{"kind": "human"}] * 2, game="toy")
        assert created["game"]["game"] == "toy"
        assert [s["colour"] for s in created["game"]["seats"]] == ["red", "blue"]
        assert (created["game"]["round"], created["game"]["rounds"]) == (1, 1)


def check_hidden(client: Client, truth: toy.State) -> int:
    """Every update ``client`` received shows it no card of another seat before the end,
    and its log redacts exactly the events private to others. Returns the checks made."""
    checks = 0
    for text in client.raw:
        msg = json.loads(text)
        if msg["type"] != "update":
            continue
        view = msg["view"]
        assert view["seat"] == client.seat
        if msg["status"] != "finished":
            for seat, card in enumerate(view["hands"]):
                if seat != client.seat:
                    assert card is None, f"seat {client.seat} saw seat {seat}'s card"
                    checks += 1
        for offset, (event, _actor) in enumerate(msg["log"]):
            index = msg["log_start"] + offset
            owner = truth.private.get(index)
            if owner is not None and owner != client.seat:
                assert event == truth.history[index].partition(":")[0] + ":?", (index, event)
            else:
                assert event == truth.history[index]
            checks += 1
    return checks


async def play_to_the_end(server: LiveServer, seed: int) -> tuple[str, toy.State, int]:
    """Two people (seats 0 and 1) and a bot (seat 2) play High card to its end."""
    base = server.base
    created = create_game(
        base, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}], game="toy", name="Ann"
    )
    game_id = created["game"]["id"]
    assert created["game"]["status"] == "open"
    claim = httpx.post(
        f"{base}/api/games/{game_id}/seats/1/claim", json={"name": "Bob"}, timeout=30
    )
    assert claim.status_code == 200, claim.text
    tokens = [created["token"], claim.json()["token"]]
    people = [await connect(server.ws_base, game_id, token) for token in tokens]
    spectator = await connect(server.ws_base, game_id, None)
    everyone = [*people, spectator]
    rng = random.Random(seed)

    # Not one's turn, not notation, a chance outcome: each refused with its typed error.
    waiting = next(c for c in people if not c.legal)
    await waiting.send({"type": "action", "action": "keep", "version": waiting.version})
    assert (await waiting.until(lambda m: m["type"] == "error"))["code"] == "not_your_turn"
    mover = next(c for c in people if c.legal)
    for text, code in (("fold", "bad_notation"), ("deal:9", "illegal_action")):
        await mover.send({"type": "action", "action": text, "version": mover.version})
        assert (await mover.until(lambda m: m["type"] == "error"))["code"] == code
    over_http = httpx.post(
        f"{base}/api/games/{game_id}/actions",
        json={"action": "draw:3", "version": mover.version},
        headers={"Authorization": f"Bearer {tokens[mover.seat or 0]}"},
        timeout=30,
    )
    refused(over_http, 422, "illegal_action")

    # Seat 0 plays over WebSocket, seat 1 over HTTP; the bot plays seat 2 by itself.
    while people[0].status != "finished":
        mover = next((c for c in people if c.legal), None)
        if mover is None:  # the bot's turn: wait for the next update
            await people[0].until(lambda m: m["type"] == "update")
            continue
        action = rng.choice(mover.legal)
        if mover.seat == 0:
            await mover.send({"type": "action", "action": action, "version": mover.version})
            ack = await mover.until(lambda m: m["type"] in ("ack", "error"))
            assert ack["type"] == "ack", ack
            version = ack["version"]
        else:
            answer = httpx.post(
                f"{base}/api/games/{game_id}/actions",
                json={"action": action, "version": mover.version},
                headers={"Authorization": f"Bearer {tokens[1]}"},
                timeout=30,
            )
            assert answer.status_code == 200, answer.text
            version = answer.json()["version"]
        for c in everyone:
            await c.until_version(version)
    for c in everyone:  # the last event may be the bot's: everyone sees it
        await c.until_version(people[0].version)
    truth = server.games.games[game_id].state
    assert isinstance(truth, toy.State) and truth.is_terminal()
    checks = sum(check_hidden(c, truth) for c in everyone)
    for c in everyone:
        assert c.view is not None and c.view["result"] == truth.result()
        assert c.view["hands"] == truth.hands  # every card shown once it is over
        await c.close()
    return game_id, truth, checks


def test_high_card_is_played_to_the_end_over_the_wire(db: Database) -> None:
    with LiveServer(settings_for(db)) as server:
        game_id, truth, checks = asyncio.run(play_to_the_end(server, seed=3))
        assert checks > 20
        base = server.base
        info = httpx.get(f"{base}/api/games/{game_id}", timeout=30).json()
        assert info["status"] == "finished" and info["game"] == "toy"
        assert info["result"] == truth.result()
        assert [s["kind"] for s in info["seats"]] == ["human", "human", "bot"]
        # The bot had no game-specific class: alea.bots gave the game's default.
        assert type(server.games.games[game_id].bots[2][1]) is type(bots.for_game("toy", "easy"))

        record = httpx.get(f"{base}/api/games/{game_id}/replay", timeout=30).json()
        assert record["events"] == truth.history and record["result"] == truth.result()
        assert len(record["actors"]) == len(truth.history)
        assert record["actors"][0] == 0  # seat 0's deal is seat 0's
        for step in range(len(truth.history) + 1):
            shown = httpx.get(f"{base}/api/games/{game_id}/replay/{step}", timeout=30).json()
            assert shown["view"] == truth.replay_view(step)
        final = httpx.get(f"{base}/api/games/{game_id}/replay/{len(truth.history)}", timeout=30)
        assert final.json()["view"]["hands"] == truth.hands
        state = httpx.get(f"{base}/api/games/{game_id}/state", timeout=30).json()
        assert state["view"] == truth.view(None) and state["legal"] == []
        history = list(truth.history)

    # A fresh server rebuilds the finished game from its stored log, through the registry.
    with LiveServer(settings_for(db)) as again:
        record = httpx.get(f"{again.base}/api/games/{game_id}/replay", timeout=30).json()
        assert record["events"] == history
        assert again.games.games[game_id].state.result() == truth.result()
