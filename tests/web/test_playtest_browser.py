"""The defects a full playtest found at the table, each pinned in Chromium.

Desktop is 1366x768 and phone 390x844, the two sizes the playtest used. Every test
drives the real page against a live server; moves of the other seats are made over
HTTP (or by quick bots), so each test reaches the situation it needs in seconds.

* card names follow the engine's grammar (``yellow2`` is a yellow province);
* Dado Romano shows only the figure of the view it draws, beside the dice of its roller;
* a 24-character one-word name fits a phone and the desktop log;
* the final scores are all Italian in Italian, and both languages have every key;
* a click on a building the picked dice cannot go to says why, on the building;
* the tray with your dice is on screen without scrolling, 2 to 5 players, both sizes;
* your games, finished games, the replay's step, the overlay, your own connection dot,
  the waiting room, bots' names and the patterns of the seat colours.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from alea.iacta import cards
from tests.server.support import HTTP, LiveServer, create_game, database, quick_bots
from tests.web.support import ROOT, browser_settings, require_chromium, watch_errors

require_chromium()
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
LONG_NAME = "Supercalifragilisticexpi"  # 24 characters, one word
JS = ROOT / "src" / "alea" / "web" / "static" / "js"
#: Raw card names of the notation: nowhere in what a player reads.
RAW_CARD = re.compile(r"\b(red|orange|yellow|green|blue|purple)[mw]?\d\b")


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the tests leave screenshots of what they checked, to be looked at."""
    return tmp_path_factory.mktemp("playtest-shots")


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with database("sqlite", tmp_path_factory.mktemp("db")) as db:
        # The quick bots answer the Bot protocol in the way the server uses it.
        settings = browser_settings(db.url, bot_delay=0.01, bot_factory=quick_bots)
        with LiveServer(settings) as server:
            yield server


def open_page(browser: Any, size: dict[str, int], locale: str = "en-GB") -> tuple[Any, Any]:
    phone = size == PHONE
    context = browser.new_context(viewport=size, locale=locale, is_mobile=phone, has_touch=phone)
    return context, context.new_page()


def sit(page: Any, tokens: dict[str, tuple[str, int]]) -> None:
    """Stores seat tokens in the page's localStorage, as the lobby does when you sit down."""
    stored = {
        g: {"token": tok, "seat": seat, "at": i + 1}
        for i, (g, (tok, seat)) in enumerate(tokens.items())
    }
    page.add_init_script(
        f"localStorage.setItem('alea.tokens', {json.dumps(json.dumps(stored))});"
        "localStorage.setItem('alea.auto', '0');"
    )


