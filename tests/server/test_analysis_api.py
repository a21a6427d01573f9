"""Analysis and hints over HTTP: background, stored once, seat's view only, typed refusals."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

import alea.analysis as analysis
from alea.server import Settings
from tests.server.support import Database, LiveServer, create_game, human_game, quick_bots


def settings(db: Database, processes: int = 0) -> Settings:
    return Settings(
        database_url=db.url,
        bot_delay=0.0,
        bot_factory=quick_bots,
        sqlite_synchronous="NORMAL",
        analysis_processes=processes,
        analysis_samples=3,
        hint_samples=3,
    )


def finished_game(base: str, players: int = 2) -> str:
    created = create_game(base, [{"kind": "bot", "level": "easy"}] * players, sit=False)
    game_id: str = created["game"]["id"]
    for _ in range(1200):
        if httpx.get(f"{base}/api/games/{game_id}").json()["status"] == "finished":
            return game_id
        time.sleep(0.05)
    raise AssertionError("the bots did not finish the game")


def wait_done(url: str, seat: int) -> dict[str, Any]:
    seen_progress = False
    for _ in range(2400):
        answer = httpx.get(url, params={"seat": seat}).json()
        if answer["status"] == "done":
            answer["seen_progress"] = seen_progress
            return answer
        assert answer["status"] == "running", answer
        seen_progress = seen_progress or 0 < answer["done"] < answer["total"]
        time.sleep(0.05)
    raise AssertionError("the analysis did not finish")


def code(answer: httpx.Response) -> str:
    found: str = answer.json()["error"]["code"]
    return found


@pytest.mark.serial  # measures time: runs alone (tests/conftest.py)
@pytest.mark.parametrize("processes", [0, 1])
def test_an_analysis_runs_in_the_background_and_is_stored_once(
    db: Database, processes: int
) -> None:
    with LiveServer(settings(db, processes)) as live:
        game_id = finished_game(live.base)
        url = f"{live.base}/api/games/{game_id}/analysis"
        assert httpx.get(url, params={"seat": 1}).json()["status"] == "none"
        started = httpx.post(url, params={"seat": 1})
        assert started.status_code == 202 and started.json()["status"] in ("running", "done")
        assert started.json()["total"] > 10
        other = httpx.post(url, params={"seat": 0})
        if httpx.get(url, params={"seat": 1}).json()["status"] == "running":
            assert other.status_code == 409 and code(other) == "analysis_busy"
        # Health answers at once while the analysis runs: it is not on the event loop.
        began = time.perf_counter()
        assert httpx.get(f"{live.base}/api/health").status_code == 200
        assert time.perf_counter() - began < 1.0
        done = wait_done(url, 1)
        result = done["analysis"]
        replay = httpx.get(f"{live.base}/api/games/{game_id}/replay").json()
        record = {"players": 2, "events": replay["events"]}
        expected = analysis.analyse("iacta", record, 1, samples=3, seed=0).to_json()
        assert result["decisions"] == expected["decisions"]
        assert result["seat"] == 1 and result["samples"] == 3
        assert done["done"] == done["total"] == len(expected["decisions"])
    # After a restart the stored analysis is served, not computed again.
    with LiveServer(settings(db, processes)) as live:
        url = f"{live.base}/api/games/{game_id}/analysis"
        again = httpx.post(url, params={"seat": 1})
        assert again.json()["status"] == "done"
        assert again.json()["analysis"]["decisions"] == expected["decisions"]
        assert not live.app.state.analyses.jobs


def test_analysis_refusals(db: Database) -> None:
    with LiveServer(settings(db)) as live:
        game_id, _tokens = human_game(live.base, 2)
        url = f"{live.base}/api/games/{game_id}/analysis"
        answer = httpx.post(url, params={"seat": 0})
        assert answer.status_code == 409 and code(answer) == "not_finished"
        unknown = httpx.get(f"{live.base}/api/games/nope/analysis", params={"seat": 0})
        assert unknown.status_code == 404
        done_id = finished_game(live.base)
        done_url = f"{live.base}/api/games/{done_id}/analysis"
        assert httpx.post(done_url, params={"seat": 5}).status_code == 422
        assert httpx.post(done_url, params={"seat": -1}).status_code == 422
        assert httpx.post(done_url).status_code == 422
        romano = create_game(
            live.base, [{"kind": "bot", "level": "easy"}] * 2, sit=False, game="romano"
        )["game"]["id"]
        for _ in range(2400):
            if httpx.get(f"{live.base}/api/games/{romano}").json()["status"] == "finished":
                break
            time.sleep(0.05)
        else:
            pytest.skip("the Dado Romano bots did not finish in time")
        refused = httpx.post(f"{live.base}/api/games/{romano}/analysis", params={"seat": 0})
        assert refused.status_code == 409 and code(refused) == "analysis_unavailable"


def test_hints_only_for_the_seat_to_move(db: Database) -> None:
    with LiveServer(settings(db)) as live:
        game_id, tokens = human_game(live.base, 2)
        url = f"{live.base}/api/games/{game_id}"
        mover = httpx.get(url).json()["to_move"]
        assert mover is not None
        spectator = httpx.post(f"{url}/hint")
        assert spectator.status_code == 403 and code(spectator) == "spectator"
        other = {"Authorization": f"Bearer {tokens[1 - mover]}"}
        waiting = httpx.post(f"{url}/hint", headers=other)
        assert waiting.status_code == 409 and code(waiting) == "not_your_turn"
        answer = httpx.post(f"{url}/hint", headers={"Authorization": f"Bearer {tokens[mover]}"})
        assert answer.status_code == 200, answer.text
        hint = answer.json()
        state = httpx.get(f"{url}/state", headers={"Authorization": f"Bearer {tokens[mover]}"})
        legal = state.json()["legal"]
        assert hint["best"] in legal and hint["seat"] == mover
        assert hint["samples"] == 3 and 0.0 <= hint["best_win"] <= 1.0
        # Asked again at the same version: the same hint, computed once.
        again = httpx.post(f"{url}/hint", headers={"Authorization": f"Bearer {tokens[mover]}"})
        assert again.json() == hint
        # A rated game refuses hints (the table's flag).
        live.app.state.server.games[game_id].rated = True
        rated = httpx.post(f"{url}/hint", headers={"Authorization": f"Bearer {tokens[mover]}"})
        assert rated.status_code == 403 and code(rated) == "hint_unavailable"
