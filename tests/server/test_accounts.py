"""Accounts over HTTP and the WebSocket: sign up, play, sign in elsewhere, resume the seat.

Every test runs against a live server on SQLite and on PostgreSQL (when
configured). Guests are untouched by accounts (the rest of tests/server plays
without one); here a guest's seats join an account and resume from a second
"device" (a client with its own cookie jar) by the session cookie alone.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from sqlalchemy import create_engine, text

from alea.server.tables import migrate
from tests.server.accounts_support import PASSWORD, Browser, cookie_socket, live
from tests.server.support import Database, ShiftedClock, create_game, human_game, migrated_from
from tests.server.test_storage import only_head


def legal_of(answer: httpx.Response) -> list[str]:
    assert answer.status_code == 200, answer.text
    legal: list[str] = answer.json()["legal"]
    return legal


def until_turn_of_account(device: Browser, game_id: str, other_token: str) -> dict[str, Any]:
    """Let seat 1 (a guest, by token) move until the account's seat 0 has a decision."""
    for _ in range(200):
        mine = device.get(f"/api/games/{game_id}/state")
        if legal_of(mine):
            state: dict[str, Any] = mine.json()
            return state
        theirs = httpx.get(
            f"{device.base}/api/games/{game_id}/state",
            headers={"Authorization": f"Bearer {other_token}"},
        )
        body = theirs.json()
        if body["legal"]:
            acted = httpx.post(
                f"{device.base}/api/games/{game_id}/actions",
                json={"action": body["legal"][0], "version": body["version"]},
                headers={"Authorization": f"Bearer {other_token}"},
            )
            assert acted.status_code == 200, acted.text
    raise AssertionError("seat 0 never had a decision")


def test_sign_up_play_then_resume_the_seat_on_a_second_device(db: Database) -> None:
    with live(db.url) as server:
        game_id, tokens = human_game(server.base, 2)
        phone = Browser(server.base)
        # A guest holding seat 0 signs up: the seat's token joins the account.
        answer = phone.sign_up("Marco", seats=[{"game_id": game_id, "token": tokens[0]}])
        assert answer.status_code == 201, answer.text
        assert answer.json()["user"]["name"] == "Marco"
        assert answer.json()["linked"] == [{"game_id": game_id, "seat": 0}]
        state = until_turn_of_account(phone, game_id, tokens[1])
        assert state["seat"] == 0 and state["role"] == "player"
        # Play from the first device with the cookie (and the CSRF token): no seat token.
        acted = phone.post(
            f"/api/games/{game_id}/actions",
            {"action": state["legal"][0], "version": state["version"]},
        )
        assert acted.status_code == 200, acted.text
        assert acted.json()["state"]["seat"] == 0

        # A second device that never saw the seat token: sign in, find the game, resume.
        laptop = Browser(server.base)
        assert laptop.sign_in("marco").status_code == 200  # names are case-insensitive
        games = laptop.get("/api/me/games").json()
        assert [(g["game"]["id"], g["seat"]) for g in games] == [(game_id, 0)]
        assert laptop.get(f"/api/games/{game_id}/state").json()["seat"] == 0

        async def resume() -> None:
            client, welcome = await cookie_socket(server, game_id, laptop.cookie())
            assert welcome["type"] == "welcome", welcome
            assert welcome["seat"] == 0 and welcome["role"] == "player"
            await client.until(lambda m: m["type"] == "update")
            # Watching stays possible while signed in.
            watcher, watching = await cookie_socket(
                server, game_id, laptop.cookie(), hello={"watch": True}
            )
            assert watching["seat"] is None and watching["role"] == "spectator"
            await watcher.close()
            await client.close()

        asyncio.run(resume())
        phone.close()
        laptop.close()


def test_a_signed_in_player_s_new_seats_join_the_account(db: Database) -> None:
    with live(db.url) as server:
        me = Browser(server.base)
        assert me.sign_up("Giulia").status_code == 201
        created = me.post("/api/games", {"seats": [{"kind": "human"}, {"kind": "human"}]})
        assert created.status_code == 201, created.text
        first = created.json()["game"]["id"]
        other = create_game(server.base, [{"kind": "human"}, {"kind": "human"}], sit=False)
        second = other["game"]["id"]
        claimed = me.post(f"/api/games/{second}/seats/1/claim", {"name": "Giulia"})
        assert claimed.status_code == 200, claimed.text
        found = {(g["game"]["id"], g["seat"]) for g in me.get("/api/me/games").json()}
        assert found == {(first, 0), (second, 1)}
        # A guest seat joined later by its token, as the lobby does for a stored one.
        guest_game, guest_tokens = human_game(server.base, 2)
        linked = me.post("/api/me/seats", {"game_id": guest_game, "token": guest_tokens[1]})
        assert linked.status_code == 200, linked.text
        assert linked.json() == {"game_id": guest_game, "seat": 1}
        assert len(me.get("/api/me/games").json()) == 3
        me.close()


