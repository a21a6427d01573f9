"""The table-top scorer (/score), the rules page (/rules), help by tap and the axe audit.

In headless Chromium, at desktop (1366x768) and phone (390x844) sizes:

* a table of two taps in its pieces, the page sends them and draws every player's best
  arrangement place by place, with the scores, the ranking and the winner the engine
  computes for the same table; the Italian switch translates the explanations;
* what the box cannot produce is refused before sending (a card another player holds,
  a seventh Senate card, a third XIII, more Fortuna tiles than the box);
* the scorer is usable with the keyboard alone, and opens from the cache offline;
* the rules page shows every building, place and Senate card in both languages;
* on the game's page the Help button turns taps into help instead of moves;
* axe-core finds no serious or critical violation on the lobby, the game, the help
  dialog, a Dado Romano table, the results, the scorer (pieces and results) and the
  rules page.

Screenshots go to a temporary directory, or to docs/screenshots/ when
``ALEA_UPDATE_SCREENSHOTS=1`` is set.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from alea.tabletop import score_table
from tests.server.support import LiveServer, bot_factory, create_game, database
from tests.web.a11y import serious_violations
from tests.web.support import browser_settings, require_chromium, watch_errors

require_chromium()
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")

SIZES = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}

#: A small table: what each player taps in, as the API's holdings.
TABLE = {
    "Anna": {
        "provinces": ["red4", "red2", "grey0", "blue3"],
        "patricians": ["redm2", "redw3", "redw1", "bluem1", "bluew2", "greenm3"],
        "senate": ["V", "VI", "XII-green/blue", "XIII"],
        "fortuna": [2],
        "tokens": 3,
    },
    "Bruno": {
        "provinces": ["green4", "orange1"],
        "patricians": ["greenw3", "orangem2", "orangew2", "orangem1"],
        "senate": ["IX", "XI"],
        "fortuna": [],
        "tokens": 0,
    },
}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with database("sqlite", tmp_path_factory.mktemp("db")) as db:
        settings = browser_settings(db.url, bot_delay=0.0, bot_factory=bot_factory())
        with LiveServer(settings) as server:
            yield server


def open_page(browser: Any, size: str, locale: str = "en-GB") -> tuple[Any, Any]:
    phone = size == "phone"
    context = browser.new_context(
        viewport=SIZES[size], locale=locale, is_mobile=phone, has_touch=phone
    )
    return context, context.new_page()


def tap(page: Any, selector: str) -> None:
    """A finger's tap on a phone-sized page, a click elsewhere."""
    if page.viewport_size["width"] < 500:
        page.tap(selector)
    else:
        page.click(selector)


def piece(kind: str, card: str) -> str:
    return f'.piece-btn[data-kind="{kind}"][data-card="{card}"]'


def enter(page: Any, name: str, holdings: dict[str, Any]) -> None:
    """Types the current player's name and taps in their pieces."""
    page.fill("#sc-name", name)
    page.press("#sc-name", "Enter")
    page.dispatch_event("#sc-name", "change")
    for kind in ("provinces", "patricians", "senate"):
        for card in holdings[kind]:
            tap(page, piece(kind, card))
            assert page.get_attribute(piece(kind, card), "aria-pressed") == "true"
    for value in holdings["fortuna"]:
        tap(page, f'[data-step-key="f{value}"][data-step-by="1"]')
    for _ in range(holdings["tokens"]):
        tap(page, '[data-step-key="tokens"][data-step-by="1"]')


def fresh_scorer(browser: Any, live: LiveServer, size: str, locale: str = "en-GB") -> Any:
    context, page = open_page(browser, size, locale)
    page.goto(live.base + "/score")
    page.wait_for_selector(".piece-btn")
    return context, page


