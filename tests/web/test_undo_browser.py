"""Undo and projected scores at the table, in Chromium at 1366x768 and 390x844.

* a choice of an evaluation taken back with the Undo button (reached by keyboard): the
  card returns to the choices, the server's log is the one before it, and the button is
  there only while the server allows it;
* the projected-score panel: your best arrangement and everyone's public estimate, in
  English and Italian, fitting a phone.

(A placement cannot be undone online: the next player's roll follows it at once, and
undoing past a roll is what the rule forbids; see docs/server.md.)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.support import HTTP, LiveServer, database, human_game, quick_bots
from tests.web.a11y import serious_violations
from tests.web.support import browser_settings, require_chromium, watch_errors
from tests.web.test_playtest_browser import DESKTOP, PHONE, sit, state

require_chromium()
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with database("sqlite", tmp_path_factory.mktemp("db")) as db:
        settings = browser_settings(db.url, bot_delay=0.05, bot_factory=quick_bots)
        with LiveServer(settings) as server:
            yield server


def our_violations(page: Any) -> list[str]:
    """The serious axe violations of the undo bar and the projection panel (the board's
    own are the other browser tests' business: they depend on the random game here)."""
    ours = ("#undo", ".undo", "projection", ".pj")
    return [v for v in serious_violations(page) if any(k in v for k in ours)]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def act(base: str, game_id: str, token: str, action: str, version: int) -> dict[str, Any]:
    answer = HTTP.post(
        f"{base}/api/games/{game_id}/actions",
        json={"action": action, "version": version},
        headers=bearer(token),
    )
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()["state"]
    return result


@dataclass(frozen=True)
class Move:
    """One move of :func:`play_until`: who made it, what, among which choices (rerolls
    left out where anything else was legal), at which version, and the mover's state
    after it."""

    seat: int
    choice: str
    legal: list[str]
    version: int
    after: dict[str, Any]


def play_until(
    base: str, game_id: str, tokens: list[str], seed: int, stop: Callable[[Move], bool], never: str
) -> Move:
    """Every seat plays at random (a reroll only when nothing else is legal) until a move
    satisfies ``stop``: that move (an AssertionError saying ``never`` after 3000 moves)."""
    rng = random.Random(seed)
    for _ in range(3000):
        states = [state(base, game_id, t) for t in tokens]
        mover = next(s for s in states if s["legal"])
        seat = mover["seat"]
        legal = [a for a in mover["legal"] if not a.startswith("R:")] or mover["legal"]
        choice = rng.choice(legal)
        after = act(base, game_id, tokens[seat], choice, mover["version"])
        move = Move(seat, choice, legal, int(mover["version"]), after)
        if stop(move):
            return move
    raise AssertionError(never)


def to_undoable_choice(base: str, game_id: str, tokens: list[str]) -> str:
    """Both seats play at random until seat 0 makes a choice it may take back; it is taken
    back over HTTP, so seat 0 is about to make it again. Returns that choice."""
    move = play_until(
        base,
        game_id,
        tokens,
        8,
        lambda m: m.seat == 0 and bool(m.after["undo"]) and m.choice[0] in "PN",
        "seat 0 never made a choice it could take back",
    )
    answer = httpx.post(
        f"{base}/api/games/{game_id}/undo",
        json={"version": move.after["version"]},
        headers=bearer(tokens[0]),
        timeout=30,
    )
    assert answer.status_code == 200, answer.text
    return move.choice


def play_to_round(base: str, game_id: str, tokens: list[str], round_: int) -> None:
    """Both seats play at random until round ``round_`` (cards on the table to score)."""
    rng = random.Random(3)
    while True:
        states = [state(base, game_id, t) for t in tokens]
        if states[0]["view"]["round"] >= round_:
            return
        mover = next(s for s in states if s["legal"])
        legal = [a for a in mover["legal"] if not a.startswith("R:")] or mover["legal"]
        act(base, game_id, tokens[mover["seat"]], rng.choice(legal), mover["version"])


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_undo_a_choice_and_see_it_return(
    browser: Any, live: LiveServer, shots: Path, size: dict[str, int]
) -> None:
    game_id, tokens = human_game(live.base, 2)
    choice = to_undoable_choice(live.base, game_id, tokens)
    before = state(live.base, game_id, tokens[0])
    phone = size == PHONE
    # Reduced motion: the audit never catches a card half faded in (low contrast).
    context = browser.new_context(
        viewport=size, locale="en-GB", is_mobile=phone, has_touch=phone, reduced_motion="reduce"
    )
    page = context.new_page()
    errors = watch_errors(page)
    sit(page, {game_id: (tokens[0], 0)})
    page.goto(f"{live.base}/game/{game_id}")
    card = page.locator(f'#tray [data-action="{choice}"]')
    card.wait_for()
    assert page.locator("#undo").is_hidden()  # nothing of seat 0's to take back yet
    card.click()
    bar = page.locator("#undo")
    bar.get_by_role("button", name="Undo my last move").wait_for()
    assert page.locator(f'#tray [data-action="{choice}"]').count() == 0
    assert state(live.base, game_id, tokens[0])["version"] == before["version"] + 1
    bar.scroll_into_view_if_needed()
    assert bar.bounding_box()["x"] + bar.bounding_box()["width"] <= size["width"]
    page.screenshot(path=str(shots / f"undo-{'phone' if phone else 'desktop'}.png"))
    assert our_violations(page) == []
    # By keyboard: the button takes the focus and Enter presses it.
    page.locator("#undo button").focus()
    page.keyboard.press("Enter")
    page.locator(f'#tray [data-action="{choice}"]').wait_for()
    bar.wait_for(state="hidden")
    now = state(live.base, game_id, tokens[0])
    assert now["version"] == before["version"] and now["log"] == before["log"]
    assert now["view"] == before["view"] and choice in now["legal"]
    # The page's log is the server's again (the taken-back entry is gone from it).
    entries = page.locator("#log li").count()
    page.reload()
    page.locator(f'#tray [data-action="{choice}"]').wait_for()
    assert page.locator("#log li").count() == entries
    assert errors == []
    context.close()


@pytest.mark.parametrize(
    ("size", "locale", "words"),
    [
        (PHONE, "en-GB", ("Projected scores", "Your best arrangement", "Public estimates")),
        (DESKTOP, "it-IT", ("Punteggi previsti", "La tua disposizione migliore", "Stime")),
    ],
)
def test_projected_scores_panel(
    browser: Any,
    live: LiveServer,
    shots: Path,
    size: dict[str, int],
    locale: str,
    words: tuple[str, str, str],
) -> None:
    game_id, tokens = human_game(live.base, 2)
    play_to_round(live.base, game_id, tokens, 4)  # a game with cards on the table
    phone = size == PHONE
    context = browser.new_context(
        viewport=size, locale=locale, is_mobile=phone, has_touch=phone, reduced_motion="reduce"
    )
    page = context.new_page()
    errors = watch_errors(page)
    sit(page, {game_id: (tokens[0], 0)})
    page.goto(f"{live.base}/game/{game_id}")
    button = page.get_by_role("button", name=words[0])
    button.wait_for()
    button.click()
    panel = page.locator(".projection")
    panel.get_by_text(words[1]).wait_for()
    assert words[2] in panel.inner_text()
    projected = httpx.get(
        f"{live.base}/api/games/{game_id}/projection", headers=bearer(tokens[0]), timeout=30
    ).json()
    text = panel.inner_text()
    assert str(projected["own"]["score"]) in text
    assert panel.locator(".pjpublic tr").count() == 2
    # Every reason in the page's language (the optimiser's are English).
    language = "it" if locale.startswith("it") else "en"
    for place in projected["own"]["places"]:
        assert place["why"][language] in text
    # It fits: nothing wider than the screen.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size["width"]
    panel.scroll_into_view_if_needed()
    if phone:
        panel.screenshot(path=str(shots / "projection-phone.png"))
    assert our_violations(page) == []
    assert errors == []
    context.close()
