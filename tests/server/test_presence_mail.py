"""Mail sent as one service: a seat at another process counts as at the table, and each
mail goes out from one process only (alea.server.presence, alea.server.notify).

The presence tests use the test Redis (skip without it, saying so); two
:class:`ClusterPresence` objects on one key prefix stand for two processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, cast

import httpx
import pytest

from alea.server import Settings
from alea.server.notify import Notifier, turn_began
from alea.server.presence import ClusterPresence
from tests.server.accounts_support import Browser, settings_for
from tests.server.cluster_support import redis_url
from tests.server.support import LiveServer, ShiftedClock, connect, database
from tests.server.test_dashboard_notify import Inbox, create, smtp  # noqa: F401 (fixture)
from tests.server.test_time_controls import BOT, DAY, HUMAN, TURN_SEAT, wait_for

TTL = 0.6


async def settled(presence: ClusterPresence) -> None:
    """Until the background writes of :meth:`ClusterPresence.seen` are done."""
    while presence._dirty or (presence._flushing is not None and not presence._flushing.done()):
        await asyncio.sleep(0.01)


def run(test: Callable[[ClusterPresence, ClusterPresence, Any], Awaitable[None]]) -> None:
    """Run ``test`` with processes A and B (both alive) on a fresh prefix, and clean up."""
    url = redis_url()

    async def main() -> None:
        from redis import asyncio as aioredis

        client: Any = aioredis.from_url(url)
        prefix = f"alea-t-{secrets.token_hex(4)}"
        a = ClusterPresence(client, prefix, "A", TTL)
        b = ClusterPresence(client, prefix, "B", TTL)
        try:
            await a.renew()
            await b.renew()
            await test(a, b, client)
        finally:
            keys = [k async for k in client.scan_iter(f"{prefix}:*")]
            if keys:
                await client.delete(*keys)
            await client.aclose()

    asyncio.run(main())


def test_a_seat_at_another_process_is_present_there_and_only_there() -> None:
    async def test(a: ClusterPresence, b: ClusterPresence, client: Any) -> None:
        a.seen("g1", frozenset({0, 2}))
        await settled(a)
        assert await b.present_elsewhere("g1", 0)
        assert await b.present_elsewhere("g1", 2)
        assert not await b.present_elsewhere("g1", 1)  # another seat
        assert not await b.present_elsewhere("g2", 0)  # another game
        assert not await a.present_elsewhere("g1", 0)  # its own sockets are not elsewhere
        # Seat 0's socket closes at A: only seat 2 is left there.
        a.seen("g1", frozenset({2}))
        await settled(a)
        assert not await b.present_elsewhere("g1", 0)
        assert await b.present_elsewhere("g1", 2)
        a.seen("g1", frozenset())
        await settled(a)
        assert not await b.present_elsewhere("g1", 2)
        assert await client.exists(a.key("g1")) == 0

    run(test)


def test_a_dead_processs_sockets_stop_counting_and_are_swept() -> None:
    async def test(a: ClusterPresence, b: ClusterPresence, client: Any) -> None:
        a.seen("g1", frozenset({1}))
        await settled(a)
        assert await b.present_elsewhere("g1", 1)
        # A dies: it renews no more, and its word expires.
        await asyncio.sleep(TTL + 0.3)
        await b.renew()
        assert not await b.present_elsewhere("g1", 1)
        assert await client.smembers(a.key("g1")) == set()  # B removed the dead member

    run(test)


def test_after_redis_lost_everything_the_next_renewal_tells_it_again() -> None:
    async def test(a: ClusterPresence, b: ClusterPresence, client: Any) -> None:
        a.seen("g1", frozenset({3}))
        a.seen("g2", frozenset({0}))
        await settled(a)
        keys = [k async for k in client.scan_iter(f"{a.prefix}:*")]
        await client.delete(*keys)  # what a Redis restart leaves (it keeps nothing on disk)
        assert not await b.present_elsewhere("g1", 3)
        await a.renew()
        await b.renew()
        assert await b.present_elsewhere("g1", 3)
        assert await b.present_elsewhere("g2", 0)

    run(test)


class Flaky:
    """The Redis client, except that its pipelines fail while :attr:`down`."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.down = False

    def pipeline(self, **options: Any) -> Any:
        if self.down:
            raise ConnectionError("Redis is away")
        return self.client.pipeline(**options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.client, name)


