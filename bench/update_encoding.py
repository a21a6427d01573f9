"""CPU of building the ``update`` messages of one action: the encoders and the views' text.

The server's own code path (:func:`alea.server.snapshot.update_message`) on real
mid-game tables of four seats, in process and timed by CPU (so a busy machine
disturbs it little): for each table, the state changes (the cache stamp moves)
and each of the four seats' updates is built with the log delta of one action,
as the senders do after every action. Three ways, each timed twice:

* **standard json, whole views**: the standard library's encoder, each seat's view
  built and encoded whole (the server before orjson);
* **orjson, whole views**: :mod:`alea.server.wire`, each seat's view encoded whole
  (the server before ``State.view_text``);
* **orjson, view_text**: what the server does now: the view's public part encoded
  once per position by the engine, each seat's own part spliced in.

*same position* keeps the engine's kept public part between rounds (what the
seats after the first of an action pay); *new position* drops it before every
table (``State.apply`` does so after every event: the whole cost of an action).

    python bench/update_encoding.py [--tables 200] [--rounds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from alea.server import snapshot, wire
from alea.server.config import Settings
from alea.server.room import Game
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


def measure(server: GameServer, rounds: int, new_position: bool) -> float:
    """CPU seconds per action: four seats' updates after one change of each table."""
    games = list(server.games.values())
    start = time.process_time()
    for _ in range(rounds):
        for game in games:
            game.stamp += 1  # the game changed: every seat's cached part is stale
            if new_position:  # as State.apply does: the kept public part goes
                state: Any = game.state
                state._public_view = None
                state._view_text = None
            since = max(0, game.version - 3)
            for seat in range(4):
                snapshot.update_message(game, seat, since, server.clock)
    return (time.process_time() - start) / (rounds * len(games))


def whole_view(game: Game, seat: int | None) -> str:
    """The seat's view built and encoded whole (the server before ``view_text``)."""
    return wire.dumps(game.view_for(seat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    fast, spliced = wire.dumps, Game.view_text
    stdlib = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
    ways: list[tuple[str, Callable[[Any], str], Any]] = [
        ("standard json, whole views", stdlib, whole_view),
        ("orjson, whole views", fast, whole_view),
        ("orjson, view_text", fast, spliced),
    ]
    results: dict[tuple[str, bool], float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        server = asyncio.run(tables(f"sqlite:///{Path(tmp) / 'enc.sqlite'}", args.tables))
        try:
            for name, encoder, view_text in ways:
                snapshot._encode = wire.dumps = encoder  # type: ignore[assignment]
                Game.view_text = view_text  # type: ignore[method-assign]
                for new_position in (False, True):
                    measure(server, 2, new_position)  # warm-up
                    results[name, new_position] = measure(server, args.rounds, new_position)
        finally:
            snapshot._encode = wire.dumps = fast  # type: ignore[assignment]
            Game.view_text = spliced  # type: ignore[method-assign]
            server.store.dispose()
    print(f"{'µs of CPU per action (4 seats)':<30} {'same position':>14} {'new position':>13}")
    for name, _, _ in ways:
        same, new = results[name, False] * 1e6, results[name, True] * 1e6
        print(f"{name:<30} {same:14.1f} {new:13.1f}")
    before, after = results["orjson, whole views", True], results["orjson, view_text", True]
    print(f"view_text saves {(before - after) * 1e6:.1f} µs per action ({1 - after / before:.0%})")


if __name__ == "__main__":
    main()
