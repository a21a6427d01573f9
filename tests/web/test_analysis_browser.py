"""The analysis of a finished game in the replay, and the hint of a casual game, in Chromium.

A game of easy bots (mostly random placements) is analysed for one seat from the
replay page: progress, the chart, the flagged mistakes in words, a click that moves
the replay to the mistake with the verdict in the caption, in English and Italian,
desktop and phone. The hint button gives the seat to move a move it may play, and a
hint never outlives its decision (an undo and another move reach the same version in
another position).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.support import LiveServer, create_game, database, human_game, quick_bots
from tests.web.a11y import serious_violations
from tests.web.support import browser_settings, require_chromium, watch_errors
from tests.web.test_undo_browser import act, bearer, play_until

require_chromium()
pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with database("sqlite", tmp_path_factory.mktemp("db")) as db:
        settings = browser_settings(
            db.url,
            bot_delay=0.0,
            bot_factory=quick_bots,
            analysis_processes=0,
            analysis_samples=6,
            hint_samples=3,
        )
        with LiveServer(settings) as server:
            yield server


@pytest.fixture(scope="module")
def finished(live: LiveServer) -> str:
    created = create_game(live.base, [{"kind": "bot", "level": "easy"}] * 3, sit=False)
    game_id: str = created["game"]["id"]
    for _ in range(1200):
        if httpx.get(f"{live.base}/api/games/{game_id}").json()["status"] == "finished":
            return game_id
        time.sleep(0.05)
    raise AssertionError("the bots did not finish")


def test_analysing_a_finished_game_in_the_replay(
    browser: Any, live: LiveServer, finished: str, shots: Path
) -> None:
    for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        phone = size == PHONE
        context = browser.new_context(
            viewport=size, locale="en-GB", is_mobile=phone, has_touch=phone
        )
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(f"{live.base}/replay/{finished}?analysis=0")
        panel = page.locator("details.analysis")
        panel.wait_for()
        assert panel.get_attribute("open") is not None
        page.select_option("#an-seat", "1")
        # The panel asks the server where seat 1's analysis stands, then offers to start it
        # (the first size) or shows it (stored by then).
        page.wait_for_function(
            "() => document.querySelector('#an-go').dataset.asked === '1'",
            timeout=30_000,
        )
        if page.locator("#an-go").is_visible():
            page.click("#an-go")
        page.wait_for_selector(".an-chart svg", timeout=120_000)
        status = page.inner_text("#an-status")
        assert "mistakes in" in status and "decisions" in status
        mistakes = page.locator(".an-list li")
        assert mistakes.count() >= 1, "easy bots make mistakes the analysis should find"
        first = mistakes.first.inner_text()
        assert "points" in first and "was better than" in first and "winning chances" in first
        assert page.locator(".an-mark").count() == mistakes.count()
        mistakes.first.locator("button.link").click()
        page.wait_for_selector(".caption .an-note.bad")
        caption = page.inner_text(".caption")
        assert "✗" in caption and "was better than" in caption
        step = int(page.eval_on_selector("#slider", "e => e.value"))
        data = httpx.get(f"{live.base}/api/games/{finished}/analysis", params={"seat": 1}).json()[
            "analysis"
        ]
        flagged = [d for d in data["decisions"] if d["flagged"]]
        assert step == flagged[0]["step"] + 1
        # The page never gets wider than the screen.
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], f"{name}: page {width}px wide"
        page.screenshot(path=str(shots / f"analysis-{name}.png"), full_page=False)
        assert not serious_violations(page)
        # Italian: the same analysis in Italian words.
        page.evaluate("localStorage.setItem('alea.lang', 'it')")
        page.reload()
        page.wait_for_selector(".caption .an-note.bad", timeout=60_000)
        assert "meglio" in page.inner_text(".caption")
        italian = page.inner_text(".an-list")
        assert "punti" in italian and "probabilità di vittoria" in italian
        assert "points" not in italian
        if not phone:
            page.screenshot(path=str(shots / "analysis-desktop-it.png"))
        assert not errors, errors
        context.close()


def test_the_hint_button_of_a_casual_game(browser: Any, live: LiveServer, shots: Path) -> None:
    created = create_game(
        live.base, [{"kind": "human"}, {"kind": "bot", "level": "easy"}], name="Livia"
    )
    game_id = created["game"]["id"]
    token = created["token"]
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    errors = watch_errors(page)
    stored = {game_id: {"token": token, "seat": 0, "at": 1}}
    page.add_init_script(
        f"localStorage.setItem('alea.tokens', {json.dumps(json.dumps(stored))});"
        "localStorage.setItem('alea.auto', '0');"
    )
    page.goto(f"{live.base}/game/{game_id}")
    page.wait_for_selector("button.hintbtn", timeout=30_000)
    page.click("button.hintbtn")
    line = page.wait_for_selector(".hintline", timeout=60_000)
    text = line.inner_text()
    assert text.startswith("Hint:") and "winning chances" in text
    legal = httpx.get(
        f"{live.base}/api/games/{game_id}/state",
        headers={"Authorization": f"Bearer {token}"},
    ).json()["legal"]
    hint = httpx.post(
        f"{live.base}/api/games/{game_id}/hint", headers={"Authorization": f"Bearer {token}"}
    ).json()
    assert hint["best"] in legal
    page.screenshot(path=str(shots / "hint-desktop.png"))
    # A spectator of the same table gets no hint button.
    watcher = context.new_page()
    watcher.goto(f"{live.base}/game/{game_id}?watch=1")
    watcher.wait_for_selector("#board .building", timeout=30_000)
    assert watcher.locator("button.hintbtn").count() == 0
    assert not errors, errors
    context.close()


def to_choice_then_another(base: str, game_id: str, tokens: list[str]) -> tuple[str, str, int]:
    """Both seats play at random until seat 0 makes a choice it may take back after which it
    decides again at once. Returns that choice, another it could have made, and the version
    it was made at."""
    move = play_until(
        base,
        game_id,
        tokens,
        5,
        lambda m: (
            m.seat == 0
            and m.choice[0] in "PN"
            and len(m.legal) > 1
            and bool(m.after["undo"])
            and bool(m.after["legal"])
        ),
        "seat 0 never chose twice in a row",
    )
    return move.choice, next(a for a in move.legal if a != move.choice), move.version


def test_a_hint_is_gone_when_an_undo_changes_the_decision(browser: Any, live: LiveServer) -> None:
    game_id, tokens = human_game(live.base, 2)
    _, other, version = to_choice_then_another(live.base, game_id, tokens)
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    errors = watch_errors(page)
    stored = {game_id: {"token": tokens[0], "seat": 0, "at": 1}}
    page.add_init_script(
        f"localStorage.setItem('alea.tokens', {json.dumps(json.dumps(stored))});"
        "localStorage.setItem('alea.auto', '0');"
    )
    page.goto(f"{live.base}/game/{game_id}")
    page.click("button.hintbtn", timeout=30_000)
    page.wait_for_selector(".hintline", timeout=60_000)
    entries = page.locator("#log li").count()
    # Taken back, then another choice: the same version number, another position.
    undone = httpx.post(
        f"{live.base}/api/games/{game_id}/undo",
        json={"version": version + 1},
        headers=bearer(tokens[0]),
        timeout=30,
    )
    assert undone.status_code == 200, undone.text
    page.wait_for_function(f"document.querySelectorAll('#log li').length < {entries}")
    assert act(live.base, game_id, tokens[0], other, version)["version"] == version + 1
    page.wait_for_function(f"document.querySelectorAll('#log li').length === {entries}")
    page.wait_for_selector("button.hintbtn")
    assert page.locator(".hintline").count() == 0, "the hint of the other position is shown"
    assert not errors, errors
    context.close()
