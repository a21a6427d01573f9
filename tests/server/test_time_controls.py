"""Time controls online: real time with a bank, turn-based, both timeout policies,
restarts, and abandoned tables.

Time is a :class:`~tests.server.support.ShiftedClock` given to the server as
``Settings.clock``: a day passes in one call, so nothing sleeps for hours. The
turn watcher looks at the clock every 50 ms (``deadline_poll``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from alea.server import Settings
from tests.server.support import Database, LiveServer, ShiftedClock, create_game, quick_bots

HOUR = 3600.0
DAY = 24 * HOUR
HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "level": "easy"}
TURN_MOVE = {"mode": "turn", "per_move": int(DAY), "on_timeout": "bot_move"}
TURN_SEAT = {"mode": "turn", "per_move": int(DAY), "on_timeout": "bot_seat"}


def settings_for(db: Database, clock: ShiftedClock, **extra: Any) -> Settings:
    options: dict[str, Any] = {
        "database_url": db.url,
        "bot_delay": 0.0,
        "bot_factory": quick_bots,
        "idle_timeout": 10 * DAY,
        "sqlite_synchronous": "NORMAL",
        "chance_rng": lambda: random.Random(11),
        "clock": clock,
        "deadline_poll": 0.05,
        "abandon_poll": 0.05,
    }
    options.update(extra)
    return Settings(**options)


def info(base: str, game_id: str) -> dict[str, Any]:
    answer = httpx.get(f"{base}/api/games/{game_id}", timeout=30)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def wait_for(check: Callable[[], Any], timeout: float = 60.0) -> Any:
    """Poll ``check`` until it returns something true (the server acts in the background)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("timed out waiting")


def my_turn(base: str, game_id: str, seat: int = 0) -> dict[str, Any]:
    """Wait until human ``seat`` is to move and its clock runs; the game's summary."""
    return dict(
        wait_for(
            lambda: (
                (g := info(base, game_id))["to_move"] == seat
                and g["time_control"]["seat"] == seat
                and g
            )
        )
    )


def post(base: str, body: dict[str, Any], lang: str = "en") -> httpx.Response:
    return httpx.post(f"{base}/api/games", json=body, headers={"Accept-Language": lang}, timeout=30)


# ------------------------------------------------------------------ creation


def test_time_control_is_checked_and_shown(sqlite_db: Database) -> None:
    clock = ShiftedClock()
    with LiveServer(settings_for(sqlite_db, clock)) as server:
        base = server.base
        made = create_game(
            base,
            [HUMAN, BOT],
            time_control={"mode": "realtime", "per_move": 60, "bank": 300},
        )["game"]
        control = made["time_control"]
        assert control["mode"] == "realtime" and control["per_move"] == 60
        assert control["bank"] == 300 and control["on_timeout"] == "bot_move"
        assert control["banks"] == [300, 300]
        turn = create_game(base, [HUMAN, HUMAN], time_control=TURN_SEAT)["game"]
        assert turn["status"] == "open" and turn["time_control"]["deadline"] is None
        assert create_game(base, [HUMAN, BOT])["game"]["time_control"] is None
        bad = [
            {"mode": "blitz", "per_move": 60},
            {"mode": "realtime", "per_move": 5},
            {"mode": "realtime", "per_move": 60, "bank": 99_999},
            {"mode": "realtime", "per_move": True},
            {"mode": "realtime", "per_move": "60"},
            {"mode": "turn", "per_move": 60},
            {"mode": "turn", "per_move": int(DAY), "bank": 10},
            {"mode": "turn", "per_move": int(DAY), "on_timeout": "resign"},
            {"mode": "turn", "per_move": int(DAY), "extra": 1},
        ]
        stored = len(server.games.store.load_unfinished())
        for control_asked in bad:
            answer = post(base, {"seats": [HUMAN, BOT], "time_control": control_asked})
            assert answer.status_code == 422, (control_asked, answer.text)
            error = answer.json()["error"]
            assert error["code"] == "bad_time_control", error
            assert "10 to 3600 seconds" in error["message"]
        italian = post(base, {"seats": [HUMAN, BOT], "time_control": bad[1]}, lang="it")
        assert "da 10 a 3600 secondi" in italian.json()["error"]["message"]
        # A refused creation stored nothing.
        assert len(server.games.store.load_unfinished()) == stored


# ------------------------------------------------------------- timeouts


def test_turn_based_timeout_bot_moves_for_the_seat(db: Database) -> None:
    clock = ShiftedClock()
    with LiveServer(settings_for(db, clock)) as server:
        base = server.base
        created = create_game(base, [HUMAN, BOT], name="Ada", time_control=TURN_MOVE)
        game_id = created["game"]["id"]
        before = my_turn(base, game_id)
        control = before["time_control"]
        assert control["deadline"] == pytest.approx(control["turn_started"] + DAY)
        version = before["version"]
        clock.advance(23 * HOUR)  # not yet: nothing happens
        time.sleep(0.3)
        assert info(base, game_id)["version"] == version
        clock.advance(2 * HOUR)  # past the day: a bot plays the turn for seat 0
        started = before["time_control"]["turn_started"]
        after = wait_for(
            lambda: (g := info(base, game_id))["time_control"]["turn_started"] != started and g
        )
        seat = after["seats"][0]
        assert seat["kind"] == "human" and not seat["replaced"] and seat["name"] == "Ada"
        # The events were seat 0's, though its owner never sent anything.
        game = server.games.games[game_id]
        assert 0 in game.actors[version:]
        # The turn comes back to the human with a fresh day.
        again = my_turn(base, game_id)
        assert again["time_control"]["deadline"] == pytest.approx(clock() + DAY, abs=60)