def test_a_change_redis_missed_is_told_at_the_next_renewal() -> None:
    async def test(a: ClusterPresence, b: ClusterPresence, client: Any) -> None:
        flaky = Flaky(client)
        a.redis = flaky
        a.seen("g1", frozenset({0, 1}))
        await settled(a)
        flaky.down = True
        a.seen("g1", frozenset({0}))  # seat 1's socket closes while Redis is away
        while a._flushing is not None and not a._flushing.done():
            await asyncio.sleep(0.01)
        assert await b.present_elsewhere("g1", 1)  # not told yet
        flaky.down = False
        await a.renew()  # the sweep, Redis back (it kept everything)
        await settled(a)
        assert not await b.present_elsewhere("g1", 1)
        assert await b.present_elsewhere("g1", 0)

    run(test)


def test_a_process_leaving_withdraws_its_sockets_at_once() -> None:
    async def test(a: ClusterPresence, b: ClusterPresence, client: Any) -> None:
        a.seen("g1", frozenset({0}))
        await settled(a)
        await a.stop()
        assert not await b.present_elsewhere("g1", 0)

    run(test)


def test_a_mail_is_claimed_once() -> None:
    async def test(a: ClusterPresence, b: ClusterPresence, client: Any) -> None:
        claims = await asyncio.gather(a.claim("turn:g1:7:1"), b.claim("turn:g1:7:1"))
        assert sorted(claims) == [False, True]
        assert await b.claim("turn:g1:9:1")  # the next turn is another mail

    run(test)


# ---------------------------------------------------------------- the notifier's choice


class Gate:
    """A stand-in for the cluster's presence: who is elsewhere, what is claimed."""

    def __init__(self, elsewhere: set[int], fails: bool = False) -> None:
        self.elsewhere = elsewhere
        self.claimed: set[str] = set()
        self.fails = fails

    async def present_elsewhere(self, game_id: str, seat: int) -> bool:
        if self.fails:
            raise ConnectionError("Redis is away")
        return seat in self.elsewhere

    async def claim(self, what: str) -> bool:
        if what in self.claimed:
            return False
        self.claimed.add(what)
        return True


class FakeGame:
    id = "g1"

    def __init__(self, actors: list[int | None]) -> None:
        self.actors = actors


def make_notifier() -> Notifier:
    """A notifier that would mail (its mailer and address are never reached here)."""
    mailer: Any = type("Mailer", (), {"enabled": True})()
    return Notifier(cast(Any, None), mailer, "http://x", lambda: b"k")


@pytest.fixture
def notifier() -> Notifier:
    return make_notifier()


def test_alone_every_seat_asked_is_mailed(notifier: Notifier) -> None:
    game: Any = FakeGame([])
    assert asyncio.run(notifier._shared(game, [0, 1, 2], "end:g1")) == [0, 1, 2]


def test_a_seat_at_another_process_gets_no_mail_and_each_mail_goes_once(
    notifier: Notifier,
) -> None:
    game: Any = FakeGame([])
    gate = Gate(elsewhere={1})
    notifier.gate = gate
    assert asyncio.run(notifier._shared(game, [0, 1, 2], "end:g1")) == [0, 2]
    # Another process, the same moment heard: the mails are taken.
    other = make_notifier()
    other.gate = gate
    assert asyncio.run(other._shared(game, [0, 1, 2], "end:g1")) == []


def test_with_redis_away_the_mail_goes_rather_than_none(notifier: Notifier) -> None:
    game: Any = FakeGame([])
    notifier.gate = Gate(elsewhere={0}, fails=True)
    assert asyncio.run(notifier._shared(game, [0], "turn:g1:0")) == [0]


def test_a_turn_is_named_by_where_it_began_whatever_came_after() -> None:
    game: Any = FakeGame([0, None, 1, None, None])
    assert turn_began(game, 0) == 3  # after seat 1's move; chance decides nothing
    game.actors += [0, None]  # seat 0 moved again within its turn (or a catch-up showed it)
    assert turn_began(game, 0) == 3
    assert turn_began(FakeGame([None, None]), 2) == 0


