"""Seat tokens: the secret that proves "I sit in seat N of game G", no accounts needed.

A token is 32 random URL-safe bytes made by :mod:`secrets`, shown once to the
browser that claims a seat (which keeps it in ``localStorage``). The server
stores only its SHA-256 hash, so a leaked database does not let anyone act
for a player, and compares hashes in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

#: What a game id may look like: URL-safe base64 characters, as :func:`new_game_id`
#: makes them (longer ones allowed for ids from elsewhere, up to 32).
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def new_token() -> str:
    """A fresh seat token (43 URL-safe characters)."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """The hex SHA-256 digest stored in place of the token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    """Whether ``token`` is the one whose hash is ``stored_hash`` (constant time)."""
    if not stored_hash or not token:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


def new_game_id() -> str:
    """A short unguessable game id for links (12 URL-safe characters, 72 bits)."""
    return secrets.token_urlsafe(9)


def is_game_id(value: object) -> bool:
    """Whether ``value`` can be a game id at all, checked before any database sees it.

    Anything else (a NUL byte, which PostgreSQL refuses in text, a path, a megabyte)
    is simply an unknown game.
    """
    return isinstance(value, str) and GAME_ID.fullmatch(value) is not None
