"""Two ``alea serve`` processes on one PostgreSQL database and one Redis: one service.

Any process accepts any request for any game: seats claimed at one are seen at the
other, a move made through one reaches the sockets of the other, two actions sent
to the two at the same moment are applied in one order (each at most once, the
other refused as stale and both clients told the truth), and the lobby is one.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from alea.server import Settings, create_app
from alea.server.cluster import ClusterRefused
from tests.server.cluster_support import service, wait_for
from tests.server.support import Client, connect, create_game, human_game, play_turn


def test_sqlite_refuses_several_processes(tmp_path: Path) -> None:
    """Redis (several processes) on SQLite is refused with a message saying what to use;
    without Redis the embedded default starts as before (the other tests)."""
    cmd = [sys.executable, "-m", "alea", "serve", "--data-dir", str(tmp_path)]
    done = subprocess.run(
        [*cmd, "--redis-url", "redis://127.0.0.1:6379/0", "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "PostgreSQL" in done.stderr and "SQLite serves one process" in done.stderr
    with pytest.raises(ClusterRefused):
        create_app(
            Settings(
                database_url=f"sqlite:///{tmp_path / 'x.sqlite'}",
                redis_url="redis://127.0.0.1:6379/0",
            )
        )


async def claim_together(bases: list[str], game_id: str, seats: list[int]) -> list[httpx.Response]:
    async with httpx.AsyncClient(timeout=30) as http:
        return await asyncio.gather(
            *(
                http.post(
                    f"{base}/api/games/{game_id}/seats/{seat}/claim", json={"name": f"S{seat}"}
                )
                for base, seat in zip(bases, seats, strict=True)
            )
        )


def test_seats_moves_and_lobby_are_one_service(tmp_path: Path) -> None:
    rng = random.Random(15)
    with service(tmp_path, 2, "--bot-delay", "0.05") as svc:
        a, b = svc.processes
        created = create_game(a.base, [{"kind": "human"}] * 4, name="S0")
        game_id = created["game"]["id"]
        # Three seats claimed at the same moment, through both processes: every claim
        # lands, in one order, and the last one to land starts the game.
        answers = asyncio.run(claim_together([b.base, a.base, b.base], game_id, [1, 2, 3]))
        assert [r.status_code for r in answers] == [200, 200, 200], [r.text for r in answers]
        tokens = [created["token"], *(r.json()["token"] for r in answers)]
        for proc in (a, b):
            info = httpx.get(f"{proc.base}/api/games/{game_id}").json()
            assert info["status"] == "active"
            assert all(s["claimed"] for s in info["seats"]), info
        # The lobby is one: B lists the game A created and B never touched by id.
        second = create_game(a.base, [{"kind": "human"}] * 2, name="lobby")
        listed = [g["id"] for g in httpx.get(f"{b.base}/api/games").json()]
        assert game_id in listed and second["game"]["id"] in listed
        # The same seat claimed at both at once goes to one of them.
        twice = asyncio.run(claim_together([a.base, b.base], second["game"]["id"], [1, 1]))
        assert sorted(r.status_code for r in twice) == [200, 409]
        refused = next(r for r in twice if r.status_code == 409).json()
        assert refused["error"]["code"] == "seat_taken"

        asyncio.run(play_across(a.ws_base, b.ws_base, game_id, tokens, rng))
        health = [svc.health(p)["cluster"] for p in (a, b)]
        assert all(h["subscribed"] for h in health), health
        assert all(h["heard"] > 0 and h["announced"] > 0 for h in health), health
        # Moves reached the other process in the announcement itself (no read of the log).
        assert sum(h["appended"] for h in health) > 0, health


async def play_across(
    ws_a: str, ws_b: str, game_id: str, tokens: list[str], rng: random.Random
) -> None:
    # Seats alternate between the processes; a spectator watches at each.
    clients = [
        await connect(ws_a if i % 2 == 0 else ws_b, game_id, t) for i, t in enumerate(tokens)
    ]
    watchers = [await connect(ws, game_id, None) for ws in (ws_a, ws_b)]
    for _ in range(30):
        _, ack = await play_turn(clients, rng)
        for w in watchers:
            await w.until_version(ack["version"])
    # Both processes tell the public the same log, and each seat's log ends the same.
    assert watchers[0].log == watchers[1].log
    assert len({c.version for c in (*clients, *watchers)}) == 1
    # A client that missed messages comes back at the other process with what it had:
    # it is sent the rest of the stored log from its version on, nothing guessed.
    old = clients[0]
    known = old.log[: len(old.log) // 2]
    back = await connect(ws_b, game_id, tokens[0], known=known)
    first = next(m for m in back.messages if m["type"] == "update")
    assert first["log_start"] == len(known)
    assert back.log == old.log
    for c in (*clients, *watchers, back):
        await c.close()


async def race(c_a: Client, c_b: Client, actions: tuple[str, str]) -> list[dict[str, Any]]:
    """Send the two actions at the same version through the two sockets at once."""
    version = c_a.version
    await asyncio.gather(
        c_a.send({"type": "action", "action": actions[0], "version": version, "id": "a"}),
        c_b.send({"type": "action", "action": actions[1], "version": version, "id": "b"}),
    )
    return [
        await c.until(lambda m: m["type"] in ("ack", "error") and m.get("id") in ("a", "b"))
        for c in (c_a, c_b)
    ]


async def race_rounds(svc_bases: tuple[str, str, str], tokens: list[str], game_id: str) -> None:
    _, ws_a, ws_b = svc_bases
    rng = random.Random(7)
    c_a = await connect(ws_a, game_id, tokens[0])
    c_b = await connect(ws_b, game_id, tokens[0])  # the same seat, at the other process
    other = await connect(ws_a, game_id, tokens[1])
    rounds = 0
    while rounds < 8 and c_a.status == "active":
        if not c_a.legal:
            _, ack = await play_turn([other], rng)
            await c_a.until_version(ack["version"])
            await c_b.until_version(ack["version"])
            continue
        await c_b.until_version(c_a.version)
        legal = c_a.legal
        pair = tuple(rng.sample(legal, 2)) if len(legal) > 1 else (legal[0], legal[0])
        replies = await race(c_a, c_b, pair)  # type: ignore[arg-type]
        acks = [r for r in replies if r["type"] == "ack"]
        errors = [r for r in replies if r["type"] == "error"]
        assert len(acks) == 1 and len(errors) == 1, replies
        assert errors[0]["code"] == "stale_version"
        ack = acks[0]
        # Both sockets hear the truth: the same new version and the same log.
        for c in (c_a, c_b, other):
            await c.until_version(ack["version"])
        assert c_a.log == c_b.log
        # Stored once, where the ack says (the log of each process is read from the store).
        assert c_a.log[ack["index"]][0] == ack["action"]
        assert len(c_a.log) == c_b.version == ack["version"] or c_a.status == "finished"
        rounds += 1
    assert rounds == 8
    for c in (c_a, c_b, other):
        await c.close()


def test_two_actions_at_two_processes_at_once(tmp_path: Path) -> None:
    with service(tmp_path, 2) as svc:
        a, b = svc.processes
        created = create_game(a.base, [{"kind": "human"}] * 2, name="S0")
        game_id = created["game"]["id"]
        claimed = httpx.post(f"{b.base}/api/games/{game_id}/seats/1/claim", json={"name": "S1"})
        tokens = [created["token"], claimed.json()["token"]]
        asyncio.run(race_rounds((a.base, a.ws_base, b.ws_base), tokens, game_id))


async def take_over_twice(ws_a: str, ws_b: str, game_id: str, tokens: list[str]) -> list[Any]:
    """Seats 1 and 2, at two processes, hand the idle seat 0 to a bot at the same moment."""
    first = await connect(ws_a, game_id, tokens[1])
    second = await connect(ws_b, game_id, tokens[2])
    await asyncio.sleep(1.5)  # seat 0 has been idle past --idle-timeout at both
    message = {"type": "takeover", "seat": 0, "level": "easy"}
    await asyncio.gather(first.send(message), second.send(message))
    errors: list[Any] = []
    for client in (first, second):
        with contextlib.suppress(TimeoutError):
            errors.append(await client.until(lambda m: m["type"] == "error", timeout=3))
    for client in (first, second):
        await client.close()
    return errors


def test_an_idle_seat_is_taken_over_once(tmp_path: Path) -> None:
    with service(tmp_path, 2, "--idle-timeout", "0.5", "--bot-delay", "0.05") as svc:
        a, b = svc.processes
        created = create_game(a.base, [{"kind": "human"}] * 3, name="S0")
        game_id = created["game"]["id"]
        tokens = [created["token"]]
        for seat, proc in ((1, b), (2, a)):
            claimed = httpx.post(f"{proc.base}/api/games/{game_id}/seats/{seat}/claim", json={})
            tokens.append(claimed.json()["token"])
        assert httpx.get(f"{b.base}/api/games/{game_id}").json()["status"] == "active"
        errors = asyncio.run(take_over_twice(a.ws_base, b.ws_base, game_id, tokens))
        # One takeover is stored; the other, decided again on the caught-up table, is refused.
        assert len(errors) == 1, errors
        assert errors[0]["code"] in ("not_human_seat", "not_idle"), errors
        for proc in (a, b):
            seat = httpx.get(f"{proc.base}/api/games/{game_id}").json()["seats"][0]
            assert seat["kind"] == "bot" and seat["replaced"], seat


def test_a_copy_nobody_watches_is_read_from_the_log_when_wanted(tmp_path: Path) -> None:
    """A process that loaded a game (an HTTP request) but holds none of its sockets does
    not apply the moves announced for it, one by one: it marks its copy behind, drops it
    at its next sweep, and reads the log when the game is wanted again: an HTTP answer
    and a socket opened there show the game as it stands, and the socket follows it
    move by move from then on."""
    rng = random.Random(16)
    with service(tmp_path, 2, "--unwatched-ttl", "1") as svc:
        a, b = svc.processes
        game_id, tokens = human_game(a.base, 2, claim_at=b.base)

        async def play() -> None:
            clients = [await connect(a.ws_base, game_id, t) for t in tokens]
            for _ in range(8):
                _, ack = await play_turn(clients, rng)
            quiet = svc.health(b)["cluster"]
            assert quiet["skipped"] > 0 and quiet["appended"] == 0, quiet
            assert wait_for(lambda: svc.health(b)["cluster"]["dropped"] >= 1, 15)
            # Wanted again at B: over HTTP, and by a socket, as it stands now.
            state = httpx.get(f"{b.base}/api/games/{game_id}").json()
            assert state["version"] == ack["version"]
            watcher = await connect(b.ws_base, game_id, None)
            await watcher.until_version(ack["version"])
            for _ in range(4):
                _, ack = await play_turn(clients, rng)
                await watcher.until_version(ack["version"])
            at_a = await connect(a.ws_base, game_id, None)  # the public log, at the mover's
            await at_a.until_version(ack["version"])
            assert watcher.log == at_a.log
            assert svc.health(b)["cluster"]["appended"] > 0  # followed while watched
            for c in (*clients, watcher, at_a):
                await c.close()

        asyncio.run(play())
