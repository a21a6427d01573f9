""" "Your games", the turn clock and in-page notifications in headless Chromium.

A signed-in player (Ada) has a turn-based game waiting for her, a real-time one, a game
where another player (Bea) is to move, and one waiting for players. The dashboard lists
the two waiting for her first, with the time left counting down; the document title
counts them; a new turn-based game of hers brings a browser notification (the
Notification API, stubbed here to record what is shown); a table shows its clock.
Desktop (1366×768, English) and phone (390×844, Italian) screenshots.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.accounts_support import PASSWORD
from tests.server.support import LiveServer, ShiftedClock, database, quick_bots
from tests.web.a11y import serious_violations
from tests.web.support import browser_settings, require_chromium, watch_errors

require_chromium()
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "level": "easy"}
TURN = {"mode": "turn", "per_move": 86400, "on_timeout": "bot_move"}
REALTIME = {"mode": "realtime", "per_move": 60, "bank": 300, "on_timeout": "bot_seat"}

#: Notifications recorded instead of shown; the dashboard looked at every 300 ms.
STUB = """
window.ALEA_NOTIFY_MS = 300;
window.__notes = [];
window.Notification = class {
  constructor(title, options) { window.__notes.push(title); }
  static get permission() { return "granted"; }
  static requestPermission() { return Promise.resolve("granted"); }
};
"""


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    clock = ShiftedClock()
    with (
        database("sqlite", tmp_path_factory.mktemp("db")) as db,
        LiveServer(
            browser_settings(
                db.url, bot_delay=0.05, bot_factory=quick_bots, clock=clock, deadline_poll=0.05
            )
        ) as server,
    ):
        yield server


class Player:
    """One account over HTTP (its own cookies), for setting the scene."""

    def __init__(self, base: str, name: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=30)
        answer = self.http.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        self.csrf = answer.json()["csrf"]
        self.name = name

    def create(self, seats: list[dict[str, Any]], **body: Any) -> str:
        answer = self.http.post(
            "/api/games",
            json={"seats": seats, "name": self.name, **body},
            headers={"X-CSRF-Token": self.csrf},
        )
        assert answer.status_code == 201, answer.text
        return str(answer.json()["game"]["id"])

    def claim(self, game_id: str, seat: int) -> None:
        answer = self.http.post(
            f"/api/games/{game_id}/seats/{seat}/claim",
            json={"name": self.name},
            headers={"X-CSRF-Token": self.csrf},
        )
        assert answer.status_code == 200, answer.text

    def waiting(self) -> int:
        return int(self.http.get("/api/me/dashboard").json()["waiting"])


def test_dashboard_clock_and_notifications(browser: Any, live: LiveServer, shots: Path) -> None:
    ada, bea = Player(live.base, "Ada"), Player(live.base, "Bea")
    ada.create([HUMAN, BOT], title="Forum at dawn", time_control=TURN)
    ada.create([HUMAN, BOT], title="Quick duel", time_control=REALTIME)
    theirs = bea.create([HUMAN, HUMAN], title="Bea's table", time_control=TURN)
    ada.claim(theirs, 1)
    ada.create([HUMAN, HUMAN], title="Waiting for friends")
    end = time.monotonic() + 20
    while ada.waiting() < 2 and time.monotonic() < end:
        time.sleep(0.05)
    assert ada.waiting() == 2

    desktop = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
    desktop.add_cookies(
        [{"name": "alea_session", "value": ada.http.cookies["alea_session"], "url": live.base}]
    )
    desktop.add_init_script(STUB)
    page = desktop.new_page()
    errors = watch_errors(page)
    page.goto(f"{live.base}/")
    page.locator("#mygames").click()
    page.wait_for_url(f"{live.base}/games")
    page.wait_for_selector(".dbgame")
    titles = page.locator(".dbgame .dbtitle b").all_inner_texts()
    assert set(titles[:2]) == {"Forum at dawn", "Quick duel"}
    assert titles[2:] == ["Bea's table", "Waiting for friends"]
    assert page.locator(".dbgame.mine").count() == 2
    assert "Bea to move" in page.locator(".dbgame").nth(2).inner_text()
    page.wait_for_function("document.title.startsWith('(2) ')")
    # The time left counts down here, from the deadline the server sent.
    forum = page.locator(".dbgame", has_text="Forum at dawn")
    assert re.search(r"1 d 0:00:0\d left|23:5\d:\d\d left", forum.inner_text()), forum.inner_text()
    assert "Turn-based · 1 d a move" in forum.inner_text()
    first = forum.locator(".dbleft").inner_text()
    page.wait_for_timeout(1200)
    assert forum.locator(".dbleft").inner_text() != first
    page.screenshot(path=str(shots / "dashboard-desktop.png"))
    assert serious_violations(page) == []

    # A new turn-based game waiting for Ada: the page tells her while it is open.
    ada.create([HUMAN, BOT], title="New table", time_control=TURN)
    page.wait_for_function("window.__notes.some((n) => n === 'Your turn: New table')")
    page.wait_for_function("document.title.startsWith('(3) ')")
    # The sound can be switched off, and stays off.
    page.locator("#dbsound").uncheck()
    assert page.evaluate("localStorage.getItem('alea.sound')") == "0"

    # The table shows its clock.
    forum.locator("a.button").click()
    page.wait_for_selector("#turnclock")
    assert re.search(r"⏱ (1 d 0:00:0\d|23:\d\d:\d\d)", page.locator("#turnclock").inner_text())
    assert not [e for e in errors if "favicon" not in e], errors
    desktop.close()

    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="it-IT", is_mobile=True, has_touch=True
    )
    phone.add_cookies(
        [{"name": "alea_session", "value": ada.http.cookies["alea_session"], "url": live.base}]
    )
    phone.add_init_script(STUB)
    mobile = phone.new_page()
    mobile.goto(f"{live.base}/games")
    mobile.wait_for_selector(".dbgame")
    assert "Le tue partite" in mobile.locator("h1").inner_text()
    assert "Tocca a te" in mobile.locator(".dbgame.mine").first.inner_text()
    width = mobile.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone ({width}px)"
    assert "posto libero" in mobile.locator(".dbgame", has_text="Waiting for friends").inner_text()
    mobile.screenshot(path=str(shots / "dashboard-phone.png"))
    assert serious_violations(mobile) == []
    phone.close()
    ada.http.close()
    bea.http.close()


def test_a_guest_is_asked_to_sign_in(browser: Any, live: LiveServer) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
    page = context.new_page()
    page.goto(f"{live.base}/games")
    page.wait_for_selector("text=Sign in (top right)")
    assert page.locator(".dbgame").count() == 0
    context.close()


def test_a_dado_romano_table_shows_its_turn_clock(browser: Any, live: LiveServer) -> None:
    cleo = Player(live.base, "Cleo")
    game_id = cleo.create([HUMAN, BOT], game="romano", title="Party", time_control=TURN)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    context.add_cookies(
        [{"name": "alea_session", "value": cleo.http.cookies["alea_session"], "url": live.base}]
    )
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{live.base}/game/{game_id}")
    page.wait_for_selector("#turnclock")
    assert re.search(r"⏱ (1 d 0:00:0\d|23:5\d:\d\d)", page.locator("#turnclock").inner_text())
    assert "Turn-based" in (page.locator("#turnclock").get_attribute("title") or "")
    assert not [e for e in errors if "favicon" not in e], errors
    context.close()
    cleo.http.close()
