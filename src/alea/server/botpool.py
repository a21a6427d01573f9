"""Where bots think: a bounded pool of worker processes of their own.

Bots used to think in asyncio's default thread pool, the one the request path
uses for its database reads. With a few dozen ``hard`` bot tables (IS-MCTS,
CPU-bound Python) the pool's threads were all busy searching and the GIL was
theirs: a 404 for an unknown game waited 11 s for a thread, human moves slowed
from 2 to 60 ms. So bots think here instead:

* in **processes** (a :class:`~concurrent.futures.ProcessPoolExecutor` of
  ``Settings.bot_processes`` workers, started by a fork server so they never
  inherit the server's threads): a search holds no GIL of the server's, and at
  most that many cores go to bots however many tables play;
* given only what :func:`alea.bots.ask` gives a bot: the seat's view, the legal
  actions and a seeded random source. The engine state with its hidden
  information never leaves the server process, and the answer is checked
  against the legal actions here, as ``ask`` does;
* one decision at a time per table (the table's bot loop waits for it), queued
  first come first served behind the other tables' decisions.

``bot_processes = 0`` thinks in one dedicated thread instead (for embedding and
for tests that want no child processes); still never in the default pool.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from alea.bots import Bot

log = logging.getLogger("alea.server")


def revive(action: Any) -> Any:
    """``action`` as its engine makes it, after a trip through :mod:`pickle`.

    An engine may keep facts about its action objects in tables of its own (Alea
    Iacta Est's ``Action`` looks its kind and dice up by the interned object), which
    a copy unpickled in a worker is not in: parsing its notation again gives the
    engine's own object. Plain values are returned as they are.
    """
    parse = getattr(type(action), "parse", None)
    return parse(str(action)) if callable(parse) else action


def decide(bot: Bot, view: dict[str, Any], legal: list[Any], seed: int) -> Any:
    """The bot's choice among ``legal`` from ``view`` alone (runs in a worker)."""
    return bot.act(view, [revive(a) for a in legal], random.Random(seed))


class BotPool:
    """The workers bots think in (made on first use, so idle servers start none)."""

    def __init__(self, processes: int) -> None:
        self.processes = max(0, processes)
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.processes:
                # A fork server's children inherit none of the server's threads (a plain
                # fork would copy the writer's and uvicorn's mid-flight); where there is
                # none (Windows), spawn.
                methods = multiprocessing.get_all_start_methods()
                method = "forkserver" if "forkserver" in methods else "spawn"
                context = multiprocessing.get_context(method)
                if method == "forkserver":
                    context.set_forkserver_preload(["alea.bots"])
                self._executor = ProcessPoolExecutor(self.processes, mp_context=context)
            else:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="alea-bots")
        return self._executor

    async def ask(self, bot: Bot, state: Any, rng: random.Random) -> Any:
        """The decision of the seat to move in ``state``, asked of ``bot`` in a worker.

        Like :func:`alea.bots.ask`: the bot sees that seat's view and the legal
        actions only, and an answer that is not legal is a ``ValueError``.
        """
        seat = state.current_player()
        if seat < 0:
            raise ValueError("no player decides now (chance event or game over)")
        legal = list(state.legal_actions())
        view = state.view(seat)
        seed = rng.getrandbits(64)
        loop = asyncio.get_running_loop()
        try:
            action = await loop.run_in_executor(self._pool(), decide, bot, view, legal, seed)
        except BrokenExecutor:
            # A worker died (killed, out of memory): start afresh for the next decision.
            log.error("the bot workers broke; starting new ones")
            self.close()
            raise
        if action not in legal:
            raise ValueError(
                f"bot {getattr(bot, 'name', bot)!r} chose {action!r}, which is not legal here"
            )
        return legal[legal.index(action)]

    def close(self) -> None:
        """Stop the workers (decisions under way are abandoned)."""
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
