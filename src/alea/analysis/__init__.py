"""Game analysis for players: how good was each decision, judged from the seat's own view.

Chess players review a game with an engine beside the board; this is the same for
alea's games. For every decision of a chosen seat the analyser compares the move
played with the best candidates it can find, **from what that seat knew at the
time**: its view (:meth:`alea.game.GameState.view`), never the hidden cards of the
record. A mistake is a move whose expected final-score margin is clearly worse than
the best one's; a chart of the seat's estimated winning chances follows the game.

This module is game-agnostic (the server and the command line use it without
naming a game); each game registers an :data:`Assessor` for its decisions
(:mod:`alea.analysis.iacta` for Alea Iacta Est). Every assessment is seeded from
the analysis seed and the decision's step, so an analysis is reproducible, and its
decisions can be assessed in any order or in parallel worker processes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Final

import alea.game as game_registry

#: The default number of sampled worlds (hidden cards and dice) per decision.
SAMPLES: Final = 24
#: A move is flagged when it loses at least this many points of expected margin.
THRESHOLD: Final = 1.5


@dataclass(frozen=True, slots=True)
class Verdict:
    """What an :data:`Assessor` found for one decision (before its place in a game)."""

    #: The move played (or, for a hint, the move the analyser prefers).
    played: str
    #: The move the analyser prefers.
    best: str
    #: Expected final-score margin over the best rival after each move (points).
    played_margin: float
    best_margin: float
    #: Estimated chance of finishing first after each move, in [0, 1].
    played_win: float
    best_win: float
    #: Standard error of the paired difference (best - played), in points.
    error: float
    #: How many moves were compared, and on how many sampled worlds.
    options: int
    samples: int


#: ``assessor(view, legal, played, rng, samples)``: a :class:`Verdict` for one decision,
#: from the deciding seat's ``view`` alone. ``played`` is None for a hint.
Assessor = Callable[[dict[str, Any], Sequence[Any], Any, random.Random, int], Verdict]

_ASSESSORS: dict[str, Callable[[], Assessor]] = {}


def register(game: str, make: Callable[[], Assessor]) -> None:
    """Give the game called ``game`` (its short name) an analyser (made on first use)."""
    _ASSESSORS[game] = make


def _load() -> None:
    if "iacta" not in _ASSESSORS:
        from alea.analysis.iacta import assessor

        _ASSESSORS["iacta"] = assessor


def supports(game: str) -> bool:
    """Whether games called ``game`` can be analysed."""
    _load()
    return game in _ASSESSORS


def _assessor(game: str) -> Assessor:
    _load()
    try:
        return _ASSESSORS[game]()
    except KeyError:
        raise ValueError(f"games of {game!r} cannot be analysed") from None


@dataclass(frozen=True, slots=True)
class Decision:
    """One assessed decision of the analysed seat."""

    #: Index of the decision's event in the record (the replay step before it).
    step: int
    #: Number of the seat's decision in the game, from 1.
    number: int
    #: The game's round (from 1) when it was taken, where the game has rounds.
    round: int | None
    verdict: Verdict
    #: Points of expected margin lost against the best move found (never negative).
    loss: float
    #: Whether the loss is large enough, and clear enough, to call it a mistake.
    flagged: bool

    def to_json(self) -> dict[str, Any]:
        data = asdict(self.verdict)
        data.update(step=self.step, number=self.number, round=self.round)
        data.update(loss=round(self.loss, 3), flagged=self.flagged)
        for key in ("played_margin", "best_margin", "error"):
            data[key] = round(data[key], 3)
        for key in ("played_win", "best_win"):
            data[key] = round(data[key], 4)
        return data


@dataclass(slots=True)
class Analysis:
    """Every decision of one seat in one game, assessed from that seat's view."""

    game: str
    seat: int
    samples: int
    threshold: float
    seed: int
    decisions: list[Decision] = field(default_factory=list)

    def flagged(self) -> list[Decision]:
        """The decisions called mistakes, in game order."""
        return [d for d in self.decisions if d.flagged]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seat": self.seat,
            "samples": self.samples,
            "threshold": self.threshold,
            "seed": self.seed,
            "decisions": [d.to_json() for d in self.decisions],
        }


def judge(verdict: Verdict, threshold: float) -> tuple[float, bool]:
    """The loss of a verdict and whether it is a mistake.

    A mistake loses at least ``threshold`` points and more than two standard
    errors, so that a difference the samples cannot tell from luck is never
    called one.
    """
    loss = max(0.0, verdict.best_margin - verdict.played_margin)
    if verdict.best == verdict.played:
        return 0.0, False
    return loss, loss >= threshold and loss > 2.0 * verdict.error


