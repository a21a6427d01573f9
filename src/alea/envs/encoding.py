"""The fixed integer action space of Alea Iacta Est, and its chance-outcome space.

Learning code wants every decision as an index into one fixed vector (a policy
head, a legal-action mask). This module enumerates *every* action any state of
any player count can offer (RULES.md §7 notation), in a fixed documented
order, so that index ``i`` means the same action in every game, every seat
and every release. Nothing here depends on a state: the tables are built once
at import from the rules' own bounds.

The layout (``docs/envs.md`` has the full table) is nine consecutive blocks,
in the order of the notation table of RULES.md §7:

====== ===== ===== ===========================================================
block  first count what
====== ===== ===== ===========================================================
``R:`` 0     3002  re-roll: any multiset of 1–8 dice
``T:`` 3002  3002  Temple: any multiset of 1–8 dice
``S:`` 6004  56    Senate: the values placed, one run (a new straight or an
                   extension at one end) or two runs (extension at both ends)
``C:`` 6060  48    Castrum: 1–8 dice of one value
``F:`` 6108  8     Forum: one die 1–6, then the pairs 1+4 and 2+3
``L:`` 6116  6     Latrine: one die 1–6
``K:`` 6122  18    Senate card: I–XI, the six XII border provinces, XIII
``P:`` 6140  25    province: red1–4, orange, yellow, green, blue, purple, grey0
``N:`` 6165  36    patrician: per colour, men 1–3 then women 1–3
====== ===== ===== ===========================================================

Within a dice block the multisets are ordered by size, then
lexicographically (``1, 2, …, 6, 11, 12, …, 66, 111, …``). The total is
:data:`NUM_DISTINCT_ACTIONS` = 6201. The order is frozen: a change is a new
:data:`ENCODING_VERSION`, and ``tests/envs/test_encoding.py`` pins a digest.

Chance outcomes get the same treatment (OpenSpiel needs them as integers):
``roll:`` 0–3001 (same multiset order), ``province:`` 3002–3026,
``patrician:`` 3027–3062, ``fortuna:`` 3063–3065, ``senate:`` 3066–3083.
"""

from __future__ import annotations

import os
from itertools import combinations_with_replacement
from types import ModuleType
from typing import TYPE_CHECKING, Final

import numpy as np
import numpy.typing as npt

from alea.iacta.cards import PATRICIANS, PROVINCES, SENATE_CARDS
from alea.iacta.dice import submultisets
from alea.iacta.notation import Action, Outcome, card_action, card_outcome, dice_action
from alea.iacta.notation import roll_outcome as _roll_outcome

if TYPE_CHECKING:
    from alea.iacta.state import State

__all__ = [
    "ACTION_BLOCKS",
    "ENCODING_VERSION",
    "NUM_CHANCE_OUTCOMES",
    "NUM_DISTINCT_ACTIONS",
    "OUTCOME_BLOCKS",
    "decode",
    "decode_outcome",
    "encode",
    "encode_outcome",
    "legal_ids",
    "legal_mask",
    "num_distinct_actions",
    "python_legal_mask",
]

#: Bumped whenever an index changes meaning (never silently).
ENCODING_VERSION: Final = 1

Dice = tuple[int, ...]


def _by_size(dice: list[Dice]) -> list[Dice]:
    """Multisets ordered by size, then lexicographically: the order of every dice block."""
    return sorted(dice, key=lambda d: (len(d), d))


#: Every multiset of 1–8 dice (3002 of them): re-rolls, Temple placements, rolls.
DICE_MULTISETS: Final[tuple[Dice, ...]] = tuple(
    _by_size([c for k in range(1, 9) for c in combinations_with_replacement(range(1, 7), k)])
)


def _runs(values: Dice) -> int:
    """Number of maximal runs of consecutive values in a sorted set of distinct values."""
    return sum(1 for i, v in enumerate(values) if i == 0 or values[i - 1] != v - 1)


#: Senate placements: sets of distinct values forming one run (a new straight, or
#: an extension at one end) or two runs (an extension at both ends: the gap
#: between them is the straight already placed). 21 + 35 = 56.
SENATE_DICE: Final[tuple[Dice, ...]] = tuple(
    _by_size(
        [
            c
            for k in range(1, 7)
            for c in combinations_with_replacement(range(1, 7), k)
            if len(set(c)) == k and _runs(c) <= 2
        ]
    )
)

