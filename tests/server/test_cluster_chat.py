"""Chat at a table served by two ``alea serve`` processes (PostgreSQL and Redis).

A line said through one process reaches the readers of its channel at the other,
once; lines said at the same moment through both are all stored, each with its
own idx; and a spectator at the other process never hears the players' channel.
Skips, saying why, without PostgreSQL or Redis (tests/server/cluster_support.py).
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import httpx

from tests.server.cluster_support import service
from tests.server.support import Client, connect, create_game


def chats(client: Client) -> list[dict[str, Any]]:
    """Every chat line ``client`` has received so far (hello excluded)."""
    return [line for m in client.messages if m["type"] == "chat" for line in m["lines"]]


async def hear(client: Client, texts: set[str], timeout: float = 10.0) -> None:
    """Receive until ``client`` has heard every line in ``texts``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not texts <= {line["text"] for line in chats(client)}:
        await client.until(lambda m: m["type"] == "chat", deadline - loop.time())


async def settle(clients: list[Client], wait: float = 0.7) -> None:
    """Take in whatever else arrives within ``wait`` seconds (a duplicate, a leak)."""
    for client in clients:
        with contextlib.suppress(TimeoutError):
            await client.until(lambda m: False, wait)


def test_chat_reaches_the_other_process_once_and_only_its_channel(tmp_path: Path) -> None:
    with service(tmp_path, 2) as svc:
        a, b = svc.processes
        created = create_game(a.base, [{"kind": "human"}] * 2, name="Anna")
        game_id = created["game"]["id"]
        claimed = httpx.post(
            f"{b.base}/api/games/{game_id}/seats/1/claim", json={"name": "Bruno"}, timeout=30
        )
        assert claimed.status_code == 200, claimed.text
        tokens = [created["token"], claimed.json()["token"]]

        async def run() -> None:
            p0 = await connect(a.ws_base, game_id, tokens[0])
            p1 = await connect(b.ws_base, game_id, tokens[1])
            watch_a = await connect(a.ws_base, game_id, None)
            watch_b = await connect(b.ws_base, game_id, None)
            everyone = [p0, p1, watch_a, watch_b]
            # Both ways: each player hears the other's line, said at the other process.
            await p0.send({"type": "chat", "text": "from A"})
            await hear(p1, {"from A"})
            await p1.send({"type": "chat", "text": "from B"})
            await hear(p0, {"from B"})
            # At the same moment through both processes (players and spectators).
            await asyncio.gather(
                p0.send({"type": "chat", "text": "together A"}),
                p1.send({"type": "chat", "text": "together B"}),
                watch_a.send({"type": "chat", "text": "fan A", "name": "Tifo"}),
                watch_b.send({"type": "chat", "text": "fan B", "name": "Ultra"}),
            )
            said = {"from A", "from B", "together A", "together B", "fan A", "fan B"}
            fans = {"fan A", "fan B"}
            for player in (p0, p1):
                await hear(player, said)
            for watcher in (watch_a, watch_b):
                await hear(watcher, fans)
            await settle(everyone)
            for player in (p0, p1):
                texts = [line["text"] for line in chats(player)]
                assert sorted(texts) == sorted(said), texts  # each line once
                assert len({line["idx"] for line in chats(player)}) == len(said)
            for watcher in (watch_a, watch_b):
                heard = chats(watcher)
                # A spectator (at either process) never hears the players' channel.
                assert all(line["channel"] == "spectators" for line in heard), heard
                assert sorted(line["text"] for line in heard) == sorted(fans)
            for client in everyone:
                await client.close()

        asyncio.run(run())

        # Every line is stored, with distinct idx 0..5, and both processes' cached
        # lines (and the stored ones after a fresh read) say so alike.
        def listed(base: str, token: str | None) -> list[dict[str, Any]]:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            answer = httpx.get(f"{base}/api/games/{game_id}/chat", headers=headers, timeout=30)
            assert answer.status_code == 200, answer.text
            found: list[dict[str, Any]] = answer.json()
            return found

        at_a, at_b = listed(a.base, tokens[0]), listed(b.base, tokens[1])
        assert [x["idx"] for x in at_a] == list(range(6)), at_a
        assert at_a == at_b
        public = listed(b.base, None)
        assert {x["text"] for x in public} == {"fan A", "fan B"}
        c = svc.add()  # a third process reads them from the database
        assert listed(c.base, tokens[0]) == at_a


def test_a_seats_chat_rate_is_counted_once_across_processes(tmp_path: Path) -> None:
    """Two lines a minute for a seat: the third is refused at whichever process it reaches.

    Counted per process, a seat could say the rate once per process (N times as much
    behind a load balancer); counted in Redis it says it once.
    """
    with service(tmp_path, 2, "--chat-rate", "2/minute") as svc:
        a, b = svc.processes
        created = create_game(a.base, [{"kind": "human"}] * 2, name="Anna")
        game_id = created["game"]["id"]
        headers = {"Authorization": f"Bearer {created['token']}"}

        def say(base: str, text: str) -> httpx.Response:
            return httpx.post(
                f"{base}/api/games/{game_id}/chat", json={"text": text}, headers=headers, timeout=30
            )

        assert say(a.base, "one").status_code == 201
        assert say(b.base, "two").status_code == 201
        third = say(a.base, "three")
        assert third.status_code == 429, third.text
        assert third.json()["error"]["code"] == "chat_too_fast"
        assert int(third.headers["Retry-After"]) >= 1
        assert say(b.base, "four").status_code == 429
        # Another seat (a spectator here) has its own count.
        spectator = httpx.post(
            f"{b.base}/api/games/{game_id}/chat", json={"text": "hi", "name": "Tifo"}, timeout=30
        )
        assert spectator.status_code == 201, spectator.text
