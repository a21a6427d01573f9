"""Table talk in headless Chromium: chat shown as text, presence, mute, and a rematch.

1. Two players (a laptop at 1366×768 and a phone at 390×844) chat: a line holding
   ``<img src=x onerror=alert(1)>`` reaches the other player as those very characters
   (no image, no alert); a quick phrase is one tap; a mute hides a player's lines and
   is remembered; the seat list shows who is online and who is away.
2. After a game ends, one player proposes a rematch from the results and the other
   accepts it: both pages move to the new game, in the same seats.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.support import LiveServer, database, human_game, quick_bots
from tests.server.test_social import play_out
from tests.web.support import browser_settings, require_chromium, watch_errors

require_chromium()
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")

XSS = "<img src=x onerror=alert(1)>"
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with (
        database("sqlite", tmp_path_factory.mktemp("db")) as db,
        LiveServer(
            browser_settings(db.url, bot_delay=0.01, bot_factory=quick_bots, chat_rate="30/minute")
        ) as server,
    ):
        yield server


def seated(browser: Any, size: dict[str, int], game_id: str, token: str, seat: int) -> Any:
    """A page of its own browser context holding ``seat``'s token, like after sitting down."""
    phone = size == PHONE
    context = browser.new_context(viewport=size, locale="en-GB", is_mobile=phone, has_touch=phone)
    stored = {game_id: {"token": token, "seat": seat, "at": 1}}
    context.add_init_script(
        f"localStorage.setItem('alea.tokens', {json.dumps(json.dumps(stored))});"
        "localStorage.setItem('alea.auto', '0');"
    )
    return context.new_page()


def presence(page: Any, seat: int) -> str:
    return str(page.locator(f'.seatrow[data-seat="{seat}"] .presence-state').inner_text())


def test_chat_is_shown_as_text_with_presence_and_mute(
    browser: Any, live: LiveServer, shots: Path
) -> None:
    game_id, tokens = human_game(live.base, 2)
    laptop = seated(browser, DESKTOP, game_id, tokens[0], 0)
    phone = seated(browser, PHONE, game_id, tokens[1], 1)
    dialogs: list[str] = []
    errors = watch_errors(laptop) + watch_errors(phone)
    for page in (laptop, phone):
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.goto(f"{live.base}/game/{game_id}")
    laptop.wait_for_function(
        "document.querySelector('.seatrow[data-seat=\"1\"] .presence-state')?.textContent"
        " === 'online'"
    )
    assert presence(laptop, 0) == "you"

    phone.fill(".chatform input", f"ciao {XSS}")
    phone.click(".chatform button[type=submit]")
    line = laptop.locator(".chatlines li .text", has_text="ciao")
    line.wait_for()
    assert line.text_content() == f"ciao {XSS}"
    assert laptop.locator(".chatlines img").count() == 0
    assert phone.locator(".chatlines img").count() == 0
    laptop.click('.quick [data-phrase="phrase_luck"]')
    phone.locator(".chatlines li .text", has_text="Good luck!").wait_for()
    laptop.fill(".chatform input", "Vediamo chi vince ⚄")
    laptop.press(".chatform input", "Enter")
    phone.locator(".chatlines li .text", has_text="Vediamo").wait_for()
    # The laptop's own lines come back to it from the server too (marked as its own).
    sync_api.expect(laptop.locator(".chatlines li.own")).to_have_count(2)

    phone.locator(".talkbox").scroll_into_view_if_needed()
    phone.screenshot(path=str(shots / "chat-phone.png"))
    laptop.locator(".talkbox").scroll_into_view_if_needed()
    laptop.screenshot(path=str(shots / "chat-desktop.png"))

    # A mute hides that player's lines here, and is remembered (localStorage).
    laptop.click('.seatrow[data-seat="1"] [data-mute]')
    assert laptop.locator(".chatlines li .text", has_text="ciao").count() == 0
    assert json.loads(laptop.evaluate("localStorage.getItem('alea.muted')")) == ["p:Seat 1"]
    laptop.reload()
    laptop.locator(".chatlines li .text", has_text="Good luck!").wait_for()
    assert laptop.locator(".chatlines li .text", has_text="ciao").count() == 0
    laptop.click('.seatrow[data-seat="1"] [data-mute]')
    laptop.locator(".chatlines li .text", has_text="ciao").wait_for()

    # The phone leaves: the laptop's seat list says seat 1 is away, since just now.
    phone.context.close()
    laptop.wait_for_function(
        "document.querySelector('.seatrow[data-seat=\"1\"] .presence-state')?.textContent"
        ".startsWith('away')"
    )
    assert presence(laptop, 1) == "away · just now"
    assert dialogs == [] and errors == []
    laptop.context.close()


