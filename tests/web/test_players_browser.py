"""Profiles and leaderboards in headless Chromium, on a laptop and on a phone.

Two accounts play three rated games (seats driven over the WebSocket like the
server tests), then: signed in on a laptop (1366×768, English) the account menu
leads to the player's profile (ratings, the rating-history chart with one point
per rated game, games played and won, recent games with replay links) and to
the leaderboard, whose names lead to profiles; the lobby offers a rated table to
a signed-in creator only. On a phone (390×844, Italian) the same profile fits
the screen. Screenshots: docs/screenshots/profile-desktop.png, profile-phone.png.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.accounts_support import PASSWORD, settings_for
from tests.server.ratings_support import RatedTable, play_out, rated_table, run, seated
from tests.server.support import LiveServer, database
from tests.web.a11y import serious_violations
from tests.web.support import require_chromium, watch_errors

require_chromium()
pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")

GAMES = 3


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with (
        database("sqlite", tmp_path_factory.mktemp("db")) as db,
        LiveServer(settings_for(db.url)) as server,
    ):
        rng = random.Random(3)
        first = rated_table(server.base, bots=("easy", "medium"))
        for n in range(GAMES):
            if n:
                # The same two players sit at a new rated table.
                alice, bruno = first.players
                seats = [{"kind": "human"}] * 2 + [{"kind": "bot", "level": "hard"}] * 2
                created = alice.post("/api/games", {"seats": seats, "rated": True}).json()
                game_id = created["game"]["id"]
                claimed = bruno.post(f"/api/games/{game_id}/seats/1/claim", {}).json()
                table = RatedTable(game_id, [created["token"], claimed["token"]], first.players)
            else:
                table = first

            async def play(table: RatedTable = table) -> None:
                await play_out(await seated(server.ws_base, table), rng)

            run(play())
        yield server


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"page is {width}px wide"


def whole_page(page: Any, path: Path) -> None:
    """A screenshot of the whole page, taken with the viewport made as tall as the page
    (a full-page capture would leave the fixed wooden background out below the fold)."""
    size = dict(page.viewport_size)
    height = page.evaluate("document.documentElement.scrollHeight")
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], height)})
    page.screenshot(path=str(path))
    page.set_viewport_size(size)


def test_profile_and_leaderboard_on_a_laptop(browser: Any, live: LiveServer, shots: Path) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(live.base + "/")
    page.wait_for_selector("#ratedhint")
    # A guest is not offered a rated table.
    assert page.is_disabled("#rated") and page.is_visible("#ratedhint")
    page.click("#accttoggle")
    page.fill("#acctname", "Alice")
    page.fill("#acctpass", PASSWORD)
    page.click("#acctlogin")
    page.wait_for_selector(".accttoggle.in")
    page.wait_for_function("!document.querySelector('#rated').disabled")
    assert not page.is_visible("#ratedhint")
    page.wait_for_selector(".lobbylinks a[href='/leaderboard/iacta']")

    # The account menu leads to the profile.
    page.click("#accttoggle")
    page.click("#acctprofile")
    page.wait_for_selector(".profile h1")
    assert page.url.endswith("/players/Alice")
    assert page.inner_text(".profile h1") == "Alice"
    assert page.locator(".ratingchart circle").count() == GAMES
    assert page.locator(".ratingcard[data-game='iacta'] .ratingvalue").count() == 1
    rows = page.locator("table.records tbody tr")
    assert rows.count() == 1 and rows.first.inner_text().split("\t")[2].strip() == str(GAMES)
    replays = page.locator("ul.recent a.button")
    assert replays.count() == GAMES
    assert all(
        h.startswith("/replay/")
        for h in replays.evaluate_all("l => l.map(a => a.getAttribute('href'))")
    )
    assert page.locator("ul.recent .ratedbadge").count() == GAMES
    no_sideways_scroll(page)
    assert serious_violations(page) == []
    page.evaluate("document.getElementById('toasts')?.remove()")  # the welcome toast
    whole_page(page, shots / "profile-desktop.png")

    # A replay link opens the replay.
    replays.first.click()
    page.wait_for_url("**/replay/**")

    # The leaderboard: both players, ranked; a name leads to that player's profile.
    page.goto(live.base + "/leaderboard/iacta")
    page.wait_for_selector("table.leaderboard tbody tr")
    names = page.locator("table.leaderboard tbody td a").all_inner_texts()
    assert sorted(names) == ["Alice", "Bruno"]
    ranks = page.locator("table.leaderboard tbody td:first-child").all_inner_texts()
    assert ranks == ["1", "2"]
    assert serious_violations(page) == []
    page.screenshot(path=str(shots / "leaderboard-desktop.png"))
    page.click("table.leaderboard a:text('Bruno')")
    page.wait_for_selector(".profile h1:text('Bruno')")
    page.click(".ppage .tabs a, .crumbs a[href='/leaderboard/iacta']")
    page.wait_for_selector("table.leaderboard")
    page.click(".tabs a[href='/leaderboard/romano']")
    page.wait_for_selector(
        ".ppage .muted:text('Nobody has played a rated game of Dado Romano yet.')"
    )

    # A rated table from the lobby's form, signed in.
    page.goto(live.base + "/")
    page.wait_for_function("!document.querySelector('#rated').disabled")
    page.check("#rated")
    page.click("#create")
    page.wait_for_url("**/game/**")
    game_id = page.url.rstrip("/").split("/")[-1]
    assert httpx.get(f"{live.base}/api/games/{game_id}").json()["rated"] is True
    page.wait_for_selector("#roundinfo .ratedbadge")  # the table says it is rated
    page.wait_for_selector(".tray .die.pick", timeout=30000)  # this seat's decision
    assert page.locator(".hintbtn").count() == 0  # and no hint offered at a rated table
    assert errors == []
    context.close()


def test_profile_on_a_phone_in_italian(browser: Any, live: LiveServer, shots: Path) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="it-IT", is_mobile=True, has_touch=True
    )
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(live.base + "/players/alice")  # public, and names are case-insensitive
    page.wait_for_selector(".profile h1")
    assert page.inner_text(".profile h1") == "Alice"
    text = page.inner_text("main").lower()
    assert "andamento del punteggio" in text and "partite giocate e vinte" in text
    assert page.locator(".ratingchart circle").count() == GAMES
    no_sideways_scroll(page)
    whole_page(page, shots / "profile-phone.png")
    page.goto(live.base + "/players/nessuno")
    page.wait_for_selector(".missing")
    assert "Non esiste un giocatore" in page.inner_text(".missing")
    no_sideways_scroll(page)
    assert errors == [] or all("404" in e for e in errors)
    context.close()
