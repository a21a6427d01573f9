"""Fault campaign: 3 ``alea serve`` processes behind nginx, games in play, faults on a schedule.

The deployment of docs/deploy.md (3 processes, PostgreSQL, Redis, nginx) under the
load of ``server_load.py``'s scripted clients, whose seats reconnect through nginx
when their socket drops and resume by version (``hello`` with ``since``), and retry
a move the server could not store. Meanwhile, at random moments:

* ``--kills N``: ``kill -9`` of a random running process (never the last one), started
  again on its port ``--restart-after`` seconds later, as systemd's ``Restart=always``
  would (tried again until it starts: it cannot while PostgreSQL is down);
* ``--redis-restart``: Redis stopped (``SHUTDOWN NOSAVE``) and started again after
  ``--down`` seconds: every lease, counter and subscription is gone;
* ``--postgres-restart``: PostgreSQL stopped (``pg_ctl stop -m fast``) and started
  again after ``--down`` seconds.

PostgreSQL and Redis are private instances of the same binaries (``private_services.py``),
never the machine's shared ones. nginx has docs/deploy.md's configuration. At the end
every acknowledged action is looked for in the stored log. It prints acknowledged
actions, lost ones, reconnects, stalls (the longest time a game's version did not
move while it was played) judged by the fault they overlap, the games that did not
move after the last fault, errors by kind, and processes that exited by themselves.

    python bench/fault_campaign.py --games 50 --think 1.0 --duration 120 --kills 20 \
        --redis-restart --postgres-restart

Only loopback traffic; bounded by ``--duration``, the restarts under way, ``--after``
and a short drain.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import random
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets

from private_services import PrivatePostgres, PrivateRedis, fixed_port
from server_load import GameLog, Player, Stats, create_games, verify
from serving import add_load_options, finish_clients, start_alea_server, start_nginx

#: A game whose version did not move for longer than this, while played, stalled.
STALL_LIMIT = 5.0
#: Starts of a process tried before the campaign gives up.
START_TRIES = 30
#: nginx's parameters of each upstream: those of docs/deploy.md. No failure accounting:
#: with ``max_fails=1`` an upstream that once refused a connection stays "failed" until a
#: request to it *ends*, and a WebSocket lasts for minutes, so after a kill or two every
#: process took one new socket per ``fail_timeout`` and nginx answered 502 "no live
#: upstreams" to the rest (measured: 5,686 such 502s and 46 of 50 games stuck). A refused
#: connection is still passed to the next process at once (``proxy_next_upstream error``).
UPSTREAM = "max_fails=0"
#: Errors after which a client tries the same move again (nothing changed meanwhile).
RETRY = {"storage_error", "database_unavailable", "unavailable"}


@dataclass
class Campaign:
    """What the clients saw, all games together."""

    #: Game id -> (time of the last version change, its version, the longest gap so far).
    progress: dict[str, list[float]] = field(default_factory=dict)
    measuring: bool = False
    drops: int = 0
    reconnects: int = 0
    reconnect_times: list[float] = field(default_factory=list)
    client_errors: collections.Counter[str] = field(default_factory=collections.Counter)
    retries: int = 0
    refused_hellos: int = 0
    #: Kills put off until a restart was done (only one process was running at their moment).
    delayed: int = 0
    #: Faults done: (kind, start, end) in time.perf_counter() seconds.
    faults: list[tuple[str, float, float]] = field(default_factory=list)
    #: Every gap over the stall limit: (seconds, when it began, game id).
    stalls: list[tuple[float, float, str]] = field(default_factory=list)

    def advanced(self, game_id: str, version: int) -> None:
        now = time.perf_counter()
        seen = self.progress.setdefault(game_id, [now, version, 0.0])
        if version > seen[1]:
            if self.measuring:
                seen[2] = max(seen[2], now - seen[0])
                if now - seen[0] > STALL_LIMIT:
                    self.stalls.append((now - seen[0], seen[0], game_id))
            seen[0], seen[1] = now, version


class ReconnectingPlayer(Player):
    """A seat that comes back through nginx whenever its socket drops, resuming by version."""

    def __init__(self, campaign: Campaign, *args: Any) -> None:
        super().__init__(*args)
        self.campaign = campaign
        self.dropped_at: float | None = None
        self.legal: list[str] = []
        self.version = 0

    async def run(self) -> None:
        backoff = 0.2
        while True:
            try:
                async with websockets.connect(
                    self.url, max_size=2**22, ping_interval=None, open_timeout=10
                ) as ws:
                    hello: dict[str, Any] = {"type": "hello", "token": self.token}
                    if self.log_len:
                        hello["since"] = self.log_len
                    await ws.send(json.dumps(hello))
                    joined = False
                    async for raw in ws:
                        msg = json.loads(raw)
                        if not joined and msg["type"] == "error":
                            # The hello itself was refused (the database restarting, say):
                            # come back and say hello again, as a browser would.
                            self.campaign.refused_hellos += 1
                            break
                        if msg["type"] == "welcome":
                            joined = True
                            backoff = 0.2
                            if self.dropped_at is not None:
                                self.campaign.reconnects += 1
                                self.campaign.reconnect_times.append(
                                    time.perf_counter() - self.dropped_at
                                )
                                self.dropped_at = None
                        if self.handle(ws, msg):
                            return
            except (OSError, websockets.WebSocketException, TimeoutError) as err:
                self.campaign.client_errors[_kind(err)] += 1
            if self.stop.is_set():
                return
            if self.dropped_at is None:
                self.dropped_at = time.perf_counter()
                self.campaign.drops += 1
            # The answer to a move in flight is lost with the socket: the log will tell.
            self.pending_version, self.unacked = None, 0
            if self.mover is not None:
                self.mover.cancel()
            await asyncio.sleep(backoff * random.uniform(0.5, 1.5))
            backoff = min(backoff * 2, 2.0)

    def handle(self, ws: Any, msg: dict[str, Any]) -> bool:
        if msg["type"] == "update":
            self.legal, self.version = msg["legal"], msg["version"]
            self.campaign.advanced(self.game.game_id, msg["version"])
        done = super().handle(ws, msg)
        if msg["type"] == "error" and msg["code"] in RETRY and self.legal:
            # The move was not made and no update will follow: choose again shortly.
            self.campaign.retries += 1
            self.mover = asyncio.create_task(self.move(ws, self.legal, self.version))
        return done

    async def move(self, ws: Any, legal: list[str], version: int) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            await super().move(ws, legal, version)


def _kind(err: BaseException) -> str:
    status = getattr(getattr(err, "response", None), "status_code", None)
    return f"{type(err).__name__}" + (f" {status}" if status else "")


class Deployment:
    """The processes (each on a fixed port, so nginx finds a restarted one), PG and Redis."""

    def __init__(self, tmp: str, pg: PrivatePostgres, redis: PrivateRedis) -> None:
        self.tmp = tmp
        self.pg = pg
        self.redis = redis
        self.prefix = f"faults-{secrets.token_hex(4)}"
        self.ports = [fixed_port() for _ in range(3)]
        self.procs: list[Any] = [None] * 3
        self.failed_starts = 0
        #: What each process printed (kept growing by the output's reader).
        self.output: list[list[str]] = [[], [], []]
        #: Processes that exited though nobody killed them.
        self.died = 0

    def start(self, i: int) -> None:
        """Start process ``i`` on its port, trying again a second after a failure as systemd's
        ``Restart=always`` would (it cannot start while PostgreSQL is down); a failed start's
        output is shown."""
        extra = ("--redis-url", self.redis.url, "--redis-prefix", self.prefix)
        for attempt in range(START_TRIES):
            said: list[str] = []
            try:
                proc, _ = start_alea_server(
                    *("--database-url", self.pg.url, "--data-dir", self.tmp),
                    *("--log-level", "warning", "--create-rate", "", *extra),
                    *("--port", str(self.ports[i])),
                    timeout=90,  # a loaded machine, every socket of a killed one reconnecting
                    lines=said,
                )
            except SystemExit:
                self.failed_starts += 1
                last = said[-3:] if attempt else said[-8:]
                print(f"process {i} did not start (try {attempt + 1}):", *last, sep="  ")
                time.sleep(1)
                continue
            self.procs[i] = proc
            self.output[i] = said
            return
        raise RuntimeError(f"process {i} did not start in {START_TRIES} tries")

    def running(self) -> list[int]:
        """The processes up (not killed, or started again)."""
        return [i for i, p in enumerate(self.procs) if p is not None and p.poll() is None]

    def check(self) -> None:
        """Count and show the processes that exited by themselves (a crash, not a kill)."""
        for i, proc in enumerate(self.procs):
            if proc is not None and proc.poll() is not None and not getattr(proc, "killed", 0):
                proc.killed = True  # shown once
                self.died += 1
                print(f"process {i} exited by itself ({proc.returncode}):")
                print(*self.output[i][-25:], sep="  ")

    def kill(self, i: int) -> None:
        self.check()
        self.procs[i].killed = True
        self.procs[i].kill()
        self.procs[i].wait(timeout=30)

    def stop(self) -> None:
        for proc in self.procs:
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGINT)
        for proc in self.procs:
            if proc is None:
                continue
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()


def schedule(args: argparse.Namespace, rng: random.Random) -> list[tuple[float, str]]:
    """The faults, as (seconds after the start of the measured run, kind), in order."""
    span = max(args.duration - 15.0, 1.0)
    faults = [(rng.uniform(0, span), "kill") for _ in range(args.kills)]
    if args.redis_restart:
        faults.append((span * 0.35, "redis"))
    if args.postgres_restart:
        faults.append((span * 0.7, "postgres"))
    return sorted(faults)


async def run_faults(
    args: argparse.Namespace, dep: Deployment, campaign: Campaign, rng: random.Random
) -> None:
    """Do the faults of :func:`schedule`. A killed process is started again in the
    background (it takes seconds on a loaded machine) while the schedule goes on; a kill
    picks one of the processes running, never the last one (it waits for a restart)."""
    t0 = time.perf_counter()
    restarts: list[asyncio.Task[None]] = []

    async def restart(victim: int, killed: float) -> None:
        await asyncio.sleep(args.restart_after)
        await asyncio.to_thread(dep.start, victim)
        campaign.faults.append(("kill", killed, time.perf_counter()))
        print(
            f"  {killed - t0:6.1f} s  kill of process {victim}, back in "
            f"{time.perf_counter() - killed:.1f} s"
        )

    for at, kind in schedule(args, rng):
        await asyncio.sleep(max(0.0, t0 + at - time.perf_counter()))
        dep.check()
        start = time.perf_counter()
        if kind == "kill":
            if len(dep.running()) < 2:  # never the last one: wait for a restart
                campaign.delayed += 1
                while len(dep.running()) < 2:
                    await asyncio.sleep(0.2)
                start = time.perf_counter()
            victim = rng.choice(dep.running())
            dep.kill(victim)
            restarts.append(asyncio.create_task(restart(victim, start)))
            continue
        if kind == "redis":
            await asyncio.to_thread(dep.redis.stop)
            await asyncio.sleep(args.down)
            await asyncio.to_thread(dep.redis.start)
        else:
            await asyncio.to_thread(dep.pg.stop)
            await asyncio.sleep(args.down)
            await asyncio.to_thread(dep.pg.start)
        campaign.faults.append((kind, start, time.perf_counter()))
        print(f"  {start - t0:6.1f} s  {kind} down and up in {time.perf_counter() - start:.1f} s")
    await asyncio.gather(*restarts)


async def drive(
    args: argparse.Namespace, base: str, dep: Deployment
) -> tuple[Stats, list[GameLog], Campaign, float]:
    created = await create_games(base, args.games, 4)
    print(f"created {len(created)} games of 4 through nginx")
    stats, campaign, stop = Stats(), Campaign(), asyncio.Event()
    rng = random.Random(args.seed)
    logs = [GameLog(game_id) for game_id, _ in created]
    ws_base = base.replace("http://", "ws://")
    players = [
        ReconnectingPlayer(
            campaign, ws_base, log, token, args.think, random.Random(rng.random()), stats, stop
        )
        for log, (_, tokens) in zip(logs, created, strict=True)
        for token in tokens
    ]
    tasks = [asyncio.create_task(p.run()) for p in players]
    await asyncio.sleep(args.warmup)
    campaign.measuring = True
    faults = asyncio.create_task(run_faults(args, dep, campaign, rng))
    await asyncio.sleep(args.duration)
    await faults  # a restart under way finishes first
    await asyncio.sleep(args.after)  # then every game must move again
    dep.check()
    ended = time.perf_counter()
    campaign.measuring = False
    stop.set()
    await finish_clients(tasks, stats.errors, timeout=15)
    return stats, logs, campaign, ended


def report(stats: Stats, logs: list[GameLog], campaign: Campaign, ended: float, url: str) -> bool:
    checked, lost, phantom = verify(url, logs)
    last_fault = max((end for _, _, end in campaign.faults), default=0.0)
    silent = 0
    gaps = list(campaign.stalls)
    for game in logs:
        seen = campaign.progress.get(game.game_id)
        if seen is None:
            silent += 1
            continue
        if not game.finished:
            silent += seen[0] < last_fault
            if ended - seen[0] > STALL_LIMIT:
                gaps.append((ended - seen[0], seen[0], game.game_id))

    # The targets: after a Redis restart no game waits more than 5 s; while
    # PostgreSQL is down nothing can be stored, so a game waits as long as the outage (its
    # length + 5 s at most); after a kill, every game goes on (how long is reported).
    def window(kind: str) -> list[tuple[float, float]]:
        return [(start, end) for k, start, end in campaign.faults if k == kind]

    def overlaps(gap: tuple[float, float, str], spans: list[tuple[float, float]]) -> bool:
        return any(gap[1] <= end and gap[1] + gap[0] >= start for start, end in spans)

    down = max((end - start for start, end in window("postgres")), default=0.0)
    near_redis = [g for g in gaps if overlaps(g, window("redis"))]
    near_pg = [g for g in gaps if g not in near_redis and overlaps(g, window("postgres"))]
    rest = [g for g in gaps if g not in near_redis and g not in near_pg]
    stalled = len({g[2] for g in near_redis}) + len(
        {g[2] for g in near_pg if g[0] > down + STALL_LIMIT}
    )
    kinds = collections.Counter(e.split(":", 1)[0] for e in stats.errors)
    kinds.update({f"client {k}": n for k, n in campaign.client_errors.items()})
    faults = collections.Counter(kind for kind, _, _ in campaign.faults)
    print(f"faults             {dict(faults)}, kills put off for a restart {campaign.delayed}")
    print(f"actions sent       {stats.sent:8d}   acknowledged {stats.acked}")
    print(
        f"stored-log check   {checked} acknowledged actions checked, {lost} lost or misplaced, "
        f"{phantom} stored whose answer was lost with a socket"
    )
    times = sorted(campaign.reconnect_times)
    print(
        f"reconnects         {campaign.reconnects} of {campaign.drops} dropped sockets"
        + (f", median {times[len(times) // 2]:.2f} s, max {times[-1]:.2f} s" if times else "")
    )
    print(
        f"retried moves      {campaign.retries} (not stored, the client chose again); "
        f"hellos refused {campaign.refused_hellos}"
    )

    def longest(found: list[tuple[float, float, str]]) -> str:
        games = len({g[2] for g in found})
        return f"{games} games over {STALL_LIMIT:.0f} s, longest {max(g[0] for g in found):.2f} s"

    print(f"stalls by Redis    {longest(near_redis) if near_redis else 'none over 5 s'}")
    if window("postgres"):
        print(
            f"  by PostgreSQL    {longest(near_pg) if near_pg else 'none over 5 s'} "
            f"(down {down:.1f} s; target: at most the outage + {STALL_LIMIT:.0f} s)"
        )
    print(f"  after kills      {longest(rest) if rest else 'none over 5 s'} (no target)")
    print(f"                   {silent} games did not move after the last fault")
    for gap, began, game_id in sorted(gaps, reverse=True)[:5]:
        near = [
            f"{kind} {start - began:+.1f} s"
            for kind, start, end in campaign.faults
            if start - 10 <= began <= end + 10
        ]
        print(f"  stall {gap:5.2f} s of game {game_id}; faults near its start: {near}")
    print(f"games finished     {sum(g.finished for g in logs)} of {len(logs)}")
    print(f"errors by kind     {dict(kinds.most_common())}")
    ok = lost == 0 and stalled == 0 and silent == 0
    target = "(target: 0 lost, Redis stalls <= 5 s, PostgreSQL's <= outage + 5 s, all go on)"
    print("RESULT", "PASS" if ok else "FAIL", target)
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_load_options(
        parser,
        games=100,
        duration=120.0,
        duration_help="seconds of faults",
        think=0.5,
        think_help="mean think time, seconds",
    )
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--restart-after", type=float, default=1.0)
    parser.add_argument("--redis-restart", action="store_true")
    parser.add_argument("--postgres-restart", action="store_true")
    parser.add_argument(
        "--down", type=float, default=3.0, help="seconds Redis or PostgreSQL stays down"
    )
    parser.add_argument(
        "--after", type=float, default=10.0, help="seconds of play after the last fault"
    )
    parser.add_argument(
        "--upstream", default=UPSTREAM, help="nginx's parameters of each server line"
    )
    args = parser.parse_args()
    if args.duration > 600 or args.games > 1000 or args.kills > 100:
        raise SystemExit("bounded campaign: at most 600 s, 1000 games and 100 kills")
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        pg = PrivatePostgres()
        stack.callback(pg.close)
        pg.start()
        redis = PrivateRedis()
        stack.callback(redis.close)
        redis.start()
        dep = Deployment(tmp, pg, redis)
        stack.callback(dep.stop)
        for i in range(3):
            dep.start(i)
        lb, base = start_nginx(tmp, [f"http://127.0.0.1:{p}" for p in dep.ports], args.upstream)
        stack.callback(lb.wait, timeout=10)
        stack.callback(lb.terminate)
        print(f"nginx at {base} in front of 3 processes ({args.upstream}); private PG and Redis")
        stats, logs, campaign, ended = asyncio.run(drive(args, base, dep))
        print(f"games {args.games} x 4, think {args.think} s, {args.duration:.0f} s of faults")
        ok = report(stats, logs, campaign, ended, pg.url) and dep.died == 0
        print(f"processes that exited by themselves: {dep.died}; failed starts {dep.failed_starts}")
        errors = Path(tmp, "error.log")
        if errors.exists():
            said = collections.Counter(
                re.sub(r"^\S+: \*\d+ ", "", line.split("] ", 1)[-1].split(", client:")[0])
                for line in errors.read_text().splitlines()
            )
            print("nginx error.log:", *(f"{n:6d}  {what}" for what, n in said.items()), sep="\n  ")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
