"""Projected scores (GET /api/games/{id}/projection): a seat's own best arrangement and
everyone's public estimate, worked out from that seat's view alone."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

import alea.iacta as iacta
from alea.iacta.projection import projection
from alea.iacta.scoring import best_arrangement, best_score
from alea.server import Settings
from alea.server.routes.projection import explained
from tests.server.support import Database, LiveServer, create_game, human_game, quick_bots


@pytest.fixture
def server(db: Database) -> Any:
    settings = Settings(
        database_url=db.url, bot_delay=0.02, bot_factory=quick_bots, sqlite_synchronous="NORMAL"
    )
    with LiveServer(settings) as live:
        yield live


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _play_until_senate_cards(base: str, game_id: str, tokens: list[str]) -> None:
    """Random moves until every seat holds a Senate card (hidden from the others)."""
    rng = random.Random(2)
    for _ in range(3000):
        states = [
            httpx.get(f"{base}/api/games/{game_id}/state", headers=bearer(t), timeout=30).json()
            for t in tokens
        ]
        if all(p["senate_count"] for p in states[0]["view"]["players_info"]):
            return
        mover = next(s for s in states if s["legal"])
        legal = [a for a in mover["legal"] if not a.startswith("R:")] or mover["legal"]
        answer = httpx.post(
            f"{base}/api/games/{game_id}/actions",
            json={"action": rng.choice(legal), "version": mover["version"]},
            headers=bearer(tokens[mover["seat"]]),
            timeout=30,
        )
        assert answer.status_code == 200, answer.text
    raise AssertionError("nobody won a Senate card")


def test_projection_is_the_seats_own_and_leaks_nothing(server: LiveServer) -> None:
    base = server.base
    game_id, tokens = human_game(base, 3)
    _play_until_senate_cards(base, game_id, tokens)
    state = server.games.games[game_id].state
    url = f"{base}/api/games/{game_id}/projection"
    for seat, token in enumerate(tokens):
        answer = httpx.get(url, headers=bearer(token), timeout=30)
        assert answer.status_code == 200, answer.text
        got = answer.json()
        # Own: the optimiser on everything the seat holds, its Senate cards included.
        best = best_arrangement(state.holdings(seat))
        assert got["seat"] == seat and got["own"]["score"] == best.score
        assert sorted(got["own"]["holdings"]["senate"]) == sorted(state.holdings(seat).senate)
        for place in got["own"]["places"]:  # the reasons in both languages
            assert place["why"]["en"] == place["reason"] and place["why"]["it"]
        # Public: without anyone's Senate cards, the same for every asker.
        for p, estimate in enumerate(got["public"]):
            h = state.holdings(p)
            public = iacta.scoring.Holdings(h.provinces, h.patricians, (), h.fortuna, h.tokens)
            assert estimate["score"] == best_score(public).score
            assert estimate["hidden_senate"] == len(h.senate) > 0
        # It depends on this seat's view only: deal the others' hidden cards anew, and
        # the answer is the same (so it cannot show what the view hides).
        rng = random.Random(seat)
        others = [h.senate for p, h in enumerate(map(state.holdings, range(3))) if p != seat]
        changed = False
        for _ in range(20):
            alt = iacta.INFO.resample(state, seat, rng)
            alt_others = [alt.holdings(p).senate for p in range(3) if p != seat]
            changed |= alt_others != others
            assert explained(projection(alt.view(seat))) == got
        assert changed  # the resampling did change the hidden cards
        # Other seats' Senate cards never appear in the answer.
        text = answer.text
        for p in range(3):
            if p != seat:
                for card in set(state.holdings(p).senate) - set(state.holdings(seat).senate):
                    assert f'"{card}"' not in text
    # A spectator: public estimates only. Someone else's seat: refused.
    spectator = httpx.get(url, timeout=30).json()
    assert spectator["own"] is None and spectator["seat"] is None
    assert spectator["public"] == httpx.get(url, headers=bearer(tokens[0])).json()["public"]
    other = httpx.get(f"{url}?seat=1", headers=bearer(tokens[0]), timeout=30)
    assert other.status_code == 403 and other.json()["error"]["code"] == "bad_token"
    mine = httpx.get(f"{url}?seat=0", headers=bearer(tokens[0]), timeout=30)
    assert mine.status_code == 200 and mine.json()["own"]["seat"] == 0


def test_projection_of_a_game_without_one(server: LiveServer) -> None:
    created = create_game(server.base, [{"kind": "human"}] * 2, game="romano", claim=0)
    game_id = created["game"]["id"]
    for lang, word in (("en", "not available"), ("it", "non sono disponibili")):
        answer = httpx.get(
            f"{server.base}/api/games/{game_id}/projection",
            headers={**bearer(created["token"]), "Accept-Language": lang},
            timeout=30,
        )
        assert answer.status_code == 404
        assert answer.json()["error"]["code"] == "projection_unavailable"
        assert word in answer.json()["error"]["message"]
