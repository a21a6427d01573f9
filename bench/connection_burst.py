"""A burst of WebSocket connections: every seat of N games connecting in the same moment.

Starts the deployment of ``server_load.py`` (by default 2 processes on PostgreSQL +
Redis behind nginx), creates N 4-seat games, then opens every seat's socket at once
(or at ``--rate`` per second, the way players arrive) and sends its ``hello``. For
each socket it times the opening handshake and the first ``update`` after the hello;
a socket the server refuses at admission (the ``busy`` error, close code 1013)
retries after the ``retry_after`` it is told, as the browser client does. It prints
how many sockets were open and had their view, how many were refused (and retried)
and how many **timed out** (the failure the issue found: 436 of 4,000 clients at 1,000 games), the
latencies, the largest stall of the measuring client's own event loop (when it is
large the client, not the server, was the bottleneck) and the servers' CPU.

    python bench/connection_burst.py --games 400 --redis-url redis://127.0.0.1:6379/0 \
        --database-url postgresql+psycopg://postgres@127.0.0.1:5432/test

Target: every socket open with its view (0 timed out), none lost after a refusal.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import secrets
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets
from websockets.exceptions import InvalidStatus

from private_db import private_database
from server_load import cpu_seconds, create_games, percentile, start_server
from serving import start_nginx, stop_all


@dataclass
class Burst:
    handshakes: list[float] = field(default_factory=list)
    first_views: list[float] = field(default_factory=list)
    refused: int = 0
    timed_out: int = 0
    failed: list[str] = field(default_factory=list)
    lag: float = 0.0


async def one_seat(
    url: str, token: str, burst: Burst, open_timeout: float, hold: asyncio.Event
) -> None:
    """Open, hello, wait for the first view; retry when refused (after its Retry-After)."""
    start = time.perf_counter()
    for _ in range(20):
        try:
            t0 = time.perf_counter()
            async with websockets.connect(
                url, open_timeout=open_timeout, ping_interval=None, max_size=2**22
            ) as ws:
                burst.handshakes.append(time.perf_counter() - t0)
                await ws.send(json.dumps({"type": "hello", "token": token}))
                retry = 0.0
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg["type"] == "update":
                        burst.first_views.append(time.perf_counter() - start)
                        break
                    if msg["type"] == "error" and msg["code"] == "busy":
                        retry = float(msg["retry_after"])
                        break
                if not retry:
                    await hold.wait()
                    return
            burst.refused += 1
            await asyncio.sleep(retry)
        except InvalidStatus as err:
            if err.response.status_code != 503:
                burst.failed.append(f"HTTP {err.response.status_code}")
                return
            burst.refused += 1
            await asyncio.sleep(float(err.response.headers.get("Retry-After", "1")))
        except TimeoutError:
            burst.timed_out += 1
            return
        except Exception as err:
            burst.failed.append(repr(err)[:120])
            return
    burst.failed.append("refused 20 times")


def nginx_workers_cpu(master: int) -> float:
    """CPU of nginx's workers (the children of its master process)."""
    total = 0.0
    for child in Path(f"/proc/{master}/task/{master}/children").read_text().split():
        total += cpu_seconds(int(child))
    return total


async def watch_lag(burst: Burst, stop: asyncio.Event) -> None:
    """The measuring client's own event-loop stalls (its share of the burst's CPU)."""
    while not stop.is_set():
        t0 = time.perf_counter()
        await asyncio.sleep(0.01)
        burst.lag = max(burst.lag, time.perf_counter() - t0 - 0.01)


