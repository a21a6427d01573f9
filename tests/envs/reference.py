"""A slow, plain observation builder written from the documented fields and the engine's view.

It is the specification the fast builders are tested against: it reads only
``state.view(seat)`` (``view(None)`` for a public observation), the engine's
single door for hidden information, and fills each field of
:data:`alea.envs.observation.FIELDS` by name, in the most direct way. The
compiled and pure-Python builders are heavily optimised; if either disagrees
with this one on any position, one of them is wrong.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from alea.envs.observation import MAX_SEATS, OBSERVATION_SIZE, field_slices
from alea.iacta.cards import PATRICIANS, PROVINCES, SENATE_CARDS
from alea.iacta.state import DECIDE, PHASE_NAMES

PROVINCE = {c: i for i, c in enumerate(PROVINCES)}
PATRICIAN = {c: i for i, c in enumerate(PATRICIANS)}
SENATE = {c: i for i, c in enumerate(SENATE_CARDS)}


def _counts(part: npt.NDArray[np.float32], values: list[int], first: int = 1) -> None:
    for v in values:
        part[v - first] += 1


def reference_observation(state: Any, seat: int, private: bool = True) -> npt.NDArray[np.float32]:
    """The observation tensor of ``seat``, built field by field from the engine's view."""
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    v = state.view(seat if private else None)
    n = v["players"]
    g = {name: obs[part] for name, part in field_slices().items()}
    phase = PHASE_NAMES.index(v["phase"])
    over = v["phase"] == "game-over"
    turn = v["turn"]
    g["players"][n - 2] = 1
    g["round"][v["round"] - 1] = 1
    g["game_over"][0] = over
    g["phase"][phase] = 1
    _counts(g["roll"], turn["roll"])
    _counts(g["kept"], turn["kept"])
    g["rerolling"][0] = turn["rerolling"]
    g["fortuna_pending"][0] = turn["fortuna_pending"]
    g["ending"][0] = turn["ending"]
    for column, die in enumerate(v["buildings"]["forum"]):
        g["forum_value"][6 * column + die["value"] - 1] = 1
        g["forum_owner"][MAX_SEATS * column + (die["seat"] - seat) % n] = 1
    decks = v["decks"]
    g["deck_provinces"][0] = decks["provinces"]
    g["deck_patricians"][0] = decks["patricians"]
    g["deck_senate"][0] = decks["senate"]
    g["fortuna_stack"][0] = decks["fortuna"]
    for value in (1, 2, 3):
        g["fortuna_discards"][value - 1] = decks["fortuna_discards"][str(value)]
    g["senate_hand_size"][0] = v["senate_hand_size"]
    mine = v["players_info"][seat]
    if mine["fortuna_drawn_values"] is not None:
        _counts(g["own_fortuna_drawn"], mine["fortuna_drawn_values"])
    for card in v["senate_hand"] or []:
        g["senate_hand"][SENATE[card]] += 1
    for card in v["senate_bottom"]:
        if card is not None:
            g["senate_bottom"][SENATE[card]] += 1
    for card in v["revealed"]["provinces"]:
        g["revealed_provinces"][PROVINCE[card]] = 1
    for card in v["revealed"]["patricians"]:
        g["revealed_patricians"][PATRICIAN[card]] = 1
    for card in v["removed"]["provinces"]:
        g["removed_provinces"][PROVINCE[card]] = 1
    for card in v["removed"]["patricians"]:
        g["removed_patricians"][PATRICIAN[card]] = 1

    buildings = v["buildings"]
    for slot in range(n):
        q = (seat + slot) % n
        f = {name: obs[part] for name, part in field_slices(slot).items()}
        p = v["players_info"][q]
        f["present"][0] = 1
        for card in p["provinces"]:
            f["provinces"][PROVINCE[card]] = 1
        for card in p["patricians"]:
            f["patricians"][PATRICIAN[card]] = 1
        _counts(f["fortuna_kept"], p["fortuna"])
        f["senate_count"][0] = p["senate_count"]
        for card in p["senate"] or []:
            f["senate_cards"][SENATE[card]] += 1
        f["start_player"][0] = v["start_player"] == q
        f["to_move"][0] = phase >= DECIDE and not over and turn["seat"] == q
        f["dice"][0] = p["dice"]
        f["tokens"][0] = p["tokens"]
        f["latrine"][0] = buildings["latrine"][q]
        if "temple" in buildings:
            _counts(f["temple"], buildings["temple"][q])
        for value in buildings["senate"][q]:
            f["senate_straight"][value - 1] = 1
        for entry in buildings["castrum"]:
            if entry["seat"] == q:
                f["castrum"][entry["value"] - 1] = entry["count"]
        f["fortuna_drawn"][0] = p["fortuna_drawn"]
        if q in v["senate_takers"]:
            f["senate_rank"][v["senate_takers"].index(q)] = 1
    return obs
