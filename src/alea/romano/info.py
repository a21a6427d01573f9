"""The fixed facts of Dado Romano, as the game contract (:mod:`alea.game`) states them.

Everything an interface needs to host the game without copying its rules:
2 to 6 seats and their colours, no fixed number of rounds, the referee (the
software, or a person: B5) and the time limit (one hour by default, B1) with
the ``last-round`` action a clock applies when it runs out. Its fields are typed
with :class:`~alea.game.GameState`, so mypy checks here that :class:`State`
speaks the contract.
"""

from __future__ import annotations

import random
from typing import Final

from alea.game import AnyState, GameInfo
from alea.romano.notation import LAST_ROUND, Action, Outcome, parse
from alea.romano.records import TITLE, new_game_with_options, replay
from alea.romano.state import State
from alea.romano.views import GAME

#: Bumped whenever the rules' behaviour changes (records replay the same way within one).
VERSION: Final = 1
#: Seat colours, from seat 0: the main game's five, and purple for a sixth player.
COLOURS: Final = ("gray", "brown", "blue", "green", "yellow", "purple")
#: Minutes of play before the referee declares the last round, unless chosen (RULES.md B1).
DEFAULT_TIME_LIMIT: Final = 60


def _resample(state: AnyState, seat: int, rng: random.Random) -> State:
    """A copy: nothing at a Dado Romano table is hidden from anyone (the answers of the
    riddles and questions are in the bank, not in the state)."""
    if not isinstance(state, State):
        raise TypeError(f"not a Dado Romano state: {state!r}")
    return state.clone()


INFO: Final = GameInfo(
    name="romano",
    game=GAME,
    title=TITLE,
    version=VERSION,
    min_players=2,
    max_players=len(COLOURS),
    rounds=None,
    colours=COLOURS,
    hidden_information=False,
    human_referee=True,
    default_time_limit=DEFAULT_TIME_LIMIT,
    time_up_action=str(LAST_ROUND),
    action_type=Action,
    outcome_type=Outcome,
    parse=parse,
    new_game=new_game_with_options,
    replay=replay,
    from_json=State.from_json,
    resample=_resample,
    variants=({}, {"referee": "human"}, {"paced": True}, {"paced": True, "referee": "human"}),
    table_options={"paced": True},
)
