"""The "Your games" dashboard, the e-mail settings of an account, and notification e-mail.

E-mail goes to a real SMTP server the test starts (``aiosmtpd`` on 127.0.0.1):
the message arrives, its game link opens the game, and its signed unsubscribe
link switches e-mail off.
"""

from __future__ import annotations

import email
import email.policy
import re
import socket
import time
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any

import httpx
import pytest
from aiosmtpd.controller import Controller
from typer.testing import CliRunner

from alea.cli import app
from alea.server.mailer import parse_smtp_url, unsubscribe_token
from tests.server.accounts_support import Browser, live
from tests.server.support import Database, ShiftedClock
from tests.server.test_time_controls import BOT, DAY, HUMAN, TURN_MOVE, TURN_SEAT, wait_for


class Inbox:
    """An aiosmtpd handler that keeps every message it is given."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(parsed, EmailMessage)
        self.messages.append(parsed)
        return "250 OK"


@pytest.fixture
def smtp() -> Iterator[tuple[str, Inbox]]:
    inbox = Inbox()
    with socket.socket() as probe:  # a free port (aiosmtpd's own check cannot use port 0)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield f"smtp://127.0.0.1:{controller.port}", inbox
    finally:
        controller.stop()


def create(browser: Browser, seats: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
    answer = browser.post("/api/games", {"seats": seats, **body})
    assert answer.status_code == 201, answer.text
    found: dict[str, Any] = answer.json()
    return found


def dashboard(browser: Browser) -> dict[str, Any]:
    answer = browser.get("/api/me/dashboard")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


# ---------------------------------------------------------------- dashboard


def test_dashboard_puts_the_games_waiting_for_you_first(db: Database) -> None:
    clock = ShiftedClock()
    with live(db.url, clock=clock, deadline_poll=0.05, bot_delay=0.0) as server:
        ada, bea = Browser(server.base), Browser(server.base)
        try:
            assert ada.get("/api/me/dashboard").json()["error"]["code"] == "not_signed_in"
            assert ada.sign_up("Ada").status_code == 201
            assert bea.sign_up("Bea").status_code == 201
            # Ada waits for a second player; another game is Bea's turn; two are Ada's.
            waiting = create(ada, [HUMAN, HUMAN], title="Waiting")["game"]["id"]
            theirs = create(
                bea, [HUMAN, HUMAN], title="Bea first", name="Bea", time_control=TURN_MOVE
            )
            theirs_id = theirs["game"]["id"]
            claimed = ada.post(f"/api/games/{theirs_id}/seats/1/claim", {"name": "Ada"})
            assert claimed.status_code == 200, claimed.text
            due_first = create(ada, [HUMAN, BOT], title="Due first", time_control=TURN_MOVE)[
                "game"
            ]["id"]
            wait_for(lambda: _entry(ada, due_first)["your_turn"])
            clock.advance(3600)  # the next game's day starts an hour later, so it ends later
            due_next = create(ada, [HUMAN, BOT], title="Due next", time_control=TURN_SEAT)
            due_next_id = due_next["game"]["id"]
            wait_for(lambda: _entry(ada, due_next_id)["your_turn"])
            # Bea's game: make sure it is Bea's turn (seat 0 moves first in Iacta).
            assert _entry(ada, theirs_id)["to_move"] == 0

            board = dashboard(ada)
            order = [g["id"] for g in board["games"]]
            assert order[:2] == [due_first, due_next_id]  # the soonest deadline first
            assert order[2:] == [theirs_id, waiting]
            assert board["waiting"] == 2
            first = board["games"][0]
            assert first["seat"] == 0 and first["title"] == "Due first"
            assert first["link"] == f"/game/{due_first}"
            assert first["opponents"][0]["kind"] == "bot"
            assert first["time_left"] == pytest.approx(DAY - 3600, abs=120)
            other = board["games"][2]
            assert other["your_turn"] is False and other["to_move_name"] == "Bea"
            assert other["seat"] == 1 and [o["name"] for o in other["opponents"]] == ["Bea"]
            assert board["games"][3]["status"] == "open"
            # Bea sees only her game.
            assert [g["id"] for g in dashboard(bea)["games"]] == [theirs_id]
        finally:
            ada.close()
            bea.close()


def _entry(browser: Browser, game_id: str) -> dict[str, Any]:
    found: dict[str, Any] = next(g for g in dashboard(browser)["games"] if g["id"] == game_id)
    return found


# ------------------------------------------------------------- e-mail settings


def test_email_settings_are_checked_and_need_the_csrf_token(sqlite_db: Database) -> None:
    with live(sqlite_db.url) as server:
        ada = Browser(server.base)
        try:
            assert ada.sign_up("Ada").status_code == 201
            shown = ada.get("/api/account/notifications").json()
            assert shown == {"email": None, "notify_email": False, "available": False}
            bad = ada.post("/api/account/notifications", {"email": "not an address"})
            assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_email"
            italian = ada.post(
                "/api/account/notifications",
                {"email": "ada@", "notify_email": True},
                **{"Accept-Language": "it"},
            )
            assert "indirizzo e-mail" in italian.json()["error"]["message"]
            empty = ada.post("/api/account/notifications", {"email": "", "notify_email": True})
            assert empty.json()["error"]["code"] == "bad_email"
            # Without the CSRF token nothing changes.
            forged = ada.http.post(
                "/api/account/notifications", json={"email": "a@example.com", "notify_email": True}
            )
            assert forged.status_code == 403 and forged.json()["error"]["code"] == "csrf"
            assert ada.get("/api/account/notifications").json()["email"] is None
            good = ada.post(
                "/api/account/notifications", {"email": " Ada@Example.COM ", "notify_email": True}
            )
            assert good.status_code == 200, good.text
            assert good.json()["email"] == "Ada@example.com" and good.json()["notify_email"]
            assert ada.get("/api/account/notifications").json()["notify_email"] is True
        finally:
            ada.close()


# ---------------------------------------------------------------- e-mail itself


def test_turn_and_end_mail_arrive_and_unsubscribe_works(
    db: Database, smtp: tuple[str, Inbox]
) -> None:
    url, inbox = smtp
    clock = ShiftedClock()
    with live(
        db.url,
        clock=clock,
        deadline_poll=0.05,
        bot_delay=0.0,
        smtp_url=url,
        mail_from="table@alea.test",
        public_url="http://public.alea.test",
        notify_delay=0.2,
    ) as server:
        ada = Browser(server.base)
        try:
            assert ada.sign_up("Ada").status_code == 201
            assert ada.get("/api/account/notifications").json()["available"] is True
            on = ada.post(
                "/api/account/notifications", {"email": "ada@example.com", "notify_email": True}
            )
            assert on.status_code == 200
            game_id = create(ada, [HUMAN, BOT], title="By mail", time_control=TURN_SEAT)["game"][
                "id"
            ]
            mail = wait_for(lambda: inbox.messages and inbox.messages[0])
            assert mail["To"] == "ada@example.com"
            assert "table@alea.test" in mail["From"]
            assert "By mail" in mail["Subject"] and "Tocca a te" in mail["Subject"]
            body = mail.get_content()
            link = f"http://public.alea.test/game/{game_id}"
            assert link in body and "it is your turn" in body and "tocca a te" in body
            # Its link opens the game (the same path on the server under test).
            page = httpx.get(server.base + link.removeprefix("http://public.alea.test"))
            assert page.status_code == 200 and '<main id="app"' in page.text
            # The unsubscribe link is signed, in the text and in List-Unsubscribe.
            found = re.search(r"http://public\.alea\.test(/api/account/unsubscribe\?\S+)", body)
            assert found is not None
            assert mail["List-Unsubscribe"] == f"<{found.group(0)}>"
            assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
            # The bot takes the seat when the day is over; the bots end the game: a last mail.
            clock.advance(DAY + 60)
            ended = wait_for(lambda: [m for m in inbox.messages if "Game over" in m["Subject"]], 60)
            assert "is over" in ended[0].get_content()
            # A forged signature does nothing; the real link switches e-mail off.
            forged = httpx.get(server.base + found.group(1)[:-3] + "xyz")
            assert forged.status_code == 403
            assert ada.get("/api/account/notifications").json()["notify_email"] is True
            done = httpx.get(server.base + found.group(1), headers={"Accept-Language": "it"})
            assert done.status_code == 200 and "Fatto" in done.text
            assert ada.get("/api/account/notifications").json()["notify_email"] is False
            # No more mail: a new turn-based game of Ada's sends nothing.
            count = len(inbox.messages)
            create(ada, [HUMAN, BOT], time_control=TURN_MOVE)
            time.sleep(1.0)
            assert len(inbox.messages) == count
        finally:
            ada.close()


def test_unsubscribe_tokens_are_per_account() -> None:
    key = b"k" * 32
    assert unsubscribe_token(key, "user1") != unsubscribe_token(key, "user2")
    assert unsubscribe_token(key, "user1") != unsubscribe_token(b"j" * 32, "user1")
    target = parse_smtp_url("smtps://me:p%40ss@mail.example:2465")
    assert (target.host, target.port, target.tls, target.user, target.password) == (
        "mail.example",
        2465,
        True,
        "me",
        "p@ss",
    )
    with pytest.raises(ValueError):
        parse_smtp_url("http://mail.example")


def test_serve_lists_the_mail_options() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--smtp-url", "--mail-from", "--public-url", "--abandon-after"):
        assert option in result.output
    refused = CliRunner().invoke(app, ["serve", "--smtp-url", "smtp://127.0.0.1:1"])
    assert refused.exit_code != 0 and "--public-url" in refused.output