@pytest.mark.parametrize("size", SIZES)
def test_a_table_taps_in_its_pieces_and_gets_every_arrangement(
    browser: Any, live: LiveServer, shots: Path, size: str
) -> None:
    context, page = fresh_scorer(browser, live, size)
    errors = watch_errors(page)
    enter(page, "Anna", TABLE["Anna"])
    tap(page, '[data-player="1"]')
    enter(page, "Bruno", TABLE["Bruno"])
    # Bruno cannot take what Anna holds.
    assert page.is_disabled(piece("provinces", "red4"))
    assert "Anna" in (page.get_attribute(piece("provinces", "red4"), "aria-label") or "")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / f"score-{size}.png"))
    tap(page, "[data-score]")
    page.wait_for_selector(".sc-banner")
    page.wait_for_timeout(1200)  # the cards are dealt one by one
    truth = score_table(list(TABLE.items()))
    by_name = {p["name"]: p for p in truth["players"]}
    for article in page.query_selector_all(".sc-player"):
        name = article.query_selector("h3").inner_text().split("\n")
        player = next(by_name[n] for n in by_name if any(n in part for part in name))
        assert int(article.query_selector("h3 .score").inner_text()) == player["score"]
        rows = article.query_selector_all(".sc-places")[0].query_selector_all(".sc-place")
        assert len(rows) == len(player["places"]) + 1  # every place, then the unplaced
        points = [int(r.query_selector(".sc-pts").inner_text()) for r in rows[:-1]]
        assert points == [p["points"] for p in player["places"]]
        whys = [r.query_selector(".sc-why").inner_text() for r in rows[:-1]]
        assert whys == [p["why"]["en"] for p in player["places"]]
        extras = [r.query_selector(".extra .patrician") for r in rows[:-1]]
        assert [e.get_attribute("data-card") if e else None for e in extras] == [
            p["extra"] for p in player["places"]
        ]
    banner = page.inner_text(".sc-banner")
    assert all(w in banner for w in truth["winners"])
    ranking = [r.inner_text().split("\t") for r in page.query_selector_all(".sc-ranking tbody tr")]
    assert [row[1] for row in ranking] == [r["name"] for r in truth["ranking"]]
    page.screenshot(path=str(shots / f"score-results-{size}.png"))
    # Italian: the same results, explained in Italian.
    page.click('[data-lang="it"]')
    page.wait_for_selector("text=Risultati")
    first = page.query_selector(".sc-player .sc-why")
    assert first is not None
    winner = by_name[truth["ranking"][0]["name"]]
    assert first.inner_text() == winner["places"][0]["why"]["it"]
    assert page.evaluate("document.documentElement.lang") == "it"
    assert not errors, errors
    context.close()


def test_what_the_box_cannot_produce_is_refused_before_sending(
    browser: Any, live: LiveServer
) -> None:
    context, page = fresh_scorer(browser, live, "phone")
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    for card in ("I", "II", "III", "V", "VI", "VII"):
        tap(page, piece("senate", card))
    tap(page, piece("senate", "VIII"))  # a seventh Senate card
    assert page.get_attribute(piece("senate", "VIII"), "aria-pressed") == "false"
    assert "6" in page.inner_text("#sc-status")
    tap(page, piece("senate", "VII"))  # a card already held is given back
    assert page.get_attribute(piece("senate", "VII"), "aria-pressed") == "false"
    tap(page, piece("senate", "VI"))
    tap(page, piece("senate", "XIII"))
    tap(page, piece("senate", "XIII"))
    assert "2" in (page.get_attribute(piece("senate", "XIII"), "aria-label") or "")
    tap(page, '[data-player="1"]')
    assert page.is_disabled(piece("senate", "XIII"))  # both copies are at the table
    assert page.is_disabled(piece("senate", "I"))
    more_ones = '[data-step-key="f1"][data-step-by="1"]'
    for _ in range(8):
        tap(page, more_ones)
    assert page.is_disabled(more_ones)  # the box holds eight tiles of value 1
    tap(page, '[data-player="0"]')
    assert page.is_disabled(more_ones)  # ...for the whole table
    for _ in range(3):  # two players to start with
        tap(page, "[data-add-player]")
    assert page.is_disabled("[data-add-player]")  # five players at most
    page.fill("#sc-name", "Player 2")  # the second player's name
    page.dispatch_event("#sc-name", "change")
    assert "Player 2" in page.inner_text("#sc-status")
    assert page.input_value("#sc-name") == "Player 5"
    assert not sent
    context.close()


def test_the_scorer_works_with_the_keyboard_alone(browser: Any, live: LiveServer) -> None:
    context, page = fresh_scorer(browser, live, "desktop")
    page.focus("#sc-name")
    # Tab to the first province card and take it with the space bar, then the next with Enter.
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.dataset.card")
    assert focused == "red1"
    page.keyboard.press("Space")
    assert page.get_attribute(piece("provinces", "red1"), "aria-pressed") == "true"
    assert page.evaluate("document.activeElement.dataset.card") == "red1"  # focus stays
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert page.get_attribute(piece("provinces", "red2"), "aria-pressed") == "true"
    page.focus("[data-score]")
    page.keyboard.press("Enter")
    page.wait_for_selector(".sc-banner")
    assert page.evaluate("document.activeElement.id") == "sc-results"
    context.close()


