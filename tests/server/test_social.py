"""Table talk: chat channels, its limits and storage, presence, and the rematch.

Also the seat security that goes with them: nobody speaks, reads or answers a
rematch for a seat they do not hold (seat token or signed-in account), and a
cookie-authenticated change needs the CSRF token.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx

from alea.server import Settings
from tests.server.accounts_support import Browser, cookie_socket
from tests.server.support import (
    Client,
    Database,
    LiveServer,
    connect,
    create_game,
    human_game,
    quick_bots,
)

XSS = "<img src=x onerror=alert(1)>"


def settings(db: Database, **extra: Any) -> Settings:
    options: dict[str, Any] = {
        "database_url": db.url,
        "bot_delay": 0.0,
        "bot_factory": quick_bots,
        "sqlite_synchronous": "NORMAL",
        "idle_timeout": 600,
    }
    options.update(extra)
    return Settings(**options)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def code(answer: httpx.Response) -> str:
    return str(answer.json()["error"]["code"])


async def chat_lines(client: Client, count: int, timeout: float = 10.0) -> list[dict[str, Any]]:
    """The next ``count`` chat lines this client hears."""
    lines: list[dict[str, Any]] = []
    while len(lines) < count:
        msg = await client.until(lambda m: m["type"] == "chat", timeout)
        lines.extend(msg["lines"])
    return lines


async def nothing_more(client: Client, kind: str, wait: float = 0.5) -> None:
    """Assert that no message of ``kind`` arrives within ``wait`` seconds."""
    try:
        msg = await client.until(lambda m: m["type"] == kind, wait)
    except TimeoutError:
        return
    raise AssertionError(f"unexpected {kind}: {msg}")


def play_out(base: str, game_id: str, tokens: list[str], seed: int = 3) -> None:
    """Play random legal moves for every seat over HTTP until the game is over."""
    rng = random.Random(seed)
    url = f"{base}/api/games/{game_id}"
    with httpx.Client(timeout=30) as http:
        for _ in range(5000):
            moved = False
            for token in tokens:
                state = http.get(f"{url}/state", headers=bearer(token)).json()
                if state["status"] == "finished":
                    return
                if state["legal"]:
                    body = {"action": rng.choice(state["legal"]), "version": state["version"]}
                    http.post(f"{url}/actions", json=body, headers=bearer(token))
                    moved = True
            if not moved:
                time.sleep(0.01)
    raise AssertionError("the game did not finish")


def finished_human_game(base: str) -> tuple[str, list[str]]:
    game_id, tokens = human_game(base, 2)
    play_out(base, game_id, tokens)
    return game_id, tokens


# ------------------------------------------------------------------------ chat


def test_players_chat_stays_with_players_and_spectators_chat_reaches_everyone(
    db: Database,
) -> None:
    async def run(server: LiveServer) -> tuple[str, list[str]]:
        game_id, tokens = human_game(server.base, 2)
        players = [await connect(server.ws_base, game_id, t) for t in tokens]
        watcher = await connect(server.ws_base, game_id, None)
        await players[0].send({"type": "chat", "text": f"  ciao {XSS}\n"})
        for p in players:
            (line,) = await chat_lines(p, 1)
            # Stored and sent as the plain text it was (cleaned of line breaks), never
            # escaped or interpreted: the page shows it with textContent.
            assert line["text"] == f"ciao {XSS}"
            assert line["channel"] == "players" and line["seat"] == 0
            assert line["name"] == "Seat 0" and line["role"] == "player"
            assert line["step"] == players[0].version
        await nothing_more(watcher, "chat")
        await watcher.send({"type": "chat", "text": "forza rosso", "name": "Tifoso"})
        for c in [*players, watcher]:
            (line,) = await chat_lines(c, 1)
            assert line["channel"] == "spectators" and line["seat"] is None
            assert line["role"] == "spectator" and line["name"] == "Tifoso"
        for c in [*players, watcher]:
            await c.close()
        return game_id, tokens

    with LiveServer(settings(db)) as server:
        game_id, tokens = asyncio.run(run(server))
    # Kept with the game: a restarted server reads the same lines back, each role its own.
    with LiveServer(settings(db)) as server:
        url = f"{server.base}/api/games/{game_id}/chat"
        seen = httpx.get(url, headers=bearer(tokens[1])).json()
        assert [(x["channel"], x["text"]) for x in seen] == [
            ("players", f"ciao {XSS}"),
            ("spectators", "forza rosso"),
        ]
        assert [x["text"] for x in httpx.get(url).json()] == ["forza rosso"]

        async def hello() -> dict[str, Any]:
            client = await connect(server.ws_base, game_id, None)
            welcome = next(m for m in client.messages if m["type"] == "welcome")
            await client.close()
            return welcome

        assert [x["text"] for x in asyncio.run(hello())["chat"]] == ["forza rosso"]


def test_chat_refusals_are_typed_and_change_nothing(sqlite_db: Database) -> None:
    with LiveServer(settings(sqlite_db, chat_rate="3/10 seconds")) as server:
        game_id, tokens = human_game(server.base, 2)
        url = f"{server.base}/api/games/{game_id}/chat"
        cases = [
            ({"text": "x" * 301}, bearer(tokens[0]), 422, "chat_too_long"),
            ({"text": " \n\t "}, bearer(tokens[0]), 422, "chat_empty"),
            ({"text": "hi"}, bearer("not-a-token"), 403, "bad_token"),
            # The seat is the credential's, never the body's.
            ({"text": "hi", "seat": 1}, bearer(tokens[0]), 422, "bad_request"),
        ]
        for body, headers, status, expected in cases:
            answer = httpx.post(url, json=body, headers=headers)
            assert (answer.status_code, code(answer)) == (status, expected), answer.text
        it = httpx.post(
            url, json={"text": "x" * 301}, headers={**bearer(tokens[0]), "Accept-Language": "it"}
        )
        assert "al massimo 300 caratteri" in it.json()["error"]["message"]
        assert httpx.get(url, headers=bearer(tokens[0])).json() == []
        # Exactly 300 characters are fine; the rate limit counts per seat.
        for n in range(3):
            answer = httpx.post(url, json={"text": "y" * 300}, headers=bearer(tokens[0]))
            assert answer.status_code == 201 and answer.json()["idx"] == n
        too_fast = httpx.post(url, json={"text": "again"}, headers=bearer(tokens[0]))
        assert too_fast.status_code == 429 and code(too_fast) == "chat_too_fast"
        assert int(too_fast.headers["Retry-After"]) >= 1
        other = httpx.post(url, json={"text": "my turn"}, headers=bearer(tokens[1]))
        assert other.status_code == 201 and other.json()["seat"] == 1
        assert len(httpx.get(url, headers=bearer(tokens[1])).json()) == 4

        async def socket_refusal() -> dict[str, Any]:
            client = await connect(server.ws_base, game_id, tokens[1])
            await client.send({"type": "chat", "text": 5, "id": 9})
            error = await client.until(lambda m: m["type"] == "error")
            await client.close()
            return error

        error = asyncio.run(socket_refusal())
        assert error["code"] == "malformed" and error["id"] == 9


# -------------------------------------------------------------------- presence


def test_presence_shows_who_is_connected_and_since_when_others_are_away(
    sqlite_db: Database,
) -> None:
    async def run(server: LiveServer) -> None:
        game_id, tokens = human_game(server.base, 2)
        first = await connect(server.ws_base, game_id, tokens[0])
        seats = first.messages[-1]["seats"]
        assert seats[0]["connected"] and seats[0]["away_since"] is None
        # Seat 1 was claimed over HTTP and never connected: not connected, no "since".
        assert not seats[1]["connected"] and seats[1]["away_since"] is None
        second = await connect(server.ws_base, game_id, tokens[1])
        await first.until(lambda m: m["type"] == "update" and m["seats"][1]["connected"])
        watcher = await connect(server.ws_base, game_id, None)
        update = await first.until(lambda m: m["type"] == "update" and m["spectators"] == 1)
        assert update["seats"][1]["connected"]
        before = time.time()
        await second.close()
        update = await first.until(
            lambda m: m["type"] == "update" and not m["seats"][1]["connected"]
        )
        away = update["seats"][1]["away_since"]
        assert away is not None and before - 1 <= away <= time.time() + 1
        # Everyone at the table sees it, spectators too (it is the public state).
        seen = await watcher.until(
            lambda m: m["type"] == "update" and not m["seats"][1]["connected"]
        )
        assert seen["seats"][1]["away_since"] == away
        back = await connect(server.ws_base, game_id, tokens[1])
        update = await first.until(lambda m: m["type"] == "update" and m["seats"][1]["connected"])
        assert update["seats"][1]["away_since"] is None
        for c in (first, watcher, back):
            await c.close()

    with LiveServer(settings(sqlite_db)) as server:
        asyncio.run(run(server))


# --------------------------------------------------------------------- rematch


def test_a_rematch_keeps_the_seats_and_points_everyone_to_the_new_game(db: Database) -> None:
    async def run(server: LiveServer) -> None:
        game_id, tokens = finished_human_game(server.base)
        url = f"{server.base}/api/games/{game_id}"
        players = [await connect(server.ws_base, game_id, t) for t in tokens]
        watcher = await connect(server.ws_base, game_id, None)
        proposed = httpx.post(f"{url}/rematch", json={}, headers=bearer(tokens[0]))
        assert proposed.status_code == 200, proposed.text
        offer = proposed.json()
        assert offer["by"] == 0 and offer["accepted"] == [0] and offer["asked"] == [0, 1]
        assert offer["game"] is None
        seen = await watcher.until(lambda m: m["type"] == "update" and m["rematch"])
        assert seen["rematch"]["accepted"] == [0]
        await players[1].send({"type": "rematch", "accept": True})
        made = await watcher.until(
            lambda m: m["type"] == "update" and (m["rematch"] or {}).get("game")
        )
        new_id = made["rematch"]["game"]
        assert new_id != game_id and made["rematch"]["accepted"] == [0, 1]
        # The same tokens open the same seats of the new game, which has begun.
        for seat, token in enumerate(tokens):
            state = httpx.get(
                f"{server.base}/api/games/{new_id}/state", headers=bearer(token)
            ).json()
            assert state["seat"] == seat and state["status"] == "active"
            assert state["seats"][seat]["kind"] == "human"
        again = httpx.post(f"{url}/rematch", json={}, headers=bearer(tokens[1]))
        assert again.status_code == 409 and code(again) == "rematch_made"
        for c in [*players, watcher]:
            await c.close()

    with LiveServer(settings(db)) as server:
        asyncio.run(run(server))


def test_seats_that_do_not_answer_go_to_bots_when_the_minute_is_up(sqlite_db: Database) -> None:
    with LiveServer(settings(sqlite_db, rematch_timeout=0.5)) as server:
        game_id, tokens = finished_human_game(server.base)
        url = f"{server.base}/api/games/{game_id}"
        assert httpx.post(f"{url}/rematch", json={}, headers=bearer(tokens[1])).status_code == 200
        offer: dict[str, Any] = {}
        for _ in range(200):
            offer = httpx.get(f"{url}/state").json()["rematch"]
            if offer["game"]:
                break
            time.sleep(0.05)
        new_id = offer["game"]
        assert new_id and offer["accepted"] == [1]
        new = httpx.get(f"{server.base}/api/games/{new_id}").json()
        assert new["status"] in ("active", "finished")
        assert new["seats"][0]["kind"] == "bot" and new["seats"][1]["kind"] == "human"
        # Seat 0's token opens nothing in the new game: the seat went to a bot.
        refused = httpx.get(f"{server.base}/api/games/{new_id}/state", headers=bearer(tokens[0]))
        assert refused.status_code == 403 and code(refused) == "bad_token"


def test_nobody_answers_a_rematch_for_another_seat(sqlite_db: Database) -> None:
    with LiveServer(settings(sqlite_db)) as server:
        early_id, early_tokens = human_game(server.base, 2)
        early = httpx.post(
            f"{server.base}/api/games/{early_id}/rematch", json={}, headers=bearer(early_tokens[0])
        )
        assert early.status_code == 409 and code(early) == "rematch_too_soon"
        game_id, tokens = finished_human_game(server.base)
        other_id, other_tokens = human_game(server.base, 2)
        url = f"{server.base}/api/games/{game_id}/rematch"
        refusals = [
            ({}, {}, 403, "spectator"),
            ({}, bearer(other_tokens[1]), 403, "bad_token"),  # another game's seat
            ({"accept": True, "seat": 1}, bearer(tokens[0]), 422, "bad_request"),
            ({"accept": False}, bearer(tokens[1]), 409, "no_rematch"),
        ]
        for body, headers, status, expected in refusals:
            answer = httpx.post(url, json=body, headers=headers)
            assert (answer.status_code, code(answer)) == (status, expected), answer.text
        assert httpx.get(f"{server.base}/api/games/{game_id}/state").json()["rematch"] is None
        assert httpx.post(url, json={}, headers=bearer(tokens[0])).json()["accepted"] == [0]
        # Seat 0 answering again (even "for" seat 1 through the socket) only moves seat 0.

        async def socket_answer() -> dict[str, Any]:
            client = await connect(server.ws_base, game_id, tokens[0])
            await client.send({"type": "rematch", "accept": False, "seat": 1})
            update = await client.until(
                lambda m: m["type"] == "update" and m["rematch"] and m["rematch"]["declined"]
            )
            await client.close()
            return dict(update["rematch"])

        offer = asyncio.run(socket_answer())
        assert offer["declined"] == [0] and offer["accepted"] == [] and offer["game"] is None
        assert httpx.get(f"{server.base}/api/games/{other_id}").json()["status"] == "active"


# ------------------------------------------------------ accounts and the CSRF rule


def test_a_signed_in_player_speaks_and_answers_only_for_the_seat_they_hold(
    sqlite_db: Database,
) -> None:
    with LiveServer(settings(sqlite_db)) as server:
        me = Browser(server.base)
        assert me.sign_up("Marcus").status_code == 201
        game_id, tokens = finished_human_game(server.base)
        assert me.post("/api/me/seats", {"game_id": game_id, "token": tokens[0]}).status_code == 200
        chat = f"/api/games/{game_id}/chat"
        rematch = f"/api/games/{game_id}/rematch"
        # No CSRF token (or another site's page): refused, nothing said or proposed.
        for headers in ({}, {"X-CSRF-Token": "x" * 43}, {"Origin": "https://evil.example"}):
            for path, body in ((chat, {"text": "hi"}), (rematch, {})):
                if "Origin" in headers:
                    answer = me.post(path, body, **headers)
                else:
                    answer = me.http.post(path, json=body, headers=headers)
                assert answer.status_code == 403 and code(answer) == "csrf", (path, headers)
        # The other seat, asked for by number: refused.
        for path, body in ((chat, {"text": "hi"}), (rematch, {})):
            answer = me.post(path, body, **{"X-Alea-Seat": "1"})
            assert answer.status_code == 403 and code(answer) == "bad_token"
        assert me.get(chat).json() == []
        # Reading as the other seat is refused too; a bare session reads as its own seat.
        peek = me.get(chat, **{"X-Alea-Seat": "1"})
        assert peek.status_code == 403 and code(peek) == "bad_token"
        assert (
            httpx.post(
                f"{server.base}{chat}", json={"text": "seat 1 only"}, headers=bearer(tokens[1])
            ).status_code
            == 201
        )
        assert [x["text"] for x in me.get(chat).json()] == ["seat 1 only"]
        assert httpx.get(f"{server.base}/api/games/{game_id}/state").json()["rematch"] is None
        said = me.post(chat, {"text": "gg"})
        assert said.status_code == 201 and said.json()["seat"] == 0
        assert said.json()["idx"] == 1
        offer = me.post(rematch, {}).json()
        assert offer["accepted"] == [0]
        accepted = httpx.post(f"{server.base}{rematch}", json={}, headers=bearer(tokens[1]))
        new_id = accepted.json()["game"]
        assert new_id
        # The account's link came along: its games list the new one, seat 0.
        mine = {(g["game"]["id"], g["seat"]) for g in me.get("/api/me/games").json()}
        assert (new_id, 0) in mine and (new_id, 1) not in mine

        async def cookie_chat() -> None:
            client, welcome = await cookie_socket(server, new_id, me.cookie())
            assert welcome["type"] == "welcome" and welcome["seat"] == 0
            await client.send({"type": "chat", "text": "again!"})
            (line,) = await chat_lines(client, 1)
            assert line["seat"] == 0 and line["channel"] == "players"
            await client.close()
            # A socket from another site's page cannot use the cookie at all.
            _, refused = await cookie_socket(
                server, new_id, me.cookie(), origin="https://evil.example"
            )
            assert refused["type"] == "error" and refused["code"] == "csrf"

        asyncio.run(cookie_chat())
        me.close()


def test_spectators_cannot_read_players_chat_of_a_finished_game(sqlite_db: Database) -> None:
    with LiveServer(settings(sqlite_db)) as server:
        created = create_game(server.base, [{"kind": "human"}, {"kind": "bot"}], name="Ann")
        game_id, token = created["game"]["id"], created["token"]
        url = f"{server.base}/api/games/{game_id}/chat"
        assert (
            httpx.post(url, json={"text": "secret plan"}, headers=bearer(token)).status_code == 201
        )
        assert httpx.get(url).json() == []
        assert [x["text"] for x in httpx.get(url, headers=bearer(token)).json()] == ["secret plan"]
