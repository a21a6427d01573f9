"""The engine's process-wide memo tables stay out of the cyclic garbage collector's way.

A long run (a simulation, a bot server) fills these tables with tens of thousands of
answers; every answer the collector must keep tracking is traversed by each of its full
passes, which measured 18% of a random-playout loop (docs/engine.md, "Speed"). Answers made
of ints only are untracked by the collector the first time it sees them; these tests pin
that the big tables are built that way, on both builds.
"""

from __future__ import annotations

import gc
import random

import alea.iacta as iacta
from alea.iacta import dice, scoring_solver


def _random_games(count: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        state = iacta.new_game(4)
        while not state.is_terminal():
            if state.is_chance():
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
        state.returns()


def test_scoring_memo_answers_are_untracked_once_collected() -> None:
    """colour_best's memoised answers hold ints only (no ColourDetail, a tuple subclass)."""
    scoring_solver.clear_memo()  # answers made after any gc.freeze() an earlier test made
    _random_games(6, seed=3)
    for _ in range(3):  # a tuple is untracked once the tuples inside it are (three deep)
        gc.collect()
    answers = [answer for memo in scoring_solver._MEMO.values() for answer in memo.answers.values()]
    assert answers
    assert not any(gc.is_tracked(answer) for answer in answers)
    # So do the walk's per-demand choices kept beside them (tuples of ints).
    entries = [e for memo in scoring_solver._MEMO.values() for e in memo.entries.values()]
    assert entries
    assert not any(gc.is_tracked(entry) for entry in entries)
    # The memo answers what the solver's search would compute afresh.
    for (men, women, provinces, counts), memo in list(scoring_solver._MEMO.items())[:50]:
        for demand, answer in memo.answers.items():
            assert scoring_solver._colour_best(men, women, provinces, counts, demand) == answer


def test_colour_detail_round_trips_through_its_packed_int() -> None:
    """The packed detail the memo keeps rebuilds the same ColourDetail; -1 is infeasible."""
    for men in range(9):
        for women in range(9):
            for couples in range(min(men, women) + 1):
                packed = scoring_solver._pack_detail(men, women, couples)
                detail = scoring_solver._unpack_detail(packed)
                assert detail == scoring_solver.ColourDetail(men, women, couples)
    assert scoring_solver._unpack_detail(-1) is None


def test_temple_tables_hold_no_pairs_the_collector_keeps() -> None:
    """A roll's Temple placements per size are two flat tuples, not one (Action, total) pair
    each, and no filtered answer is memoised (a legal list filters them afresh).

    (Whether the collector untracked them depends on whether an earlier test froze them.)
    """
    _random_games(6, seed=4)
    infos = [info for info in dice._ROLL_INFO.values() if any(info.temple_actions)]
    assert infos
    for info in infos:
        assert not hasattr(info, "__dict__")  # nothing kept beside the declared slots
        for count, actions in enumerate(info.temple_actions):
            if actions is None:
                continue
            totals = info.temple_totals[count]
            assert len(actions) == len(totals)
            assert type(actions) is tuple and type(totals) is tuple
            assert all(type(total) is int for total in totals)
            assert all(
                sum(action.dice) == total for action, total in zip(actions, totals, strict=True)
            )
            assert all(len(action.dice) == count for action in actions)