def state(base: str, game_id: str, token: str) -> dict[str, Any]:
    answer = HTTP.get(
        f"{base}/api/games/{game_id}/state", headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def move(base: str, game_id: str, token: str, now: dict[str, Any], rng: random.Random) -> None:
    legal = [a for a in now["legal"] if not a.startswith("R:")] or now["legal"]
    answer = HTTP.post(
        f"{base}/api/games/{game_id}/actions",
        json={"action": rng.choice(legal), "version": now["version"]},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code in (200, 409), answer.text


def against_bots(base: str, players: int, name: str = "Julia", **body: Any) -> tuple[str, str]:
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * (players - 1)
    created = create_game(base, seats, name=name, **body)
    return created["game"]["id"], created["token"]


def until_my_placement(base: str, game_id: str, token: str) -> dict[str, Any]:
    """Waits for seat 0 to place dice, choosing its cards at random on the way."""
    deadline = time.time() + 30
    rng = random.Random(0)
    while True:
        now = state(base, game_id, token)
        if now["legal"] and now["view"]["phase"] == "placement":
            return now
        if now["legal"]:
            move(base, game_id, token, now, rng)
            continue
        assert time.time() < deadline, "seat 0 never came to place dice"
        time.sleep(0.05)


def finished_game(base: str, public: bool = False) -> tuple[str, str]:
    """A 2-player game against a bot, played to the end over HTTP: its id and our token."""
    game_id, token = against_bots(base, 2, public=public)
    rng = random.Random(3)
    deadline = time.time() + 120
    while True:
        now = state(base, game_id, token)
        if now["status"] == "finished":
            return game_id, token
        assert time.time() < deadline, "the game did not end"
        if now["legal"]:
            move(base, game_id, token, now, rng)
        else:
            time.sleep(0.01)


def fits(page: Any, width: int) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth")
    # The innermost elements that end past the screen's edge, to say what sticks out.
    out = page.evaluate(
        """(width) => [...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > width + 0.5
            && ![...e.children].some((c) => c.getBoundingClientRect().right > width + 0.5))
          .slice(0, 5).map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`)""",
        width,
    )
    assert wide <= width, f"the page is {wide} px wide on a {width} px screen: {out}"


# ----------------------------------------------------------------- 1. cards


def test_cards_are_parsed_with_the_engines_grammar(browser: Any, live: LiveServer) -> None:
    context, page = open_page(browser, DESKTOP)
    errors = watch_errors(page)
    page.goto(live.base + "/")
    page.wait_for_selector("#quick")
    parsed = page.evaluate(
        """async (names) => {
          const pieces = await import('/static/js/pieces.js');
          return names.map((n) =>
            [pieces.parseProvince(n), pieces.parsePatrician(n), pieces.cardLabel(n)]);
        }""",
        names := [*cards.PROVINCES, *cards.PATRICIANS, *cards.SENATE_CARDS],
    )
    for name, (prov, pat, label) in zip(names, parsed, strict=True):
        if name in cards.PROVINCES:
            info = cards.PROVINCES[name]
            assert prov == {"colour": info.colour, "value": info.value}, name
            assert pat is None, name
        elif name in cards.PATRICIANS:
            p = cards.PATRICIANS[name]
            assert pat == {"colour": p.colour, "sex": p.sex, "value": p.value}, name
            assert prov is None, name
        else:
            assert prov is None and pat is None and label == name, name
    labels = dict(zip(names, (p[2] for p in parsed), strict=True))
    assert labels["yellow2"] == "yellow 2"
    assert labels["yelloww2"] == "yellow woman 2"
    assert labels["purplem3"] == "purple man 3"
    html = page.evaluate("async () => (await import('/static/js/pieces.js')).anyCard('yellow2')")
    assert 'class="province yellow mini"' in html
    assert not errors, errors
    context.close()


# ----------------------------------------------------------- 2. Dado Romano


def test_dado_romano_shows_only_the_figure_of_the_view(browser: Any, live: LiveServer) -> None:
    created = create_game(
        live.base, [{"kind": "human"}] * 2, game="romano", name="Commodus", time_limit=0
    )
    game_id = created["game"]["id"]
    claimed = httpx.post(
        f"{live.base}/api/games/{game_id}/seats/1/claim", json={"name": "Catilina"}, timeout=30
    )
    tokens = [created["token"], claimed.json()["token"]]
    context, page = open_page(browser, PHONE)
    errors = watch_errors(page)
    sit(page, {game_id: (tokens[0], 0)})
    page.goto(f"{live.base}/game/{game_id}")
    page.wait_for_selector("#rtable .rolls")
    rng = random.Random(11)
    seen_between = 0
    seen_figure = 0
    for _ in range(40):
        views = [state(live.base, game_id, tok) for tok in tokens]
        if views[0]["status"] == "finished":
            break
        version = views[0]["version"]
        page.wait_for_function(
            f"document.querySelectorAll('#log li').length >= {min(40, len(views[0]['log']))}"
        )
        page.wait_for_timeout(150)
        view = views[0]["view"]
        shown = page.query_selector("#rtable .figure .fname")
        if view["figure_name"]:
            assert shown is not None and shown.inner_text() == view["figure_name"]
            seen_figure += 1
        else:
            assert shown is None, f"a stale figure {shown.inner_text()!r} at version {version}"
            seen_between += 1
        # The dice shown are all of one roller, named beside them.
        colours = {
            (d.get_attribute("class") or "").split()[1]
            for d in page.query_selector_all("#rtable .rdie")
        }
        assert len(colours) <= 1, colours
        for seat, now in enumerate(views):
            if now["legal"]:
                move(live.base, game_id, tokens[seat], now, rng)
                break
        else:
            time.sleep(0.05)
    assert seen_figure and seen_between, (seen_figure, seen_between)
    assert not errors, errors
    context.close()


# ------------------------------------------------------------- 3. long names


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_long_one_word_name_fits(
    browser: Any, live: LiveServer, shots: Path, size: dict[str, int]
) -> None:
    game_id, token = against_bots(live.base, 5, name=LONG_NAME)
    until_my_placement(live.base, game_id, token)
    context, page = open_page(browser, size)
    errors = watch_errors(page)
    sit(page, {game_id: (token, 0)})
    page.goto(f"{live.base}/game/{game_id}")
    page.wait_for_selector(".tray .die.pick")
    page.wait_for_selector("#log li .who")
    fits(page, size["width"])
    page.screenshot(path=str(shots / f"long-name-{size['width']}.png"), full_page=True)
    # Every name badge in the log ends inside the log, with the full name as its title.
    clipped = page.evaluate(
        """() => {
          const log = document.querySelector('#log').getBoundingClientRect();
          return [...document.querySelectorAll('#log .who')]
            .filter((w) => w.getBoundingClientRect().right > log.right + 1 || !w.title)
            .map((w) => w.textContent);
        }"""
    )
    assert not clipped, clipped
    # The lobby with that name in "your games", and a Dado Romano table with it.
    page.goto(live.base + "/")
    page.wait_for_selector("ul.games.mine li")
    fits(page, size["width"])
    romano = create_game(
        live.base, [{"kind": "human"}, {"kind": "bot"}], game="romano", name=LONG_NAME
    )
    sit(page, {romano["game"]["id"]: (romano["token"], 0)})
    page.goto(f"{live.base}/game/{romano['game']['id']}")
    page.wait_for_selector("#scores li")
    fits(page, size["width"])
    page.screenshot(path=str(shots / f"long-name-romano-{size['width']}.png"))
    assert not errors, errors
    context.close()


# ----------------------------------------------------------- 4. translations


def js_keys_used() -> set[str]:
    """Every literal key the client's scripts look up with ``t("...")``."""
    used: set[str] = set()
    for path in JS.glob("*.js"):
        used.update(re.findall(r"\bt\(\"([A-Za-z0-9_]+)\"", path.read_text()))
    return used


def test_both_languages_have_every_key(browser: Any, live: LiveServer) -> None:
    context, page = open_page(browser, DESKTOP)
    page.goto(live.base + "/")
    page.wait_for_selector("#quick")
    strings = page.evaluate("async () => (await import('/static/js/i18n.js')).STRINGS")
    context.close()
    en, it = set(strings["en"]), set(strings["it"])
    assert en - it == set(), f"missing in Italian: {sorted(en - it)}"
    assert it - en == set(), f"missing in English: {sorted(it - en)}"
    used = js_keys_used()
    assert used - en == set(), f"looked up but not defined: {sorted(used - en)}"


def test_the_final_scores_are_all_italian(browser: Any, live: LiveServer, shots: Path) -> None:
    game_id, token = finished_game(live.base)
    context, page = open_page(browser, DESKTOP, "it-IT")
    errors = watch_errors(page)
    sit(page, {game_id: (token, 0)})
    page.goto(f"{live.base}/game/{game_id}")
    page.wait_for_selector(".overlay .results .breakdown")
    text = page.inner_text(".overlay .results")
    titles = page.evaluate(
        "() => [...document.querySelectorAll('.overlay .results [title]')].map((e) => e.title)"
    )
    said = "\n".join([text, *titles])
    assert not RAW_CARD.findall(said), RAW_CARD.findall(said)
    for english in ("placed", "couple", "Senate cards", "places owned", "colours", "empty:"):
        assert english not in said, english
    assert "punteggi finali" in text.lower()
    page.screenshot(path=str(shots / "final-it.png"))
    assert not errors, errors
    context.close()


# ------------------------------------------------------ 5. why not this building


def test_a_refused_building_says_why(browser: Any, live: LiveServer, shots: Path) -> None:
    rng = random.Random(2)
    for _ in range(20):  # a roll with two different values, so that C:ab is refused
        game_id, token = against_bots(live.base, 3)
        now = until_my_placement(live.base, game_id, token)
        roll = now["view"]["turn"]["roll"]
        if len(set(roll)) >= 2:
            break
        move(live.base, game_id, token, now, rng)
    low, high = sorted(set(roll))[:2]
    context, page = open_page(browser, PHONE, "it-IT")
    errors = watch_errors(page)
    sit(page, {game_id: (token, 0)})
    page.goto(f"{live.base}/game/{game_id}")
    page.wait_for_selector(".tray .die.pick")
    page.click(f'.tray .die.pick[data-v="{low}"]')
    page.click(f'.tray .die.pick:not(.selected)[data-v="{high}"]')
    page.click('.building[data-building="C"] header')
    note = page.wait_for_selector('.building[data-building="C"] .whynot')
    assert note is not None
    said = note.inner_text()
    assert said.startswith("Castrum: non con questi dadi.")
    assert "mai due valori nello stesso turno" in said
    assert note.is_visible()
    page.screenshot(path=str(shots / "why-not.png"))
    # Another selection takes the note away.
    page.click(".tray .die.pick.selected")
    page.wait_for_selector(".whynot", state="detached")
    assert state(live.base, game_id, token)["version"] == now["version"]  # nothing was played
    assert not errors, errors
    context.close()


# -------------------------------------------------------------- 6. the tray


def busy_board(base: str, game_id: str, token: str, placements: int) -> dict[str, Any]:
    """Seat 0 makes ``placements`` random placements (the bots theirs), then is to place."""
    rng = random.Random(placements)
    for _ in range(placements):
        now = until_my_placement(base, game_id, token)
        move(base, game_id, token, now, rng)
    return until_my_placement(base, game_id, token)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_tray_is_on_screen_without_scrolling(
    browser: Any, live: LiveServer, shots: Path, players: int
) -> None:
    game_id, token = against_bots(live.base, players)
    busy_board(live.base, game_id, token, 4)  # buildings full of dice are taller
    for size in (DESKTOP, PHONE):
        context, page = open_page(browser, size)
        errors = watch_errors(page)
        sit(page, {game_id: (token, 0)})
        page.goto(f"{live.base}/game/{game_id}")
        page.wait_for_selector(".tray .die.pick")
        page.eval_on_selector(".tray [data-select]", "b => b.click()")  # folded on phones
        page.wait_for_selector(".tray .actions button.place")
        assert page.evaluate("window.scrollY") == 0
        for part in (".tray", ".tray .dice", ".tray .actions button.place"):
            box = page.evaluate(
                f"() => {{ const r = document.querySelector('{part}').getBoundingClientRect();"
                " return [r.top, r.bottom]; }"
            )
            assert box[0] >= 0 and box[1] <= size["height"], (part, box, size)
        page.screenshot(path=str(shots / f"tray-{players}p-{size['width']}.png"))
        assert not errors, errors
        context.close()


def test_seats_carry_a_pattern_and_bots_their_own_names(browser: Any, live: LiveServer) -> None:
    game_id, token = against_bots(live.base, 5)
    context, page = open_page(browser, DESKTOP)
    errors = watch_errors(page)
    sit(page, {game_id: (token, 0)})
    page.goto(f"{live.base}/game/{game_id}")
    page.wait_for_selector(".player .swatch")
    names = page.eval_on_selector_all(
        ".player .pname", "els => els.map((e) => e.firstChild.textContent.trim())"
    )
    assert len(set(names)) == 5, names
    patterns = page.eval_on_selector_all(
        ".player .swatch", "els => els.map((e) => getComputedStyle(e).backgroundImage)"
    )
    # Gray stays plain; every other seat colour has a pattern of its own.
    assert len({p for p in patterns if p != "none"}) == 4, patterns
    assert not errors, errors
    context.close()


# ---------------------------------------------------------- 7. the smaller ones


def test_your_games_and_finished_games(browser: Any, live: LiveServer, shots: Path) -> None:
    done_id, done_token = finished_game(live.base, public=False)
    live_id, live_token = against_bots(live.base, 3, public=False)
    context, page = open_page(browser, DESKTOP)
    errors = watch_errors(page)
    sit(page, {done_id: (done_token, 0), live_id: (live_token, 0)})
    page.goto(live.base + "/")
    page.wait_for_selector("ul.games.mine li")
    mine = page.inner_text("ul.games.mine")
    assert done_id not in mine and live_id not in mine, "raw game ids in your games"
    assert "Julia" in mine
    done = page.query_selector(f'ul.games.mine li[data-game="{done_id}"] a')
    assert done is not None
    assert done.inner_text() == "Replay" and done.get_attribute("href") == f"/replay/{done_id}"
    going = page.query_selector(f'ul.games.mine li[data-game="{live_id}"] a')
    assert going is not None and going.inner_text() == "Resume"
    # The private (quick) game is among the finished games too.
    finished = page.locator("h2", has_text="Finished games").locator(
        "xpath=following-sibling::ul[1]"
    )
    assert finished.locator(f'a[href="/replay/{done_id}"]').count() == 1
    page.locator("#lists").screenshot(path=str(shots / "your-games.png"))
    assert not errors, errors
    context.close()


def test_replay_keeps_its_step_across_a_language_switch(browser: Any, live: LiveServer) -> None:
    game_id, _ = finished_game(live.base)
    context, page = open_page(browser, DESKTOP)
    errors = watch_errors(page)
    page.goto(f"{live.base}/replay/{game_id}")
    page.wait_for_selector("#stepno:has-text('/')")
    page.click("[data-step=first]")
    for _ in range(3):
        page.click("[data-step=next]")
    page.wait_for_selector("#stepno:has-text('Step 3 /')")
    page.click("#langs [data-lang=it]")
    page.wait_for_selector("#stepno:has-text('Passo 3 /')")
    assert not errors, errors
    context.close()


def test_the_language_switch_stays_above_the_final_scores(browser: Any, live: LiveServer) -> None:
    game_id, token = finished_game(live.base)
    context, page = open_page(browser, PHONE)
    errors = watch_errors(page)
    sit(page, {game_id: (token, 0)})
    page.goto(f"{live.base}/game/{game_id}")
    page.wait_for_selector(".overlay .results")
    page.click("#langs [data-lang=it]", timeout=3000)  # fails if the overlay covers it
    page.wait_for_selector(".overlay .results h2:has-text('Punteggi finali')")
    assert not errors, errors
    context.close()


def test_your_own_dot_follows_the_connection(browser: Any, live: LiveServer) -> None:
    game_id, token = against_bots(live.base, 2)
    context, page = open_page(browser, DESKTOP)
    errors = watch_errors(page)
    sockets: list[Any] = []

    def route(ws: Any) -> None:
        if not sockets:  # the first socket reaches the server; later ones hang
            ws.connect_to_server()
        sockets.append(ws)

    page.route_web_socket(re.compile(r"/ws/games/"), route)
    sit(page, {game_id: (token, 0)})
    page.goto(f"{live.base}/game/{game_id}")
    page.wait_for_selector(".player.you .tag.online")
    sockets[0].close()
    page.wait_for_selector("#conn:not(.connected)")
    page.wait_for_selector(".player.you .tag.offline")
    assert [e for e in errors if "WebSocket" not in e] == []
    context.close()


def test_the_waiting_room_shows_no_roll(browser: Any, live: LiveServer) -> None:
    created = create_game(live.base, [{"kind": "human"}] * 3, name="Julia")
    game_id = created["game"]["id"]
    romano = create_game(
        live.base, [{"kind": "human"}] * 2, game="romano", name="Julia", time_limit=0
    )
    context, page = open_page(browser, PHONE)
    errors = watch_errors(page)
    sit(page, {game_id: (created["token"], 0), romano["game"]["id"]: (romano["token"], 0)})
    page.goto(f"{live.base}/game/{game_id}")
    page.wait_for_selector(".banner.waiting")
    assert page.query_selector(".tray .die") is None
    assert page.query_selector("#log li") is None
    fits(page, PHONE["width"])
    page.goto(f"{live.base}/game/{romano['game']['id']}")
    page.wait_for_selector("#rtable .rolls")
    assert page.query_selector("#rtable .rdie, #rtable .figure, #rtable .riddle") is None
    assert page.query_selector("#log li") is None
    fits(page, PHONE["width"])
    assert not errors, errors
    context.close()