def test_the_scorer_opens_offline_once_loaded(browser: Any, live: LiveServer) -> None:
    context, page = fresh_scorer(browser, live, "phone")
    page.wait_for_function(
        "navigator.serviceWorker.controller !== null || "
        "navigator.serviceWorker.ready.then(() => true)"
    )
    page.evaluate("navigator.serviceWorker.ready")
    deadline = time.time() + 15
    while not page.evaluate("caches.has('alea-scorer-v1')"):
        assert time.time() < deadline, "the service worker cached nothing"
        page.wait_for_timeout(100)
    tap(page, piece("provinces", "blue4"))
    context.set_offline(True)
    page.reload()
    page.wait_for_selector(".piece-btn")
    assert page.get_attribute(piece("provinces", "blue4"), "aria-pressed") == "true"
    tap(page, "[data-score]")
    page.wait_for_selector(".sc-status.error")
    context.set_offline(False)
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_rules_page_in_both_languages(
    browser: Any, live: LiveServer, shots: Path, size: str
) -> None:
    context, page = open_page(browser, size)
    errors = watch_errors(page)
    page.goto(live.base + "/rules")
    page.wait_for_selector(".help-item")
    for key in "TSCFL":
        assert page.query_selector(f"#building-{key} .picture .die")
    assert len(page.query_selector_all(".senate-help")) == 13
    assert len(page.query_selector_all("#places ~ .help-grid .help-item")) >= 4
    assert "Placement" in page.inner_text("#building-T")
    page.screenshot(path=str(shots / ("rules.png" if size == "desktop" else "rules-phone.png")))
    page.click('[data-lang="it"]')
    assert "Piazzamento" in page.inner_text("#building-T")
    assert "Come si gioca" in page.inner_text("h1")
    page.click("#scorer-link")
    page.wait_for_selector(".piece-btn")
    assert "Segnapunti" in page.inner_text("h1")
    assert not errors, errors
    context.close()


def wait_for_status(base: str, game_id: str, status: str, seconds: float = 120) -> None:
    deadline = time.time() + seconds
    while httpx.get(f"{base}/api/games/{game_id}", timeout=30).json()["status"] != status:
        assert time.time() < deadline, f"game {game_id} is not {status}"
        time.sleep(0.2)


