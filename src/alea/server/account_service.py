"""Accounts put together: sessions in cookies, CSRF, rate limits, and seats found by account.

:class:`Accounts` is what the routes (:mod:`alea.server.routes.accounts`, and
the game routes where a cookie may stand for a seat token) and the WebSocket
hub ask. It joins the pure rules of :mod:`alea.server.accounts` to the
database of :mod:`alea.server.account_store` and to the HTTP details:

* **The session cookie** ``alea_session``: HttpOnly, ``SameSite=Lax``, path
  ``/``, ``Secure`` when served over https (or as configured), its value the
  session id signed with the server's key.
* **CSRF**: a request that a session cookie authenticates and that changes
  anything must carry ``X-CSRF-Token`` (the session's token, given by ``GET
  /api/me`` and at sign-in) and, if the browser sent an ``Origin``, come from
  the server's own origin. Sign-up and sign-in, which have no session yet, are
  held to the ``Origin`` rule. A WebSocket that uses the cookie must come from
  the server's own origin (browsers always send ``Origin`` with one).
* **Rate limits** (:mod:`limits`, moving windows in memory): wrong passwords
  per account name and per client address, new accounts per address. An
  unknown name counts exactly like a known one, and is checked against a dummy
  hash, so neither the answers nor their timing tell whether a name exists.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from sqlalchemy import Engine

from alea.server import account_store as db
from alea.server import accounts
from alea.server.account_store import NameTaken, User
from alea.server.config import Settings
from alea.server.errors import ServerError
from alea.server.games import REFEREE
from alea.server.room import Game

log = logging.getLogger("alea.server.accounts")

COOKIE = "alea_session"
CSRF_HEADER = "x-csrf-token"


@dataclass(frozen=True)
class Session:
    """A signed-in request: the account and the session id from its cookie."""

    user: User
    session_id: str


class Accounts:
    """Sign-up, sign-in, sessions and account-linked seats of one server."""

    def __init__(self, settings: Settings, engine: Engine) -> None:
        self.settings = settings
        self.engine = engine
        self._key: bytes | None = None
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._per_account: RateLimitItem = parse(settings.login_limit_per_account)
        self._per_address: RateLimitItem = parse(settings.login_limit_per_address)
        self._signups: RateLimitItem = parse(settings.signup_limit_per_address)
        #: Sign-in attempts under way or waiting, by address and by name: (lock, how many).
        self._turns: dict[str, tuple[asyncio.Lock, int]] = {}

    def now(self) -> float:
        """The server's one clock (``Settings.clock``), so tests can expire sessions."""
        return self.settings.clock()

    async def start(self) -> None:
        """Load (or make and store) the cookie key; forget expired sessions."""
        secret = self.settings.cookie_secret
        if not secret:
            secret = await asyncio.to_thread(db.server_key, self.engine)
        self._key = secret.encode()
        await asyncio.to_thread(accounts.dummy_hash)  # so the first unknown name is not faster
        gone = await asyncio.to_thread(db.delete_expired, self.engine, self.now())
        if gone:
            log.info("forgot %d expired sessions", gone)

    @property
    def key(self) -> bytes:
        if self._key is None:
            raise ServerError("unavailable", 503)
        return self._key

    # ------------------------------------------------------------- sessions

    async def session(self, cookies: Mapping[str, str]) -> Session | None:
        """The live session of a request's (or socket's) cookies, or None."""
        session_id = accounts.unsign_session(self.key, cookies.get(COOKIE))
        if session_id is None:
            return None
        user = await asyncio.to_thread(
            db.session_user, self.engine, accounts.session_hash(session_id), self.now()
        )
        return None if user is None else Session(user, session_id)

    async def open_session(self, user: User) -> str:
        """Store a new session for ``user``; the signed cookie value."""
        session_id = accounts.new_session_id()
        now = self.now()
        expires = now + self.settings.session_days * 86400
        await asyncio.to_thread(
            db.create_session, self.engine, accounts.session_hash(session_id), user.id, now, expires
        )
        return accounts.sign_session(self.key, session_id)

    def csrf(self, session: Session) -> str:
        """The CSRF token of ``session`` (the browser sends it back on every change)."""
        return accounts.csrf_token(self.key, session.session_id)

    def me(self, session: Session | None) -> dict[str, object]:
        """What ``GET /api/me`` answers: the account and its CSRF token, or nulls."""
        if session is None:
            return {"user": None, "csrf": None}
        user = {"name": session.user.name, "created_at": session.user.created_at}
        return {"user": user, "csrf": self.csrf(session)}

    def cookie_ttl(self) -> int:
        """The cookie's ``Max-Age`` (the session's lifetime) in seconds."""
        return int(self.settings.session_days * 86400)

    def secure(self, scheme: str) -> bool:
        """Whether cookies get the ``Secure`` flag for a request that came over ``scheme``."""
        configured = self.settings.secure_cookies
        return scheme in ("https", "wss") if configured is None else configured

    # ----------------------------------------------------------------- CSRF

    def same_origin(self, headers: Mapping[str, str]) -> bool:
        """Whether the request's ``Origin`` (if any) is this server's own, or a trusted one."""
        origin = headers.get("origin")
        if origin is None:
            return True  # not a browser's cross-site request: those always carry Origin
        if origin in self.settings.trusted_origins:
            return True
        host = headers.get("host", "")
        return bool(host) and urlsplit(origin).netloc.lower() == host.lower()

    def check_origin(self, headers: Mapping[str, str]) -> None:
        """Refuse (``csrf``) a request sent by another site's page."""
        if not self.same_origin(headers):
            raise ServerError("csrf", 403, detail="cross-origin request")

    def check_csrf(self, session: Session, headers: Mapping[str, str]) -> None:
        """Refuse (``csrf``) a cookie-authenticated change without the session's token."""
        self.check_origin(headers)
        if not accounts.csrf_matches(self.key, session.session_id, headers.get(CSRF_HEADER)):
            raise ServerError("csrf", 403, detail="missing or wrong X-CSRF-Token")

    # -------------------------------------------------------- sign up, in, out

    async def sign_up(self, name: object, password: object, address: str) -> User:
        """A new account (rate-limited per address); ``name_taken`` if the name is."""
        shown = accounts.check_name(name)
        secret = accounts.check_password(password, shown)
        if not self._limiter.hit(self._signups, "signup", address):
            raise ServerError("too_many_attempts", 429, retry=self._retry(self._signups, address))
        hashed = await asyncio.to_thread(accounts.hash_password, secret)
        try:
            return await asyncio.to_thread(
                db.create_user,
                self.engine,
                accounts.new_user_id(),
                shown,
                accounts.name_key(shown),
                hashed,
                self.now(),
            )
        except NameTaken:
            raise ServerError("name_taken", 409) from None

    async def sign_in(self, name: object, password: object, address: str) -> User:
        """The account ``name`` if ``password`` is its own; else ``bad_credentials``.

        Wrong passwords are counted per account name and per address; past either
        limit every attempt is refused (``too_many_attempts``), right or wrong, until
        the window moves on. An unknown name is checked against a dummy hash and
        counted the same, so nothing tells it apart from a wrong password.
        """
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > 1024:
            raise ServerError("bad_credentials", 401)
        key = accounts.name_key(name.strip())[:64]
        # One attempt at a time per address and per name, so that the limits are exact:
        # concurrent guesses cannot all pass the check before the first failure is counted.
        async with self._turn(f"address:{address}"), self._turn(f"name:{key}"):
            return await self._sign_in(key, password, address)

    @contextlib.asynccontextmanager
    async def _turn(self, key: str) -> AsyncIterator[None]:
        """Wait for the attempts already under way for ``key``; forget the lock when idle."""
        lock, users = self._turns.get(key, (asyncio.Lock(), 0))
        self._turns[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._turns[key]
            if users <= 1:
                del self._turns[key]
            else:
                self._turns[key] = (lock, users - 1)

    async def _sign_in(self, key: str, password: str, address: str) -> User:
        if not self._limiter.test(self._per_account, "login-name", key) or not (
            self._limiter.test(self._per_address, "login-address", address)
        ):
            retry = max(
                self._retry(self._per_account, key, "login-name"),
                self._retry(self._per_address, address, "login-address"),
            )
            raise ServerError("too_many_attempts", 429, retry=retry)
        user = await asyncio.to_thread(db.user_by_key, self.engine, key)
        stored = user.password_hash if user is not None else accounts.dummy_hash()
        good = await asyncio.to_thread(accounts.verify_password, password, stored)
        if user is None or not good:
            self._limiter.hit(self._per_account, "login-name", key)
            self._limiter.hit(self._per_address, "login-address", address)
            raise ServerError("bad_credentials", 401)
        return user

    def _retry(self, item: RateLimitItem, who: str, namespace: str = "signup") -> int:
        stats = self._limiter.get_window_stats(item, namespace, who)
        return max(1, int(stats.reset_time - time.time() + 0.999))  # limits' own clock

    async def sign_out(self, session: Session) -> None:
        """End this session only."""
        await asyncio.to_thread(
            db.delete_session, self.engine, accounts.session_hash(session.session_id)
        )

    async def sign_out_everywhere(self, session: Session) -> int:
        """End every session of the account, this one included; how many ended."""
        return await asyncio.to_thread(db.delete_sessions, self.engine, session.user.id)

    async def change_password(
        self, session: Session, current: object, new: object, address: str
    ) -> None:
        """Set a new password (the current one checked, rate-limited like a sign-in).

        Every other session of the account ends: whoever knew the old password is
        signed out on every other device.
        """
        await self.sign_in(session.user.name, current, address)
        secret = accounts.check_password(new, session.user.name)
        hashed = await asyncio.to_thread(accounts.hash_password, secret)
        await asyncio.to_thread(db.set_password, self.engine, session.user.id, hashed)
        await asyncio.to_thread(
            db.delete_sessions,
            self.engine,
            session.user.id,
            accounts.session_hash(session.session_id),
        )

    # ---------------------------------------------------------------- seats

    async def link(self, user: User, game: Game, seat: int) -> None:
        """Link seat ``seat`` of ``game`` (just claimed or proved by its token) to ``user``."""
        if seat == REFEREE or not 0 <= seat < len(game.seats):
            return
        if not await asyncio.to_thread(db.link_seat, self.engine, game.id, seat, user.id):
            raise ServerError("seat_linked", 409)

    async def attach(self, user: User, game: Game, token: object) -> int:
        """Link the seat a guest's ``token`` opens to ``user``; the seat (``bad_token``)."""
        seat = game.authenticate(token)
        if seat == REFEREE:
            raise ServerError("bad_token", 403, detail="only a player's seat joins an account")
        await self.link(user, game, seat)
        return seat

    async def seat_for(self, session: Session, game: Game, wanted: object = None) -> int | None:
        """The seat of ``game`` the session's account holds (``wanted`` if it holds several).

        None when it holds none (the caller watches); ``bad_token`` when ``wanted`` is a
        seat the account does not hold, so no account ever speaks for another's seat.
        """
        seats = await asyncio.to_thread(db.linked_seats, self.engine, game.id, session.user.id)
        if wanted is None:
            return seats[0] if seats else None
        if isinstance(wanted, bool) or not isinstance(wanted, int) or wanted not in seats:
            raise ServerError("bad_token", 403, detail="that seat is not held by this account")
        return wanted

    async def games(self, user: User, limit: int = 50) -> list[tuple[str, int]]:
        """``(game_id, seat)`` of the account's seats, most recently changed first."""
        return await asyncio.to_thread(db.user_games, self.engine, user.id, limit)

    async def socket_seat(
        self,
        cookies: Mapping[str, str],
        headers: Mapping[str, str],
        game: Game,
        wanted: object = None,
    ) -> int | None:
        """The seat a WebSocket's session cookie proves in ``game`` (None: none, or no cookie).

        The cookie counts only from the server's own pages (``Origin``), so another
        site cannot open a socket that plays as the signed-in visitor.
        """
        session = await self.session(cookies)
        if session is None:
            return None
        if not self.same_origin(headers):
            raise ServerError("csrf", 403, detail="cross-origin WebSocket")
        return await self.seat_for(session, game, wanted)
