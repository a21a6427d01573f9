"""The layout of the observation tensor: its blocks, fields, sizes and bounds.

Why a module of its own: the layout is the *contract* of the observation
(``docs/envs.md`` shows it as a table, ``tests/envs/reference.py`` builds a
reference tensor from it, the compiled builder receives it), while
:mod:`alea.envs.observation` is the fast builder that fills it in. Every size
and bound is read from the engine's own tables, so the tensor follows the
rules (RULES.md §6) rather than numbers copied by hand.
"""

from __future__ import annotations

from typing import Final, NamedTuple

import numpy as np
import numpy.typing as npt

from alea.iacta.cards import (
    FORTUNA_COPIES,
    PATRICIANS,
    PROVINCES,
    SENATE_CARDS,
    SENATE_COPIES,
    senate_deck,
)
from alea.iacta.forum import columns
from alea.iacta.senate import takers
from alea.iacta.state import DICE_PER_PLAYER, PHASE_NAMES, ROUNDS, SENATE_HAND

__all__ = [
    "BLOCKS",
    "FIELDS",
    "HIGH",
    "MAX_FORUM",
    "MAX_SEATS",
    "OBSERVATION_SIZE",
    "SLOT",
    "SLOT_CARDS",
    "Field",
    "field_slices",
]

# Sizes and bounds read from the engine's own tables, so the tensor follows the rules.
_MIN_PLAYERS: Final = min(ROUNDS)
#: Seat slots in every tensor (the most players a game can have: 5).
MAX_SEATS: Final = max(ROUNDS)
#: Forum columns in the tensor (players + 2 for 5 players: 7).
MAX_FORUM: Final = columns(MAX_SEATS)
_PHASES: Final = len(PHASE_NAMES)
_ROUNDS: Final = max(ROUNDS.values())
_DICE: Final = DICE_PER_PLAYER
_COPIES: Final = max(SENATE_COPIES.values())  # XIII is in the box twice

_PROVINCE_INDEX: Final = {card: i for i, card in enumerate(PROVINCES)}
_PATRICIAN_INDEX: Final = {card: i for i, card in enumerate(PATRICIANS)}
_SENATE_INDEX: Final = {card: i for i, card in enumerate(SENATE_CARDS)}
_NP: Final = len(_PROVINCE_INDEX)  # 25
_NN: Final = len(_PATRICIAN_INDEX)  # 36
_NK: Final = len(_SENATE_INDEX)  # 18
_FORTUNA_HIGH: Final = tuple(float(FORTUNA_COPIES[v]) for v in (1, 2, 3))  # tiles in the box


class Field(NamedTuple):
    """One named part of the tensor: its block, name, length, upper bounds and meaning."""

    block: str  # "global", "private", "cards", "slot_cards" or "slot" (see BLOCKS)
    name: str
    size: int
    high: tuple[float, ...]
    meaning: str


def _f(block: str, name: str, size: int, high: float | tuple[float, ...], meaning: str) -> Field:
    bound = high if isinstance(high, tuple) else (float(high),) * size
    return Field(block, name, size, bound, meaning)


#: The blocks of the tensor, in order, and how many times each repeats.
#: ``slot_cards`` and ``slot`` repeat once per seat slot (slot 0 = the observer).
BLOCKS: Final = (
    ("global", 1),
    ("private", 1),
    ("cards", 1),
    ("slot_cards", MAX_SEATS),
    ("slot", MAX_SEATS),
)