#: Castrum placements: one to eight dice of a single value (48).
CASTRUM_DICE: Final[tuple[Dice, ...]] = tuple(
    _by_size([(v,) * k for v in range(1, 7) for k in range(1, 9)])
)
#: Forum placements: a single die, or the pairs summing to 5 (8).
FORUM_DICE: Final[tuple[Dice, ...]] = (*((v,) for v in range(1, 7)), (1, 4), (2, 3))
#: Latrine placements: exactly one die (6).
LATRINE_DICE: Final[tuple[Dice, ...]] = tuple((v,) for v in range(1, 7))

#: The 18 distinct Senate cards (XIII exists twice but is one choice).
SENATE_IDS: Final[tuple[str, ...]] = tuple(SENATE_CARDS)
#: The 25 province cards in ring-colour order, value ascending, then the wild one.
PROVINCE_IDS: Final[tuple[str, ...]] = tuple(PROVINCES)
#: The 36 patricians: per colour, men 1–3 then women 1–3.
PATRICIAN_IDS: Final[tuple[str, ...]] = tuple(PATRICIANS)


def _build_actions() -> tuple[list[Action], list[tuple[str, int, int]]]:
    actions: list[Action] = []
    blocks: list[tuple[str, int, int]] = []

    def block(kind: str, items: list[Action]) -> None:
        blocks.append((kind, len(actions), len(items)))
        actions.extend(items)

    block("R", [dice_action("R", d) for d in DICE_MULTISETS])
    block("T", [dice_action("T", d) for d in DICE_MULTISETS])
    block("S", [dice_action("S", d) for d in SENATE_DICE])
    block("C", [dice_action("C", d) for d in CASTRUM_DICE])
    block("F", [dice_action("F", d) for d in FORUM_DICE])
    block("L", [dice_action("L", d) for d in LATRINE_DICE])
    block("K", [card_action("K", c) for c in SENATE_IDS])
    block("P", [card_action("P", c) for c in PROVINCE_IDS])
    block("N", [card_action("N", c) for c in PATRICIAN_IDS])
    return actions, blocks


def _build_outcomes() -> tuple[list[Outcome], list[tuple[str, int, int]]]:
    outcomes: list[Outcome] = []
    blocks: list[tuple[str, int, int]] = []

    def block(kind: str, items: list[Outcome]) -> None:
        blocks.append((kind, len(outcomes), len(items)))
        outcomes.extend(items)

    block("roll", [_roll_outcome(d) for d in DICE_MULTISETS])
    block("province", [card_outcome("province", c) for c in PROVINCE_IDS])
    block("patrician", [card_outcome("patrician", c) for c in PATRICIAN_IDS])
    block("fortuna", [card_outcome("fortuna", str(v)) for v in (1, 2, 3)])
    block("senate", [card_outcome("senate", c) for c in SENATE_IDS])
    return outcomes, blocks


_ACTIONS, _ACTION_BLOCKS = _build_actions()
_OUTCOMES, _OUTCOME_BLOCKS = _build_outcomes()
_ACTION_INDEX: Final[dict[str, int]] = {a: i for i, a in enumerate(_ACTIONS)}
_OUTCOME_INDEX: Final[dict[str, int]] = {str(o): i for i, o in enumerate(_OUTCOMES)}

#: Number of distinct actions (the size of the action space and of the mask).
NUM_DISTINCT_ACTIONS: Final = len(_ACTIONS)
#: Number of distinct chance outcomes.
NUM_CHANCE_OUTCOMES: Final = len(_OUTCOMES)
#: ``(kind, first index, count)`` of each action block, in index order.
ACTION_BLOCKS: Final[tuple[tuple[str, int, int], ...]] = tuple(_ACTION_BLOCKS)
#: ``(kind, first index, count)`` of each chance-outcome block, in index order.
OUTCOME_BLOCKS: Final[tuple[tuple[str, int, int], ...]] = tuple(_OUTCOME_BLOCKS)


def num_distinct_actions() -> int:
    """The size of the action space: 6201 (the same for 2–5 players)."""
    return NUM_DISTINCT_ACTIONS


def encode(action: Action | str) -> int:
    """The index of an action (or of its notation string), e.g. ``encode("C:444") == 6075``.

    Raises :class:`KeyError` for a string that is no action of the game.
    """
    try:
        return _ACTION_INDEX[action]
    except KeyError:
        raise KeyError(f"{action!r} is not an action of Alea Iacta Est (see RULES.md §7)") from None


def decode(index: int) -> Action:
    """The action with index ``index`` (0 ≤ index < :data:`NUM_DISTINCT_ACTIONS`)."""
    i = int(index)
    if not 0 <= i < NUM_DISTINCT_ACTIONS:
        raise IndexError(f"action index {index} is outside 0..{NUM_DISTINCT_ACTIONS - 1}")
    return _ACTIONS[i]


