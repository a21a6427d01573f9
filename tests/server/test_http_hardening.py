"""Hostile HTTP input: every refusal in the documented shape, ids checked before the
database sees them, and bodies bounded before they are read in full."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets

from alea.server import Settings
from tests.server.support import Database, LiveServer, create_game, quick_bots


@pytest.fixture
def server(db: Database) -> Iterator[LiveServer]:
    settings = Settings(
        database_url=db.url, bot_delay=0.02, bot_factory=quick_bots, sqlite_synchronous="NORMAL"
    )
    with LiveServer(settings) as live:
        yield live


def refusal(answer: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """The documented error of ``answer``: its status, ``{"error": {code, message, detail}}``."""
    assert answer.status_code == status, answer.text
    body: dict[str, Any] = answer.json()
    assert set(body) == {"error"}, body
    assert body["error"]["code"] == code, body
    assert body["error"]["message"] and "detail" in body["error"]
    return body


def test_framework_refusals_speak_the_documented_shape(server: LiveServer) -> None:
    base = server.base
    refusal(httpx.get(f"{base}/api/no/such/route"), 404, "not_found")
    refusal(httpx.get(f"{base}/static/no-such-file.js"), 404, "not_found")
    wrong = httpx.delete(f"{base}/api/games")
    refusal(wrong, 405, "method_not_allowed")
    assert "POST" in wrong.headers["allow"]
    # Bytes that are not UTF-8 cannot even be decoded as JSON text.
    broken = httpx.post(
        f"{base}/api/games", content=b'"\xff"', headers={"Content-Type": "application/json"}
    )
    refusal(broken, 400, "bad_request")
    # JSON nested past the parser's recursion limit.
    deep = "[" * 5000 + "]" * 5000
    nested = httpx.post(
        f"{base}/api/games", content=deep, headers={"Content-Type": "application/json"}
    )
    assert nested.status_code in (400, 422) and "error" in nested.json()
    # Messages follow Accept-Language like the server's own refusals.
    italian = httpx.get(f"{base}/api/nope", headers={"Accept-Language": "it"})
    assert "indirizzo" in italian.json()["error"]["message"]


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/ab%00cd",
        "/api/games/ab%00cd/replay",
        "/api/games/ab%00cd/replay/1",
        "/api/games/ab%00cd/state",
        "/api/games/%C3%A9t%C3%A9",
        "/api/games/" + "a" * 33,
    ],
)
def test_bad_game_ids_are_unknown_games_on_every_database(server: LiveServer, path: str) -> None:
    refusal(httpx.get(server.base + path), 404, "no_such_game")


def test_bad_ids_in_writes_and_names_never_reach_the_database(server: LiveServer) -> None:
    base = server.base
    refusal(
        httpx.post(f"{base}/api/games/ab%00cd/seats/1/claim", json={"name": "x"}),
        404,
        "no_such_game",
    )
    refusal(
        httpx.post(f"{base}/api/games/ab%00cd/actions", json={"action": "S:1", "version": 0}),
        404,
        "no_such_game",
    )
    # A NUL (or any control character) in a name or title is dropped before storage.
    created = create_game(
        base,
        [{"kind": "human", "name": "A\x00n"}, {"kind": "human"}],
        name="Ann\x00",
        title="T\x00",
    )
    game = created["game"]
    assert game["seats"][0]["name"] == "Ann" and game["title"] == "T"
    claimed = httpx.post(f"{base}/api/games/{game['id']}/seats/1/claim", json={"name": "B\x00o"})
    assert claimed.status_code == 200
    again = httpx.get(f"{base}/api/games/{game['id']}").json()
    assert again["seats"][1]["name"] == "Bo"


def test_a_nul_in_the_socket_path_is_an_unknown_game(server: LiveServer) -> None:
    async def run() -> int | None:
        async with websockets.connect(f"{server.ws_base}/ws/games/ab%00cd") as ws:
            first = await ws.recv()
            assert '"no_such_game"' in str(first)
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
        return None if closed.value.rcvd is None else closed.value.rcvd.code

    assert asyncio.run(run()) == 4404


def test_a_body_over_the_limit_is_refused_before_it_is_read(server: LiveServer) -> None:
    base, limit = server.base, server.settings.max_body
    # Declared too large: refused on the header alone.
    big = b'{"seats": [' + b" " * (limit + 10) + b"]}"
    declared = httpx.post(
        f"{base}/api/games", content=big, headers={"Content-Type": "application/json"}
    )
    body = refusal(declared, 413, "too_large")
    assert str(limit) in body["error"]["detail"]

    # Streamed without a length (chunked): counted as it arrives and refused at the limit
    # (the client still sends it all before it reads the answer; the server discards it).
    def chunks() -> Iterator[bytes]:
        yield b'{"seats": ['
        for _ in range(256):  # 256 KiB: sent in full before the server answers and closes
            yield b" " * 1024

    streamed = httpx.post(
        f"{base}/api/games", content=chunks(), headers={"Content-Type": "application/json"}
    )
    refusal(streamed, 413, "too_large")
    # A body within the limit is served as before.
    assert httpx.get(f"{base}/api/health").status_code == 200
    create_game(base, [{"kind": "human"}, {"kind": "bot"}])


def test_socket_frames_over_the_limit_close_the_socket(sqlite_db: Database) -> None:
    settings = Settings(database_url=sqlite_db.url, bot_factory=quick_bots, max_frame=8192)

    async def run(live: LiveServer, game_id: str) -> int | None:
        async with websockets.connect(f"{live.ws_base}/ws/games/{game_id}") as ws:
            await ws.send("x" * 20_000)
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    await ws.recv()
        return None if closed.value.rcvd is None else closed.value.rcvd.code

    with LiveServer(settings) as live:
        created = create_game(live.base, [{"kind": "human"}, {"kind": "human"}])
        assert asyncio.run(run(live, created["game"]["id"])) == 1009
