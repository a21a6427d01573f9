"""The 36 combinations of Dado Romano (RULES.md B4) as data.

A *combination* is the ordered pair (first roll, second roll); each one names a
Roman figure and has exactly one effect. The table is data rather than code so
that the engine dispatches on a handful of effect kinds, and the terminal game,
the documentation and the tests can all read the same names and amounts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

#: What a combination does. The engine has one branch per kind.
EffectKind = Literal[
    "roll-both-again",  # 1-1: a new combination
    "roll-second-again",  # 1-5: a new combination 1-x
    "add",  # a fixed relative change (amount may be negative)
    "set",  # the score becomes amount (never inverted)
    "riddle",  # a riddle: reward on right, penalty on wrong
    "question",  # a question: reward on right, penalty on wrong
    "challenge",  # 1-4 Messalina
    "add-rolls",  # roll the die `rolls` times and add the sum (1-6, 2-2)
    "add-six-times",  # 3-1 Seneca: roll once, add 6 × the number
    "eliminate",  # 3-2 Nero
    "next-player-rolls",  # 3-4 Marcus Aurelius
    "lose-low-gain-high",  # 4-1 Tiberius
    "plus-six-doubled",  # 4-6 Vergilius: (score + 6) × 2
    "skip-next-turn",  # 5-1 Caracalla
    "halve",  # 5-4 Crassus: halved, rounded toward zero
]

#: What a right or wrong answer does to the score.
RewardKind = Literal["add", "set", "gain-half", "nothing"]


@dataclass(frozen=True, slots=True)
class Reward:
    """The consequence of a right or a wrong answer to a riddle or question."""

    kind: RewardKind
    amount: int = 0


NOTHING: Final = Reward("nothing")


@dataclass(frozen=True, slots=True)
class Figure:
    """One combination: its two rolls, its figure's name and its effect."""

    first: int
    second: int
    name: str
    kind: EffectKind
    amount: int = 0
    rolls: int = 0
    right: Reward = NOTHING
    wrong: Reward = NOTHING

    @property
    def pair(self) -> str:
        """The combination as written in the rules and the notation: ``"1-4"``."""
        return f"{self.first}-{self.second}"

    @property
    def relative(self) -> bool:
        """Whether the effect can change a score relatively (so the ceiling matters)."""
        if self.kind in ("riddle", "question"):
            return any(r.kind in ("add", "gain-half") for r in (self.right, self.wrong))
        return self.kind not in (
            "roll-both-again",
            "roll-second-again",
            "set",
            "eliminate",
            "skip-next-turn",
        )


def _f(
    pair: str,
    name: str,
    kind: EffectKind,
    *,
    amount: int = 0,
    rolls: int = 0,
    right: Reward = NOTHING,
    wrong: Reward = NOTHING,
) -> Figure:
    a, b = (int(x) for x in pair.split("-"))
    return Figure(a, b, name, kind, amount, rolls, right, wrong)


_TABLE: Final = (
    _f("1-1", "Vespasianus", "roll-both-again"),
    _f("1-2", "Iuvenalis", "riddle", right=Reward("add", 10)),
    _f("1-3", "Iulius Caesar", "add", amount=5),
    _f("1-4", "Messalina", "challenge"),
    _f("1-5", "Quintus Ennius", "roll-second-again"),
    _f("1-6", "Octavius Augustus", "add-rolls", rolls=3),
    _f("2-1", "Constantinus", "add", amount=-5),
    _f("2-2", "Claudius", "add-rolls", rolls=2),
    _f("2-3", "Quintilianus", "add", amount=20),
    _f("2-4", "Tacitus", "add", amount=10),
    _f("2-5", "Lucanus", "riddle", right=Reward("add", 20)),
    _f("2-6", "Iustinianus", "set", amount=0),
    _f("3-1", "Seneca", "add-six-times", rolls=1),
    _f("3-2", "Nero", "eliminate"),
    _f("3-3", "Cicero", "add", amount=-10),
    _f("3-4", "Marcus Aurelius", "next-player-rolls"),
    _f("3-5", "Commodus", "question", wrong=Reward("set", 0)),
    _f("3-6", "Domitianus", "add", amount=-3),
    _f("4-1", "Tiberius", "lose-low-gain-high", rolls=1),
    _f("4-2", "Romulus", "add", amount=40),
    _f("4-3", "Nerva", "add", amount=4),
    _f("4-4", "Titus", "question", right=Reward("gain-half")),
    _f("4-5", "Agrippina", "riddle", wrong=Reward("set", 0)),
    _f("4-6", "Vergilius", "plus-six-doubled"),
    _f("5-1", "Caracalla", "skip-next-turn"),
    _f("5-2", "Scipio Africanus", "add", amount=10),
    _f("5-3", "Catilina", "add", amount=-8),
    _f("5-4", "Crassus", "halve"),
    _f("5-5", "Traianus", "add", amount=30),
    _f("5-6", "Porcius Cato", "question", right=Reward("add", 10), wrong=Reward("add", -2)),
    _f("6-1", "Aurelianus", "riddle", right=Reward("add", 10)),
    _f("6-2", "Antoninus Pius", "add", amount=-8),
    _f("6-3", "Drusus Claudianus", "question", right=Reward("add", 15)),
    _f("6-4", "Hadrianus", "set", amount=149),
    _f("6-5", "Titus Livius", "set", amount=170),
    _f("6-6", "Agrippa", "riddle", right=Reward("add", 15)),
)

#: Every combination, keyed by its pair string ``"a-b"``.
FIGURES: Final[dict[str, Figure]] = {f.pair: f for f in _TABLE}

#: The roman numerals on the faces of the die.
FACES: Final = ("I", "II", "III", "IV", "V", "VI")


def figure(first: int, second: int) -> Figure:
    """The figure of the ordered pair (first roll, second roll)."""
    return FIGURES[f"{first}-{second}"]


def face(value: int) -> str:
    """The roman numeral shown on the die for ``value`` (1–6)."""
    return FACES[value - 1]


def half_toward_zero(score: int) -> int:
    """Crassus: half the score, rounded toward zero (−7 → −3, 7 → 3)."""
    return score // 2 if score >= 0 else -((-score) // 2)


def half_rounded_down(score: int) -> int:
    """Titus: half the score, rounded down (7 → 3, −7 → −4)."""
    return score // 2


def declaration_bonus(declared: tuple[int, int], rolled: tuple[int, int]) -> int:
    """Third-turn declaration (B2): both right +50, exactly one position +10, neither −30."""
    hits = (declared[0] == rolled[0]) + (declared[1] == rolled[1])
    return (-30, 10, 50)[hits]


assert len(FIGURES) == 36
