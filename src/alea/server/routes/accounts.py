"""Accounts over HTTP: sign up, sign in and out, change password, the account's games.

Accounts are optional: nothing else of the API needs one. The session lives
in an HttpOnly cookie; every change made with it needs the CSRF token (see
:mod:`alea.server.account_service`). Sign-up and sign-in take the seat tokens
a guest holds (``seats``), so their games join the account and resume from
any device.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from alea.server.account_service import COOKIE, Accounts, Session
from alea.server.account_store import User
from alea.server.errors import ServerError
from alea.server.room import Game
from alea.server.routes.common import ERRORS, Server
from alea.server.snapshot import info

router = APIRouter(tags=["accounts"])

#: Most guest seats one sign-in may bring along.
MAX_SEATS = 100


class SeatProofIn(BaseModel):
    """A seat a guest holds: the game and the seat's token."""

    game_id: str = Field(max_length=64)
    token: str = Field(max_length=200)


class CredentialsIn(BaseModel):
    """A user name and password, and the guest's seats to bring into the account."""

    name: str = Field(max_length=200)
    password: str = Field(max_length=1024)
    seats: list[SeatProofIn] = Field(default_factory=list, max_length=MAX_SEATS)


class PasswordIn(BaseModel):
    current: str = Field(max_length=1024)
    new: str = Field(max_length=1024)


class UserOut(BaseModel):
    name: str
    created_at: float


class LinkedOut(BaseModel):
    game_id: str
    seat: int


class MeOut(BaseModel):
    """Who is signed in (``user`` null: nobody) and the token changes must carry."""

    user: UserOut | None
    csrf: str | None
    #: The guest seats joined to the account by this request (sign-up and sign-in).
    linked: list[LinkedOut] = Field(default_factory=list)


class MyGameOut(BaseModel):
    game: dict[str, Any]
    seat: int


def accounts_of(request: Request) -> Accounts:
    """The :class:`Accounts` of the app serving ``request``."""
    found: Accounts = request.app.state.accounts
    return found


def address(request: Request) -> str:
    """The client's address, the key of the per-address limits."""
    return request.client.host if request.client else "unknown"


async def signed_in(request: Request) -> Session:
    """The request's session, or ``not_signed_in``."""
    session = await accounts_of(request).session(request.cookies)
    if session is None:
        raise ServerError("not_signed_in", 401)
    return session


async def changing(request: Request) -> Session:
    """The session of a request that changes something: signed in, CSRF token checked."""
    session = await signed_in(request)
    accounts_of(request).check_csrf(session, request.headers)
    return session


async def _start_session(
    request: Request, response: Response, user: User, seats: list[SeatProofIn], server: Server
) -> dict[str, Any]:
    accounts = accounts_of(request)
    previous = await accounts.session(request.cookies)
    if previous is not None:
        await accounts.sign_out(previous)
    cookie = await accounts.open_session(user)
    response.set_cookie(
        COOKIE,
        cookie,
        max_age=accounts.cookie_ttl(),
        path="/",
        httponly=True,
        samesite="lax",
        secure=accounts.secure(request.url.scheme),
    )
    session = await accounts.session({COOKIE: cookie})
    assert session is not None
    linked = []
    for proof in seats:
        try:
            game = await server.get(proof.game_id)
            seat = await accounts.attach(user, game, proof.token)
        except ServerError:
            continue  # a stale token or a game gone: the rest still join
        linked.append({"game_id": game.id, "seat": seat})
    return {**accounts.me(session), "linked": linked}


@router.post("/api/account/signup", response_model=MeOut, status_code=201, responses=ERRORS)
async def sign_up(
    body: CredentialsIn, request: Request, response: Response, server: Server
) -> dict[str, Any]:
    """Make an account and sign in; the guest's ``seats`` join it."""
    accounts = accounts_of(request)
    accounts.check_origin(request.headers)
    user = await accounts.sign_up(body.name, body.password, address(request))
    return await _start_session(request, response, user, body.seats, server)


