"""Dado Romano with a human referee online (RULES.md B5): the role, the marks, the exchange."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx

import alea.romano as romano
from alea.server import Settings
from tests.server.support import Client, Database, LiveServer, connect, create_game

HUMAN = {"kind": "human"}
BOT = {"kind": "bot"}


def settings_for(db: Database, seed: int = 3) -> Settings:
    return Settings(
        database_url=db.url,
        bot_delay=0.0,
        idle_timeout=0.05,  # so short that any takeover would be allowed, were one possible
        sqlite_synchronous="NORMAL",
        chance_rng=lambda: random.Random(seed),
    )


def post(base: str, path: str, body: Any = None, token: str | None = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.post(f"{base}{path}", json=body or {}, headers=headers, timeout=30)


def error_code(answer: httpx.Response) -> str:
    code: str = answer.json()["error"]["code"]
    return code


def expected_score(view: dict[str, Any], right: bool) -> int:
    """The answering seat's score after the mark, from the figure's table (RULES.md B4)."""
    seat = view["turn_of"]
    score = view["scores"][seat]
    fig = romano.FIGURES[view["figure"]]
    reward = fig.right if right else fig.wrong
    sign = -1 if view["inverted_this_turn"][seat] else 1  # B3: the ceiling inverts changes
    if reward.kind == "add":
        return int(score + sign * reward.amount)
    if reward.kind == "gain-half":
        return int(score + sign * (score // 2))
    if reward.kind == "set":
        return int(reward.amount)
    return int(score)


async def refused(client: Client, message: dict[str, Any]) -> str:
    await client.send(message)
    answer = await client.until(lambda m: m["type"] == "error")
    code: str = answer["code"]
    return code


async def until_mark(players: list[Client], referee: Client, rng: random.Random) -> None:
    """Players make random legal decisions until the referee is to mark an answer."""
    probed = False
    while not referee.legal:
        assert referee.status == "active"
        movers = [c for c in players if c.legal]
        if not movers:  # chance or a bot: wait for the next update
            await referee.until(lambda m: m["type"] == "update")
            continue
        mover = movers[0]
        if not probed:
            # The referee may not make a player's decision, nor type while none is marked.
            assert (
                await refused(
                    referee,
                    {"type": "action", "action": mover.legal[0], "version": referee.version},
                )
                == "not_your_turn"
            )
            assert await refused(referee, {"type": "say", "text": "Too soon"}) == "not_marking"
            probed = True
        action = rng.choice(mover.legal)
        await mover.send({"type": "action", "action": action, "version": mover.version})
        ack = await mover.until(lambda m: m["type"] in ("ack", "error"))
        assert ack["type"] == "ack", ack
        await referee.until_version(ack["version"])
        for c in players:
            await c.until_version(ack["version"])
    assert probed  # the seed gives the players a decision before the first mark


def test_creation_and_validation(db: Database) -> None:
    with LiveServer(settings_for(db)) as server:
        base = server.base
        iacta = post(base, "/api/games", {"seats": [HUMAN, BOT], "referee": "human"})
        assert iacta.status_code == 422 and error_code(iacta) == "bad_referee"
        soft = post(
            base, "/api/games", {"game": "romano", "seats": [HUMAN, BOT], "as_referee": True}
        )
        assert soft.status_code == 422 and error_code(soft) == "bad_referee"
        both = post(
            base,
            "/api/games",
            {
                "game": "romano",
                "seats": [HUMAN, BOT],
                "referee": "human",
                "as_referee": True,
                "claim": 0,
            },
        )
        assert both.status_code == 422 and error_code(both) == "bad_referee"
        unknown = post(
            base, "/api/games", {"game": "romano", "seats": [HUMAN, BOT], "referee": "robot"}
        )
        assert unknown.status_code == 422 and error_code(unknown) == "bad_request"
        it = httpx.post(
            f"{base}/api/games",
            headers={"Accept-Language": "it"},
            json={"seats": [HUMAN, BOT], "referee": "human"},
        )
        assert "arbitro" in it.json()["error"]["message"]

        # Software referee, as before: no referee role at all.
        plain = create_game(base, [HUMAN, BOT], game="romano")
        assert plain["role"] == "player" and plain["game"]["referee"] is None
        no_role = post(base, f"/api/games/{plain['game']['id']}/referee/claim")
        assert no_role.status_code == 409 and error_code(no_role) == "bad_referee"

        # The creator referees a table of bots: it starts at once; the referee has no seat.
        bots = create_game(
            base, [BOT, BOT], game="romano", referee="human", as_referee=True, name="Quintus"
        )
        assert bots["role"] == "referee" and bots["seat"] is None and bots["token"]
        assert bots["game"]["status"] == "active"
        assert without_presence(bots["game"]["referee"]) == {
            "name": "Quintus",
            "claimed": True,
            "connected": False,
        }
        assert all(s["kind"] == "bot" for s in bots["game"]["seats"])
        state = httpx.get(
            f"{base}/api/games/{bots['game']['id']}/state",
            headers={"Authorization": f"Bearer {bots['token']}"},
        ).json()
        assert state["role"] == "referee" and state["seat"] is None
        assert state["view"]["referee"] == "human"
        back = post(base, f"/api/games/{bots['game']['id']}/reclaim", token=bots["token"])
        assert back.status_code == 409 and error_code(back) == "not_allowed"

        # The creator plays; the game waits for its other seat and for the referee.
        game = create_game(base, [HUMAN, HUMAN], game="romano", referee="human", name="Ann")
        game_id = game["game"]["id"]
        assert game["role"] == "player" and game["seat"] == 0
        assert game["game"]["status"] == "open"
        assert game["game"]["referee"]["claimed"] is False
        seat = post(base, f"/api/games/{game_id}/seats/1/claim", {"name": "Bea"})
        assert seat.status_code == 200
        info = httpx.get(f"{base}/api/games/{game_id}").json()
        assert info["status"] == "open" and info["open_seats"] == []
        early = post(
            base,
            f"/api/games/{game_id}/actions",
            {"action": "D:11", "version": 0},
            token=game["token"],
        )
        assert early.status_code == 409 and error_code(early) == "not_started"
        ref = post(base, f"/api/games/{game_id}/referee/claim", {"name": "Marcus\x00 "})
        assert ref.status_code == 200, ref.text
        assert ref.json()["role"] == "referee"
        again = post(base, f"/api/games/{game_id}/referee/claim", {"name": "Other"})
        assert again.status_code == 409 and error_code(again) == "referee_taken"
        info = httpx.get(f"{base}/api/games/{game_id}").json()
        assert info["status"] == "active"
        assert without_presence(info["referee"]) == {
            "name": "Marcus",
            "claimed": True,
            "connected": False,
        }

        # Bots never referee: filling the free seats leaves the game open for the referee.
        open_ = create_game(base, [HUMAN, HUMAN], game="romano", referee="human")
        filled = post(base, f"/api/games/{open_['game']['id']}/fill-bots", {}, token=open_["token"])
        assert filled.status_code == 200
        assert filled.json()["status"] == "open" and filled.json()["open_seats"] == []
        # ... and the referee may fill seats too, which starts a table it referees.
        refd = create_game(base, [HUMAN, HUMAN], game="romano", referee="human", as_referee=True)
        assert refd["game"]["status"] == "open"
        started = post(base, f"/api/games/{refd['game']['id']}/fill-bots", {}, token=refd["token"])
        assert started.json()["status"] == "active"


async def referee_flow(server: LiveServer) -> dict[str, Any]:
    """Two players and a referee reach a mark; the exchange is typed; returns the ids."""
    base = server.base
    created = create_game(base, [HUMAN, HUMAN], game="romano", referee="human", name="Ann")
    game_id = created["game"]["id"]
    tokens = [created["token"]]
    tokens.append(
        post(base, f"/api/games/{game_id}/seats/1/claim", {"name": "Bea"}).json()["token"]
    )
    referee_token = post(base, f"/api/games/{game_id}/referee/claim", {"name": "Marcus"}).json()[
        "token"
    ]
    players = [await connect(server.ws_base, game_id, t) for t in tokens]
    referee = await connect(server.ws_base, game_id, referee_token)
    watcher = await connect(server.ws_base, game_id, None)
    assert referee.seat is None
    welcome = next(m for m in referee.messages if m["type"] == "welcome")
    assert welcome["role"] == "referee"
    assert referee.messages[-1]["role"] == "referee" and players[0].messages[-1]["role"] == (
        "player"
    )
    await until_mark(players, referee, random.Random(4))

    view = referee.view
    assert view is not None and view["phase"] == "mark" and view["seat"] is None
    assert referee.legal == ["mark:right", "mark:wrong"]
    assert all(not c.legal for c in players)
    answering = players[view["turn_of"]]
    other = players[1 - view["turn_of"]]
    update = referee.messages[-1]
    assert update["exchange"] == {
        "seat": view["turn_of"],
        "kind": view["item_kind"],
        "posed": None,
        "answer": None,
    }
    assert update["takeover_at"] is None  # nobody is "idle": the table waits for the referee

    # Only the referee marks; the referee only marks.
    for player in players:
        code = await refused(
            player, {"type": "action", "action": "mark:right", "version": player.version}
        )
        assert code == "not_your_turn"
    assert (
        await refused(referee, {"type": "action", "action": "A:1", "version": referee.version})
        == "illegal_action"
    )
    assert (
        await refused(referee, {"type": "action", "action": "roll:3", "version": referee.version})
        == "illegal_action"
    )
    # No bot may be handed the answering seat (it is not its decision), however long it waits.
    await asyncio.sleep(0.1)
    assert await refused(other, {"type": "takeover", "seat": answering.seat}) == "not_idle"

    # The exchange: the referee poses, the answering player answers; nobody else types.
    await referee.send({"type": "say", "text": "  What walks on four legs\n in the morning?\x07 "})
    msg = await watcher.until(
        lambda m: m["type"] == "update" and m["exchange"] and m["exchange"]["posed"]
    )
    assert msg["exchange"]["posed"] == "What walks on four legs in the morning?"
    assert await refused(other, {"type": "say", "text": "Me!"}) == "not_your_turn"
    assert await refused(watcher, {"type": "say", "text": "Me!"}) == "spectator"
    assert await refused(answering, {"type": "say", "text": " \n\t"}) == "malformed"
    await answering.send({"type": "say", "text": "Man " + "x" * 400})
    msg = await referee.until(lambda m: m["type"] == "update" and m["exchange"]["answer"])
    assert msg["exchange"]["answer"] == ("Man " + "x" * 400)[:280]
    # The HTTP twin, with the referee's token: the referee retypes the riddle.
    said = post(
        base, f"/api/games/{game_id}/say", {"text": "What walks on four legs?"}, token=referee_token
    )
    assert said.status_code == 200, said.text
    assert said.json()["role"] == "referee" and said.json()["legal"] == referee.legal
    assert said.json()["exchange"]["posed"] == "What walks on four legs?"
    assert said.json()["exchange"]["answer"] == msg["exchange"]["answer"]
    for c in [*players, referee, watcher]:
        await c.close()
    return {"id": game_id, "tokens": tokens, "referee": referee_token, "view": view}


async def after_restart(server: LiveServer, ctx: dict[str, Any]) -> None:
    """The referee's token and the exchange survive the restart; marking scores the figure."""
    referee = await connect(server.ws_base, ctx["id"], ctx["referee"])
    player = await connect(server.ws_base, ctx["id"], ctx["tokens"][ctx["view"]["turn_of"]])
    update = referee.messages[-1]
    assert update["role"] == "referee" and referee.legal == ["mark:right", "mark:wrong"]
    assert update["exchange"]["posed"] == "What walks on four legs?"
    assert update["exchange"]["answer"].startswith("Man xxx")
    assert without_presence(update["referee"]) == {
        "name": "Marcus",
        "claimed": True,
        "connected": True,
    }
    assert update["referee"]["away_since"] is None
    view = referee.view
    assert view is not None and view["scores"] == ctx["view"]["scores"]
    seat = view["turn_of"]
    want = expected_score(view, right=True)
    assert romano.FIGURES[view["figure"]].right.kind != "nothing"  # the seed makes it count
    assert want != view["scores"][seat]
    await referee.send(
        {"type": "action", "action": "mark:right", "version": referee.version, "id": "m"}
    )
    ack = await referee.until(lambda m: m["type"] in ("ack", "error"))
    assert ack["type"] == "ack" and ack["id"] == "m", ack
    await player.until_version(ack["version"])
    # The dice of the next turn follow at once (chance is drawn with the move), so the
    # score right after the mark is read from the log the player was sent.
    upto = romano.new_game(2, referee="human", paced=True)
    for event, _actor in player.log[: ack["index"] + 1]:
        upto.apply(event)
    assert upto.scores[seat] == want
    assert player.log[ack["index"]] == ["mark:right", seat]  # the mark is the answerer's event
    assert player.messages[-1]["exchange"] is None  # the exchange ended with its mark
    for c in (referee, player):
        await c.close()