async def run(args: argparse.Namespace, base: str, pids: tuple[int, ...], lb: int) -> Burst:
    created = await create_games(base, args.games, 4)
    ws_base = base.replace("http://", "ws://")
    burst, hold, stop = Burst(), asyncio.Event(), asyncio.Event()
    lag = asyncio.create_task(watch_lag(burst, stop))
    cpu0, t0 = sum(cpu_seconds(p) for p in pids), time.perf_counter()
    own0, lb0 = time.process_time(), cpu_seconds(lb) + nginx_workers_cpu(lb)
    tasks = []
    for game_id, tokens in created:
        for token in tokens:
            url = f"{ws_base}/ws/games/{game_id}"
            tasks.append(asyncio.create_task(one_seat(url, token, burst, args.open_timeout, hold)))
            if args.rate:
                await asyncio.sleep(1 / args.rate)
    deadline = time.perf_counter() + args.open_timeout * 4 + 60
    while time.perf_counter() < deadline:
        settled = len(burst.first_views) + burst.timed_out + len(burst.failed)
        if settled >= len(tasks):
            break
        await asyncio.sleep(0.1)
    elapsed = time.perf_counter() - t0
    used = sum(cpu_seconds(p) for p in pids) - cpu0
    nginx = cpu_seconds(lb) + nginx_workers_cpu(lb) - lb0
    print(
        f"burst over in {elapsed:.1f} s; servers' CPU {used:.1f} s "
        f"({used / max(len(burst.first_views), 1) * 1000:.2f} ms per socket opened), "
        f"nginx {nginx:.1f} s, this client {time.process_time() - own0:.1f} s"
    )
    hold.set()
    stop.set()
    await asyncio.gather(*tasks, lag, return_exceptions=True)
    return burst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--rate", type=float, default=0, help="sockets opened per second (0: all)")
    parser.add_argument("--open-timeout", type=float, default=10.0, help="the client's, seconds")
    parser.add_argument("--database-url", required=True, help="PostgreSQL (a private db beside)")
    parser.add_argument("--redis-url", required=True)
    parser.add_argument("--profile", default=None, help="cProfile output of the first process")
    args = parser.parse_args()
    if args.games > 2000 or not 1 <= args.processes <= 8:
        raise SystemExit("bounded benchmark: at most 2000 games and 8 processes")
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    print(f"load average before: {Path('/proc/loadavg').read_text().strip()}")
    with tempfile.TemporaryDirectory() as tmp, private_database(args.database_url) as url:
        prefix = f"bench-{secrets.token_hex(4)}"
        extra = ("--redis-url", args.redis_url, "--redis-prefix", prefix)
        procs: list[Any] = []
        lb: Any = None
        try:
            for i in range(args.processes):
                profile = args.profile if i == 0 else None
                procs.append(start_server(url, Path(tmp), "FULL", *extra, profile=profile))
            lb, base = start_nginx(tmp, [b for _, b in procs])
            burst = asyncio.run(run(args, base, tuple(p.pid for p, _ in procs), lb.pid))
        finally:
            stop_all(lb, procs)
    sockets = args.games * 4
    hs = [x * 1000 for x in burst.handshakes]
    fv = [x * 1000 for x in burst.first_views]
    print(f"load average after: {Path('/proc/loadavg').read_text().strip()}")
    print(
        f"{sockets} sockets ({args.games} games x 4), "
        + (f"{args.rate:.0f} per second" if args.rate else "all at once")
        + f", {args.processes} processes behind nginx, client open timeout {args.open_timeout} s"
    )
    print(f"open with a view   {len(fv):6d}")
    print(f"refused, retried   {burst.refused:6d}   (busy, close 1013, retry_after)")
    print(f"timed out          {burst.timed_out:6d}")
    print(f"failed otherwise   {len(burst.failed):6d}   {burst.failed[:3]}")
    print(
        f"handshake          p50 {percentile(hs, 0.5):7.0f} ms  p99 {percentile(hs, 0.99):7.0f} ms"
    )
    print(
        f"first view         p50 {percentile(fv, 0.5):7.0f} ms  p99 {percentile(fv, 0.99):7.0f} ms"
        "  (from the first attempt)"
    )
    print(f"client loop stall  max {burst.lag * 1000:.0f} ms")
    ok = burst.timed_out == 0 and not burst.failed and len(fv) == sockets
    print(
        "RESULT", "PASS" if ok else "FAIL", "(target: every socket open with its view, 0 timeouts)"
    )


if __name__ == "__main__":
    main()
