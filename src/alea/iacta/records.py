"""Game records and saved positions.

A *record* is the player count and the ordered list of every action and
chance outcome in notation (RULES.md §7): replaying it rebuilds the game
exactly, and a game played with physical dice can be typed in event by event.
Its layout is the one every game shares (:func:`alea.game.make_record`); Alea
Iacta Est has no options, so ``options`` is always empty.
A *position* (:func:`state_to_json`) is the full state at one moment, hidden
parts included: it is for saving and loading, never for a player's eyes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from alea.game import RECORD_FORMAT as RECORD_FORMAT  # shared by every game; read here too
from alea.game import make_record, read_record
from alea.iacta.errors import IllegalActionError
from alea.iacta.state import State, new_game

GAME = "alea-iacta-est"
TITLE = "Alea Iacta Est"

_LIST_FIELDS = (
    "dice_left",
    "tokens",
    "latrine",
    "fortuna_stack",
    "fortuna_discards",
    "fortuna_drawn",
    "fortuna_kept",
    "senate_pool",
    "senate_hand",
    "senate_takers",
    "province_pool",
    "patrician_pool",
    "revealed_provinces",
    "revealed_patricians",
    "removed_provinces",
    "removed_patricians",
    "provinces",
    "patricians",
    "senate_cards",
    "history",
)
_INT_FIELDS = (
    "players",
    "rounds",
    "round",
    "start",
    "phase",
    "player",
    "reroll_count",
    "fortuna_pending",
    "senate_turn",
)


def state_to_json(state: State) -> dict[str, Any]:
    """Every field of ``state`` as JSON-ready data (see :func:`state_from_json`)."""
    data: dict[str, Any] = {"game": GAME, "format": RECORD_FORMAT}
    for name in _INT_FIELDS:
        data[name] = getattr(state, name)
    for name in _LIST_FIELDS:
        value = getattr(state, name)
        data[name] = [list(v) if isinstance(v, list) else v for v in value]
    data["ending"] = state.ending
    data["roll"] = list(state.roll)
    data["kept_dice"] = list(state.kept_dice)
    data["temple"] = [list(g) for g in state.temple]
    data["senate"] = [list(s) if s is not None else None for s in state.senate]
    data["castrum"] = [[o, v, c] for (o, v), c in state.castrum.items()]
    data["forum"] = [[v, o] for v, o in state.forum]
    data["senate_bottom"] = [[card, seat] for card, seat in state.senate_bottom]
    data["castrum_queue"] = [list(entry) for entry in state.castrum_queue]
    data["private"] = [[i, seat] for i, seat in state.private.items()]
    data["evaluations"] = [copy_account(entry) for entry in state.evaluations]
    return data


def state_from_json(data: Mapping[str, Any]) -> State:
    """Rebuild a :class:`State` from :func:`state_to_json` output."""
    if data.get("game") != GAME:
        raise ValueError("not an Alea Iacta Est position")
    s = State()
    for name in _INT_FIELDS:
        setattr(s, name, int(data[name]))
    for name in _LIST_FIELDS:
        setattr(s, name, [list(v) if isinstance(v, list) else v for v in data[name]])
    s.ending = bool(data["ending"])
    s.roll = tuple(data["roll"])
    s.kept_dice = tuple(data["kept_dice"])
    s.temple = [tuple(g) for g in data["temple"]]
    s.senate = [(v[0], v[1]) if v is not None else None for v in data["senate"]]
    s.castrum = {(o, v): c for o, v, c in data["castrum"]}
    s.forum = [(v, o) for v, o in data["forum"]]
    s.senate_bottom = [(card, seat) for card, seat in data["senate_bottom"]]
    s.castrum_queue = [(o, v, c) for o, v, c in data["castrum_queue"]]
    s.private = {int(i): int(seat) for i, seat in data["private"]}
    # Positions saved before evaluations were accounted for have none.
    s.evaluations = [copy_account(entry) for entry in data.get("evaluations", [])]
    s._legal = None
    s._result = None
    s._keys = None
    s._rolled = None
    s._drawn = None
    s._drawn_card = ""
    return s


def copy_account(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of one round's evaluation account that shares no list or dict with ``entry``."""
    return {key: _copy(value) for key, value in entry.items()}


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value


def record(state: State) -> dict[str, Any]:
    """The game record of ``state``: enough to rebuild it with :func:`replay`."""
    return make_record(GAME, state.players, {}, state.history, state.result())


def replay(data: Mapping[str, Any]) -> State:
    """Rebuild a game from its record; IllegalActionError names the first bad event.

    ValueError for a record of another game, or with options (this game has none).
    """
    parts = read_record(data, GAME, TITLE)
    state = new_game_with_options(parts.players, **parts.options)
    for index, event in enumerate(parts.events):
        try:
            state.apply(event)
        except IllegalActionError as err:
            raise IllegalActionError(f"event {index + 1} ({event}): {err}") from None
    return state


def new_game_with_options(players: int, **options: Any) -> State:
    """:func:`new_game` as the game contract calls it: a record's options (none here)."""
    if options:
        raise ValueError(f"{TITLE} has no game options (got {', '.join(sorted(options))})")
    return new_game(players)
