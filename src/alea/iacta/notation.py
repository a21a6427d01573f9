"""Actions and chance outcomes, and their text notation (RULES.md §7).

An :class:`Action` or :class:`Outcome` *is* its notation string (both subclass
``str``): ``str(action)`` costs nothing, records are lists of these strings,
and a plain string such as ``"C:444"`` compares equal to the action it names.
The parsed parts (building letter, dice, card) are kept in a side table, so
each distinct action is parsed once per process and then shared.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from alea.iacta.cards import PATRICIANS, PROVINCES, SENATE_CARDS
from alea.iacta.errors import NotationError
from alea.iacta.native import python_class

#: Action kinds: re-roll, the five buildings, and the three evaluation choices.
REROLL: Final = "R"
TEMPLE: Final = "T"
SENATE: Final = "S"
CASTRUM: Final = "C"
FORUM: Final = "F"
LATRINE: Final = "L"
CHOOSE_SENATE: Final = "K"
CHOOSE_PROVINCE: Final = "P"
CHOOSE_PATRICIAN: Final = "N"

DICE_KINDS: Final = frozenset({REROLL, TEMPLE, SENATE, CASTRUM, FORUM, LATRINE})
CARD_KINDS: Final = frozenset({CHOOSE_SENATE, CHOOSE_PROVINCE, CHOOSE_PATRICIAN})
BUILDING_NAMES: Final = {
    TEMPLE: "Temple",
    SENATE: "Senate",
    CASTRUM: "Castrum",
    FORUM: "Forum",
    LATRINE: "Latrine",
}

#: Chance outcome kinds.
ROLL: Final = "roll"
PROVINCE: Final = "province"
PATRICIAN: Final = "patrician"
FORTUNA: Final = "fortuna"
SENATE_DRAW: Final = "senate"
OUTCOME_KINDS: Final = frozenset({ROLL, PROVINCE, PATRICIAN, FORTUNA, SENATE_DRAW})


@python_class
class Action(str):
    """A player's decision, e.g. ``Action.parse("C:444")``.

    ``kind`` is the letter before the colon; ``dice`` the dice it names (sorted,
    empty for card choices); ``card`` the card it names (empty for dice).
    """

    __slots__ = ()

    @property
    def kind(self) -> str:
        return _ACTION_PARTS[self][0]

    @property
    def dice(self) -> tuple[int, ...]:
        return _ACTION_PARTS[self][1]

    @property
    def card(self) -> str:
        return _ACTION_PARTS[self][2]

    def __repr__(self) -> str:
        return f"Action({str.__str__(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Action:
        """The action a notation string names; :class:`NotationError` if malformed."""
        found = _ACTIONS.get(text)
        if found is not None:
            return found
        kind, sep, rest = text.partition(":")
        if not sep or kind not in DICE_KINDS | CARD_KINDS:
            raise NotationError(
                f"{text!r} is not an action: expected R:, T:, S:, C:, F:, L: followed by dice, "
                "or K:, P:, N: followed by a card"
            )
        if kind in DICE_KINDS:
            if not rest or any(ch not in "123456" for ch in rest):
                raise NotationError(f"{text!r}: dice are written as digits 1–6, e.g. {kind}:344")
            return dice_action(kind, tuple(sorted(int(ch) for ch in rest)))
        if rest not in _CARD_TABLES[kind]:
            what = {
                CHOOSE_SENATE: "Senate card",
                CHOOSE_PROVINCE: "province",
                CHOOSE_PATRICIAN: "patrician",
            }
            raise NotationError(f"{text!r}: {rest!r} is not a {what[kind]}")
        return card_action(kind, rest)


@python_class
class Outcome(str):
    """A chance outcome, e.g. ``Outcome.parse("roll:12344445")``.

    ``kind`` is the event (``roll``, ``province``, ``patrician``, ``fortuna``,
    ``senate``); ``dice`` the dice rolled; ``card`` the card revealed or drawn
    (for ``fortuna`` the tile value as a string).
    """

    __slots__ = ()

    @property
    def kind(self) -> str:
        return _OUTCOME_PARTS[self][0]

    @property
    def dice(self) -> tuple[int, ...]:
        return _OUTCOME_PARTS[self][1]

    @property
    def card(self) -> str:
        return _OUTCOME_PARTS[self][2]

    def __repr__(self) -> str:
        return f"Outcome({str.__str__(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Outcome:
        """The outcome a notation string names; :class:`NotationError` if malformed."""
        found = _OUTCOMES.get(text)
        if found is not None:
            return found
        kind, sep, rest = text.partition(":")
        if not sep or kind not in OUTCOME_KINDS:
            raise NotationError(
                f"{text!r} is not a chance outcome: expected roll:, province:, patrician:, "
                "fortuna: or senate:"
            )
        if kind == ROLL:
            if not rest or len(rest) > 8 or any(ch not in "123456" for ch in rest):
                raise NotationError(f"{text!r}: a roll is 1 to 8 digits 1–6, e.g. roll:13356")
            return roll_outcome(tuple(sorted(int(ch) for ch in rest)))
        if kind == FORTUNA:
            if rest not in ("1", "2", "3"):
                raise NotationError(f"{text!r}: a Fortuna tile is worth 1, 2 or 3")
            return fortuna_outcome(int(rest))
        if rest not in _CARD_TABLES[kind]:
            raise NotationError(f"{text!r}: {rest!r} is not a {kind} card")
        return card_outcome(kind, rest)


#: The cards each card-naming kind may name.
_CARD_TABLES: Final[dict[str, Mapping[str, object]]] = {
    CHOOSE_SENATE: SENATE_CARDS,
    CHOOSE_PROVINCE: PROVINCES,
    CHOOSE_PATRICIAN: PATRICIANS,
    SENATE_DRAW: SENATE_CARDS,
    PROVINCE: PROVINCES,
    PATRICIAN: PATRICIANS,
}

_ACTIONS: dict[str, Action] = {}
_ACTION_PARTS: dict[str, tuple[str, tuple[int, ...], str]] = {}
_DICE_ACTIONS: dict[tuple[str, tuple[int, ...]], Action] = {}
_OUTCOMES: dict[str, Outcome] = {}
_OUTCOME_PARTS: dict[str, tuple[str, tuple[int, ...], str]] = {}
_ROLLS: dict[tuple[int, ...], Outcome] = {}


def dice_action(kind: str, dice: tuple[int, ...]) -> Action:
    """The shared :class:`Action` for a building letter (or ``R``) and sorted dice."""
    key = (kind, dice)
    found = _DICE_ACTIONS.get(key)
    if found is None:
        found = Action(kind + ":" + "".join(map(str, dice)))
        _ACTIONS[found] = found
        _ACTION_PARTS[found] = (kind, dice, "")
        _DICE_ACTIONS[key] = found
    return found


def action_parts(action: str) -> tuple[str, tuple[int, ...], str]:
    """``(kind, dice, card)`` of an action, as its properties read them, in one call.

    :class:`Action` stays a plain Python class (it subclasses ``str``), so each
    property read goes through Python's attribute machinery; compiled hot loops
    (the greedy bot's, run by every IS-MCTS playout) read the three parts here
    with one native call and one dictionary look-up instead.
    """
    return _ACTION_PARTS[action]


#: By kind, then card: the shared card actions and outcomes. A look-up in the small
#: per-kind dict hashes the card's own string (its hash is cached), where a look-up by the
#: notation text first built ``kind + ":" + card``, a new string hashed afresh each call.
_CARD_ACTIONS: dict[str, dict[str, Action]] = {}
_CARD_OUTCOMES: dict[str, dict[str, Outcome]] = {}


def card_action(kind: str, card: str) -> Action:
    """The shared :class:`Action` for a card choice (``K``, ``P`` or ``N``)."""
    by_card = _CARD_ACTIONS.get(kind)
    if by_card is None:
        by_card = _CARD_ACTIONS[kind] = {}
    found = by_card.get(card)
    if found is None:
        text = kind + ":" + card
        found = _ACTIONS.get(text)
        if found is None:
            found = Action(text)
            _ACTIONS[found] = found
            _ACTION_PARTS[found] = (kind, (), card)
        by_card[card] = found
    return found


def roll_outcome(dice: tuple[int, ...]) -> Outcome:
    """The shared ``roll:`` :class:`Outcome` for sorted dice."""
    found = _ROLLS.get(dice)
    if found is None:
        found = Outcome("roll:" + "".join(map(str, dice)))
        _OUTCOMES[found] = found
        _OUTCOME_PARTS[found] = (ROLL, dice, "")
        _ROLLS[dice] = found
    return found


def card_outcome(kind: str, card: str) -> Outcome:
    """The shared :class:`Outcome` revealing or drawing a card."""
    by_card = _CARD_OUTCOMES.get(kind)
    if by_card is None:
        by_card = _CARD_OUTCOMES[kind] = {}
    found = by_card.get(card)
    if found is None:
        text = kind + ":" + card
        found = _OUTCOMES.get(text)
        if found is None:
            found = Outcome(text)
            _OUTCOMES[found] = found
            _OUTCOME_PARTS[found] = (kind, (), card)
        by_card[card] = found
    return found


#: FORTUNA_OUTCOMES[v - 1] is the shared ``fortuna:v`` outcome: drawing a tile needs no
#: ``str(value)`` and no look-up.
FORTUNA_OUTCOMES: Final[tuple[Outcome, ...]] = tuple(
    card_outcome(FORTUNA, str(value)) for value in (1, 2, 3)
)


def fortuna_outcome(value: int) -> Outcome:
    """The shared ``fortuna:`` :class:`Outcome` for a tile value (1 to 3)."""
    if 1 <= value <= 3:
        return FORTUNA_OUTCOMES[value - 1]
    return card_outcome(FORTUNA, str(value))


def parse(text: str) -> Action | Outcome:
    """Parse any notation token: an action or a chance outcome."""
    found = _ACTIONS.get(text) or _OUTCOMES.get(text)
    if found is not None:
        return found
    head = text.partition(":")[0]
    if head in OUTCOME_KINDS:
        return Outcome.parse(text)
    return Action.parse(text)


def dice_text(dice: tuple[int, ...] | list[int]) -> str:
    """Dice as they are written in notation: ascending digits."""
    return "".join(map(str, sorted(dice)))
