"""The text notation of Dado Romano's decisions and chance outcomes.

Every decision (an :class:`Action`) and every chance outcome (an
:class:`Outcome`) has exactly one text form, so that a game record is a plain
list of strings that replays exactly, and a person can type a move. The table
of every token is in ``docs/romano.md``.

Decisions (players, the referee, and the clock):

=================  ==========================================================
``D:53``           third-turn declaration: first roll 5, second roll 3
``M:2``            Messalina challenges seat 2 (seats count from 0)
``M:pass``         Messalina declines to challenge
``N:4``            an eliminated player (Nero) declares 4 for the return
``A:3``            the answer to a riddle or question is choice 3 (of 1–4)
``mark:right``     human referee: the answer was right (``mark:wrong``: wrong)
``throw``          a paced table: the player whose turn it is rolls the next die
``last-round``     the time is up: the current round is the last
=================  ==========================================================

Chance outcomes:

=================  ==========================================================
``roll:5``         one roll of the die (every roll of the game is one die)
``riddle:R07``     the riddle drawn from the bank (software referee)
``question:Q12``   the question drawn from the bank (software referee)
=================  ==========================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from alea import game

ActionKind = Literal[
    "declare", "challenge", "decline", "return", "answer", "mark", "throw", "last-round"
]
OutcomeKind = Literal["roll", "riddle", "question"]


class IllegalActionError(game.IllegalActionError):
    """A move that is malformed or not allowed now; the state is left unchanged.

    A subclass of the base every game shares (:class:`alea.game.IllegalActionError`,
    a ``ValueError``), so an interface hosting several games catches one type.
    """


class NotationError(IllegalActionError, game.NotationError):
    """A text that is not a Dado Romano move at all (raised by :func:`parse`)."""


@dataclass(frozen=True, slots=True)
class Action:
    """A decision. Compare and hash by value; ``str()`` gives its notation.

    ``values`` holds the numbers of the move: the two declared rolls, the
    challenged seat, the declared return number, the chosen answer (1–4), or
    1/0 for a right/wrong mark.
    """

    kind: ActionKind
    values: tuple[int, ...] = ()

    def __str__(self) -> str:
        k, v = self.kind, self.values
        if k == "declare":
            return f"D:{v[0]}{v[1]}"
        if k == "challenge":
            return f"M:{v[0]}"
        if k == "decline":
            return "M:pass"
        if k == "return":
            return f"N:{v[0]}"
        if k == "answer":
            return f"A:{v[0]}"
        if k == "mark":
            return "mark:right" if v[0] else "mark:wrong"
        if k == "throw":
            return "throw"
        return "last-round"


@dataclass(frozen=True, slots=True)
class Outcome:
    """A chance outcome: a roll of the die, or the riddle/question drawn."""

    kind: OutcomeKind
    value: int = 0
    item: str = ""

    def __str__(self) -> str:
        if self.kind == "roll":
            return f"roll:{self.value}"
        return f"{self.kind}:{self.item}"


def declare(first: int, second: int) -> Action:
    """The third-turn declaration of the two rolls, in order."""
    return Action("declare", (first, second))


def challenge(seat: int) -> Action:
    """Messalina challenges ``seat``."""
    return Action("challenge", (seat,))


DECLINE: Final = Action("decline")
LAST_ROUND: Final = Action("last-round")
#: At a paced table (the ``paced`` option) each die is rolled when its player says so.
THROW: Final = Action("throw")
RIGHT: Final = Action("mark", (1,))
WRONG: Final = Action("mark", (0,))


def return_number(number: int) -> Action:
    """The number an eliminated player declares for the three-roll return."""
    return Action("return", (number,))


def answer(choice: int) -> Action:
    """The answer chosen among the four offered, numbered 1–4."""
    return Action("answer", (choice,))


def roll(value: int) -> Outcome:
    """One roll of the die."""
    return Outcome("roll", value)


def drawn(kind: Literal["riddle", "question"], item: str) -> Outcome:
    """The riddle or question drawn from the bank."""
    return Outcome(kind, item=item)


_PATTERNS: Final = (
    (re.compile(r"D:([1-6])([1-6])"), "declare"),
    (re.compile(r"M:(\d+)"), "challenge"),
    (re.compile(r"M:pass"), "decline"),
    (re.compile(r"N:([1-6])"), "return"),
    (re.compile(r"A:([1-4])"), "answer"),
    (re.compile(r"mark:(right|wrong)"), "mark"),
    (re.compile(r"last-round"), "last-round"),
    (re.compile(r"throw"), "throw"),
    (re.compile(r"roll:([1-6])"), "roll"),
    (re.compile(r"(riddle|question):([A-Za-z0-9_-]+)"), "item"),
)

EXAMPLES: Final = (
    "roll:4, D:53, M:2, M:pass, N:4, A:2, mark:right, throw, riddle:R07, question:Q12, last-round"
)


def parse(text: str) -> Action | Outcome:
    """The move written ``text`` (surrounding spaces ignored).

    Raises :class:`NotationError` (an :class:`IllegalActionError`) with the
    list of valid forms when the text is not a Dado Romano move at all.
    """
    t = text.strip()
    for pattern, kind in _PATTERNS:
        m = pattern.fullmatch(t)
        if m is None:
            continue
        if kind == "declare":
            return declare(int(m[1]), int(m[2]))
        if kind == "challenge":
            return challenge(int(m[1]))
        if kind == "decline":
            return DECLINE
        if kind == "return":
            return return_number(int(m[1]))
        if kind == "answer":
            return answer(int(m[1]))
        if kind == "mark":
            return RIGHT if m[1] == "right" else WRONG
        if kind == "last-round":
            return LAST_ROUND
        if kind == "throw":
            return THROW
        if kind == "roll":
            return roll(int(m[1]))
        return drawn("riddle" if m[1] == "riddle" else "question", m[2])
    raise NotationError(
        f"{text!r} is not a Dado Romano move; moves look like: {EXAMPLES} "
        "(dice and declared numbers are 1-6, answers 1-4)"
    )
