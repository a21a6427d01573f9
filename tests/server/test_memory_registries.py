"""What a game leaves in the server's memory once it is over: nothing keyed by its id
outside the bounded cache of finished games (issue 15, "Memory keeps rising").

``bench/memory_soak.py --census`` lists every registry the server's parts hold; this
test pins the ones a game's life touches: the hint kept for its seat to move, its
deadline, its bot loop, its retention stamp, the creation limits' tables.
"""

from __future__ import annotations

import time

import httpx

from alea.server import Settings
from tests.server.support import Database, LiveServer, ShiftedClock, human_game, quick_bots

ABANDON = 600.0


def test_a_game_over_leaves_no_entry_in_the_registries(db: Database) -> None:
    clock = ShiftedClock()
    settings = Settings(
        database_url=db.url,
        bot_delay=0.0,
        bot_factory=quick_bots,
        sqlite_synchronous="NORMAL",
        analysis_processes=0,
        hint_samples=3,
        clock=clock,
        abandon_after=ABANDON,
        abandon_poll=0.05,
    )
    with LiveServer(settings) as live:
        server = live.games
        analyses = live.app.state.analyses
        game_id, tokens = human_game(live.base, 2)
        url = f"{live.base}/api/games/{game_id}"
        mover = httpx.get(url, timeout=30).json()["to_move"]
        hinted = httpx.post(
            f"{url}/hint", headers={"Authorization": f"Bearer {tokens[mover]}"}, timeout=60
        )
        assert hinted.status_code == 200, hinted.text
        assert game_id in analyses._hints  # kept while the game is played (asked again)

        clock.advance(ABANDON + 1)  # nobody came back: the table closes as abandoned
        deadline = time.time() + 10
        while server.games[game_id].status != "abandoned":
            assert time.time() < deadline, "the table was not closed"
            time.sleep(0.02)
        time.sleep(0.1)
        assert game_id not in analyses._hints
        assert game_id not in server.core.deadlines.pending
        assert game_id not in server.turns._bot_turns
        assert game_id not in server.retention._touched
        assert not server.limits._tables
