"""Dado Romano's bots: players who know some of their trivia and wish for good dice.

Dado Romano (RULES.md Part B) is a party game of luck and trivia, so a bot that
plays "well" is not the point: a bot should play like a person at the table.
:class:`RomanoBot` does, at three levels:

- **answers** (riddles and questions): right with the level's probability
  (:data:`ACCURACY`: easy 40%, medium 60%, hard 80%), otherwise one of the three
  wrong choices. Knowing the answer is the bot's knowledge, like a person's: it is
  looked up in the game's bank of riddles and questions by the id the view shows
  (the view itself never holds the answer);
- **declarations** (the third turn, B2): every pair is as likely to come true as any
  other (1/36 both, 10/36 one), so the odds that differ are what the pair would do if
  it came true. The bot asks the engine: from the position its view shows, it plays
  the declaration and the declared pair, then takes the expectation of the rest of
  the turn (the dice still due, its answer with its accuracy, the best Messalina
  choice), and weighs each pair by how close to 150 that leaves it
  (:func:`turn_value`). The choice is drawn with weights growing with that value, more
  sharply at a higher level (:data:`TEMPERATURE`);
- **Messalina**: the challenge or the decline, by the expected distance to 150 after
  the challenge rolls (lower roll wins: 15/36 swap, 6/36 +20, 15/36 -40; inverted
  above 150), drawn the same way;
- **Nero's return** and a paced table's ``throw``: every number is equally likely, so
  any will do (the only throw is the throw).

Every random choice uses the ``random.Random`` it is given, so games are seeded.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any, Final

from alea.bots.base import Bot
from alea.romano import TARGET, IllegalActionError, State, default_bank, parse, position
from alea.romano.bank import Bank

#: The probability that a bot of each level answers a riddle or question right.
ACCURACY: Final = {"easy": 0.4, "medium": 0.6, "hard": 0.8}
#: Points of "closeness to 150" that make a choice e times likelier, by level: the
#: higher the level, the more a bot keeps to the choices that pay.
TEMPERATURE: Final = {"easy": 40.0, "medium": 15.0, "hard": 5.0}
#: Landing on exactly 150 wins: worth this much more than any distance.
WIN_VALUE: Final = 300.0
#: Dice the expectation of :func:`turn_value` looks ahead after the declared pair.
LOOKAHEAD: Final = 3
#: The challenge rolls' outcomes from the challenger's side (lower roll wins).
CHALLENGE_ODDS: Final = (("won", 15 / 36), ("tie", 6 / 36), ("lost", 15 / 36))


def closeness(score: int) -> float:
    """How good a score is to stand on: a win on 150, else minus the distance to it."""
    return WIN_VALUE if score == TARGET else -float(abs(TARGET - score))


def turn_value(state: State, seat: int, accuracy: float, dice: int = LOOKAHEAD) -> float:
    """The expected :func:`closeness` of ``seat`` once the turn under way ends.

    Chance is averaged (a roll over its six faces, a draw by its first item, since
    every item is asked the same way), ``seat``'s answer is right with ``accuracy``,
    its other decisions take their best, and past ``dice`` more rolls the score as it
    stands is taken.
    """
    if state.is_terminal() or state.seat != seat or state.phase == "mark":
        return closeness(state.scores[seat])
    if state.is_chance():
        outcomes = state.chance_outcomes()
        if state.phase == "draw":
            outcomes = outcomes[:1]
        elif dice <= 0:
            return closeness(state.scores[seat])
        total = 0.0
        for outcome, p in outcomes:
            nxt = state.clone()
            nxt.apply(outcome)
            total += p * turn_value(nxt, seat, accuracy, dice - 1)
        return total / sum(p for _, p in outcomes)
    legal = state.legal_actions()
    if state.phase == "answer":
        item = state.bank.get(state.item)
        right, wrong = state.clone(), state.clone()
        right.apply(f"A:{item.answer + 1}")
        wrong.apply(f"A:{(item.answer + 1) % 4 + 1}")
        return accuracy * turn_value(right, seat, accuracy, dice) + (1 - accuracy) * turn_value(
            wrong, seat, accuracy, dice
        )
    best = -math.inf
    for action in legal:
        nxt = state.clone()
        nxt.apply(action)
        best = max(best, turn_value(nxt, seat, accuracy, dice))
    return best


def declaration_values(
    start: State, legal: Sequence[str], accuracy: float
) -> list[tuple[str, float]]:
    """Each declaration of ``legal`` with the :func:`turn_value` of its pair coming true,
    from ``start`` (the declaring turn's start)."""
    out = []
    for text in legal:
        state = start.clone()
        state.apply(text)
        a, b = parse(text).values  # type: ignore[union-attr]
        state.apply(f"roll:{a}")
        state.apply(f"roll:{b}")
        out.append((text, turn_value(state, start.seat, accuracy)))
    return out


def weighted(options: Sequence[tuple[str, float]], temperature: float, rng: random.Random) -> str:
    """One of ``options`` (action, value), drawn with weight e^(value / temperature)."""
    top = max(v for _, v in options)
    weights = [math.exp((v - top) / temperature) for _, v in options]
    return rng.choices([a for a, _ in options], weights=weights)[0]


def turn_start(view: dict[str, Any], bank: Bank) -> State | None:
    """The position at the start of the turn ``view`` shows (None if it cannot be rebuilt):
    the engine's own state, so that the bot asks the rules instead of copying them."""
    seat = view["turn_of"]
    played = list(view["turns_played"])
    played[seat] -= 1  # the turn under way is counted from its start
    try:
        state = position(
            view["players"],
            scores=list(view["scores"]),
            seat=seat,
            round=view["round"],
            turns_played=played,
            eliminated=list(view["eliminated"]),
            skip_next=list(view["skip_next"]),
            pending_marcus=list(view["pending_marcus"]),
            bank=bank,
        )
    except (ValueError, IllegalActionError):
        return None
    return state if state.seat == seat and state.phase == view["phase"] else None


class RomanoBot(Bot):
    """A Dado Romano player of a level (``easy``, ``medium``, ``hard``); see the module."""

    def __init__(self, level: str = "medium", bank: Bank | None = None) -> None:
        if level not in ACCURACY:
            raise ValueError(f"unknown level {level!r}: choose one of {', '.join(ACCURACY)}")
        self.name = f"romano-{level}"
        self.level = level
        self.accuracy = ACCURACY[level]
        self.temperature = TEMPERATURE[level]
        self.bank = bank if bank is not None else default_bank()
        #: The values of the declarations at the last declaration position weighed (a
        #: bot asked again at the same position, as in a test, does not search again).
        self._values: tuple[str, list[tuple[str, float]]] = ("", [])

    def act(self, view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """The decision of the seat ``view`` belongs to, among ``legal_actions``."""
        texts = [str(a) for a in legal_actions]
        kind = texts[0].split(":")[0]
        if kind == "A":
            choice = self.answer(view, len(texts), rng)
        elif kind == "D":
            choice = self.declare(view, texts, rng)
        elif kind == "M":
            choice = self.challenge(view, texts, rng)
        else:  # throw, Nero's return number: equal odds
            choice = rng.choice(texts)
        return legal_actions[texts.index(choice)]

    def answer(self, view: dict[str, Any], choices: int, rng: random.Random) -> str:
        """Right with :attr:`accuracy`, else one of the wrong choices (a guess when the
        item is not in the bot's bank)."""
        try:
            right = self.bank.get(view["item"]).answer + 1
        except KeyError:
            return f"A:{rng.randint(1, choices)}"
        if rng.random() < self.accuracy:
            return f"A:{right}"
        return f"A:{rng.choice([n for n in range(1, choices + 1) if n != right])}"

    def declare(self, view: dict[str, Any], legal: Sequence[str], rng: random.Random) -> str:
        """A pair drawn by the value of the turn should it come true (uniform when the
        position cannot be rebuilt from the view)."""
        start = turn_start(view, self.bank)
        if start is None:
            return rng.choice(list(legal))
        key = str(start.to_json())
        if self._values[0] != key:
            self._values = (key, declaration_values(start, legal, self.accuracy))
        return weighted(self._values[1], self.temperature, rng)

    def challenge(self, view: dict[str, Any], legal: Sequence[str], rng: random.Random) -> str:
        """Challenge or decline by the expected closeness to 150 after the challenge."""
        seat = view["turn_of"]
        mine = view["scores"][seat]
        sign = -1 if view["inverted_this_turn"][seat] else 1
        options = []
        for text in legal:
            if text == "M:pass":
                options.append((text, closeness(mine)))
                continue
            theirs = view["scores"][int(text[2:])]
            after = {"won": theirs, "tie": mine + sign * 20, "lost": mine - sign * 40}
            options.append((text, sum(p * closeness(after[o]) for o, p in CHALLENGE_ODDS)))
        return weighted(options, self.temperature, rng)


class RandomRomanoBot(Bot):
    """Uniform over the legal actions of a Dado Romano decision (simulations' baseline)."""

    def __init__(self, name: str = "random") -> None:
        self.name = name

    def act(self, view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """A legal action drawn uniformly with ``rng`` (the view is not needed)."""
        return rng.choice(legal_actions)
