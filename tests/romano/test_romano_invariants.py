"""Invariants over many random seeded games (legal moves exist, games end, events add up)."""

from __future__ import annotations

import math
import random

import pytest

import alea.romano as romano
from alea.romano.ceiling import TARGET, distance

GAMES = 240
CAP = 20


def check_game(seed: int) -> romano.State:
    rng = random.Random(seed)
    players = 2 + seed % 5
    referee = "human" if seed % 4 == 0 else "software"
    s = romano.new_game(players, time_limit_rounds=CAP, referee=referee)  # type: ignore[arg-type]
    steps = 0
    while not s.is_terminal():
        steps += 1
        assert steps < 10_000, "game does not terminate"
        assert s.round <= CAP
        if rng.random() < 0.002 and s.can_declare_last_round():
            s.apply("last-round")
            continue
        if s.is_chance():
            outcomes = s.chance_outcomes()
            assert outcomes and s.legal_actions() == []
            assert math.isclose(sum(p for _, p in outcomes), 1.0)
            s.apply(s.sample_chance(rng))
        else:
            actions = s.legal_actions()
            assert actions and s.chance_outcomes() == []
            assert len({str(a) for a in actions}) == len(actions)
            s.apply(rng.choice(actions))
    # the end
    assert s.current_player() == romano.TERMINAL
    assert s.legal_actions() == [] and s.chance_outcomes() == []
    assert s.winners() and math.isclose(sum(s.returns()), 1.0)
    if s.end_reason == "150":
        assert all(s.scores[w] == TARGET and not s.eliminated[w] for w in s.winners())
    else:
        eligible = [i for i in range(players) if not s.eliminated[i]] or list(range(players))
        best = min(distance(s.scores[i]) for i in eligible)
        assert sorted(s.winners()) == [i for i in eligible if distance(s.scores[i]) == best]
        assert all(sc != TARGET or s.eliminated[i] for i, sc in enumerate(s.scores))
    # every score change is in the events, in order, and adds up to the final scores
    scores = [0] * players
    for e in s.events:
        if e.kind == "score":
            assert scores[e.seat] == e.old
            if e.text == "change":
                assert e.new - e.old == (-e.delta if e.inverted else e.delta)
            scores[e.seat] = e.new
    assert scores == s.scores
    return s


def test_many_random_games_keep_the_invariants() -> None:
    ends = {"150": 0, "time": 0}
    for seed in range(GAMES):
        ends[check_game(seed).end_reason] += 1
    # both endings really happen across the sample
    assert ends["150"] > 10 and ends["time"] > 10


@pytest.mark.parametrize("players", [2, 7])
def test_replays_of_random_games_are_exact(players: int) -> None:
    for seed in range(5):
        rng = random.Random(seed)
        s = romano.new_game(players, time_limit_rounds=CAP)
        while not s.is_terminal():
            s.apply(s.sample_chance(rng) if s.is_chance() else rng.choice(s.legal_actions()))
        assert romano.replay(s.record()) == s
