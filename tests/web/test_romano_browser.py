"""Dado Romano in headless Chromium: create a 2-player game against a bot, click a few turns;
watch a game's countdown and the "last round" banner when its time limit runs out.

The screenshot goes to a temporary directory, or to docs/screenshots/romano.png when
``ALEA_UPDATE_SCREENSHOTS=1``.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.support import LiveServer, ShiftedClock, create_game, database
from tests.web.support import (
    ARGS,
    CHROMIUM,
    ROOT,
    browser_settings,
    record_frames,
    require_chromium,
    watch_errors,
)

require_chromium()

sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")


@pytest.fixture(scope="module")
def romano_live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with database("sqlite", tmp_path_factory.mktemp("db")) as db:
        settings = browser_settings(
            db.url, bot_delay=0.05, clock=ShiftedClock(), deadline_poll=0.05
        )
        with LiveServer(settings) as server:
            yield server


def test_romano_against_a_bot_in_the_browser(romano_live: LiveServer, tmp_path: Path) -> None:
    if os.environ.get("ALEA_UPDATE_SCREENSHOTS") == "1":
        shots = ROOT / "docs" / "screenshots"
        shots.mkdir(parents=True, exist_ok=True)
    else:
        shots = tmp_path
    rng = random.Random(11)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="it-IT")
        page = context.new_page()
        errors = watch_errors(page)
        frames = record_frames(page)
        page.goto(romano_live.base + "/")
        page.fill("#qname", "Marcus")
        assert not page.locator("#timelimit").is_visible()  # Iacta has no time limit
        page.select_option("#gamekind", "romano")
        assert page.locator("#timelimit").is_visible()
        assert page.input_value("#timelimit") == "60"
        page.click('#pcount button[data-n="6"]')
        assert page.locator("#seatrows li").count() == 6
        page.click('#pcount button[data-n="2"]')
        page.select_option('#seatrows select[data-seat="1"]', "bot:medium")
        page.click("#create")
        page.wait_for_selector(".romano #scores li")
        assert page.locator(".romano #scores li").count() == 2
        # Click through the decisions the server offers (answers, the declaration, ...).
        decisions = 0
        deadline = time.time() + 60
        while decisions < 3 and time.time() < deadline:
            if page.locator("#winners").count():
                break
            buttons = page.query_selector_all("#decision [data-act]")
            if not buttons:
                page.wait_for_timeout(50)
                continue
            rng.choice(buttons).click(timeout=3000)
            decisions += 1
            page.wait_for_timeout(300)
        assert decisions >= 1 or page.locator("#winners").count()
        page.wait_for_selector(".romano .rdie")
        assert page.locator(".romano #log li").count() > 0
        # Italian texts on the page (the language follows the browser).
        assert "Giro" in page.inner_text("#roundinfo")
        page.screenshot(path=str(shots / "romano.png"))
        context.close()
        browser.close()
    assert (shots / "romano.png").exists()
    assert not errors, errors
    updates = [m for m in map(json.loads, frames) if m.get("type") == "update"]
    assert updates
    for m in updates:
        assert m["seat"] == 0 and m["view"]["seat"] == 0
        if m["legal"]:
            assert m["view"]["current_player"] == 0
    assert any(u["legal"] for u in updates) or updates[-1]["status"] == "finished"


def test_romano_countdown_and_last_round(romano_live: LiveServer) -> None:
    """The table counts down to the deadline and shows the banner once time is up."""
    clock = romano_live.settings.clock
    assert isinstance(clock, ShiftedClock)
    base = romano_live.base
    human = {"kind": "human"}
    created = create_game(base, [human, human], game="romano", time_limit=30, name="Ann")
    game_id = created["game"]["id"]
    claimed = httpx.post(f"{base}/api/games/{game_id}/seats/1/claim", json={}, timeout=30)
    assert claimed.status_code == 200
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        context = browser.new_context(viewport={"width": 1000, "height": 700}, locale="en-US")
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(f"{base}/game/{game_id}?watch=1")
        page.wait_for_selector("#clock:not([hidden])")
        assert re.fullmatch(r"◷ (30:00|29:[0-5]\d)", page.inner_text("#clock").strip())
        assert page.locator("#lastround").count() == 0
        clock.advance(30 * 60 + 1)
        page.wait_for_selector("#lastround", timeout=10_000)
        assert "Last round" in page.inner_text("#lastround")
        assert "time is up" in page.inner_text("#clock")
        assert "last round" in page.inner_text("#roundinfo")
        context.close()
        browser.close()
    assert not errors, errors


def referee_and_player_at_a_mark(
    browser: Any, base: str, watched: list[list[str]]
) -> tuple[Any, Any, str] | None:
    """A referee creates a game from the lobby, a player joins, and they play until a riddle
    or question awaits the referee's mark on the player's turn: the two pages and the game,
    or None if the game ended first (the dice decide whether the player ever meets one)."""
    ref_context = browser.new_context(viewport={"width": 1100, "height": 800}, locale="en-US")
    ref = ref_context.new_page()
    watched.append(watch_errors(ref))  # each page's own list, filled as errors come
    ref.goto(base + "/")
    ref.fill("#qname", "Quintus")
    ref.select_option("#gamekind", "romano")
    assert ref.locator("#referee").is_visible() and not ref.locator("#refrole").is_visible()
    ref.select_option("#referee", "human")
    ref.select_option("#refrole", "referee")
    # The referee takes no seat: seat 1 is now a friend's (the default) or a bot's.
    assert ref.locator('#seatrows select[data-seat="0"]').count() == 1
    ref.click('#pcount button[data-n="2"]')
    ref.select_option('#seatrows select[data-seat="1"]', "bot:medium")
    ref.click("#create")
    ref.wait_for_selector("#refline:not([hidden])")
    assert "referee" in ref.inner_text("#refline")
    game_id = ref.url.rstrip("/").split("/")[-1]
    assert httpx.get(f"{base}/api/games/{game_id}").json()["status"] == "open"

    player_context = browser.new_context(viewport={"width": 1100, "height": 800}, locale="en-US")
    player = player_context.new_page()
    watched.append(watch_errors(player))
    player.goto(f"{base}/game/{game_id}")
    player.click('[data-claim="0"]')
    player.wait_for_selector("#refline:has-text('Quintus')")
    # Play until a riddle or question awaits the referee's mark on the player's turn
    # (the bot's are marked wrong from the referee's screen as they come).
    deadline = time.time() + 60
    while True:
        assert time.time() < deadline, "no riddle or question came up for the player"
        if player.locator("#winners").count():
            ref_context.close()
            player_context.close()
            return None
        view = httpx.get(f"{base}/api/games/{game_id}/state").json()["view"]
        if view["phase"] == "mark" and view["turn_of"] == 0:
            ref.wait_for_selector('#decision [data-act="mark:right"]')
            player.wait_for_selector("#saytext")
            return ref, player, game_id
        # Both clicks race the game (a bot moves, a screen redraws): a button that is
        # gone by the time it is clicked is simply looked for again on the next poll.
        with contextlib.suppress(sync_api.TimeoutError):
            if view["phase"] == "mark":
                ref.click('#decision [data-act="mark:wrong"]', timeout=3000)
            button = player.locator("#decision [data-act]").first
            if button.count():
                button.click(timeout=3000)
        player.wait_for_timeout(100)  # a poll between clicks, not a wait for a result


def test_romano_with_a_human_referee(romano_live: LiveServer) -> None:
    """A referee creates the game from the lobby; a player joins; riddle, answer, Right."""
    base = romano_live.base
    watched: list[list[str]] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        # A game whose dice never pose the player a riddle ends without one (seen once on a
        # loaded machine, where clicks race the bot differently): then a new game is played.
        for _ in range(3):
            found = referee_and_player_at_a_mark(browser, base, watched)
            if found is not None:
                break
        assert found is not None, "three games in a row posed the player no riddle"
        ref, player, game_id = found
        assert ref.locator('#decision [data-act="mark:wrong"]').count() == 1
        assert player.locator("#decision [data-act]").count() == 0  # players cannot mark
        ref.fill("#saytext", "What has a head and a tail but no body?")
        ref.press("#saytext", "Enter")
        player.wait_for_selector("#posed:has-text('head and a tail')")
        player.fill("#saytext", "A coin")
        player.click(".sayform button")
        ref.wait_for_selector("#answered:has-text('A coin')")
        ref.click('#decision [data-act="mark:right"]')
        ref.wait_for_selector("#log li:has-text('the referee marks')")
        # The exchange ended with its mark (the next player may already face a new one):
        # the question leaves the screen (removed or hidden) and the server forgot it.
        ref.wait_for_selector("#posed:has-text('head and a tail')", state="hidden")
        exchange = httpx.get(f"{base}/api/games/{game_id}/state").json()["exchange"]
        assert exchange is None or "head and a tail" not in (exchange["posed"] or "")
        player.wait_for_selector("#log li:has-text('the referee marks')")
        ref.context.close()
        player.context.close()
        browser.close()
    errors = [error for page_errors in watched for error in page_errors]
    assert not errors, errors
