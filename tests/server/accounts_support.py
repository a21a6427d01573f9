"""What the account tests share: a live server, signed-in HTTP clients, cookie sockets."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import httpx
import websockets

from alea.server import Settings
from tests.server.support import Client, LiveServer, quick_bots

PASSWORD = "correct horse battery"


def settings_for(url: str, **extra: Any) -> Settings:
    """A quick server: fast bots, and sign-in limits tests may override."""
    options: dict[str, Any] = {
        "database_url": url,
        "bot_delay": 0.01,
        "bot_factory": quick_bots,
        "sqlite_synchronous": "NORMAL",
        "idle_timeout": 600,
    }
    options.update(extra)
    return Settings(**options)


@contextlib.contextmanager
def live(url: str, **extra: Any) -> Iterator[LiveServer]:
    with LiveServer(settings_for(url, **extra)) as server:
        yield server


class Browser:
    """An HTTP client with its own cookie jar, like one browser: signs up, in, out."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.http = httpx.Client(base_url=base, timeout=30)
        self.csrf: str | None = None

    def close(self) -> None:
        self.http.close()

    def headers(self, **extra: str) -> dict[str, str]:
        found = {"X-CSRF-Token": self.csrf} if self.csrf else {}
        found.update(extra)
        return found

    def post(self, path: str, body: Any = None, **headers: str) -> httpx.Response:
        return self.http.post(path, json=body or {}, headers=self.headers(**headers))

    def get(self, path: str, **headers: str) -> httpx.Response:
        return self.http.get(path, headers=headers)

    def sign_up(self, name: str, password: str = PASSWORD, **body: Any) -> httpx.Response:
        answer = self.http.post(
            "/api/account/signup", json={"name": name, "password": password, **body}
        )
        if answer.status_code == 201:
            self.csrf = answer.json()["csrf"]
        return answer

    def sign_in(self, name: str, password: str = PASSWORD, **body: Any) -> httpx.Response:
        answer = self.http.post(
            "/api/account/login", json={"name": name, "password": password, **body}
        )
        if answer.status_code == 200:
            self.csrf = answer.json()["csrf"]
        return answer

    def me(self) -> dict[str, Any]:
        answer = self.get("/api/me")
        assert answer.status_code == 200, answer.text
        found: dict[str, Any] = answer.json()
        return found

    def cookie(self) -> str:
        return str(self.http.cookies.get("alea_session"))


async def cookie_socket(
    server: LiveServer,
    game_id: str,
    cookie: str | None,
    *,
    origin: str | None = None,
    hello: dict[str, Any] | None = None,
) -> tuple[Client, dict[str, Any]]:
    """A WebSocket sent with the session cookie (no seat token); the welcome or error."""
    headers = {}
    if cookie:
        headers["Cookie"] = f"alea_session={cookie}"
    ws = await websockets.connect(
        f"{server.ws_base}/ws/games/{game_id}",
        additional_headers=headers,
        origin=origin or server.base,  # type: ignore[arg-type]
    )
    client = Client(ws, None)
    await client.send({"type": "hello", "token": None, "lang": "en", **(hello or {})})
    first = await client.until(lambda m: m["type"] in ("welcome", "error"))
    return client, first
