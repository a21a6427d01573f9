"""Accounts in headless Chromium: a guest plays, signs up, and resumes on a second device.

1. On a "phone" (one browser context) a guest starts a game against three bots and
   moves, then opens the header's account panel and creates an account: the seat they
   hold joins it, and the lobby's "Your games" now comes from the account.
2. On a "laptop" (another context: no cookies, no localStorage), in Italian, the same
   person signs in, finds the game in "Your games", opens it and plays on as the same
   seat, proved by the session cookie alone.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.accounts_support import PASSWORD, settings_for
from tests.server.support import LiveServer, database
from tests.web.support import record_frames, require_chromium, watch_errors

require_chromium()
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")

from tests.web.test_browser import act_once  # noqa: E402  (after the skips)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with (
        database("sqlite", tmp_path_factory.mktemp("db")) as db,
        LiveServer(settings_for(db.url, bot_delay=0.03)) as server,
    ):
        yield server


def move_once(page: Any, rng: random.Random, frames: list[str]) -> None:
    """Click until the server acknowledges one move of this page's seat."""
    deadline = time.time() + 60
    while not any(json.loads(f).get("acks") for f in frames):
        assert time.time() < deadline, "no move was acknowledged"
        if not act_once(page, rng):
            page.wait_for_timeout(50)


def welcomes(frames: list[str]) -> list[dict[str, Any]]:
    return [m for m in map(json.loads, frames) if m.get("type") == "welcome"]


def test_sign_up_play_then_sign_in_on_a_second_device_and_resume(
    browser: Any, live: LiveServer, shots: Path
) -> None:
    rng = random.Random(11)
    phone = browser.new_context(viewport={"width": 1200, "height": 860}, locale="en-GB")
    page = phone.new_page()
    errors = watch_errors(page)
    frames = record_frames(page)
    page.goto(live.base + "/")
    page.wait_for_selector("#accttoggle")
    assert page.inner_text("#accttoggle") == "Sign in"
    page.fill("#qname", "Marco")
    page.click("#quick")
    page.wait_for_selector(".tray .die.pick", timeout=30000)
    game_id = page.url.rstrip("/").split("/")[-1]
    move_once(page, rng, frames)  # a guest plays, with the seat token of localStorage

    page.goto(live.base + "/")
    page.click("#accttoggle")
    page.wait_for_selector(".acctpanel #acctname")
    page.fill("#acctname", "Marco")
    page.fill("#acctpass", PASSWORD)
    page.screenshot(path=str(shots / "account-signup.png"))
    page.click("#acctsignup")
    page.wait_for_selector(".accttoggle.in")
    assert "Marco" in page.inner_text("#accttoggle")
    page.wait_for_selector(f'#lists a[href="/game/{game_id}"]')  # "Your games", from the account
    page.click("#accttoggle")
    page.wait_for_selector("#acctlogoutall")
    page.screenshot(path=str(shots / "account-signed-in.png"))
    cookies = {c["name"]: c for c in phone.cookies()}
    assert cookies["alea_session"]["httpOnly"] and cookies["alea_session"]["sameSite"] == "Lax"
    assert page.evaluate("document.cookie") == ""  # the page's script never sees the session

    # The second device: nothing stored, Italian, signs in and resumes the same seat.
    laptop = browser.new_context(viewport={"width": 1400, "height": 900}, locale="it-IT")
    other = laptop.new_page()
    other_errors = watch_errors(other)
    other_frames = record_frames(other)
    other.goto(live.base + "/")
    other.wait_for_selector("#accttoggle")
    assert other.inner_text("#accttoggle") == "Accedi"
    other.click("#accttoggle")
    other.fill("#acctname", "marco")
    other.fill("#acctpass", PASSWORD)
    other.press("#acctpass", "Enter")
    other.wait_for_selector(".accttoggle.in")
    link = other.wait_for_selector(f'#lists a[href="/game/{game_id}"]')
    assert other.evaluate("localStorage.getItem('alea.tokens')") in (None, "{}")
    link.click()
    other.wait_for_selector(".tray .die.pick", timeout=30000)
    assert [(w["seat"], w["role"]) for w in welcomes(other_frames)] == [(0, "player")]
    move_once(other, rng, other_frames)
    other.screenshot(path=str(shots / "account-resumed.png"))

    # Signing out on the laptop: the page watches, the phone's session is untouched.
    other.goto(live.base + "/")
    other.click("#accttoggle")
    other.click("#acctlogout")
    other.wait_for_selector(".accttoggle:not(.in)")
    page.goto(live.base + "/")
    page.wait_for_selector(".accttoggle.in")
    assert errors == [] and other_errors == []
    phone.close()
    laptop.close()


def test_the_account_panel_fits_a_phone_in_italian(
    browser: Any, live: LiveServer, shots: Path
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="it-IT")
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(live.base + "/")
    page.click("#accttoggle")
    panel = page.wait_for_selector(".acctpanel")
    box = panel.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert "Crea account" in page.inner_text(".acctpanel")
    # A refused sign-in says why in Italian, and the panel stays open to try again.
    page.fill("#acctname", "Nessuno")
    page.fill("#acctpass", "password sbagliata")
    page.click("#acctlogin")
    page.wait_for_selector(".toast.error")
    assert "Nome utente o password errati" in page.inner_text(".toast.error")
    page.screenshot(path=str(shots / "account-phone-it.png"))
    page.keyboard.press("Escape")
    page.wait_for_selector(".acctpanel", state="detached")
    assert [e for e in errors if "401" not in e] == []
    context.close()
