"""Rated tables, ratings updated once per finished game, the leaderboard and profiles."""

from __future__ import annotations

import random

import httpx
import pytest
from sqlalchemy import create_engine, text

from alea.server.rating_store import op_rate_game
from alea.server.ratings import BOT_SIGMA, BOT_STRENGTH, Entrant, bot_entrant, places, rate
from tests.server.accounts_support import Browser, live
from tests.server.ratings_support import counts, play_out, rated_table, run, seated
from tests.server.support import Database, connect, create_game, migrated_from

HUMANS_AND_BOTS = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}]


def code(answer: httpx.Response) -> str:
    return str(answer.json()["error"]["code"])


# ------------------------------------------------------------------ the model


def test_places_put_winners_first_and_share_ties() -> None:
    assert places({"scores": [10, 7, 10, 3], "winners": [2], "tiebreaks": [1, 0, 2, 0]}) == [
        2,
        3,
        1,
        4,
    ]
    assert places({"scores": [5, 5, 1], "winners": [0, 1]}) == [1, 1, 3]


def test_bots_are_fixed_entrants_and_a_stronger_bot_is_worth_more() -> None:
    assert bot_entrant(2, "expert") == Entrant(2, None, BOT_STRENGTH["expert"], BOT_SIGMA)
    assert BOT_STRENGTH == {"easy": 18.0, "medium": 25.0, "hard": 32.0, "expert": 36.0}
    result = {"scores": [9, 1], "winners": [0]}
    new = Entrant(0, "a", 25.0, 25.0 / 3)
    beat_easy = rate([new, bot_entrant(1, "easy")], result)
    beat_expert = rate([new, bot_entrant(1, "expert")], result)
    assert [c.user_id for c in beat_easy] == ["a"]  # the bot gets no change
    assert beat_expert[0].mu_after > beat_easy[0].mu_after > 25.0
    lost = rate([new, bot_entrant(1, "easy")], {"scores": [1, 9], "winners": [1]})
    assert lost[0].mu_after < 25.0 and not lost[0].won


# ---------------------------------------------------------------- rated tables


def test_rated_tables_are_for_accounts_only(db: Database) -> None:
    with live(db.url) as server:
        guest = httpx.Client(base_url=server.base)
        seats = [{"kind": "human"}, {"kind": "bot"}]
        refused = guest.post("/api/games", json={"seats": seats, "rated": True})
        assert refused.status_code == 403 and code(refused) == "rated_needs_account"
        italian = guest.post(
            "/api/games", json={"seats": seats, "rated": True}, headers={"Accept-Language": "it"}
        )
        assert "accedi" in italian.json()["error"]["message"]
        bots_only = guest.post(
            "/api/games", json={"seats": [{"kind": "bot"}] * 2, "rated": True, "sit": False}
        )
        assert bots_only.status_code == 422 and code(bots_only) == "rated_not_possible"
        # Unrated stays the default, for guests too.
        casual = create_game(server.base, seats)
        assert casual["game"]["rated"] is False

        alice, bruno = Browser(server.base), Browser(server.base)
        alice.sign_up("Alice")
        bruno.sign_up("Bruno")
        created = alice.post("/api/games", {"seats": HUMANS_AND_BOTS, "rated": True})
        assert created.status_code == 201, created.text
        game = created.json()["game"]
        assert game["rated"] is True and game["status"] == "open"
        game_id = game["id"]
        # A guest cannot take a seat of it; the creator cannot take a second one.
        as_guest = guest.post(f"/api/games/{game_id}/seats/1/claim", json={})
        assert as_guest.status_code == 403 and code(as_guest) == "rated_needs_account"
        twice = alice.post(f"/api/games/{game_id}/seats/1/claim", {})
        assert twice.status_code == 409 and code(twice) == "rated_one_seat"
        assert guest.get(f"/api/games/{game_id}").json()["open_seats"] == [1]  # nothing changed
        taken = bruno.post(f"/api/games/{game_id}/seats/1/claim", {})
        assert taken.status_code == 200, taken.text
        assert guest.get(f"/api/games/{game_id}").json()["status"] == "active"
        # The flag is in the game's messages and it is real: no hints at a rated table.
        tokens = [created.json()["token"], taken.json()["token"]]

        async def look() -> None:
            client = await connect(server.ws_base, game_id, tokens[0])
            update = next(m for m in client.messages if m["type"] == "update")
            assert update["rated"] is True
            await client.close()

        run(look())
        state = guest.get(
            f"/api/games/{game_id}/state", headers={"Authorization": f"Bearer {tokens[0]}"}
        )
        assert state.json()["rated"] is True
        hint = guest.post(
            f"/api/games/{game_id}/hint", headers={"Authorization": f"Bearer {tokens[0]}"}
        )
        assert hint.status_code == 403 and code(hint) == "hint_unavailable"


# ------------------------------------------------- ratings, leaderboard, profile


