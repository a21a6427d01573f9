"""The table shows what happens, pinned in Chromium at 1366x768 and 390x844.

* the evaluation of a round, step by step in order (Templum, Senatus, Castrum, Forum,
  Latrina), in a panel and in the log, in English and Italian, from the view's public
  account and the log's choices only;
* a new roll tumbles and placed dice fly to their building, and nothing moves with
  ``prefers-reduced-motion``;
* placements and re-rolls wait for "Confirm" when the player asks for it (re-rolls by
  default), and nothing is sent before.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.support import LiveServer, database, quick_bots
from tests.web.support import browser_settings, record_frames, require_chromium, watch_errors
from tests.web.test_playtest_browser import (
    DESKTOP,
    PHONE,
    against_bots,
    sit,
    state,
    until_my_placement,
)

require_chromium()
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")

ORDER = "TSCFL"


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with database("sqlite", tmp_path_factory.mktemp("db")) as db:
        settings = browser_settings(db.url, bot_delay=0.05, bot_factory=quick_bots)
        with LiveServer(settings) as server:
            yield server


def open_page(
    browser: Any, size: dict[str, int], locale: str = "en-GB", motion: str = "no-preference"
) -> tuple[Any, Any]:
    phone = size == PHONE
    context = browser.new_context(
        viewport=size, locale=locale, is_mobile=phone, has_touch=phone, reduced_motion=motion
    )
    return context, context.new_page()


def send(base: str, game_id: str, token: str, action: str, version: int) -> None:
    answer = httpx.post(
        f"{base}/api/games/{game_id}/actions",
        json={"action": action, "version": version},
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )
    assert answer.status_code in (200, 409), answer.text


def play_to_evaluation(
    base: str, game_id: str, token: str, on_choice: Any = None
) -> dict[str, Any]:
    """Seat 0 plays (into the Temple and the Senate when it can, so that they have
    something to evaluate) until the first round's evaluation is over; ``on_choice()`` is
    called the first time seat 0 has a choice to make in that evaluation."""
    rng = random.Random(5)
    deadline = time.time() + 90
    while True:
        now = state(base, game_id, token)
        accounts = now["view"].get("evaluations", [])
        if accounts and accounts[0]["end"] is not None:
            return now
        assert time.time() < deadline, "the first round never ended"
        if not now["legal"]:
            time.sleep(0.05)
            continue
        if accounts and on_choice is not None:
            on_choice()
            on_choice = None
        legal = [a for a in now["legal"] if not a.startswith("R:")] or now["legal"]
        liked = [a for a in legal if a[0] in "TS"]
        send(base, game_id, token, rng.choice(liked or legal), now["version"])


def test_the_evaluation_is_shown_step_by_step(browser: Any, live: LiveServer, shots: Path) -> None:
    game_id, token = against_bots(live.base, 4)
    until_my_placement(live.base, game_id, token)
    context, page = open_page(browser, DESKTOP)
    errors = watch_errors(page)
    sit(page, {game_id: (token, 0)})
    # Every step the panel adds, in the order it adds them, with the building that glows.
    page.add_init_script(
        """window.__steps = []; window.__glow = [];
        new MutationObserver((ms) => { for (const m of ms) for (const n of m.addedNodes) {
          if (n.nodeType === 1 && n.matches('.evalpanel li')) window.__steps.push(n.className);
          if (n.nodeType === 1 && n.closest && n.closest('.evalpanel'))
            for (const b of document.querySelectorAll('.building.evaluating'))
              window.__glow.push(b.dataset.building);
        } }).observe(document, {subtree: true, childList: true});"""
    )
    page.goto(f"{live.base}/game/{game_id}")
    page.wait_for_selector(".tray .die.pick")

    def while_choosing() -> None:
        # The evaluation waits for our choice: the steps so far, the one waiting, the glow.
        page.wait_for_selector(".evalpanel li.pending", timeout=30000)
        page.wait_for_selector(".building.evaluating")
        page.screenshot(path=str(shots / "evaluation.png"))

    final = play_to_evaluation(live.base, game_id, token, while_choosing)
    account = final["view"]["evaluations"][0]
    page.wait_for_selector(".evalpanel li.bL", state="attached", timeout=30000)
    shown = page.evaluate("window.__steps")
    buildings = [next(c[1] for c in cls.split() if c.startswith("b")) for cls in shown]
    # In the order of evaluation, never back to a building already done.
    firsts = [b for i, b in enumerate(buildings) if b not in buildings[:i]]
    assert firsts == sorted(firsts, key=ORDER.index), buildings
    # What the account says is there: a line per Temple group, per Senate straight, ...
    expected = {
        "T": len(account["temple"]),
        "S": len(account["senate"]),
        "C": len(account["castrum"]),
        "F": len(account["forum"]),
    }
    panel = page.eval_on_selector_all(
        ".evalpanel li:not(.pending)", "els => els.map(e => e.className)"
    )
    for building, count in expected.items():
        assert sum(f"b{building}" in c.split() for c in panel) == count, (building, panel)
    assert set(page.evaluate("window.__glow")) <= set(ORDER)
    # The log keeps the automatic steps: the Temple's tiles and the Latrine's tokens.
    page.wait_for_selector(".log .evalhead")
    log = page.inner_text("#log")
    assert "Evaluation of round 1" in log
    if account["temple"]:
        assert "Templum" in log and ("keeps" in log)
    if any(account["latrine"]):
        assert "re-roll tokens" in log
    page.screenshot(path=str(shots / "evaluation-log.png"))
    assert not errors, errors
    context.close()


def test_the_evaluation_reads_in_italian_on_a_phone(
    browser: Any, live: LiveServer, shots: Path
) -> None:
    game_id, token = against_bots(live.base, 4)
    until_my_placement(live.base, game_id, token)
    context, page = open_page(browser, PHONE, "it-IT")
    errors = watch_errors(page)
    sit(page, {game_id: (token, 0)})
    page.goto(f"{live.base}/game/{game_id}")
    page.wait_for_selector(".tray .die.pick")

    def while_choosing() -> None:
        page.wait_for_selector(".evalpanel li.pending", timeout=30000)
        page.screenshot(path=str(shots / "evaluation-phone.png"))

    play_to_evaluation(live.base, game_id, token, while_choosing)
    page.wait_for_selector(".evalpanel li.bL", state="attached", timeout=30000)
    text = page.text_content(".evalpanel") or ""
    assert "Valutazione del turno 1" in text and "Latrina" in text
    for english in ("keeps", "ranks", "takes", "chooses", "re-roll"):
        assert english not in text, text
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not errors, errors
    context.close()


def watch_motion(page: Any) -> None:
    """Counts the dice that tumbled and the animations that ran on dice."""
    page.add_init_script(
        """window.__rolled = 0; window.__flown = 0;
        new MutationObserver((ms) => { for (const m of ms) {
          if (m.type === 'attributes' && m.target.classList.contains('rolling')) window.__rolled++;
          for (const n of m.addedNodes || []) if (n.nodeType === 1)
            window.__rolled += n.querySelectorAll('.die.rolling').length;
        } }).observe(document, {subtree: true, childList: true, attributes: true,
                                 attributeFilter: ['class']});
        const animate = Element.prototype.animate;
        Element.prototype.animate = function (...args) {
          if (this.classList.contains('die')) window.__flown++;
          return animate.apply(this, args);
        };"""
    )


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_dice_roll_and_fly_to_their_building(
    browser: Any, live: LiveServer, shots: Path, size: dict[str, int]
) -> None:
    game_id, token = against_bots(live.base, 3)
    until_my_placement(live.base, game_id, token)
    context, page = open_page(browser, size)
    errors = watch_errors(page)
    sit(page, {game_id: (token, 0)})
    watch_motion(page)
    page.goto(f"{live.base}/game/{game_id}")
    page.wait_for_selector(".tray .die.pick")
    page.eval_on_selector(".tray [data-select]", "b => b.click()")  # the first legal move
    page.wait_for_selector(".tray .actions button.place")
    page.click(".tray .actions button.place")
    # The bots move on; our next roll arrives and tumbles in.
    page.wait_for_function("window.__flown > 0", timeout=20000)
    page.wait_for_function("window.__rolled > 0", timeout=30000)
    page.wait_for_selector(".tray .die.pick", timeout=30000)
    page.screenshot(path=str(shots / f"dice-{size['width']}.png"))
    assert not errors, errors
    context.close()


def test_nothing_moves_with_reduced_motion(browser: Any, live: LiveServer) -> None:
    game_id, token = against_bots(live.base, 4)
    until_my_placement(live.base, game_id, token)
    context, page = open_page(browser, DESKTOP, motion="reduce")
    errors = watch_errors(page)
    sit(page, {game_id: (token, 0)})
    watch_motion(page)
    page.goto(f"{live.base}/game/{game_id}")
    page.wait_for_selector(".tray .die.pick")
    page.eval_on_selector(".tray [data-select]", "b => b.click()")
    page.click(".tray .actions button.place")
    play_to_evaluation(live.base, game_id, token)
    page.wait_for_selector(".evalpanel li.bL", state="attached", timeout=30000)
    assert page.evaluate("window.__rolled") == 0
    assert page.evaluate("window.__flown") == 0
    # Every step is there at once, and none of them (nor a building) is animated.
    running = page.evaluate(
        """() => document.getAnimations().filter((a) => a.effect && a.effect.target &&
             a.effect.target.closest('.evalpanel, .building.evaluating, .tray .dice, .die'))
             .map((a) => [a.constructor.name, a.animationName || a.transitionProperty || '',
                          a.effect.target.className])"""
    )
    assert running == [], running
    assert not errors, errors
    context.close()


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_placement_waits_for_confirm_when_asked(
    browser: Any, live: LiveServer, size: dict[str, int]
) -> None:
    game_id, token = against_bots(live.base, 2)
    before = until_my_placement(live.base, game_id, token)
    context, page = open_page(browser, size)
    errors = watch_errors(page)
    sit(page, {game_id: (token, 0)})
    sent = record_frames(page, "framesent")
    page.goto(f"{live.base}/game/{game_id}")
    page.wait_for_selector(".tray .die.pick")
    # Re-rolls are confirmed by default, placements only when asked for.
    assert page.is_checked("[data-confirm-setting=reroll]")
    assert not page.is_checked("[data-confirm-setting=place]")
    page.check("[data-confirm-setting=place]")
    assert json.loads(page.evaluate("localStorage.getItem('alea.confirm')")) == {
        "place": True,
        "reroll": True,
    }
    page.eval_on_selector(".tray [data-select]", "b => b.click()")
    page.click(".tray .actions button.place")
    page.wait_for_selector(".confirmbar")
    assert "?" in page.inner_text(".confirmbar")
    page.click(".confirmbar [data-confirm='']")  # Cancel: back to the buttons
    page.wait_for_selector(".tray .actions button.place")
    assert not [f for f in sent if '"action"' in f]
    page.click(".tray .actions button.place")
    page.click(".confirmbar button.primary")
    page.wait_for_function(
        "v => document.querySelectorAll('#log li').length > 0", arg=before["version"]
    )
    deadline = time.time() + 10
    while not [f for f in sent if '"action"' in f]:
        assert time.time() < deadline, "the confirmed placement was never sent"
        time.sleep(0.05)
    # Sent is not yet stored: the server commits it a moment later.
    while state(live.base, game_id, token)["version"] <= before["version"]:
        assert time.time() < deadline, "the confirmed placement was never stored"
        time.sleep(0.05)
    assert not errors, errors
    context.close()