def test_a_rematch_clicked_through_by_two_players(
    browser: Any, live: LiveServer, shots: Path
) -> None:
    game_id, tokens = human_game(live.base, 2)
    play_out(live.base, game_id, tokens)
    first = seated(browser, DESKTOP, game_id, tokens[0], 0)
    second = seated(browser, PHONE, game_id, tokens[1], 1)
    errors = watch_errors(first) + watch_errors(second)
    for page in (first, second):
        page.goto(f"{live.base}/game/{game_id}")
        page.locator("#overlay [data-rematch-now]").wait_for()
    assert page.locator("#tray [data-rematch-now]").count() == 1
    first.click("#overlay [data-rematch-now]")
    # The other player is asked, in the results and beside the table.
    second.locator("#overlay [data-rematch-now]", has_text="Accept").wait_for()
    first.locator(".rematchbox", has_text="1 of 2").wait_for()
    first.locator(".rematchbox").scroll_into_view_if_needed()
    first.screenshot(path=str(shots / "rematch-desktop.png"))
    second.click("#overlay [data-rematch-now]")
    new_url = re.compile(rf"/game/(?!{game_id})[A-Za-z0-9_-]+$")
    for page in (first, second):
        page.wait_for_url(new_url)
    new_id = first.url.rsplit("/", 1)[1]
    assert second.url.endswith(f"/game/{new_id}")
    for seat, page in enumerate((first, second)):
        page.wait_for_function(
            f"document.querySelector('.seatrow[data-seat=\"{seat}\"] .presence-state')"
            "?.textContent === 'you'"
        )
        state = httpx.get(
            f"{live.base}/api/games/{new_id}/state",
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        ).json()
        assert state["seat"] == seat and state["status"] == "active"
    assert errors == []
    first.context.close()
    second.context.close()


def test_the_replay_shows_the_chat_as_it_stood_at_each_step(browser: Any, live: LiveServer) -> None:
    game_id, tokens = human_game(live.base, 2)
    url = f"{live.base}/api/games/{game_id}/chat"
    said = httpx.post(
        url, json={"text": "early words"}, headers={"Authorization": f"Bearer {tokens[0]}"}
    )
    assert said.status_code == 201
    httpx.post(url, json={"text": "from the stands", "name": "Fan"})
    play_out(live.base, game_id, tokens)
    step = said.json()["step"]
    # A seat's holder reads both channels; each line appears from its step on.
    player = seated(browser, DESKTOP, game_id, tokens[0], 0)
    player.goto(f"{live.base}/replay/{game_id}?step={step - 1}")
    player.locator("#rchat").wait_for(state="attached")
    player.wait_for_function("!document.querySelector('#rchat').hidden")
    assert player.locator("#rchat .chatlines li").count() == 0
    player.goto(f"{live.base}/replay/{game_id}?step={step}")
    player.locator("#rchat .chatlines li .text", has_text="from the stands").wait_for()
    assert player.locator("#rchat .chatlines li .text").all_inner_texts() == [
        "early words",
        "from the stands",
    ]
    # Anyone else sees the spectators' channel only.
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    stranger = context.new_page()
    stranger.goto(f"{live.base}/replay/{game_id}")
    stranger.locator("#rchat .chatlines li .text", has_text="from the stands").wait_for()
    assert stranger.locator("#rchat .chatlines li .text").all_inner_texts() == ["from the stands"]
    player.context.close()
    context.close()
