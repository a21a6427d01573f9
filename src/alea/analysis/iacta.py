"""Alea Iacta Est's decisions assessed by paired playouts from the seat's view.

The analyser is the ``hard`` bot's root search turned into a judge (see
:mod:`alea.bots.ismcts`): the moves compared are the move played, the greedy
heuristic's choice and the best few placements, re-roll plans or card choices
the heuristic ranks highest. Each sampled world (:func:`determinize`: the hidden
cards drawn from what the view allows) is played out once for every move with
the **same** dice (common random numbers), by the greedy policy, to the end of
the round; every player's final score is then projected from their holdings
(:func:`alea.bots.ismcts.evaluate`, the exact score once the game is over). A
move's value is the seat's expected margin over its best rival, and its winning
chance the share of worlds in which that margin is positive. Pairing the moves
on identical luck is what makes a few dozen samples enough to tell a real
mistake from a bad roll.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import sqrt
from typing import Any

from alea.analysis import Assessor, Verdict
from alea.bots.greedy import GreedyBot
from alea.bots.ismcts import ISMCTSBot, evaluate, greedy_policy
from alea.bots.table import Table
from alea.iacta.determinize import determinize
from alea.iacta.notation import Action
from alea.iacta.state import State


def _playout(state: State, seat: int, first: Action, rng: random.Random) -> tuple[float, float]:
    """Apply ``first``, play on greedily to the end of the round; (margin, win)."""
    policy = greedy_policy(seat)
    start = state.round
    state.apply(first)
    while not state.is_terminal() and state.round == start:
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(policy(state, state.current_player(), rng))
    values = evaluate(state)
    rival = max(v for s, v in enumerate(values) if s != seat)
    margin = values[seat] - rival
    return margin, 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0


class IactaAssessor:
    """Judge one decision of Alea Iacta Est from the deciding seat's view."""

    def __init__(self, width: int = 3, rerolls: int = 2) -> None:
        self._search = ISMCTSBot(steps=1, width=width, rerolls=rerolls)
        self._greedy = GreedyBot()

    def __call__(
        self,
        view: dict[str, Any],
        legal: Sequence[Any],
        played: Any,
        rng: random.Random,
        samples: int,
    ) -> Verdict:
        moves: list[Action] = list(legal)
        seat = int(view["seat"])
        table = Table.from_view(view)
        favourite = self._greedy.decide(table, moves, rng)
        options = [favourite]
        for move in self._search.candidates(table, moves, rng):
            if move not in options:
                options.append(move)
        if played is not None and played not in options:
            options.insert(0, played)
        if len(moves) == 1:
            # A forced move is still played out: the chart of winning chances needs it.
            options = [moves[0]]
        margins: dict[Action, list[float]] = {m: [] for m in options}
        wins: dict[Action, float] = dict.fromkeys(options, 0.0)
        for _ in range(samples):
            world = determinize(view, rng)
            luck = rng.getrandbits(64)
            for move in options:
                margin, win = _playout(world.clone(), seat, move, random.Random(luck))
                margins[move].append(margin)
                wins[move] += win

        def mean(move: Action) -> float:
            return sum(margins[move]) / samples

        best = max(options, key=lambda m: (mean(m), m == favourite))
        judged = best if played is None else played
        diffs = [b - p for b, p in zip(margins[best], margins[judged], strict=True)]
        average = sum(diffs) / samples
        spread = sqrt(sum((d - average) ** 2 for d in diffs) / max(1, samples - 1))
        return Verdict(
            played=str(judged),
            best=str(best),
            played_margin=mean(judged),
            best_margin=mean(best),
            played_win=wins[judged] / samples,
            best_win=wins[best] / samples,
            error=spread / sqrt(samples),
            options=len(options),
            samples=samples,
        )


def assessor() -> Assessor:
    """A new assessor for :func:`alea.analysis.register`."""
    return IactaAssessor()
