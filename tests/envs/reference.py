"""A slow, plain observation builder written from the documented fields and the engine's knowledge.

It is the specification the fast builders are tested against: it reads only
``knowledge(state, seat)`` (``knowledge(state, None)``, a spectator's, for a
public observation), the one place where the engine decides what a seat may
see (:mod:`alea.iacta.knowledge`), and fills each field of
:data:`alea.envs.observation.FIELDS` by name, in the most direct way. The
compiled and pure-Python builders read the state directly for speed; if
either disagrees with this one on any position, one of them shows something
the seat may not see, or misses something it may.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from alea.envs.observation import MAX_SEATS, OBSERVATION_SIZE, field_slices
from alea.iacta.cards import PATRICIANS, PROVINCES, SENATE_CARDS
from alea.iacta.knowledge import Knowledge, knowledge
from alea.iacta.state import DECIDE, ROUNDS

PROVINCE = {c: i for i, c in enumerate(PROVINCES)}
PATRICIAN = {c: i for i, c in enumerate(PATRICIANS)}
SENATE = {c: i for i, c in enumerate(SENATE_CARDS)}


def _counts(part: npt.NDArray[np.float32], values: tuple[int, ...], first: int = 1) -> None:
    for v in values:
        part[v - first] += 1


def reference_observation(state: Any, seat: int, private: bool = True) -> npt.NDArray[np.float32]:
    """The observation tensor of ``seat``, built field by field from the engine's knowledge."""
    return observation_of(knowledge(state, seat if private else None), seat)


def observation_of(k: Knowledge, seat: int) -> npt.NDArray[np.float32]:
    """The tensor of ``k`` with ``seat`` in slot 0 (``k`` is ``seat``'s or a spectator's)."""
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    n = k.players
    g = {name: obs[part] for name, part in field_slices().items()}
    g["players"][n - min(ROUNDS)] = 1
    g["round"][k.round - 1] = 1
    g["game_over"][0] = k.over
    g["phase"][k.phase] = 1
    _counts(g["roll"], k.roll)
    _counts(g["kept"], k.kept)
    g["rerolling"][0] = k.rerolling
    g["fortuna_pending"][0] = k.fortuna_pending
    g["ending"][0] = k.ending
    for column, (value, owner) in enumerate(k.forum):
        g["forum_value"][6 * column + value - 1] = 1
        g["forum_owner"][MAX_SEATS * column + (owner - seat) % n] = 1
    g["deck_provinces"][0] = k.deck_provinces
    g["deck_patricians"][0] = k.deck_patricians
    g["deck_senate"][0] = k.deck_senate
    g["fortuna_stack"][0] = k.fortuna_stack
    for value in (1, 2, 3):
        g["fortuna_discards"][value - 1] = k.fortuna_discards[value - 1]
    g["senate_hand_size"][0] = k.senate_hand_size
    _counts(g["own_fortuna_drawn"], k.fortuna_drawn_values[seat] or ())
    for card in k.senate_hand or ():
        g["senate_hand"][SENATE[card]] += 1
    for placed in k.senate_bottom:
        if placed is not None:
            g["senate_bottom"][SENATE[placed]] += 1
    for card in k.revealed_provinces:
        g["revealed_provinces"][PROVINCE[card]] = 1
    for card in k.revealed_patricians:
        g["revealed_patricians"][PATRICIAN[card]] = 1
    for card in k.removed_provinces:
        g["removed_provinces"][PROVINCE[card]] = 1
    for card in k.removed_patricians:
        g["removed_patricians"][PATRICIAN[card]] = 1

    for slot in range(n):
        q = (seat + slot) % n
        f = {name: obs[part] for name, part in field_slices(slot).items()}
        f["present"][0] = 1
        for card in k.provinces[q]:
            f["provinces"][PROVINCE[card]] = 1
        for card in k.patricians[q]:
            f["patricians"][PATRICIAN[card]] = 1
        _counts(f["fortuna_kept"], k.fortuna_kept[q])
        f["senate_count"][0] = k.senate_count[q]
        for card in k.senate_cards[q] or ():
            f["senate_cards"][SENATE[card]] += 1
        f["start_player"][0] = k.start == q
        f["to_move"][0] = k.phase >= DECIDE and not k.over and k.turn_seat == q
        f["dice"][0] = k.dice[q]
        f["tokens"][0] = k.tokens[q]
        f["latrine"][0] = k.latrine[q]
        _counts(f["temple"], k.temple[q])
        straight = k.senate[q]
        if straight is not None:
            low, high = straight
            for value in range(low, high + 1):
                f["senate_straight"][value - 1] = 1
        for owner, value, count in k.castrum:
            if owner == q:
                f["castrum"][value - 1] = count
        f["fortuna_drawn"][0] = k.fortuna_drawn[q]
        if q in k.senate_takers:
            f["senate_rank"][k.senate_takers.index(q)] = 1
    return obs