#: The fields of each block, in order (a ``slot_cards`` or ``slot`` field is
#: repeated in each of the :data:`MAX_SEATS` copies of its block).
FIELDS: Final[tuple[Field, ...]] = (
    _f("global", "players", len(ROUNDS), 1, "one-hot player count: 2, 3, 4, 5"),
    _f("global", "round", _ROUNDS, 1, "one-hot current round 1–6 (the last one once over)"),
    _f("global", "game_over", 1, 1, "1 once the game has ended"),
    _f("global", "phase", _PHASES, 1, "one-hot engine phase (docs/envs.md lists them)"),
    _f("global", "roll", 6, _DICE, "the dice just rolled (public), as counts of 1–6"),
    _f("global", "kept", 6, _DICE, "dice set aside during a re-roll, counts of 1–6"),
    _f("global", "rerolling", 1, _DICE, "number of dice being re-rolled"),
    _f("global", "fortuna_pending", 1, _DICE, "Fortuna draws still due for a Temple placement"),
    _f("global", "ending", 1, 1, "1 once a player has placed their last die this round"),
    _f("global", "forum_value", MAX_FORUM * 6, 1, "per Forum column 1–7: one-hot die value"),
    _f("global", "forum_owner", MAX_FORUM * MAX_SEATS, 1, "per Forum column: one-hot owner slot"),
    _f("global", "deck_provinces", 1, _NP, "province cards left in the deck"),
    _f("global", "deck_patricians", 1, _NN, "patrician tiles left in the deck"),
    _f(
        "global",
        "deck_senate",
        1,
        len(senate_deck(MAX_SEATS)),
        "Senate cards in the deck, its bottom included",
    ),
    _f("global", "fortuna_stack", 1, sum(FORTUNA_COPIES.values()), "Fortuna tiles in the stack"),
    _f("global", "fortuna_discards", 3, _FORTUNA_HIGH, "face-up discards of value 1, 2, 3"),
    _f("global", "senate_hand_size", 1, SENATE_HAND, "Senate cards being handed out now"),
    _f("private", "own_fortuna_drawn", 3, _DICE, "own Fortuna draws this round, counts of 1, 2, 3"),
    _f("private", "senate_hand", _NK, _COPIES, "the Senate hand, if this seat has held it"),
    _f("private", "senate_bottom", _NK, _COPIES, "Senate cards this seat put under the deck"),
    _f("cards", "revealed_provinces", _NP, 1, "provinces on offer at the Castrum"),
    _f("cards", "revealed_patricians", _NN, 1, "patricians on offer at the Forum"),
    _f("cards", "removed_provinces", _NP, 1, "provinces removed from the game"),
    _f("cards", "removed_patricians", _NN, 1, "patricians removed from the game"),
    _f("slot_cards", "present", 1, 1, "1 if the slot is a seat of this game"),
    _f("slot_cards", "provinces", _NP, 1, "provinces owned"),
    _f("slot_cards", "patricians", _NN, 1, "patricians owned"),
    _f("slot_cards", "fortuna_kept", 3, _FORTUNA_HIGH, "kept (face-up) Fortuna tiles of 1, 2, 3"),
    _f("slot_cards", "senate_count", 1, _ROUNDS, "Senate cards owned (a count: public)"),
    _f(
        "slot_cards",
        "senate_cards",
        _NK,
        _COPIES,
        "Senate cards owned: own slot only, all once over",
    ),
    _f("slot", "start_player", 1, 1, "1 for this round's start player"),
    _f("slot", "to_move", 1, 1, "1 for the seat that decides next"),
    _f("slot", "dice", 1, _DICE, "unplaced dice"),
    _f("slot", "tokens", 1, _DICE * _ROUNDS, "re-roll tokens"),
    _f("slot", "latrine", 1, _DICE, "dice in the Latrine"),
    _f("slot", "temple", 6, _DICE, "the Temple group, counts of 1–6 (4–5 players)"),
    _f("slot", "senate_straight", 6, 1, "the values of the Senate straight"),
    _f("slot", "castrum", 6, _DICE, "Castrum set size for each value 1–6"),
    _f("slot", "fortuna_drawn", 1, _DICE, "Fortuna tiles drawn this round (a count: public)"),
    _f(
        "slot",
        "senate_rank",
        max(map(takers, ROUNDS)),
        1,
        "one-hot rank among this evaluation's Senate card takers",
    ),
)


def _layout() -> tuple[dict[str, int], dict[str, tuple[int, int]]]:
    """Offsets of each field within its block, and each block's (start, size)."""
    offsets: dict[str, int] = {}
    blocks: dict[str, tuple[int, int]] = {}
    pos = 0
    for block, repeat in BLOCKS:
        size = 0
        for f in FIELDS:
            if f.block == block:
                offsets[f.name] = size
                size += f.size
        blocks[block] = (pos, size)
        pos += size * repeat
    return offsets, blocks


_OFF, _BLOCK = _layout()
#: Length of the observation tensor: 839, the same for 2–5 players.
OBSERVATION_SIZE: Final[int] = sum(_BLOCK[b][1] * r for b, r in BLOCKS)
#: Start and length of one ``slot_cards`` block (slot ``s`` starts at ``start + s * length``).
SLOT_CARDS: Final[tuple[int, int]] = _BLOCK["slot_cards"]
#: Start and length of one ``slot`` block.
SLOT: Final[tuple[int, int]] = _BLOCK["slot"]


def _high() -> npt.NDArray[np.float32]:
    high: list[float] = []
    for block, repeat in BLOCKS:
        part = [h for f in FIELDS if f.block == block for h in f.high]
        high.extend(part * repeat)
    return np.array(high, dtype=np.float32)


#: Upper bound of every entry (the lower bound is 0 everywhere).
HIGH: Final = _high()


def field_slices(slot: int | None = None) -> dict[str, slice]:
    """Where each field lives: the global, private and card fields, or seat slot ``slot``'s."""
    result: dict[str, slice] = {}
    for f in FIELDS:
        repeated = f.block in ("slot_cards", "slot")
        if repeated != (slot is not None):
            continue
        start, size = _BLOCK[f.block]
        begin = start + (slot or 0) * size + _OFF[f.name]
        result[f.name] = slice(begin, begin + f.size)
    return result
