"""The connection both games' pages share (``js/table.js``), pinned in Chromium for each game.

* The server stops while the page is open, moves are made meanwhile, and another server
  takes its place on the same port: the page reconnects by itself, asks only for the log
  entries it lacks, and ends up with exactly the server's log (none twice, none missing).
* The page acts on a version the game has left (the update that moved it on never
  reached it): the server's "moved on" message is shown, the page asks for the whole
  state, shows it, and can play on.
* The token stored for a game is not one of its seats' tokens: the page forgets it,
  says so, and watches the game; ``?watch=1`` watches without forgetting it.

The seats are two humans whose moves the tests make over HTTP (the page's own seat too,
as from a second device), so that the log grows while the page looks on. Chance is seeded
so that every game is the same on every run (a random Dado Romano game may end at once).
"""

from __future__ import annotations

import json
import random
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from alea.server import Settings
from tests.server.support import LiveServer, create_game, database
from tests.web.support import browser_settings, record_frames, require_chromium, watch_errors
from tests.web.test_browser import act_once

require_chromium()
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")

GAMES = ["iacta", "romano"]
#: How many of the newest log entries each game's page lists (Dado Romano: the last 40).
SHOWN = {"iacta": None, "romano": 40}
#: The page's log as [index, event] pairs (Alea Iacta Est: every entry of the log, the event
#: as its title; Dado Romano: the newest entries of the engine's story, index and kind).
PAGE_LOG = """() => [...document.querySelectorAll('#log li[data-i], #log li[data-index]')]
  .map((li) => [Number(li.dataset.i ?? li.dataset.index), li.dataset.kind ?? li.title])"""
#: A move the page offers: a die to pick or a card to choose, or a Dado Romano decision.
PAGE_DECIDES = ".tray .die.pick, .tray .choices [data-action], #decision [data-act]"


def settings(database_url: str) -> Settings:
    return browser_settings(database_url, chance_rng=lambda: random.Random(2024))


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with (
        database("sqlite", tmp_path_factory.mktemp("db")) as db,
        LiveServer(settings(db.url)) as server,
    ):
        yield server


class SamePortServer(LiveServer):
    """A live server on the port given, so that a new one can take a stopped one's place."""

    def __init__(self, settings: Settings, port: int) -> None:
        super().__init__(settings)
        self.sock.close()
        self.sock = socket.create_server(("127.0.0.1", port))  # SO_REUSEADDR: a quick rebind
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.ws_base = f"ws://127.0.0.1:{port}"
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )


# ------------------------------------------------------------------ the game


def two_humans(base: str, game: str) -> tuple[str, list[str]]:
    """A game of ``game`` between two humans, both seated; returns its id and their tokens."""
    extra = {"time_limit": 0} if game == "romano" else {}
    created = create_game(base, [{"kind": "human"}] * 2, game=game, name="Julia", **extra)
    game_id = created["game"]["id"]
    claimed = httpx.post(
        f"{base}/api/games/{game_id}/seats/1/claim", json={"name": "Marcus"}, timeout=30
    )
    assert claimed.status_code == 200, claimed.text
    return game_id, [created["token"], claimed.json()["token"]]


