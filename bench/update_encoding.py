"""CPU of building the ``update`` messages of one action, standard ``json`` vs orjson.

The server's own code path (:func:`alea.server.snapshot.update_message`) on real
mid-game tables of four seats, in process and timed by CPU (so a busy machine
disturbs it little): for each table, the state changes (the cache stamp moves)
and each of the four seats' updates is built with the log delta of one action,
as the senders do after every action. Run once with the standard library's
encoder (what the server used before) and once with :mod:`alea.server.wire`.

    python bench/update_encoding.py [--tables 200] [--rounds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from pathlib import Path

from alea.server import snapshot
from alea.server.config import Settings
from alea.server.service import GameServer
from alea.server.storage import Store
from alea.server.writes import op_create_game
from startup import random_game


async def tables(url: str, count: int) -> GameServer:
    store = Store(url, sqlite_synchronous="OFF")
    store.migrate()
    rng = random.Random(5)
    with store.engine.begin() as conn:
        for n in range(count):
            op_create_game(*random_game(rng, f"enc{n:05d}"))(conn)
    server = GameServer(Settings(database_url=url, snapshot_every=0, bot_processes=0), store)
    await server.start()
    return server


def measure(server: GameServer, rounds: int) -> float:
    """CPU seconds per action: four seats' updates after one change of each table."""
    games = list(server.games.values())
    start = time.process_time()
    for _ in range(rounds):
        for game in games:
            game.stamp += 1  # the game changed: every seat's cached part is stale
            since = max(0, game.version - 3)
            for seat in range(4):
                snapshot.update_message(game, seat, since, server.clock)
    return (time.process_time() - start) / (rounds * len(games))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = asyncio.run(tables(f"sqlite:///{Path(tmp) / 'enc.sqlite'}", args.tables))
        fast = snapshot._encode
        stdlib = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
        results = {}
        for name, encoder in (("standard json", stdlib), ("orjson (wire)", fast)):
            snapshot._encode = encoder
            measure(server, 2)  # warm-up
            results[name] = measure(server, args.rounds)
        snapshot._encode = fast
        server.store.dispose()
    for name, seconds in results.items():
        print(f"{name:<14} {seconds * 1e6:7.1f} µs of CPU per action (4 seats' updates)")
    before, after = results["standard json"], results["orjson (wire)"]
    print(f"saved {(before - after) * 1e6:.1f} µs per action ({1 - after / before:.0%})")


if __name__ == "__main__":
    main()
