"""The signed-in player's own pages of the API: the "Your games" dashboard and e-mail.

* ``GET /api/me/dashboard``: every game the account holds a seat in, whose
  turn it is, the time left, the opponents and the link, the games waiting
  for the account first (:mod:`alea.server.dashboard`).
* ``GET``/``POST /api/account/notifications``: the account's e-mail address
  and whether it wants e-mail (a change needs the CSRF token, like every
  account change). Addresses are checked with ``email-validator``.
* ``GET``/``POST /api/account/unsubscribe``: the signed one-click link of every
  notification (``POST`` is RFC 8058's one-click from the mail program).
"""

from __future__ import annotations

import asyncio
import html
from typing import Any

from email_validator import EmailNotValidError, validate_email
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from alea.server import i18n, notify_store
from alea.server.dashboard import entry, ordered
from alea.server.errors import ServerError
from alea.server.mailer import unsubscribe_matches
from alea.server.routes.accounts import accounts_of, changing, signed_in
from alea.server.routes.common import ERRORS, Server

router = APIRouter(tags=["accounts"])

#: Seats of an account looked at for the dashboard, most recently changed first.
DASHBOARD_SEATS = 200


class NotificationsIn(BaseModel):
    """The account's address (null or empty: none) and whether it wants e-mail."""

    email: str | None = Field(None, max_length=320)
    notify_email: bool = False


class NotificationsOut(BaseModel):
    email: str | None
    notify_email: bool
    #: Whether this server sends e-mail at all (``alea serve --smtp-url``).
    available: bool


def check_email(value: str | None, notify: bool) -> str | None:
    """The address normalised (None: none), or ``bad_email``; e-mail on needs one."""
    text = (value or "").strip()
    if not text:
        if notify:
            raise ServerError("bad_email", 422, detail="e-mail notifications need an address")
        return None
    try:
        found = validate_email(text, check_deliverability=False)
    except EmailNotValidError as err:
        raise ServerError("bad_email", 422, detail=str(err)) from None
    return str(found.normalized)


@router.get("/api/me/dashboard", responses=ERRORS)
async def dashboard(request: Request, server: Server) -> dict[str, Any]:
    """Every game the account is in: games waiting for it first, then the others."""
    session = await signed_in(request)
    now = server.clock.now()
    found = []
    for game_id, seat in await accounts_of(request).games(session.user, DASHBOARD_SEATS):
        try:
            game = await server.get(game_id)
        except ServerError:
            continue
        found.append(entry(game, seat, now))
    games = ordered(found)
    return {
        "now": now,
        "waiting": sum(1 for g in games if g["your_turn"]),
        "games": games,
    }


def _available(request: Request) -> bool:
    settings = request.app.state.settings
    return bool(settings.smtp_url and settings.public_url)


@router.get("/api/account/notifications", response_model=NotificationsOut, responses=ERRORS)
async def notifications(request: Request) -> dict[str, Any]:
    """The account's e-mail address and switch."""
    session = await signed_in(request)
    engine = accounts_of(request).engine
    email, notify = await asyncio.to_thread(notify_store.settings, engine, session.user.id)
    return {"email": email, "notify_email": notify, "available": _available(request)}


@router.post("/api/account/notifications", response_model=NotificationsOut, responses=ERRORS)
async def set_notifications(body: NotificationsIn, request: Request) -> dict[str, Any]:
    """Set the address and switch e-mail on or off (CSRF token required)."""
    session = await changing(request)
    email = check_email(body.email, body.notify_email)
    engine = accounts_of(request).engine
    await asyncio.to_thread(
        notify_store.set_settings, engine, session.user.id, email, body.notify_email
    )
    return {"email": email, "notify_email": body.notify_email, "available": _available(request)}


#: The words of the unsubscribe page, by language.
PAGE_TEXT: dict[str, dict[str, str]] = {
    "unsubscribed": {
        "en": "Done: this account gets no more e-mail from this server. You can switch it "
        "on again in your account.",
        "it": "Fatto: questo account non riceverà più e-mail da questo server. Puoi "
        "riattivarle dal tuo account.",
    },
    "bad_unsubscribe": {
        "en": "This unsubscribe link is not valid.",
        "it": "Questo link per annullare l'iscrizione non è valido.",
    },
    "home": {"en": "Back to the game", "it": "Torna al gioco"},
}

_PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Alea Iacta Est</title><link rel="stylesheet" href="/static/css/app.css"></head>
<body><main class="app"><section class="panel"><h1>Alea Iacta Est</h1>
<p id="unsubscribed">{text}</p><p><a href="/">{home}</a></p></section></main></body></html>
"""


async def _unsubscribe(request: Request, user: str, token: str) -> HTMLResponse:
    lang = i18n.language(request.headers.get("accept-language", ""))
    key = accounts_of(request).key
    ok = bool(user) and len(user) <= 64 and unsubscribe_matches(key, user, token)
    if ok:
        ok = await asyncio.to_thread(notify_store.unsubscribe, accounts_of(request).engine, user)
    code = "unsubscribed" if ok else "bad_unsubscribe"
    page = _PAGE.format(
        lang=lang,
        text=html.escape(PAGE_TEXT[code][lang]),
        home=html.escape(PAGE_TEXT["home"][lang]),
    )
    return HTMLResponse(page, status_code=200 if ok else 403)


@router.get("/api/account/unsubscribe", response_class=HTMLResponse)
async def unsubscribe_link(request: Request, user: str = "", token: str = "") -> HTMLResponse:
    """The link in every notification: one click switches e-mail off (signed, no sign-in)."""
    return await _unsubscribe(request, user, token)


@router.post("/api/account/unsubscribe", response_class=HTMLResponse)
async def unsubscribe_post(request: Request, user: str = "", token: str = "") -> HTMLResponse:
    """RFC 8058 one-click unsubscribe, as mail programs send it (``List-Unsubscribe-Post``)."""
    return await _unsubscribe(request, user, token)
