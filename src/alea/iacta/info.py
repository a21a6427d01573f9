"""The fixed facts of Alea Iacta Est, as the game contract (:mod:`alea.game`) states them.

Everything an interface needs to host the game without copying its rules:
player counts and rounds (RULES.md §1, §2), seat colours, notation, and the
functions that make, replay, load and resample states. Typed against
:class:`~alea.game.GameState`, so mypy proves that :class:`State` speaks the
contract.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from alea.game import AnyState, GameInfo, GameState
from alea.iacta.cards import PLAYER_COLOURS
from alea.iacta.notation import Action, Outcome, parse
from alea.iacta.records import GAME, TITLE, new_game_with_options, replay
from alea.iacta.state import ROUNDS, State

#: Bumped whenever the rules' behaviour changes (records replay the same way within one).
VERSION: Final = 1


def _new_game(players: int, **options: Any) -> GameState[Action, Outcome]:
    return new_game_with_options(players, **options)


def _replay(record: Mapping[str, Any]) -> GameState[Action, Outcome]:
    return replay(record)


def _from_json(data: Mapping[str, Any]) -> GameState[Action, Outcome]:
    return State.from_json(data)


def _resample(state: AnyState, seat: int, rng: random.Random) -> GameState[Action, Outcome]:
    """A state ``seat`` cannot tell apart: :func:`~alea.iacta.determinize.determinize` of its
    view (others' Senate cards and Fortuna draws, the Senate pile, dealt anew; no history)."""
    from alea.iacta.determinize import determinize  # only searches and tests need it

    return determinize(state.view(seat), rng)


INFO: Final = GameInfo(
    name="iacta",
    game=GAME,
    title=TITLE,
    version=VERSION,
    min_players=min(ROUNDS),
    max_players=max(ROUNDS),
    rounds=MappingProxyType(dict(ROUNDS)),
    colours=PLAYER_COLOURS,
    hidden_information=True,
    human_referee=False,
    default_time_limit=None,
    time_up_action=None,
    action_type=Action,
    outcome_type=Outcome,
    parse=parse,
    new_game=_new_game,
    replay=_replay,
    from_json=_from_json,
    resample=_resample,
)