def test_a_rated_game_updates_ratings_once_and_shows_on_profile_and_leaderboard(
    db: Database,
) -> None:
    rng = random.Random(12)
    with live(db.url) as server:
        table = rated_table(server.base)
        casual = create_game(server.base, [{"kind": "human"}, {"kind": "bot"}], name="x")

        async def play() -> None:
            await play_out(await seated(server.ws_base, table), rng)

        run(play())
        assert counts(db.url, table.game_id) == {"guards": 1, "history": 2, "games": 2}

        # Rating the same game again (another process, a replayed write) changes nothing.
        engine = create_engine(db.url)
        with engine.begin() as conn:
            again = op_rate_game(table.game_id, "iacta", {"scores": [1, 2, 3, 4]}, 0.0)(conn)
        engine.dispose()
        assert again == []
        assert counts(db.url, table.game_id) == {"guards": 1, "history": 2, "games": 2}

        http = httpx.Client(base_url=server.base)
        final = http.get(f"/api/games/{table.game_id}").json()
        winners = final["result"]["winners"]
        board = http.get("/api/leaderboard/iacta").json()
        assert board["total"] == 2 and [e["rank"] for e in board["entries"]] == [1, 2]
        assert {e["name"] for e in board["entries"]} == {"Alice", "Bruno"}
        for entry in board["entries"]:
            assert entry["games"] == 1
            assert entry["rating"] == pytest.approx(entry["mu"] - 3 * entry["sigma"], abs=0.01)
            assert entry["profile"] == f"/players/{entry['name']}"
        assert board["entries"][0]["rating"] >= board["entries"][1]["rating"]
        paged = http.get("/api/leaderboard/iacta", params={"offset": 1, "limit": 1}).json()
        assert [e["rank"] for e in paged["entries"]] == [2] and paged["total"] == 2
        assert http.get("/api/leaderboard/romano").json() == {
            "game": "romano",
            "total": 0,
            "offset": 0,
            "limit": 50,
            "entries": [],
        }
        assert code(http.get("/api/leaderboard/chess")) == "bad_request"

        profile = http.get("/api/players/alice").json()  # names are case-insensitive
        assert profile["name"] == "Alice"
        won = 0 in winners
        assert profile["records"] == [{"game": "iacta", "players": 4, "played": 1, "won": int(won)}]
        assert [g["replay"] for g in profile["recent"]] == [f"/replay/{table.game_id}"]
        assert profile["recent"][0]["rated"] is True and profile["recent"][0]["won"] == won
        assert len(profile["history"]) == 1 and profile["history"][0]["before"] == pytest.approx(
            0.0
        )
        assert profile["ratings"][0]["game"] == "iacta" and profile["ratings"][0]["games"] == 1
        assert profile["ratings"][0]["wins"] == int(won)

        missing = http.get("/api/players/nobody", headers={"Accept-Language": "it"})
        assert missing.status_code == 404 and code(missing) == "no_such_player"
        assert "Non esiste" in missing.json()["error"]["message"]
        assert casual["game"]["rated"] is False

        schema = http.get("/openapi.json").json()
        assert "/api/leaderboard/{game}" in schema["paths"]
        assert "mu - 3 sigma" in schema["paths"]["/api/leaderboard/{game}"]["get"]["description"]
        assert "/api/players/{name}" in schema["paths"]


def test_existing_games_upgrade_as_unrated(db: Database) -> None:
    engine = migrated_from(
        db.url,
        "0011",
        "INSERT INTO games (id, players, status, public, title, created_at, updated_at,"
        " version, result, game) VALUES ('old', 2, 'finished', true, '', 0, 0, 0, NULL, 'iacta')",
    )
    with engine.connect() as conn:
        assert conn.execute(text("SELECT rated FROM games WHERE id = 'old'")).scalar_one() in (
            False,
            0,
        )
        assert conn.execute(text("SELECT count(*) FROM ratings")).scalar_one() == 0
    engine.dispose()


def test_a_seat_a_bot_took_over_still_counts_for_its_account(sqlite_db: Database) -> None:
    from alea.server.tables import GameRecord, SeatRecord, make_engine, migrate, users_table
    from alea.server.writes import op_create_game

    engine = make_engine(sqlite_db.url)
    migrate(engine)
    with engine.begin() as conn:
        for user in ("u0", "u1"):
            conn.execute(
                users_table.insert(),
                {"id": user, "name": user, "name_key": user, "password_hash": "x", "created_at": 0},
            )
        seats = [
            SeatRecord(0, "human", None, "A", "h0", user_id="u0"),
            # Its human went quiet: a bot played the seat, which is still u1's.
            SeatRecord(1, "bot", "easy", "B", "h1", replaced=True, user_id="u1"),
            SeatRecord(2, "bot", "expert", "C", None),
        ]
        record = GameRecord("g", 3, "finished", True, "", 0, 0, 1, None, seats, ["x"], rated=True)
        op_create_game(record, [None])(conn)
        changes = op_rate_game("g", "iacta", {"scores": [1, 9, 5], "winners": [1]}, 1.0)(conn)
    engine.dispose()
    assert {c.user_id: c.place for c in changes} == {"u0": 3, "u1": 1}
    # The expert bot's fixed strength shaped the change: u1 beat it, u0 lost to it.
    assert changes[1].mu_after > 25.0 > changes[0].mu_after