def seated_game(browser: Any, live: LiveServer, size: str) -> tuple[Any, Any]:
    """A page seated in a new game against a bot, on its first placement."""
    created = create_game(live.base, [{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    context, page = open_page(browser, size)
    game_id, token = created["game"]["id"], created["token"]
    page.goto(live.base + "/")
    page.evaluate(
        "([g, t]) => localStorage.setItem('alea.tokens', JSON.stringify("
        "{[g]: {token: t, seat: 0, at: 1}}))",
        [game_id, token],
    )
    page.goto(f"{live.base}/game/{game_id}")
    page.wait_for_selector(".tray .die.pick", timeout=30000)
    return context, page


def test_help_by_tap_on_the_game_page(browser: Any, live: LiveServer, shots: Path) -> None:
    context, page = seated_game(browser, live, "phone")
    errors = watch_errors(page)
    tap(page, ".help-toggle")
    page.wait_for_selector('.help-toggle[aria-pressed="true"]')
    assert page.is_visible("#help-banner")
    tap(page, '.building[data-building="C"]')
    dialog = page.wait_for_selector("dialog.help-dialog[open]")
    assert "Castrum" in dialog.inner_text() and "Placement" in dialog.inner_text()
    page.screenshot(path=str(shots / "help-phone.png"))
    tap(page, "[data-help-close]")
    page.wait_for_function("!document.querySelector('dialog.help-dialog').open")
    # A tapped die still gets help, not a selection, until help mode is off.
    tap(page, ".tray .die.pick")
    assert page.query_selector(".tray .die.pick.selected") is None
    page.keyboard.press("Escape")
    tap(page, ".help-toggle")
    assert page.get_attribute(".help-toggle", "aria-pressed") == "false"
    tap(page, ".tray .die.pick")
    assert page.query_selector(".tray .die.pick.selected") is not None
    # The header links the rules page and the scorer from the game.
    assert page.get_attribute(".site-links a[href='/rules']", "target") == "_self"
    assert page.query_selector(".site-links a[href='/score']")
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()


def test_no_serious_accessibility_violation(browser: Any, live: LiveServer) -> None:
    found: dict[str, list[str]] = {}
    # The lobby.
    context, page = open_page(browser, "desktop")
    page.goto(live.base + "/")
    page.wait_for_selector("#quick")
    found["lobby"] = serious_violations(page)
    context.close()
    # A game on its placement, with the help dialog open too.
    context, page = seated_game(browser, live, "desktop")
    page.click(".tray [data-select]")
    found["game"] = serious_violations(page)
    page.click(".help-toggle")
    page.wait_for_selector('.help-toggle[aria-pressed="true"]')
    page.click('.building[data-building="F"]')
    page.wait_for_selector("dialog.help-dialog[open]")
    found["help"] = serious_violations(page)
    context.close()
    # A Dado Romano table.
    created = create_game(
        live.base, [{"kind": "human"}, {"kind": "bot", "level": "easy"}], game="romano"
    )
    context, page = open_page(browser, "desktop")
    page.goto(f"{live.base}/game/{created['game']['id']}")
    # The creator's seat is to roll, so no figure is being resolved (the table shows only
    # the view's own figure, never a stale one): the audit covers the scores and the rolls.
    page.wait_for_selector("#app > .romano .rolls", timeout=30000)
    found["romano"] = serious_violations(page)
    context.close()
    # The results of a finished game of five bots (every seat colour in the log).
    created = create_game(live.base, [{"kind": "bot", "level": "easy"}] * 5, sit=False)
    game_id = created["game"]["id"]
    wait_for_status(live.base, game_id, "finished")
    context, page = open_page(browser, "desktop")
    page.goto(f"{live.base}/game/{game_id}")
    page.wait_for_selector(".overlay .results", timeout=30000)
    found["results"] = serious_violations(page)
    context.close()
    # The scorer, its pieces and its results, at both sizes; the rules page.
    for size in SIZES:
        context, page = fresh_scorer(browser, live, size)
        enter(page, "Anna", TABLE["Anna"])
        found[f"scorer {size}"] = serious_violations(page)
        page.click("[data-score]")
        page.wait_for_selector(".sc-banner")
        page.wait_for_timeout(1500)
        found[f"scorer results {size}"] = serious_violations(page)
        page.goto(live.base + "/rules")
        page.wait_for_selector(".help-item")
        found[f"rules {size}"] = serious_violations(page)
        context.close()
    bad = [f"{where}: {line}" for where, lines in found.items() for line in lines]
    assert not bad, "\n".join(bad)


def test_a_turn_played_with_the_keyboard_alone(browser: Any, live: LiveServer) -> None:
    context, page = seated_game(browser, live, "desktop")
    version = page.evaluate("document.querySelectorAll('.tray .die.pick').length")
    page.focus(".tray .die.pick")
    assert page.get_attribute(".tray .die.pick", "role") == "button"
    page.keyboard.press("Space")
    assert page.evaluate("document.activeElement.dataset.idx") == "0"
    assert page.get_attribute('.tray [data-idx="0"]', "aria-pressed") == "true"
    for _ in range(30):  # Tab on to a "Place ... in ..." button (or the move list)
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('.tray button.place')"):
            break
    else:
        pytest.fail("no Place button reachable with Tab")
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"document.querySelectorAll('.tray .die.pick').length !== {version}", timeout=30000
    )
    context.close()


def test_a_dado_romano_table_has_no_help_button(browser: Any, live: LiveServer) -> None:
    created = create_game(
        live.base, [{"kind": "human"}, {"kind": "bot", "level": "easy"}], game="romano"
    )
    context, page = open_page(browser, "phone")
    page.goto(f"{live.base}/game/{created['game']['id']}?watch=1")
    page.wait_for_selector("#app > .romano")
    page.wait_for_selector(".site-links a[href='/rules']")
    assert page.query_selector(".help-toggle") is None
    page.click(".brand")
    page.wait_for_selector("#quick")
    page.wait_for_selector(".help-toggle")
    context.close()
