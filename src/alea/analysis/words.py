"""An assessed decision said in a player's words (for the command line).

The browser says the same from the same fields in the player's language
(``js/analysis.js``); here it is English, like the rest of the terminal.
"""

from __future__ import annotations

from alea.analysis import Decision
from alea.iacta.notation import parse
from alea.render import describe_action


def move_words(notation: str) -> str:
    """A move in words (``Castrum: 3 × 4``), or its notation if it is not a move."""
    try:
        move = parse(notation)
    except ValueError:
        return notation
    try:
        return describe_action(move)  # type: ignore[arg-type]
    except (AttributeError, KeyError):
        return notation


def _points(value: float) -> str:
    return f"{value:+.1f}".replace("-", "−")


def explain(decision: Decision) -> str:
    """Why a decision was judged as it was, in one or two sentences."""
    v = decision.verdict
    played = move_words(v.played)
    if v.options <= 1:
        return f"{played} was the only move."
    if v.best == v.played:
        return (
            f"{played} was the best of {v.options} moves compared "
            f"(expected margin {_points(v.played_margin)}, winning chances {v.played_win:.0%})."
        )
    better = move_words(v.best)
    text = (
        f"{_points(-decision.loss)} points: {better} was better than {played}: "
        f"expected margin over the best rival {_points(v.best_margin)} instead of "
        f"{_points(v.played_margin)}, winning chances {v.best_win:.0%} instead of "
        f"{v.played_win:.0%}, over {v.samples} sampled deals of the hidden cards and dice."
    )
    if not decision.flagged:
        text += " Too close to call a mistake."
    return text
