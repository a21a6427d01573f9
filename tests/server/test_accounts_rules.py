"""The pure rules of accounts: user names, passwords, signed session cookies, CSRF tokens."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from alea.server import accounts
from alea.server.errors import ServerError
from alea.server.seats import BOT_NAMES
from tests.server.support import ServerProcess


@pytest.mark.parametrize("name", ["Marco", "giulia_88", "Ana-Maria", "Żaneta", "Botticelli"])
def test_good_names_are_kept_as_written(name: str) -> None:
    assert accounts.check_name(f"  {name} ") == name


@pytest.mark.parametrize(
    "name",
    ["ab", "x" * 25, "9lives", "_under", "two words", "tab\tname", "a<script>", "", None, 12]
    + ["bot", "Bots", "BOT-2", "bot_hard", "Easy", "HARD", "Referee", "admin", "Server"]
    + list(BOT_NAMES)
    + [n.upper() for n in BOT_NAMES],
)
def test_bad_names_are_refused(name: object) -> None:
    with pytest.raises(ServerError) as err:
        accounts.check_name(name)
    assert err.value.code == "bad_name"


def test_names_compare_case_insensitively_and_by_compatibility_form() -> None:
    key = accounts.name_key("Marco")
    assert key == accounts.name_key("MARCO") == accounts.name_key("ｍａｒｃｏ")
    assert accounts.name_key("Straße") == accounts.name_key("STRASSE")


@pytest.mark.parametrize("password", ["short", "x" * 257, None, "Marco1234"])
def test_bad_passwords_are_refused(password: object) -> None:
    with pytest.raises(ServerError) as err:
        accounts.check_password(password, "marco1234")
    assert err.value.code == "bad_password"


def test_password_hashes_are_argon2_salted_and_verified() -> None:
    first = accounts.hash_password("hunter2hunter2")
    second = accounts.hash_password("hunter2hunter2")
    assert first.startswith("$argon2id$") and first != second
    assert accounts.verify_password("hunter2hunter2", first)
    assert not accounts.verify_password("hunter2hunter3", first)
    assert not accounts.verify_password("hunter2hunter2", "not a hash")


def test_session_cookies_are_signed_and_csrf_tokens_bound_to_the_session() -> None:
    key, other = b"k" * 32, b"o" * 32
    session_id = accounts.new_session_id()
    cookie = accounts.sign_session(key, session_id)
    assert accounts.unsign_session(key, cookie) == session_id
    assert accounts.unsign_session(other, cookie) is None
    assert accounts.unsign_session(key, session_id) is None
    assert accounts.unsign_session(key, cookie[:-1] + "x") is None
    assert accounts.unsign_session(key, None) is None
    token = accounts.csrf_token(key, session_id)
    assert accounts.csrf_matches(key, session_id, token)
    assert not accounts.csrf_matches(key, accounts.new_session_id(), token)
    assert not accounts.csrf_matches(key, session_id, None)
    assert token not in cookie and accounts.session_hash(session_id) != session_id


def test_serve_takes_the_cookie_secret(tmp_path: Path) -> None:
    proc = ServerProcess(None, tmp_path, "--cookie-secret", "a-configured-secret").start()
    try:
        answer = httpx.post(
            f"{proc.base}/api/account/signup", json={"name": "Cato", "password": "censor of rome"}
        )
        assert answer.status_code == 201
        cookie = answer.cookies["alea_session"]
        session_id = accounts.unsign_session(b"a-configured-secret", cookie)
        assert session_id is not None
        assert answer.json()["csrf"] == accounts.csrf_token(b"a-configured-secret", session_id)
    finally:
        proc.stop()
