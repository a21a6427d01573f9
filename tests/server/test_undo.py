"""Undo on the server: a seat takes back its own last decision (the rule of alea.undo).

Played over HTTP and the WebSocket by two people on SQLite and PostgreSQL: refusals are
typed (English and Italian), nothing changes on a refusal, the undo survives a restart
(the log is truncated in the database), and no seat learns anything from it.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
import pytest
import websockets

from alea.server import Settings
from tests.server.support import Database, LiveServer, connect, human_game, quick_bots


def _settings(db: Database) -> Settings:
    return Settings(
        database_url=db.url, bot_delay=0.02, bot_factory=quick_bots, sqlite_synchronous="NORMAL"
    )


@pytest.fixture
def server(db: Database) -> Any:
    with LiveServer(_settings(db)) as live:
        yield live


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def state_of(base: str, game_id: str, token: str) -> dict[str, Any]:
    answer = httpx.get(f"{base}/api/games/{game_id}/state", headers=bearer(token), timeout=30)
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def undo(base: str, game_id: str, token: str, version: int, lang: str = "en") -> httpx.Response:
    return httpx.post(
        f"{base}/api/games/{game_id}/undo?lang={lang}",
        json={"version": version},
        headers={**bearer(token), "Accept-Language": lang},
        timeout=30,
    )


def play_to_undoable(
    base: str, game_id: str, tokens: list[str], rng: random.Random
) -> tuple[int, list[dict[str, Any]], str, dict[str, Any]]:
    """Random moves until one can be taken back: (its seat, every seat's state before it,
    the move, the mover's state after it). Placements are checked on the way: after each,
    the next roll has come and the undo is refused with ``undo_chance``."""
    checked_placement = False
    for _ in range(2000):
        before = [state_of(base, game_id, t) for t in tokens]
        mover = next(s for s in before if s["legal"])
        seat = mover["seat"]
        legal = [a for a in mover["legal"] if not a.startswith("R:")] or mover["legal"]
        move = rng.choice(legal)
        answer = httpx.post(
            f"{base}/api/games/{game_id}/actions",
            json={"action": move, "version": mover["version"]},
            headers=bearer(tokens[seat]),
            timeout=30,
        )
        assert answer.status_code == 200, answer.text
        after: dict[str, Any] = answer.json()["state"]
        if after["undo"]:
            assert checked_placement
            return seat, before, move, after
        if move[0] in "TSCFL" and not checked_placement:
            refused = undo(base, game_id, tokens[seat], after["version"])
            assert refused.status_code == 409
            assert refused.json()["error"]["code"] == "undo_chance"
            assert state_of(base, game_id, tokens[seat])["version"] == after["version"]
            checked_placement = True
    raise AssertionError("no decision could be taken back")


def test_undo_over_http_refusals_and_restart(db: Database) -> None:
    rng = random.Random(4)
    settings = _settings(db)
    with LiveServer(settings) as live:
        base = live.base
        game_id, tokens = human_game(base, 2)
        seat, before, move, after = play_to_undoable(base, game_id, tokens, rng)
        other = 1 - seat
        version = after["version"]
        assert version == before[seat]["version"] + 1  # a choice, no chance after it
        # The other seat has nothing of its own to take back; a stale version; a spectator.
        refused = undo(base, game_id, tokens[other], version)
        assert refused.status_code == 409
        assert refused.json()["error"]["code"] in ("undo_others", "undo_chance")
        italian = undo(base, game_id, tokens[other], version, lang="it")
        assert "annullare" in italian.json()["error"]["message"]
        stale = undo(base, game_id, tokens[seat], version - 1)
        assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale_version"
        nobody = httpx.post(f"{base}/api/games/{game_id}/undo", json={"version": version})
        assert nobody.status_code == 403
        bad = httpx.post(
            f"{base}/api/games/{game_id}/undo", json={"version": "x"}, headers=bearer(tokens[seat])
        )
        assert bad.status_code == 422
        assert state_of(base, game_id, tokens[seat])["version"] == version  # nothing changed
        # Rated games refuse it.
        game = live.games.games[game_id]
        game.rated = True
        rated = undo(base, game_id, tokens[seat], version)
        assert rated.status_code == 409 and rated.json()["error"]["code"] == "undo_rated"
        assert state_of(base, game_id, tokens[seat])["undo"] is False
        del game.rated
        # Taken back: every seat sees exactly what it saw before the move.
        done = undo(base, game_id, tokens[seat], version)
        assert done.status_code == 200, done.text
        assert done.json()["version"] == version - 1
        for s, token in enumerate(tokens):
            now = state_of(base, game_id, token)
            for key in ("version", "view", "legal", "log"):
                assert now[key] == before[s][key], (s, key)
        assert move in state_of(base, game_id, tokens[seat])["legal"]
        # Undo twice? The decision before was not this seat's, or chance.
        again = undo(base, game_id, tokens[seat], version - 1)
        assert again.status_code == 409
    # Restart on the same database: the log was truncated, the game is as it stands.
    with LiveServer(settings) as live:
        for s, token in enumerate(tokens):
            now = state_of(live.base, game_id, token)
            for key in ("version", "view", "legal", "log"):
                assert now[key] == before[s][key], (s, key)
        # The game goes on from there: the same move is legal and accepted.
        mover = state_of(live.base, game_id, tokens[seat])
        answer = httpx.post(
            f"{live.base}/api/games/{game_id}/actions",
            json={"action": move, "version": mover["version"]},
            headers=bearer(tokens[seat]),
            timeout=30,
        )
        assert answer.status_code == 200, answer.text


def test_undo_over_the_websocket_resends_the_log(server: LiveServer) -> None:
    rng = random.Random(11)
    base = server.base
    game_id, tokens = human_game(base, 2)
    seat, before, move, after = play_to_undoable(base, game_id, tokens, rng)

    async def run() -> None:
        clients = [await connect(server.ws_base, game_id, t) for t in tokens]
        mine = clients[seat]
        assert mine.messages[-1]["undo"] is True
        assert clients[1 - seat].messages[-1]["undo"] is False
        await clients[1 - seat].send({"type": "undo", "version": after["version"], "id": 3})
        error = await clients[1 - seat].until(lambda m: m["type"] == "error")
        assert error["id"] == 3 and error["code"] in ("undo_others", "undo_chance")
        await mine.send({"type": "undo", "version": after["version"], "id": 7})
        ack = await mine.until(lambda m: m["type"] == "ack")
        assert ack == {"type": "ack", "undo": True, "version": after["version"] - 1, "id": 7}
        for c, b in zip(clients, before, strict=True):
            # The update may come before the ack: look among the messages received first.
            update = next(
                (
                    m
                    for m in c.messages
                    if m["type"] == "update" and m["version"] < after["version"]
                ),
                None,
            ) or await c.until(
                lambda m: m["type"] == "update" and m["version"] == after["version"] - 1
            )
            assert update["log_start"] == 0  # the whole log again: an entry was taken back
            assert c.log == b["log"] and c.view == b["view"]
        # The same move again: the version is the one before the undo, and each client's
        # log (replaced, then appended) is the server's.
        await mine.send({"type": "action", "action": move, "version": mine.version})
        await mine.until(lambda m: m["type"] == "ack")
        for c, token in zip(clients, tokens, strict=True):
            await c.until_version(after["version"])
            assert c.log == state_of(base, game_id, token)["log"]
        # A client reconnecting names the last entry it holds: a stale one (an undo it did
        # not see) gets the whole log again, the server's own only what it lacks.
        have = state_of(base, game_id, tokens[0])["log"]
        stale = [f"{have[-1][0]}x", have[-1][1]]
        for last, start in ((stale, 0), (have[-1], len(have))):
            ws = await websockets.connect(f"{server.ws_base}/ws/games/{game_id}")
            hello = {"type": "hello", "token": tokens[0], "since": len(have), "last": last}
            await ws.send(json.dumps(hello))
            while (message := json.loads(await ws.recv()))["type"] != "update":
                pass
            assert message["log_start"] == start
            await ws.close()
        for c in clients:
            await c.close()

    asyncio.run(run())
