"""Bots think in their own workers: however many bot tables play, the request path
keeps its threads and answers at once."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
import pytest

from alea.server import Settings
from alea.server.botpool import BotPool
from tests.server.support import (
    Database,
    LiveServer,
    RandomBot,
    create_game,
    human_game,
    sleepy_bots,
)


def timed(call: Any) -> tuple[float, Any]:
    started = time.perf_counter()
    result = call()
    return time.perf_counter() - started, result


@pytest.mark.serial  # measures time: runs alone (tests/conftest.py)
@pytest.mark.parametrize("processes", [1, 0])
def test_busy_bots_leave_the_request_path_alone(db: Database, processes: int) -> None:
    settings = Settings(
        database_url=db.url,
        bot_delay=0.0,
        bot_factory=sleepy_bots,
        bot_processes=processes,
        create_rate="",  # one client opens every table here
        bot_tables_per_client=0,
        sqlite_synchronous="NORMAL",
    )
    with LiveServer(settings) as server, httpx.Client(base_url=server.base, timeout=30) as http:
        for _ in range(24):
            create_game(server.base, [{"kind": "bot", "level": "hard"}] * 4)
        time.sleep(1.0)  # every table now has a bot thinking or queued to think
        busy = [g for g in server.games.games.values() if g.bot_task is not None]
        assert len(busy) >= 20
        slowest = 0.0
        for _ in range(5):
            took, answer = timed(lambda: http.get("/api/games/NoSuchGame12"))
            assert answer.status_code == 404
            slowest = max(slowest, took)
        game_id, tokens = human_game(server.base, 2)
        state = http.get(
            f"/api/games/{game_id}/state", headers={"Authorization": f"Bearer {tokens[0]}"}
        ).json()
        mover = 0 if state["legal"] else 1
        if mover:
            state = http.get(
                f"/api/games/{game_id}/state", headers={"Authorization": f"Bearer {tokens[1]}"}
            ).json()
        took, moved = timed(
            lambda: http.post(
                f"/api/games/{game_id}/actions",
                json={"action": random.choice(state["legal"]), "version": state["version"]},
                headers={"Authorization": f"Bearer {tokens[mover]}"},
            )
        )
        assert moved.status_code == 200, moved.text
        slowest = max(slowest, took)
        # Generous for a loaded two-core machine; the bots held the shared pool for seconds.
        assert slowest < 0.5, f"a request took {slowest:.2f} s while bots were thinking"


def test_the_pool_shows_a_bot_the_view_only_and_checks_its_answer() -> None:
    import asyncio

    import alea.iacta as iacta

    class Peeking(RandomBot):
        """Records what it was given, and answers something illegal when asked to."""

        def act(self, view: dict[str, Any], legal_actions: list[Any], rng: random.Random) -> Any:
            seen.append((view, legal_actions))
            return "Z:99" if cheat else super().act(view, legal_actions, rng)

    seen: list[tuple[dict[str, Any], list[Any]]] = []
    cheat = False
    state = iacta.new_game(players=3)
    rng = random.Random(5)
    while state.is_chance():
        state.apply(state.sample_chance(rng))
    pool = BotPool(0)
    try:
        choice = asyncio.run(pool.ask(Peeking(), state, rng))
        assert choice in state.legal_actions()
        view, legal = seen[0]
        assert view == state.view(state.current_player()) and legal == state.legal_actions()
        cheat = True
        with pytest.raises(ValueError, match="not legal"):
            asyncio.run(pool.ask(Peeking(), state, rng))
    finally:
        pool.close()


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_the_real_bots_think_in_worker_processes(level: str) -> None:
    """alea.bots' own bots, their actions pickled to a worker and back, play legal moves
    (the server's loop would otherwise fall back to the first legal action, silently)."""
    import asyncio

    import alea.iacta as iacta
    from alea import bots

    state = iacta.new_game(players=3)
    rng = random.Random(11)
    pool = BotPool(1)
    bot = bots.make(level)

    async def play(decisions: int) -> None:
        for _ in range(decisions):
            while state.is_chance():
                state.apply(state.sample_chance(rng))
            state.apply(await pool.ask(bot, state, rng))

    try:
        asyncio.run(play(3 if level == "hard" else 12))
    finally:
        pool.close()
