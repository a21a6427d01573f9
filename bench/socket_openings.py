"""Server CPU per game-socket opening, measured apart from any burst.

Starts ``alea serve`` (SQLite in a temp dir), creates one four-seat game, then
opens N sockets to it, at most ``--concurrency`` at a time: each does the
WebSocket handshake, says hello with a seat's token and waits for its first
``update``, then closes. Prints the server's CPU (every thread) per opening.
This is the cost a burst of openings is made of (a start, or the sockets of a
dead process reconnecting to the others), without the queueing that a burst
adds on a shared machine (``bench/connection_burst.py`` measures that).

    python bench/socket_openings.py --sockets 400
    python bench/socket_openings.py --sockets 400 --ws websockets-sansio

Loopback only; bounded by ``--sockets``.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile

import httpx
import orjson
import websockets

from server_load import cpu_seconds
from serving import start_alea_server, stop_all


async def measure(sockets: int, concurrency: int, extra: list[str]) -> float:
    """Server CPU seconds per opening (after 50 openings of warm-up)."""
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start_alea_server(
            "--database-url",
            f"sqlite:///{tmp}/openings.db",
            "--data-dir",
            tmp,
            "--log-level",
            "warning",
            "--create-rate",
            "",
            *extra,
        )
        try:
            async with httpx.AsyncClient(base_url=base) as http:
                created = (
                    await http.post(
                        "/api/games", json={"seats": [{"kind": "human"}] * 4, "public": False}
                    )
                ).json()
            url = base.replace("http://", "ws://") + f"/ws/games/{created['game']['id']}"
            hello = orjson.dumps({"type": "hello", "token": created["token"]}).decode()

            async def one() -> None:
                async with websockets.connect(url, ping_interval=None) as ws:
                    await ws.send(hello)
                    async for raw in ws:
                        if orjson.loads(raw)["type"] == "update":
                            break

            for _ in range(50):
                await one()
            limit = asyncio.Semaphore(concurrency)

            async def limited() -> None:
                async with limit:
                    await one()

            before = cpu_seconds(proc.pid)
            await asyncio.gather(*(limited() for _ in range(sockets)))
            return (cpu_seconds(proc.pid) - before) / sockets
        finally:
            stop_all(None, [(proc, base)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=400)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--ws", default=None, help="the server's --ws (default: its own)")
    args = parser.parse_args()
    if not 1 <= args.sockets <= 5000:
        raise SystemExit("bounded benchmark: 1 to 5000 sockets")
    extra = ["--ws", args.ws] if args.ws else []
    per = asyncio.run(measure(args.sockets, args.concurrency, extra))
    print(f"server CPU per socket opening: {per * 1000:.2f} ms ({args.sockets} sockets)")


if __name__ == "__main__":
    main()