def test_referee_marks_over_websocket_and_survives_restart(db: Database) -> None:
    with LiveServer(settings_for(db)) as server:
        ctx = asyncio.run(referee_flow(server))
        game = server.games.games[ctx["id"]]
        assert game.state.referee == "human" and game.exchange is not None
    with LiveServer(settings_for(db, seed=12)) as server:
        rebuilt = server.games.games[ctx["id"]]
        assert rebuilt.referee == "human" and rebuilt.state.phase == "mark"
        asyncio.run(after_restart(server, ctx))
        stored = server.games.store.events(ctx["id"])
        assert [e for _, e, _ in stored] == rebuilt.state.history
        # The rebuilt log replays with a human referee (the engine's own check).
        replayed = romano.new_game(2, referee="human", paced=True)
        for event in rebuilt.state.history:
            replayed.apply(event)
        assert replayed.scores == rebuilt.state.scores


async def bots_wait_for_the_referee(server: LiveServer) -> None:
    created = create_game(
        server.base, [BOT, BOT, BOT], game="romano", referee="human", as_referee=True
    )
    referee = await connect(server.ws_base, created["game"]["id"], created["token"])
    for _ in range(2):  # two marks in a row: the bots go on after each one
        while not referee.legal:
            await referee.until(lambda m: m["type"] == "update")
        version = referee.version
        await asyncio.sleep(0.1)  # bot_delay is 0: any bot move would have happened by now
        assert referee.version == version and referee.legal
        await referee.send({"type": "action", "action": "mark:wrong", "version": version})
        await referee.until(lambda m: m["type"] == "ack")
    await referee.close()


def test_bots_never_referee(sqlite_db: Database) -> None:
    with LiveServer(settings_for(sqlite_db)) as server:
        asyncio.run(bots_wait_for_the_referee(server))


def without_presence(role: dict[str, Any]) -> dict[str, Any]:
    """The referee role without its presence time (``away_since``, asserted elsewhere)."""
    assert "away_since" in role
    return {k: v for k, v in role.items() if k != "away_since"}
