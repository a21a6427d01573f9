"""What the figures do (RULES.md B3, B4, B6): a combination's effect on the scores and the turn.

The state (:mod:`alea.romano.state`) knows whose turn it is and what the
dice said; this module applies the consequences: pending Marcus Aurelius,
the declaration bonus, the 36 figures' effects, the riddles' and questions'
rewards and Messalina's challenge, every score change going through
:mod:`alea.romano.ceiling` in one of three ways (:func:`change`,
:func:`to_value`, :func:`set_to`). Like the building modules of the main game,
these functions work on the state they are given.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from alea.romano.ceiling import landed_change
from alea.romano.combinations import (
    FIGURES,
    Figure,
    Reward,
    declaration_bonus,
    figure,
    half_rounded_down,
    half_toward_zero,
)

if TYPE_CHECKING:
    from alea.romano.state import State


def combination(s: State, first: int, second: int) -> None:
    """A combination was rolled: pending Marcus Aurelius, declaration, then its effect."""
    p = s.seat
    fig = figure(first, second)
    s.pairs += 1
    s.figure = fig.pair
    s._event("figure", seat=p, cause=fig.pair)
    if s.pairs == 1:
        # reading: the first combination of a turn is "the two numbers rolled"
        # for Marcus Aurelius and for the declaration, before any roll-again.
        for victim in [v for v in s.pending_marcus if v != p]:
            s._event("marcus-applied", seat=victim, other=p, value=first + second)
            change(s, victim, -(first + second), "3-4")
        s.pending_marcus = [v for v in s.pending_marcus if v == p]
        if s.declared is not None:
            hits = (s.declared[0] == first) + (s.declared[1] == second)
            text = f"{s.declared[0]}{s.declared[1]}"
            s._event("declaration", seat=p, value=hits, text=text)
            change(s, p, declaration_bonus(s.declared, (first, second)), "declaration")
    _effect(s, fig)


def _effect(s: State, fig: Figure) -> None:
    p, k = s.seat, fig.kind
    if k == "roll-both-again":
        s._need("pair", 2)
    elif k == "roll-second-again":
        s._need("second", 1)
    elif k == "add":
        change(s, p, fig.amount, fig.pair)
        s._end_turn()
    elif k == "set":
        set_to(s, p, fig.amount, fig.pair)
        s._end_turn()
    elif k in ("riddle", "question"):
        s.item_kind = "riddle" if k == "riddle" else "question"
        s.phase = "mark" if s.referee == "human" else "draw"
    elif k == "challenge":
        s.phase = "challenge"
    elif k == "add-rolls":
        s._need("sum", fig.rolls)
    elif k == "add-six-times":
        s._need("six-times", 1)
    elif k == "lose-low-gain-high":
        s._need("tiberius", 1)
    elif k == "eliminate":
        s.eliminated[p] = True
        s._event("eliminated", seat=p)
        s._end_turn()
    elif k == "next-player-rolls":
        s.pending_marcus.append(p)
        s._event("marcus", seat=p)
        s._end_turn()
    elif k == "plus-six-doubled":
        to_value(s, p, (s.scores[p] + 6) * 2, fig.pair)
        s._end_turn()
    elif k == "skip-next-turn":
        s.skip_next[p] = True
        s._event("skip-next", seat=p)
        s._end_turn()
    else:  # halve
        to_value(s, p, half_toward_zero(s.scores[p]), fig.pair)
        s._end_turn()


def reward(s: State, right: bool) -> None:
    """Apply a riddle's or question's consequence, then end the turn."""
    p = s.seat
    fig = FIGURES[s.figure]
    r: Reward = fig.right if right else fig.wrong
    if r.kind == "add":
        change(s, p, r.amount, fig.pair)
    elif r.kind == "set":
        set_to(s, p, r.amount, fig.pair)
    elif r.kind == "gain-half":
        change(s, p, half_rounded_down(s.scores[p]), fig.pair)
    s._end_turn()


def resolve_challenge(s: State, challenger_roll: int, challenged_roll: int) -> None:
    """Messalina: lower roll wins; swap, or the challenged gives 20, or the challenger 40."""
    c, t = s.seat, s.challenged
    if challenger_roll < challenged_roll:
        s._event("challenge-result", seat=c, other=t, text="won")
        # reading: the swap *sets* both totals, so the ceiling does not invert it.
        old_c, old_t = s.scores[c], s.scores[t]
        s.scores[c], s.scores[t] = old_t, old_c
        for seat, old, new in ((c, old_c, old_t), (t, old_t, old_c)):
            s._event("score", seat=seat, old=old, new=new, cause="1-4", text="swap")
    elif challenger_roll == challenged_roll:
        s._event("challenge-result", seat=c, other=t, text="tie")
        change(s, t, -20, "1-4")
        change(s, c, 20, "1-4")
    else:
        s._event("challenge-result", seat=c, other=t, text="lost")
        change(s, c, -40, "1-4")
        change(s, t, 40, "1-4")


# ------------------------------------------------------------------ score changes
# The three ways a score changes. All ceiling logic is in alea.romano.ceiling.


def change(s: State, seat: int, amount: int, cause: str) -> None:
    """A relative change, inverted if ``seat`` was above 150 at the turn's start."""
    old = s.scores[seat]
    inv = s.inverted[seat]
    s.scores[seat] = old + landed_change(amount, inv)
    s._event(
        "score",
        seat=seat,
        old=old,
        new=s.scores[seat],
        delta=amount,
        inverted=inv,
        cause=cause,
        text="change",
    )


def to_value(s: State, seat: int, value: int, cause: str) -> None:
    """Halving or doubling: a relative change of (value − score) (B6)."""
    change(s, seat, value - s.scores[seat], cause)


def set_to(s: State, seat: int, value: int, cause: str) -> None:
    """A *set to* effect: never inverted (B3)."""
    old = s.scores[seat]
    s.scores[seat] = value
    s._event("score", seat=seat, old=old, new=value, cause=cause, text="set")