def encode_outcome(outcome: Outcome | str) -> int:
    """The index of a chance outcome, e.g. ``encode_outcome("fortuna:2") == 3064``."""
    try:
        return _OUTCOME_INDEX[outcome]
    except KeyError:
        raise KeyError(f"{outcome!r} is not a chance outcome of Alea Iacta Est") from None


def decode_outcome(index: int) -> Outcome:
    """The chance outcome with index ``index`` (0 ≤ index < :data:`NUM_CHANCE_OUTCOMES`)."""
    i = int(index)
    if not 0 <= i < NUM_CHANCE_OUTCOMES:
        raise IndexError(f"chance outcome index {index} is outside 0..{NUM_CHANCE_OUTCOMES - 1}")
    return _OUTCOMES[i]


def legal_ids(state: State) -> list[int]:
    """The indices of the legal actions of the player to move, ascending (empty at chance)."""
    index = _ACTION_INDEX
    return sorted([index[a] for a in state.legal_actions()])


_INT8: Final = np.dtype(np.int8)
_NO_ACTIONS: Final = bytearray(NUM_DISTINCT_ACTIONS)
_REROLL_BLOCK: Final = ACTION_BLOCKS[0]
assert _REROLL_BLOCK[0] == "R" and _REROLL_BLOCK[1] == 0
_reroll_masks: dict[tuple[int, ...], tuple[int, bytes]] = {}


def _reroll_mask(roll: tuple[int, ...]) -> tuple[int, bytes]:
    """How many re-rolls a roll offers, and the ``R:`` block of the mask for them all."""
    found = _reroll_masks.get(roll)
    if found is None:
        block = bytearray(_REROLL_BLOCK[2])
        options = submultisets(roll)
        for dice in options:
            block[_ACTION_INDEX[dice_action("R", dice)]] = 1
        found = (len(options), bytes(block))
        _reroll_masks[roll] = found
    return found


def legal_mask(state: State) -> npt.NDArray[np.int8]:
    """A fresh int8 vector of :data:`NUM_DISTINCT_ACTIONS` with 1 at each legal action.

    Built by the compiled builder of :mod:`alea.envs._fast` when it is
    installed, else by :func:`python_legal_mask`; both give the same mask.
    """
    fast = _FAST
    if fast is None:
        return python_legal_mask(state)
    mask: npt.NDArray[np.int8] = fast.mask(state)
    return mask


def python_legal_mask(state: State) -> npt.NDArray[np.int8]:
    """:func:`legal_mask` in pure Python (used where the compiled builder is absent).

    Built in a ``bytearray`` and handed to numpy without a copy: per-item
    stores there cost a fraction of numpy's fancy indexing, and the mask is
    built at every step of every environment. A player holding a re-roll token
    may re-roll any part of the roll, often a hundred options or more, so when
    the legal list ends with exactly the roll's sub-multisets (checked, not
    assumed) that whole block is copied from a per-roll cache.
    """
    legal = state.legal_actions()
    buffer = _NO_ACTIONS[:]
    index = _ACTION_INDEX
    count = len(legal)
    roll = state.roll
    if roll and count > 1 and legal[-1].kind == "R":
        rerolls, block = _reroll_mask(roll)
        first = count - rerolls
        if first >= 0 and legal[first].kind == "R" and (first == 0 or legal[first - 1].kind != "R"):
            buffer[: len(block)] = block
            legal = legal[:first]
    for action in legal:
        buffer[index[action]] = 1
    return np.ndarray((NUM_DISTINCT_ACTIONS,), _INT8, buffer)


def _load_compiled() -> ModuleType | None:
    """The compiled builders (:mod:`alea.envs._fast`), the mask's part configured, or ``None``.

    The one place that decides whether the compiled builders are used:
    :mod:`alea.envs.observation` takes the module from here (:data:`COMPILED`)
    and configures the observation's part. ``ALEA_PURE_PYTHON=1`` in the
    environment turns both off, to measure or debug the pure-Python builders.
    """
    if os.environ.get("ALEA_PURE_PYTHON", "") not in ("", "0"):
        return None
    try:
        from alea.envs import _fast
    except ImportError:
        return None
    _fast.configure_mask(
        NUM_DISTINCT_ACTIONS, _ACTION_INDEX, _REROLL_BLOCK[2], _reroll_masks, _reroll_mask
    )
    return _fast


_FAST: Final = _load_compiled()
#: The compiled builders' module (mask configured), or ``None`` without the extension.
COMPILED: Final = _FAST