@dataclass(frozen=True, slots=True)
class Point:
    """A decision to assess: the seat's view then, its legal moves and the move played."""

    step: int
    number: int
    round: int | None
    view: dict[str, Any]
    legal: list[Any]
    played: Any


def points(game: str, record: Mapping[str, Any], seat: int) -> Iterator[Point]:
    """The decisions of ``seat`` in ``record``, each with what the seat saw.

    The record is replayed by its engine; only ``view(seat)``, the legal moves
    and the move played leave this function, never the state.
    """
    info = game_registry.info(game)
    parts = game_registry.read_record(record, info.game, info.title)
    if not 0 <= seat < parts.players:
        raise ValueError(f"seat {seat + 1} is not at a table of {parts.players}")
    state = info.new_game(parts.players, **parts.options)
    number = 0
    for step, event in enumerate(parts.events):
        move = info.parse(str(event))
        if not state.is_terminal() and state.current_player() == seat and info.is_decision(move):
            number += 1
            rounds = getattr(state, "round", None)
            yield Point(
                step=step,
                number=number,
                round=None if rounds is None else int(rounds) + 1,
                view=state.view(seat),
                legal=list(state.legal_actions()),
                played=move,
            )
        state.apply(move)


def seed_for(seed: int, step: int) -> random.Random:
    """The random source of the decision at ``step``: independent of every other one."""
    return random.Random(f"alea-analysis:{seed}:{step}")


def assess(
    game: str,
    point: Point,
    samples: int = SAMPLES,
    threshold: float = THRESHOLD,
    seed: int = 0,
) -> Decision:
    """One decision assessed (pure: the same point and seed give the same decision)."""
    rng = seed_for(seed, point.step)
    verdict = _assessor(game)(point.view, point.legal, point.played, rng, samples)
    loss, flagged = judge(verdict, threshold)
    return Decision(point.step, point.number, point.round, verdict, loss, flagged)


def analyse(
    game: str,
    record: Mapping[str, Any],
    seat: int,
    samples: int = SAMPLES,
    threshold: float = THRESHOLD,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """Every decision of ``seat`` in ``record`` assessed from its own view.

    ``progress(done, total)`` is called after each decision (a progress bar).
    """
    if not supports(game):
        raise ValueError(f"games of {game!r} cannot be analysed")
    if samples < 2:
        raise ValueError("an analysis needs at least 2 samples per decision")
    todo = list(points(game, record, seat))
    result = Analysis(game, seat, samples, threshold, seed)
    if progress is not None:
        progress(0, len(todo))
    for done, point in enumerate(todo, start=1):
        result.decisions.append(assess(game, point, samples, threshold, seed))
        if progress is not None:
            progress(done, len(todo))
    return result


def hint(
    game: str,
    view: dict[str, Any],
    legal: Sequence[Any],
    samples: int = SAMPLES,
    seed: int = 0,
) -> Verdict:
    """The move the analyser would play now, from the deciding seat's ``view`` alone."""
    if not legal:
        raise ValueError("no move to hint: nothing is legal")
    return _assessor(game)(view, list(legal), None, random.Random(f"alea-hint:{seed}"), samples)


def assess_remote(
    game: str, point: dict[str, Any], samples: int, threshold: float, seed: int
) -> dict[str, Any]:
    """:func:`assess` of a point given as plain data, answered as plain data.

    For worker processes: moves travel as notation and are parsed again here
    (an engine may keep facts about its own move objects that a pickled copy
    lacks); ``point`` is ``{"step", "number", "round", "view", "legal", "played"}``.
    """
    parse = game_registry.info(game).parse
    found = Point(
        step=int(point["step"]),
        number=int(point["number"]),
        round=point["round"],
        view=point["view"],
        legal=[parse(m) for m in point["legal"]],
        played=parse(point["played"]),
    )
    return assess(game, found, samples, threshold, seed).to_json()


def hint_remote(
    game: str, view: dict[str, Any], legal: list[str], samples: int, seed: int
) -> dict[str, Any]:
    """:func:`hint` with moves as notation, answered as plain data (for worker processes)."""
    parse = game_registry.info(game).parse
    return asdict(hint(game, view, [parse(m) for m in legal], samples, seed))


def point_data(point: Point) -> dict[str, Any]:
    """A point as plain data for :func:`assess_remote`."""
    return {
        "step": point.step,
        "number": point.number,
        "round": point.round,
        "view": point.view,
        "legal": [str(m) for m in point.legal],
        "played": str(point.played),
    }


__all__ = [
    "SAMPLES",
    "THRESHOLD",
    "Analysis",
    "Assessor",
    "Decision",
    "Point",
    "Verdict",
    "analyse",
    "assess",
    "assess_remote",
    "hint",
    "hint_remote",
    "judge",
    "point_data",
    "points",
    "register",
    "seed_for",
    "supports",
]