def test_turn_based_timeout_bot_takes_the_seat_until_reclaimed(sqlite_db: Database) -> None:
    clock = ShiftedClock()
    # Bots slow enough that the game is still on when its owner comes back.
    with LiveServer(settings_for(sqlite_db, clock, bot_delay=0.2)) as server:
        base = server.base
        created = create_game(base, [HUMAN, BOT], name="Ada", time_control=TURN_SEAT)
        game_id, token = created["game"]["id"], created["token"]
        my_turn(base, game_id)
        clock.advance(DAY + HOUR)
        replaced = wait_for(lambda: (g := info(base, game_id))["seats"][0]["replaced"] and g)
        assert replaced["seats"][0]["kind"] == "bot"
        assert replaced["time_control"]["seat"] is None  # a bot's turns are not timed
        # The bot keeps playing the seat: the game moves on with nobody there.
        moved = replaced["version"]
        wait_for(lambda: info(base, game_id)["version"] > moved + 2)
        # Its owner takes it back, and the clock runs for them again.
        back = httpx.post(
            f"{base}/api/games/{game_id}/reclaim",
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        )
        assert back.status_code == 200, back.text
        assert back.json()["seats"][0]["kind"] == "human"
        mine = my_turn(base, game_id)
        assert mine["time_control"]["deadline"] >= clock() + DAY - 60


def test_realtime_bank_pays_for_a_slow_move(sqlite_db: Database) -> None:
    clock = ShiftedClock()
    settings = settings_for(sqlite_db, clock)
    with LiveServer(settings) as server:
        base = server.base
        created = create_game(
            base,
            [HUMAN, BOT],
            time_control={"mode": "realtime", "per_move": 30, "bank": 60, "on_timeout": "bot_move"},
        )
        game_id, token = created["game"]["id"], created["token"]
        mine = my_turn(base, game_id)
        assert mine["time_control"]["deadline"] == pytest.approx(
            mine["time_control"]["turn_started"] + 90
        )
        clock.advance(50)  # 20 seconds past the move's 30: they come out of the bank
        # Play the whole turn (every decision of seat 0) by hand.
        while (state := _state(base, game_id, token))["legal"]:
            acted = httpx.post(
                f"{base}/api/games/{game_id}/actions",
                json={"action": state["legal"][0], "version": state["version"]},
                headers={"Authorization": f"Bearer {token}"},
                timeout=30,
            )
            assert acted.status_code == 200, acted.text
            if acted.json()["state"]["view"] is None:
                break
        banks = wait_for(lambda: (g := info(base, game_id))["time_control"]["banks"][0] < 60 and g)
        # 20 s came out of the bank (plus the few real seconds the moves took).
        assert banks["time_control"]["banks"][0] == pytest.approx(40, abs=5)
        assert banks["seats"][0]["kind"] == "human"


def _state(base: str, game_id: str, token: str) -> dict[str, Any]:
    answer = httpx.get(
        f"{base}/api/games/{game_id}/state",
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_a_restart_keeps_the_clock(db: Database) -> None:
    clock = ShiftedClock()
    settings = settings_for(db, clock)
    with LiveServer(settings) as server:
        base = server.base
        created = create_game(base, [HUMAN, BOT], time_control=TURN_MOVE)
        game_id = created["game"]["id"]
        first = my_turn(base, game_id)["time_control"]
        clock.advance(20 * HOUR)
    # A new process on the same database: the turn still began 20 hours ago.
    with LiveServer(settings) as server:
        base = server.base
        again = info(base, game_id)
        assert again["time_control"]["turn_started"] == pytest.approx(first["turn_started"])
        assert again["time_control"]["deadline"] == pytest.approx(first["deadline"])
        version = again["version"]
        clock.advance(5 * HOUR)  # 25 hours in all: the bot moves, four hours after the restart
        wait_for(lambda: info(base, game_id)["version"] > version)


# ---------------------------------------------------------------- abandonment


def test_a_table_every_human_left_is_closed(sqlite_db: Database) -> None:
    clock = ShiftedClock()
    with LiveServer(settings_for(sqlite_db, clock, abandon_after=2 * HOUR)) as server:
        base = server.base
        created = create_game(base, [HUMAN, BOT])
        game_id, token = created["game"]["id"], created["token"]
        wait_for(lambda: info(base, game_id)["to_move"] == 0)
        kept = create_game(base, [HUMAN, BOT], time_control=TURN_MOVE)["game"]["id"]
        clock.advance(HOUR)
        time.sleep(0.3)
        assert info(base, game_id)["status"] == "active"
        clock.advance(2 * HOUR)
        wait_for(lambda: info(base, game_id)["status"] == "abandoned")
        listed = [g["id"] for g in httpx.get(f"{base}/api/games?status=active").json()]
        assert game_id not in listed
        # A turn-based table waits longer: its players are expected to stay away a turn.
        assert info(base, kept)["status"] == "active"
        refused = httpx.post(
            f"{base}/api/games/{game_id}/actions",
            json={"action": "R", "version": info(base, game_id)["version"]},
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        )
        assert refused.status_code == 409
        assert refused.json()["error"]["code"] == "game_over"
        stored = server.games.store.load_game(game_id)
        assert stored is not None and stored.status == "abandoned"