@router.post("/api/account/login", response_model=MeOut, responses=ERRORS)
async def sign_in(
    body: CredentialsIn, request: Request, response: Response, server: Server
) -> dict[str, Any]:
    """Sign in; the guest's ``seats`` join the account. Wrong passwords are rate-limited."""
    accounts = accounts_of(request)
    accounts.check_origin(request.headers)
    user = await accounts.sign_in(body.name, body.password, address(request))
    return await _start_session(request, response, user, body.seats, server)


def _forget_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(
        COOKIE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=accounts_of(request).secure(request.url.scheme),
    )


@router.post("/api/account/logout", response_model=MeOut, responses=ERRORS)
async def sign_out(request: Request, response: Response) -> dict[str, Any]:
    """Sign out on this device (the session ends on the server too)."""
    session = await changing(request)
    await accounts_of(request).sign_out(session)
    _forget_cookie(request, response)
    return {"user": None, "csrf": None}


@router.post("/api/account/logout-all", response_model=MeOut, responses=ERRORS)
async def sign_out_everywhere(request: Request, response: Response) -> dict[str, Any]:
    """Sign out on every device: every session of the account ends."""
    session = await changing(request)
    await accounts_of(request).sign_out_everywhere(session)
    _forget_cookie(request, response)
    return {"user": None, "csrf": None}


@router.post("/api/account/password", response_model=MeOut, responses=ERRORS)
async def change_password(body: PasswordIn, request: Request) -> dict[str, Any]:
    """Change the password (the current one is asked); every other session ends."""
    session = await changing(request)
    accounts = accounts_of(request)
    await accounts.change_password(session, body.current, body.new, address(request))
    return accounts.me(session)


@router.get("/api/me", response_model=MeOut, responses=ERRORS)
async def me(request: Request) -> dict[str, Any]:
    """Who is signed in, and the CSRF token (``user`` null for a guest)."""
    accounts = accounts_of(request)
    return accounts.me(await accounts.session(request.cookies))


@router.get("/api/me/games", response_model=list[MyGameOut], responses=ERRORS)
async def my_games(request: Request, server: Server, limit: int = 50) -> list[dict[str, Any]]:
    """The games the account holds a seat in, most recently changed first."""
    session = await signed_in(request)
    found = []
    for game_id, seat in await accounts_of(request).games(session.user, max(1, min(limit, 200))):
        try:
            game = await server.get(game_id)
        except ServerError:
            continue
        found.append({"game": info(game), "seat": seat})
    return found


@router.post("/api/me/seats", response_model=LinkedOut, responses=ERRORS)
async def attach_seat(body: SeatProofIn, request: Request, server: Server) -> dict[str, Any]:
    """Join a seat held as a guest (proved by its token) to the account."""
    session = await changing(request)
    game = await server.get(body.game_id)
    seat = await accounts_of(request).attach(session.user, game, body.token)
    return {"game_id": game.id, "seat": seat}


# ---------------------------------------------- the session cookie in the game routes


def _wanted_seat(request: Request) -> int | None:
    """The seat asked for in ``X-Alea-Seat`` (an account holding several in one game)."""
    raw = request.headers.get("x-alea-seat")
    if raw is None:
        return None
    try:
        return int(raw)
    except ValueError:
        raise ServerError("bad_request", 422, detail="X-Alea-Seat is a seat number") from None


async def cookie_seat(request: Request, game: Game, *, change: bool) -> int | None:
    """The seat of ``game`` the request's session cookie proves, or None (no cookie, no seat).

    A request that changes something (``change``) must carry the CSRF token.
    """
    accounts = accounts_of(request)
    session = await accounts.session(request.cookies)
    if session is None:
        return None
    if change:
        accounts.check_csrf(session, request.headers)
    return await accounts.seat_for(session, game, _wanted_seat(request))


async def claimant(request: Request) -> Session | None:
    """The session of a signed-in request about to take a seat (CSRF checked first)."""
    accounts = accounts_of(request)
    session = await accounts.session(request.cookies)
    if session is not None:
        accounts.check_csrf(session, request.headers)
    return session


async def link_claimed(request: Request, session: Session | None, game: Game, seat: int) -> None:
    """Link the seat just claimed to the account that claimed it (if signed in)."""
    if session is not None:
        await accounts_of(request).link(session.user, game, seat)
