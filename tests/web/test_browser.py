"""End to end in headless Chromium (Debian's ``chromium`` driven by Playwright).

1. One person opens the lobby, starts a game against three bots and plays it to the
   end by clicking dice, buildings and cards; the final screen shows the scores the
   server computed.
2. Two people in two browser contexts play the same game (with two bots); neither page
   ever receives or shows the other's hidden Fortuna tiles or Senate cards.

Both games run with ``prefers-reduced-motion`` (the dice do not tumble or fly, which
tests/web/test_show_browser.py checks): clicks need not wait for moving targets.

Screenshots go to a temporary directory, or to docs/screenshots/ when
``ALEA_UPDATE_SCREENSHOTS=1`` is set.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.support import LiveServer, bot_factory, database
from tests.server.test_websocket import assert_hidden
from tests.web.support import browser_settings, record_frames, require_chromium, watch_errors

require_chromium()
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with database("sqlite", tmp_path_factory.mktemp("db")) as db:
        settings = browser_settings(db.url, bot_delay=0.03, bot_factory=bot_factory())
        with LiveServer(settings) as server:
            yield server


def act_once(page: Any, rng: random.Random) -> bool:
    """Make one move by clicking, the way a person would; False if there is nothing to do."""
    try:
        choices = page.query_selector_all(".tray .choices [data-action]")
        if choices:
            rng.choice(choices).click(timeout=3000)
            page.wait_for_timeout(60)
            return True
        chips = page.query_selector_all(".tray [data-select]")
        if not chips:
            return False
        move = rng.choice(chips).get_attribute("data-select") or ""
        building, dice = move.split(":")
        if rng.random() < 0.5:
            # Tap the dice themselves (after clearing any selection), then the glowing building.
            for _ in range(8):
                chosen = page.query_selector(".tray .die.pick.selected")
                if chosen is None:
                    break
                chosen.click(timeout=3000)
            for value in dice:
                free = page.query_selector(f'.tray .die.pick:not(.selected)[data-v="{value}"]')
                if free is None:  # the page moved on meanwhile: look again next time
                    return True
                free.click(timeout=3000)
            page.click(f'.building.ready[data-building="{building}"]', timeout=3000)
        else:
            # Pick the move from the list, then press "Place … in …".
            page.click(f'.tray [data-select="{move}"]', timeout=3000)
            page.click(".tray .actions button.place", timeout=3000)
        page.wait_for_timeout(60)
        return True
    except sync_api.Error:
        page.wait_for_timeout(100)
        return True


def finished(page: Any) -> bool:
    return page.query_selector(".overlay .results") is not None


def test_play_a_whole_game_against_three_bots(browser: Any, live: LiveServer, shots: Path) -> None:
    # Less motion (no tumbling or flying dice: test_show_browser.py checks those): every
    # click then waits for still targets only, and the game is the same. About half the time.
    context = browser.new_context(
        viewport={"width": 1400, "height": 960}, locale="en-GB", reduced_motion="reduce"
    )
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(live.base + "/")
    page.wait_for_selector("#quick")
    page.fill("#qname", "Julia")
    page.select_option("#qlevel", "easy")
    page.screenshot(path=str(shots / "lobby.png"))
    # The wood is fixed to the screen; below it (a page captured whole, browsers that do not
    # paint fixed backgrounds) a wood colour shows, never white.
    colour = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert colour not in ("rgba(0, 0, 0, 0)", "transparent", "rgb(255, 255, 255)"), colour
    page.click("#quick")
    page.wait_for_selector(".tray .die.pick", timeout=30000)
    game_id = page.url.rstrip("/").split("/")[-1]
    rng = random.Random(7)
    moves = 0
    shot = False
    deadline = time.time() + 420
    while not finished(page):
        assert time.time() < deadline, "the game did not end in time"
        busy_board = len(page.query_selector_all(".buildings .die")) >= 14
        if busy_board and not shot and page.query_selector(".tray [data-select]"):
            # A mid-game picture with some dice selected and the buildings lit up.
            first = page.query_selector(".tray [data-select]")
            assert first is not None
            first.click()
            page.wait_for_timeout(250)
            page.screenshot(path=str(shots / "game.png"))
            shot = True
        if act_once(page, rng):
            moves += 1
        else:
            page.wait_for_timeout(40)
    page.wait_for_timeout(300)
    page.screenshot(path=str(shots / "final.png"))
    truth = live.games.games[game_id].state
    assert truth.is_terminal()
    scores = [int(s) for s in truth.returns()]
    shown = {
        int(card.get_attribute("data-seat") or -1): int(card.query_selector(".score").inner_text())
        for card in page.query_selector_all(".overlay .final")
    }
    assert shown == dict(enumerate(scores))
    winners = {
        int(c.get_attribute("data-seat") or -1)
        for c in page.query_selector_all(".overlay .final.winner")
    }
    assert winners == set(truth.winners())
    # Every player's arrangement and breakdown are on the final screen.
    assert len(page.query_selector_all(".overlay table.breakdown")) == 4
    assert moves >= 20
    # The finished game has a replay; step through it.
    page.click("[data-close]")
    page.click(".tray a[href^='/replay/']")
    page.wait_for_selector("#slider")
    page.wait_for_selector(".final .score")
    page.click("[data-step=first]")
    for _ in range(12):
        page.click("[data-step=next]")
    page.wait_for_function("document.querySelector('#stepno').textContent.startsWith('Step 12')")
    page.screenshot(path=str(shots / "replay.png"))
    assert not errors, errors
    context.close()


def test_phone_sized_screen_and_italian(browser: Any, live: LiveServer, shots: Path) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="it-IT",
    )
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(live.base + "/")
    page.wait_for_selector("#quick")
    assert "Gioca contro 3 bot" in page.inner_text("#quick")
    page.select_option("#qlevel", "easy")
    page.click("#quick")
    page.wait_for_selector(".tray .die.pick", timeout=30000)
    assert "TEMPLUM" in page.inner_text(".buildings").upper()
    assert "Tocca a te" in page.inner_text(".turnbanner")
    page.click(".tray .die.pick")
    page.wait_for_timeout(200)
    page.screenshot(path=str(shots / "phone.png"))
    # Nothing sticks out sideways on a phone.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    # Switching language re-renders in English.
    page.click("[data-lang=en]")
    page.wait_for_selector(".tray .die.pick", timeout=30000)
    # The tray is there before and after the switch: wait for the new words.
    page.wait_for_function(
        "document.querySelector('.turnbanner').innerText.includes('Your turn')", timeout=30000
    )
    assert not errors, errors
    context.close()


def test_two_humans_in_two_browsers_never_see_each_others_secrets(
    browser: Any, live: LiveServer, shots: Path
) -> None:
    # Less motion, as in the game against three bots: the same frames, sooner.
    alice_ctx = browser.new_context(
        viewport={"width": 1280, "height": 900}, reduced_motion="reduce"
    )
    bob_ctx = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    alice, bob = alice_ctx.new_page(), bob_ctx.new_page()
    errors = watch_errors(alice) + watch_errors(bob)
    frames = {0: record_frames(alice), 1: record_frames(bob)}
    # Alice sets up a 4-player game: herself, a friend, two easy bots (Fortuna is in play).
    alice.goto(live.base + "/")
    alice.fill("#qname", "Alice")
    alice.select_option('#seatrows select[data-seat="1"]', "human")
    alice.select_option('#seatrows select[data-seat="2"]', "bot:easy")
    alice.select_option('#seatrows select[data-seat="3"]', "bot:easy")
    alice.uncheck("#public")
    alice.click("#create")
    alice.wait_for_selector("#invitelink")
    link = alice.input_value("#invitelink")
    game_id = link.rstrip("/").split("/")[-1]
    # Bob opens the link, types his name and takes the free seat.
    bob.goto(link)
    bob.wait_for_selector('[data-claim="1"]')
    bob.fill("#claimname", "Bob")
    bob.click('[data-claim="1"]')
    bob.wait_for_function("!document.querySelector('.banner.waiting')")
    alice.wait_for_function("!document.querySelector('.banner.waiting')", timeout=15000)
    rng = random.Random(3)
    deadline = time.time() + 480
    pages = {0: alice, 1: bob}
    checked_dom = 0
    rounds = 0
    while not (finished(alice) and finished(bob)):
        assert time.time() < deadline, "the game did not end in time"
        rounds += 1
        progressed = False
        for seat, page in pages.items():
            other = 1 - seat
            if not finished(page):
                if rounds % 3 == 0:
                    # What the page shows of the other human: face-down tiles, no card faces.
                    panel = f'.player[data-seat="{other}"]'
                    shown = page.query_selector_all(f"{panel} .fortuna.drawn.own")
                    shown += page.query_selector_all(f"{panel} .senate:not(.back)")
                    # At the end every kept Senate card is revealed (RULES.md §6): the page
                    # may show the final table a moment before its results. Only then.
                    over = live.games.games[game_id].state.is_terminal()
                    assert shown == [] or over, "the other human's secrets are on the page"
                    checked_dom += 1
                progressed = act_once(page, rng) or progressed
        if not progressed:
            alice.wait_for_timeout(40)
    alice.screenshot(path=str(shots / "two-players-final.png"))
    truth = live.games.games[game_id].state
    assert truth.is_terminal()
    assert truth.private, "a 4-player game always has hidden draws"
    for seat, received in frames.items():
        updates = [json.loads(f) for f in received if json.loads(f)["type"] == "update"]
        assert updates and updates[-1]["seat"] == seat
        # Bob watched as a spectator until he took his seat: check each part as what it was.
        watching = [f for f in received if json.loads(f).get("seat", seat) is None]
        seated = [f for f in received if f not in watching]
        assert_hidden(None, watching, truth)
        assert assert_hidden(seat, seated, truth) > 100
    assert checked_dom > 10
    assert not errors, errors
    alice_ctx.close()
    bob_ctx.close()
