"""The fixed facts of Alea Iacta Est, as the game contract (:mod:`alea.game`) states them.

Everything an interface needs to host the game without copying its rules:
player counts and rounds (RULES.md §1, §2), seat colours, notation, and the
functions that make, replay, load and resample states. Its fields are typed
with :class:`~alea.game.GameState`, so mypy checks here that :class:`State`
speaks the contract.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from alea.game import AnyState, GameInfo
from alea.iacta.cards import PLAYER_COLOURS
from alea.iacta.notation import Action, Outcome, parse
from alea.iacta.records import GAME, TITLE, new_game_with_options, replay
from alea.iacta.state import ROUNDS, State

#: Bumped whenever the rules' behaviour changes (records replay the same way within one).
VERSION: Final = 1


def _resample(state: AnyState, seat: int, rng: random.Random) -> State:
    """A state ``seat`` cannot tell apart: :func:`~alea.iacta.determinize.determinize` of its
    view (others' Senate cards and Fortuna draws, the Senate pile, dealt anew; no history)."""
    from alea.iacta.determinize import determinize  # only searches and tests need it

    return determinize(state.view(seat), rng)


def _projection(view: Mapping[str, Any]) -> dict[str, Any]:
    """Projected scores from one seat's view (:mod:`alea.iacta.projection`)."""
    from alea.iacta.projection import projection  # the optimiser loads on first use

    return projection(view)


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
    new_game=new_game_with_options,
    replay=replay,
    from_json=State.from_json,
    resample=_resample,
    projection=_projection,
)