def state(base: str, game_id: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = httpx.get(f"{base}/api/games/{game_id}/state", headers=headers, timeout=30)
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def to_move(base: str, game_id: str, tokens: list[str]) -> tuple[int, dict[str, Any]]:
    """The seat to decide now and what it sees (the game never waits on chance)."""
    for seat, token in enumerate(tokens):
        now = state(base, game_id, token)
        assert now["status"] != "finished", "the game ended before the test was done"
        if now["legal"]:
            return seat, now
    raise AssertionError("none of these seats is to decide")


def play(
    base: str,
    game_id: str,
    tokens: list[str],
    rng: random.Random,
    moves: int = 1,
    until: Callable[[int, dict[str, Any]], bool] | None = None,
) -> None:
    """Makes ``moves`` random legal moves for whoever is to move, then more until ``until``
    (seat, its state) says that seat's decision has come (that one is not made)."""
    made = 0
    while until is not None or made < moves:
        seat, now = to_move(base, game_id, tokens)
        if made >= moves and (until is None or until(seat, now)):
            return
        legal = [a for a in now["legal"] if not a.startswith("R:")] or now["legal"]
        answer = httpx.post(
            f"{base}/api/games/{game_id}/actions",
            json={"action": rng.choice(legal), "version": now["version"]},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
            timeout=30,
        )
        assert answer.status_code == 200, answer.text
        made += 1


def seat_zero_decides(seat: int, now: dict[str, Any]) -> bool:
    """Seat 0 is to decide (in Alea Iacta Est: to place dice, so the page shows them)."""
    iacta = "players_info" in now["view"]
    return seat == 0 and (not iacta or now["view"]["phase"] == "placement")


# ------------------------------------------------------------------ the page


def open_page(browser: Any, locale: str = "en-GB", phone: bool = False) -> tuple[Any, Any]:
    size = {"width": 390, "height": 844} if phone else {"width": 1366, "height": 768}
    context = browser.new_context(viewport=size, locale=locale, is_mobile=phone, has_touch=phone)
    return context, context.new_page()


def store_token(page: Any, game_id: str, token: str, seat: int) -> None:
    """Puts a seat token in the page's localStorage, as the lobby does when you sit down."""
    tokens = json.dumps({game_id: {"token": token, "seat": seat, "at": 1}})
    # Single choices are not played by the page on its own: the tests make the moves.
    page.add_init_script(
        f"localStorage.setItem('alea.tokens', {json.dumps(tokens)});"
        "localStorage.setItem('alea.auto', '0');"
    )


def page_log(page: Any) -> list[tuple[int, str]]:
    return sorted((int(i), str(e)) for i, e in page.evaluate(PAGE_LOG))


def expected_log(answer: dict[str, Any], game: str) -> list[tuple[int, str]]:
    """What the page should list, from the server's state for the same seat.

    Alea Iacta Est lists the whole log; Dado Romano tells the newest events of the
    engine's story (the view's ``story``), all but the silent end at 150 points.
    """
    if game == "romano":
        story = answer["view"].get("story", [])
        silent = ("end", "150")
        told = [(e["index"], e["kind"]) for e in story if (e["kind"], e.get("text")) != silent]
        return told[-SHOWN[game] :]
    return [(i, str(e)) for i, (e, _) in enumerate(answer["log"])]


def wait_for_log(page: Any, base: str, game_id: str, token: str | None, game: str) -> None:
    """Waits until the page lists exactly what the server says for that token's seat."""
    deadline = time.time() + 30
    while True:
        want = expected_log(state(base, game_id, token), game)
        have = page_log(page)
        if want and game == "romano":  # the page may still hold older entries than the view's
            have = [(i, e) for i, e in have if i >= want[0][0]]
        if have == want:
            return
        assert time.time() < deadline, f"the page's log {have[-5:]} is not the server's {want[-5:]}"
        page.wait_for_timeout(100)


def messages(frames: list[str]) -> list[dict[str, Any]]:
    return [json.loads(f) for f in frames]


def real_errors(errors: list[str]) -> list[str]:
    """Console errors but the browser's own notes of connection attempts that failed."""
    return [e for e in errors if "WebSocket connection to" not in e]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


# ------------------------------------------------------------------ the tests


@pytest.mark.parametrize("game", GAMES)
def test_the_page_reconnects_after_a_restart_and_the_log_goes_on(
    browser: Any, game: str, tmp_path: Path
) -> None:
    rng = random.Random(31)
    port = free_port()
    with database("sqlite", tmp_path) as db:
        with SamePortServer(settings(db.url), port) as first:
            base = first.base
            game_id, tokens = two_humans(base, game)
            play(base, game_id, tokens, rng, moves=4)
            context, page = open_page(browser)
            errors = watch_errors(page)
            sent = record_frames(page, "framesent")
            received = record_frames(page)
            store_token(page, game_id, tokens[0], 0)
            page.goto(f"{base}/game/{game_id}")
            wait_for_log(page, base, game_id, tokens[0], game)
            play(base, game_id, tokens, rng, moves=2)  # followed live
            wait_for_log(page, base, game_id, tokens[0], game)
            held = len(state(base, game_id, tokens[0])["log"])
        # The server has stopped, closing the page's socket. Moves are made on a server
        # the page cannot reach (another port), then one takes the first one's place.
        if game == "iacta":
            page.wait_for_selector("#conn.disconnected")
        with LiveServer(settings(db.url)) as elsewhere:
            play(elsewhere.base, game_id, tokens, rng, moves=3)
            missed = len(state(elsewhere.base, game_id, tokens[0])["log"]) - held
        with SamePortServer(settings(db.url), port) as second:
            assert second.base == base
            wait_for_log(page, base, game_id, tokens[0], game)
            if game == "iacta":
                page.wait_for_selector("#conn.connected")
                assert page.inner_text("#conn") == "Connected"
            play(base, game_id, tokens, rng, moves=2)  # and live again
            wait_for_log(page, base, game_id, tokens[0], game)
            context.close()
    # The second hello asked for the entries after those the page held, and got just them.
    hellos = [m for m in messages(sent) if m["type"] == "hello"]
    assert [h["since"] for h in hellos] == [0, held]
    assert all(h["token"] == tokens[0] for h in hellos)
    got = messages(received)
    welcomes = [i for i, m in enumerate(got) if m["type"] == "welcome"]
    assert len(welcomes) == 2
    answer = next(m for m in got[welcomes[1] :] if m["type"] == "update")
    assert answer["log_start"] == held and len(answer["log"]) == missed > 0
    assert all(m["seat"] == 0 for m in got if m["type"] == "update")
    assert not real_errors(errors), errors


@pytest.mark.parametrize(
    ("game", "locale", "phone"), [("iacta", "it-IT", False), ("romano", "en-GB", True)]
)
def test_a_move_on_a_stale_version_resyncs_the_page(
    browser: Any, live: LiveServer, game: str, locale: str, phone: bool
) -> None:
    rng = random.Random(47)
    base = live.base
    game_id, tokens = two_humans(base, game)
    play(base, game_id, tokens, rng, moves=3, until=seat_zero_decides)
    context, page = open_page(browser, locale, phone)
    errors = watch_errors(page)
    # Between the page and the server: while `hold` is set, the updates the server sends
    # are lost; the first error ends it.
    link = {"hold": False}
    lost: list[str] = []
    sent: list[dict[str, Any]] = []

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            text = message if isinstance(message, str) else message.decode()
            kind = json.loads(text)["type"]
            if link["hold"] and kind == "update":
                lost.append(text)
                return
            if kind == "error":
                link["hold"] = False
            ws.send(text)

        def to_server(message: str | bytes) -> None:
            text = message if isinstance(message, str) else message.decode()
            sent.append(json.loads(text))
            server.send(text)

        server.on_message(to_page)
        ws.on_message(to_server)

    page.route_web_socket(re.compile(r"/ws/games/"), route)
    store_token(page, game_id, tokens[0], 0)
    page.goto(f"{base}/game/{game_id}")
    page.wait_for_selector(PAGE_DECIDES)
    seen = state(base, game_id, tokens[0])["version"]

    link["hold"] = True
    play(base, game_id, tokens[:1], rng)  # seat 0 moves from elsewhere; the page never hears
    assert state(base, game_id, tokens[0])["version"] > seen
    if game == "iacta":
        # Pick a placement from the list and press "Place … in …", as a person would.
        page.click(".tray [data-select]")
        page.click(".tray .actions button.place")
    else:
        page.click("#decision [data-act]")
    toast = page.wait_for_selector(".toast.error")
    assert toast is not None
    moved_on = "La partita è andata avanti" if locale == "it-IT" else "The game has moved on"
    assert moved_on in toast.inner_text()
    assert not re.search(r"\d", toast.inner_text()), "internal version numbers in the message"
    assert lost, "the update that moved the game on should have been lost"
    actions = [m for m in sent if m["type"] == "action"]
    assert actions and actions[-1]["version"] == seen
    # The page asked for the whole state and now shows the server's.
    wait_for_log(page, base, game_id, tokens[0], game)
    assert {"type": "sync"} in sent
    # And it plays on: its next move (on the version it now holds) is taken.
    play(base, game_id, tokens, rng, moves=0, until=seat_zero_decides)
    wait_for_log(page, base, game_id, tokens[0], game)
    before = state(base, game_id, tokens[0])["version"]
    deadline = time.time() + 30
    while state(base, game_id, tokens[0])["version"] == before:
        assert time.time() < deadline, "the page could not move after the resync"
        if game == "iacta":
            act_once(page, rng)
        else:
            buttons = page.query_selector_all("#decision [data-act]")
            if buttons:
                rng.choice(buttons).click()
        page.wait_for_timeout(200)
    assert not real_errors(errors), errors
    context.close()


@pytest.mark.parametrize(("game", "locale"), [("iacta", "en-GB"), ("romano", "it-IT")])
def test_a_bad_stored_token_falls_back_to_watching(
    browser: Any, live: LiveServer, game: str, locale: str
) -> None:
    rng = random.Random(5)
    base = live.base
    game_id, tokens = two_humans(base, game)
    play(base, game_id, tokens, rng, moves=4)
    context, page = open_page(browser, locale)
    errors = watch_errors(page)
    received = record_frames(page)
    store_token(page, game_id, "not-a-token-of-this-game", 0)
    page.goto(f"{base}/game/{game_id}")
    toast = page.wait_for_selector(".toast.error")
    assert toast is not None
    if locale == "it-IT":
        said = "Questo gettone non è valido per questa partita. Stai guardando questa partita."
    else:
        said = "That seat token is not valid for this game. You are watching this game."
    assert toast.inner_text() == said
    wait_for_log(page, base, game_id, None, game)
    assert page.evaluate("JSON.parse(localStorage.getItem('alea.tokens'))") == {}
    welcomes = [m for m in messages(received) if m["type"] == "welcome"]
    assert [w["seat"] for w in welcomes] == [None]
    if game == "iacta":
        assert page.inner_text(".banner.info") == "You are watching this game."
    # A spectator is offered no move, even on the turn of the seat the token claimed.
    play(base, game_id, tokens, rng, moves=0, until=seat_zero_decides)
    wait_for_log(page, base, game_id, None, game)
    assert page.query_selector(PAGE_DECIDES) is None
    assert not errors, errors
    context.close()


@pytest.mark.parametrize("game", GAMES)
def test_watch_in_the_link_keeps_the_seat_for_later(
    browser: Any, live: LiveServer, game: str
) -> None:
    base = live.base
    game_id, tokens = two_humans(base, game)
    play(base, game_id, tokens, random.Random(8), moves=0, until=seat_zero_decides)
    context, page = open_page(browser)
    errors = watch_errors(page)
    store_token(page, game_id, tokens[0], 0)
    page.goto(f"{base}/game/{game_id}?watch=1")
    wait_for_log(page, base, game_id, None, game)
    assert page.query_selector(PAGE_DECIDES) is None
    # Back to the plain link: the stored seat is used again.
    page.goto(f"{base}/game/{game_id}")
    page.wait_for_selector(PAGE_DECIDES)
    wait_for_log(page, base, game_id, tokens[0], game)
    assert not errors, errors
    context.close()
