"""Player accounts, the pure part: user-name rules, password hashing, session ids, CSRF.

Accounts are optional: a guest plays with seat tokens exactly as before, and
an account only lets a player find their seats again from any device. This
module holds the rules and the cryptography, with no I/O, so each is tested
on its own; :mod:`alea.server.account_store` keeps users and sessions in the
database and :mod:`alea.server.account_service` puts both behind the routes.

* **User names**: 3 to 24 characters, letters (any script), digits, ``.``,
  ``_`` and ``-``, starting with a letter. They are unique case-insensitively
  (compared by their NFKC case fold, so "Marco", "MARCO" and "ｍａｒｃｏ" are
  one name) and may not impersonate the server's bots (their Roman names,
  anything that reads "bot…", the level names) or the server itself.
* **Passwords**: 8 to 256 characters, not the user name; hashed with Argon2id
  through :mod:`pwdlib` (its recommended parameters), never stored or logged.
* **Sessions**: a random id lives only in the browser's cookie, signed with
  the server's key (a forged or mangled cookie is refused before any database
  look-up); the database stores only its SHA-256, so sessions are revocable
  server-side ("sign out everywhere") and a leaked database opens none.
* **CSRF**: every cookie-authenticated change must carry the session's CSRF
  token in the ``X-CSRF-Token`` header; the token is an HMAC of the session id
  under the server's key, so it needs no storage, differs per session and
  cannot be guessed by another site (which cannot read our answers).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import re
import secrets
import unicodedata
from typing import Final

from pwdlib import PasswordHash

from alea.bots import LEVELS
from alea.server.errors import ServerError
from alea.server.seats import BOT_NAMES

NAME_MIN: Final = 3
NAME_MAX: Final = 24
PASSWORD_MIN: Final = 8
PASSWORD_MAX: Final = 256

#: Names no account may take, case-insensitively: the bots' default names and levels (from
#: where the server gives them, so a new bot name is reserved at once) and words that would
#: pass for the server or a role.
RESERVED: Final = frozenset(
    {n.casefold() for n in BOT_NAMES}
    | {level.casefold() for level in LEVELS}
    | {"random", "greedy", "ismcts", "admin", "administrator", "alea", "referee", "arbitro"}
    | {"server", "system", "moderator", "guest", "ospite", "spectator", "spettatore"}
)
_NAME_CHARS = re.compile(r"^[^\W\d_][\w.\-]*$")
_BOTLIKE = re.compile(r"^bots?(?:[\W\d_].*)?$")

_HASHER = PasswordHash.recommended()


def name_key(name: str) -> str:
    """The form names are compared in: NFKC, case-folded (unique in ``users.name_key``)."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_name(name: object) -> str:
    """``name`` as it will be shown, if it is an acceptable user name; else ``bad_name``."""
    if not isinstance(name, str):
        raise ServerError("bad_name", 422, detail="a user name is text")
    shown = unicodedata.normalize("NFKC", name.strip())
    if not NAME_MIN <= len(shown) <= NAME_MAX:
        raise ServerError("bad_name", 422, detail=f"{NAME_MIN} to {NAME_MAX} characters")
    if not _NAME_CHARS.match(shown):
        raise ServerError(
            "bad_name", 422, detail="letters, digits, '.', '_' and '-', starting with a letter"
        )
    key = name_key(shown)
    if key in RESERVED or _BOTLIKE.match(key):
        raise ServerError("bad_name", 422, detail="that name belongs to a bot or to the server")
    return shown


def check_password(password: object, name: str = "") -> str:
    """``password`` if it may be set (length, not the name); else ``bad_password``."""
    if not isinstance(password, str):
        raise ServerError("bad_password", 422, detail="a password is text")
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        detail = f"{PASSWORD_MIN} to {PASSWORD_MAX} characters"
        raise ServerError("bad_password", 422, detail=detail)
    if name and name_key(password) == name_key(name):
        raise ServerError("bad_password", 422, detail="the password may not be the user name")
    return password


def hash_password(password: str) -> str:
    """The Argon2id hash (PHC string) stored in place of ``password``. Slow on purpose."""
    return _HASHER.hash(password)


def verify_password(password: str, stored: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from (False for a bad hash)."""
    try:
        return bool(_HASHER.verify(password, stored))
    except Exception:  # an unreadable stored hash is a wrong password, never a crash
        return False


@functools.cache
def dummy_hash() -> str:
    """A hash of nothing anyone knows, made once (the server warms it at start).

    A sign-in with an unknown name is checked against it, so it takes as long as one with
    a known name and a wrong password: no enumeration by timing.
    """
    return hash_password(secrets.token_urlsafe(24))


def new_user_id() -> str:
    """A random user id (never shown as a name, never guessable)."""
    return secrets.token_urlsafe(16)


def new_session_id() -> str:
    """A fresh session id (256 random bits)."""
    return secrets.token_urlsafe(32)


def session_hash(session_id: str) -> str:
    """What ``sessions.id_hash`` stores for ``session_id``."""
    return hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()


def _mac(key: bytes, purpose: str, session_id: str) -> str:
    digest = hmac.new(key, f"{purpose}:{session_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def sign_session(key: bytes, session_id: str) -> str:
    """The cookie value for ``session_id``: the id and its signature under ``key``."""
    return f"{session_id}.{_mac(key, 'session', session_id)}"


def unsign_session(key: bytes, cookie: str | None) -> str | None:
    """The session id of a well-signed ``cookie``; None for a missing or forged one."""
    if not cookie or len(cookie) > 200:
        return None
    session_id, _, signature = cookie.rpartition(".")
    if not session_id or not hmac.compare_digest(signature, _mac(key, "session", session_id)):
        return None
    return session_id


def csrf_token(key: bytes, session_id: str) -> str:
    """The CSRF token of a session (sent back in ``X-CSRF-Token`` on every change)."""
    return _mac(key, "csrf", session_id)


def csrf_matches(key: bytes, session_id: str, token: str | None) -> bool:
    """Whether ``token`` is the CSRF token of ``session_id`` (constant time)."""
    return bool(token) and hmac.compare_digest(str(token), csrf_token(key, session_id))