# ---------------------------------------------------------------- two processes, real mail


def test_no_mail_to_a_player_at_another_process_and_one_mail_when_away(
    tmp_path: Path,
    smtp: tuple[str, Inbox],  # noqa: F811 (the fixture imported above)
) -> None:
    """Processes A and B on one PostgreSQL and Redis, mail to a real SMTP server. Ada
    starts turn-based games against a bot at A, so A hears each "your turn".

    * At the table through B (her seat's socket there): A must not mail her.
    * Away from both while spectators at A and B make both follow the game: one mail
      for each turn, and one when the game is over (every process sees it end).
    """
    mail_url, inbox = smtp
    prefix = f"alea-t-{secrets.token_hex(4)}"
    clock = ShiftedClock()
    with database("postgresql", tmp_path) as db:

        def settings() -> Settings:
            return settings_for(
                db.url,
                clock=clock,
                deadline_poll=0.05,
                redis_url=redis_url(),
                redis_prefix=prefix,
                bot_delay=0.0,
                smtp_url=mail_url,
                mail_from="table@alea.test",
                public_url="http://public.alea.test",
                notify_delay=1.5,
                cluster_sweep=0.2,
            )

        with LiveServer(settings()) as a, LiveServer(settings()) as b:
            ada = Browser(a.base)
            try:
                assert ada.sign_up("Ada").status_code == 201
                on = ada.post(
                    "/api/account/notifications",
                    {"email": "ada@example.com", "notify_email": True},
                )
                assert on.status_code == 200

                async def at_the_table() -> None:
                    made = create(ada, [HUMAN, BOT], title="At B", time_control=TURN_SEAT)
                    client = await connect(b.ws_base, made["game"]["id"], made["token"])
                    try:
                        await asyncio.sleep(4.0)  # past the delay, with time to spare
                    finally:
                        await client.close()

                asyncio.run(at_the_table())
                assert [m["Subject"] for m in inbox.messages if "At B" in m["Subject"]] == []

                async def away() -> None:
                    made = create(ada, [HUMAN, BOT], title="Away", time_control=TURN_SEAT)
                    game_id, token = made["game"]["id"], made["token"]
                    # Spectators at both: each process follows the game as it goes on.
                    watchers = [await connect(p.ws_base, game_id, None) for p in (a, b)]
                    try:
                        away_mail = lambda: [m for m in inbox.messages if "Away" in m["Subject"]]  # noqa: E731
                        assert len(wait_for(away_mail)) == 1  # the first turn's, from A
                        # Ada plays her turn from a page (HTTP at A, no socket); the bot
                        # answers; her next turn is heard at A and at B alike.
                        auth = {"Authorization": f"Bearer {token}"}
                        async with httpx.AsyncClient(base_url=a.base, headers=auth) as http:
                            seen = (await http.get(f"/api/games/{game_id}/state")).json()
                            while seen["legal"]:  # her decisions until the turn passes
                                body = {"action": seen["legal"][0], "version": seen["version"]}
                                moved = await http.post(f"/api/games/{game_id}/actions", json=body)
                                assert moved.status_code == 200, moved.text
                                seen = moved.json()["state"]  # as her move left it
                        wait_for(lambda: len(away_mail()) >= 2)
                        # The day passes: a bot takes her seat and the bots end the game,
                        # which every process following it sees: one "game over" mail.
                        clock.advance(DAY + 60)
                        over = lambda: [m for m in away_mail() if "Game over" in m["Subject"]]  # noqa: E731
                        wait_for(over, 60)
                        await asyncio.sleep(2.0)  # a duplicate would come by now
                        turns = [m for m in away_mail() if "Tocca a te" in m["Subject"]]
                        assert len(turns) == 2  # one per turn, not one per process
                        assert len(over()) == 1
                    finally:
                        for watcher in watchers:
                            await watcher.close()

                asyncio.run(away())
            finally:
                ada.close()
                with contextlib.suppress(Exception):
                    import redis

                    client = redis.Redis.from_url(redis_url())
                    keys = list(client.scan_iter(f"{prefix}:*"))
                    if keys:
                        client.delete(*keys)