def test_sign_out_everywhere_and_password_change_end_sessions(db: Database) -> None:
    with live(db.url) as server:
        one, two, three = (Browser(server.base) for _ in range(3))
        assert one.sign_up("Lucia").status_code == 201
        assert two.sign_in("Lucia").status_code == 200
        assert three.sign_in("Lucia").status_code == 200
        # Changing the password keeps this session and ends every other.
        bad = one.post("/api/account/password", {"current": "wrong password", "new": "x" * 12})
        assert bad.status_code == 401 and bad.json()["error"]["code"] == "bad_credentials"
        changed = one.post("/api/account/password", {"current": PASSWORD, "new": "new secret 42"})
        assert changed.status_code == 200, changed.text
        assert one.me()["user"]["name"] == "Lucia"
        assert two.me()["user"] is None and three.me()["user"] is None
        assert two.sign_in("Lucia").status_code == 401
        assert two.sign_in("Lucia", "new secret 42").status_code == 200
        # Sign out here: the cookie, even replayed by hand, opens nothing any more.
        kept = one.cookie()
        assert one.post("/api/account/logout").status_code == 200
        assert one.me()["user"] is None
        replay = httpx.get(f"{server.base}/api/me", cookies={"alea_session": kept})
        assert replay.json()["user"] is None
        # Sign out everywhere from the second device ends the third's session too.
        assert three.sign_in("Lucia", "new secret 42").status_code == 200
        assert two.post("/api/account/logout-all").status_code == 200
        assert two.me()["user"] is None and three.me()["user"] is None
        for device in (one, two, three):
            device.close()


def test_user_names_are_checked_and_unique_case_insensitively(db: Database) -> None:
    with live(db.url) as server:
        device = Browser(server.base)
        for name in ("ab", "x" * 25, "1abc", "with space", "Cicero", "bot", "Bot_7", "admin"):
            answer = device.sign_up(name)
            assert answer.status_code == 422, (name, answer.text)
            assert answer.json()["error"]["code"] == "bad_name"
        short = device.sign_up("Aurelio", "short")
        assert short.json()["error"]["code"] == "bad_password"
        same = device.sign_up("Aurelio", "aurelio")
        assert same.json()["error"]["code"] == "bad_password"
        assert device.sign_up("Aurelio").status_code == 201
        again = Browser(server.base).sign_up("AURELIO")
        assert again.status_code == 409 and again.json()["error"]["code"] == "name_taken"
        italian = httpx.post(
            f"{server.base}/api/account/signup",
            json={"name": "aurelio", "password": PASSWORD},
            headers={"Accept-Language": "it"},
        )
        assert "già preso" in italian.json()["error"]["message"]
        device.close()


def test_sessions_expire(sqlite_db: Database) -> None:
    clock = ShiftedClock()
    with live(sqlite_db.url, clock=clock, session_days=1.0) as server:
        device = Browser(server.base)
        assert device.sign_up("Flavia").status_code == 201
        assert device.me()["user"] is not None
        clock.advance(86400 + 1)
        assert device.me()["user"] is None
        device.close()


def test_an_older_database_upgrades_in_place(db: Database) -> None:
    engine = migrated_from(
        db.url,
        "0004",
        "INSERT INTO games (id, players, status, public, title, created_at, updated_at,"
        " version, result, game, referee) VALUES ('old', 2, 'open', true, '', 0, 0, 0, NULL,"
        " 'iacta', 'software')",
    )
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO seats (game_id, seat, kind, level, name, token_hash, replaced)"
                " VALUES ('old', 0, 'human', NULL, 'A', NULL, false)"
            )
        )
    migrate(engine)  # idempotent
    with engine.connect() as conn:
        assert conn.execute(text("SELECT user_id FROM seats")).scalar() is None
        assert conn.execute(text("SELECT count(*) FROM users")).scalar() == 0
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == only_head()
    engine.dispose()


def test_the_cookie_key_is_made_once_and_kept(sqlite_db: Database) -> None:
    with live(sqlite_db.url) as server:
        device = Browser(server.base)
        assert device.sign_up("Tullia").status_code == 201
        cookie = device.cookie()
        device.close()
    engine = create_engine(sqlite_db.url)
    with engine.connect() as conn:
        keys = conn.execute(text("SELECT name, value FROM server_keys")).all()
    engine.dispose()
    assert [k.name for k in keys] == ["cookie_secret"] and len(keys[0].value) >= 64
    # A restart reads the same key: the session survives it.
    with live(sqlite_db.url) as server:
        answer = httpx.get(f"{server.base}/api/me", cookies={"alea_session": cookie})
        assert answer.json()["user"]["name"] == "Tullia"
