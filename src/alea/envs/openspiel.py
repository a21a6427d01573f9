"""Alea Iacta Est as an OpenSpiel game, registered as ``python_alea_iacta_est``.

>>> import pyspiel
>>> import alea.envs.openspiel  # registers the game
>>> game = pyspiel.load_game("python_alea_iacta_est", {"players": 3})
>>> game.num_players(), game.num_distinct_actions()
(3, 6201)

The game is explicit-stochastic (every roll, reveal and draw is a chance node
with its probabilities, as :meth:`alea.iacta.State.chance_outcomes` gives
them), imperfect-information, general-sum, with terminal rewards. Parameters:

* ``players``: 2–5 (default 4);
* ``reward``: ``"score"`` (default: each player's final score) or ``"win"``
  (1 for each winner, shared victories included, 0 otherwise).

Actions are the indices of :mod:`alea.envs.encoding`; chance outcomes are its
outcome indices. Observations (``observation_string``/``observation_tensor``)
are the seat's current view (:mod:`alea.envs.observation`); information
states add the seat's event log, in which others' hidden draws and choices
appear only as their kind (RULES.md §6). ``resample_from_infostate`` samples
the hidden cards with :func:`alea.iacta.determinize.determinize`, which is
what OpenSpiel's Python IS-MCTS bot (``open_spiel.python.algorithms.ismcts``)
needs; :func:`resampler` gives that bot a seeded one, for reproducible runs.

Why the state wraps the engine instead of re-implementing it: the rules live
in one place (:mod:`alea.iacta`). OpenSpiel clones Python states by deep-copying
their attributes, so the engine state sits in a small holder whose deep copy
is the engine's own cheap :meth:`~alea.iacta.State.clone`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any, Final

import numpy as np
import numpy.typing as npt
import pyspiel  # type: ignore[import-not-found]

import alea.iacta as iacta
from alea.envs.encoding import (
    NUM_CHANCE_OUTCOMES,
    NUM_DISTINCT_ACTIONS,
    decode,
    decode_outcome,
    encode,
    encode_outcome,
    legal_ids,
)
from alea.envs.observation import OBSERVATION_SIZE, observation_string, observation_tensor
from alea.envs.pettingzoo import REWARDS, final_rewards
from alea.iacta.determinize import determinize
from alea.iacta.forum import columns
from alea.iacta.state import DICE_PER_PLAYER, ROUNDS, SENATE_HAND
from alea.iacta.views import HIDDEN, redacted_kinds

__all__ = [
    "GAME_NAME",
    "MAX_SCORE",
    "AleaIactaEstGame",
    "AleaIactaEstState",
    "max_events",
    "max_game_length",
    "resampler",
]

#: The name to give :func:`pyspiel.load_game`.
GAME_NAME: Final = "python_alea_iacta_est"

#: An upper bound on any final score (OpenSpiel needs utility bounds). Sum of
#: each part's maximum for one player: every province and patrician in the box
#: (60 + 72), six Senate cards (a player wins at most one a round) worth at
#: most XI 72 + VIII 24 + V 19 + II/IX/X 18 each, border bonuses 6 × 3, ten
#: Fortuna tiles (at most two kept a round) 30, and 48 re-roll tokens 24.
MAX_SCORE: Final = 400.0
#: The lowest final score: only an empty wild province scores below zero.
MIN_SCORE: Final = -1.0

# Information-state event codes: 0 pads, then actions, outcomes, hidden events.
_HIDDEN_CODES: Final = {f"{kind}:{HIDDEN}": i for i, kind in enumerate(redacted_kinds())}
_OUTCOME_CODE0: Final = 1 + NUM_DISTINCT_ACTIONS
_HIDDEN_CODE0: Final = _OUTCOME_CODE0 + NUM_CHANCE_OUTCOMES


def max_game_length(players: int) -> int:
    """An upper bound on the number of decisions in a game (chance events excluded).

    Per round every player places at most 8 dice (a turn places at least one),
    at most 3 Senate cards, ``players`` provinces and ``players + 2``
    patricians are chosen; re-rolls spend tokens, of which a player earns at
    most 8 a round (one per die in the Latrine), usable from the next round.
    """
    rounds = ROUNDS[players]
    dice = DICE_PER_PLAYER * players
    per_round = dice + SENATE_HAND + players + columns(players)
    return rounds * per_round + dice * (rounds - 1)


def max_events(players: int) -> int:
    """An upper bound on the number of events (decisions and chance) in a game.

    Per round: ``2 * players + 2`` reveals; at most ``8 * players`` turns, each
    a roll, a placement and up to one Fortuna draw per die placed; a Temple
    bonus draw, three Senate draws and three choices, and the Castrum and
    Forum choices; every re-roll adds a choice and a roll.
    """
    rounds = ROUNDS[players]
    dice = DICE_PER_PLAYER * players
    reveals = players + columns(players)
    per_round = reveals + 3 * dice + 1 + 2 * SENATE_HAND + players + columns(players)
    return rounds * per_round + 2 * dice * (rounds - 1)


def _game_type() -> Any:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Python Alea Iacta Est",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(ROUNDS),
        min_num_players=min(ROUNDS),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": 4, "reward": "score"},
    )


_GAME_TYPE: Final = _game_type()


class _Engine:
    """Holds the engine state; OpenSpiel deep-copies state attributes to clone them."""

    __slots__ = ("state",)

    def __init__(self, state: iacta.State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.state.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        # OpenSpiel serialises Python states by pickling their attributes.
        return (_from_json, (self.state.to_json(),))


def _from_json(data: dict[str, Any]) -> _Engine:
    return _Engine(iacta.State.from_json(data))


class AleaIactaEstGame(pyspiel.Game):  # type: ignore[misc]
    """The game object: fixed facts (players, action counts, bounds) and new states."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", 4))
        reward = str(params.get("reward", "score"))
        if players not in ROUNDS:
            raise ValueError(f"Alea Iacta Est is played by 2 to 5 players, not {players}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        low, high = (0.0, 1.0) if reward == "win" else (MIN_SCORE, MAX_SCORE)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_DISTINCT_ACTIONS,
            max_chance_outcomes=NUM_CHANCE_OUTCOMES,
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=None,
            max_game_length=max_game_length(players),
        )
        super().__init__(_GAME_TYPE, info, {"players": players, "reward": reward})
        self.players = players
        self.reward = reward

    def new_initial_state(self, *args: Any) -> AleaIactaEstState:
        """A new game: its first nodes are the set-up reveals (chance)."""
        return AleaIactaEstState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> AleaIactaEstObserver:
        """An observer for ``iig_obs_type`` (default: the current observation)."""
        return AleaIactaEstObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            self.players,
            params,
        )


_ROLL_OUTCOMES: dict[str, list[tuple[int, float]]] = {}


class AleaIactaEstState(pyspiel.State):  # type: ignore[misc]
    """A position, wrapping an :class:`alea.iacta.State`."""

    def __init__(self, game: AleaIactaEstGame, engine: iacta.State | None = None) -> None:
        super().__init__(game)
        self._engine = _Engine(engine if engine is not None else iacta.new_game(game.players))
        self._reward = game.reward

    @property
    def engine(self) -> iacta.State:
        """The underlying engine state (read it freely; change it only through OpenSpiel)."""
        return self._engine.state

    def current_player(self) -> int:
        return int(self._engine.state.current_player())

    def _legal_actions(self, player: int) -> list[int]:
        return legal_ids(self._engine.state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = self._engine.state.chance_outcomes()
        first = outcomes[0][0] if outcomes else ""
        if first.startswith("roll:"):
            # A roll of k dice has up to 1287 outcomes, always the same ones:
            # encode and sort them once per k (rollouts hit this constantly).
            found = _ROLL_OUTCOMES.get(first)
            if found is None:
                found = _ROLL_OUTCOMES[first] = sorted((encode_outcome(o), p) for o, p in outcomes)
            return list(found)
        return sorted((encode_outcome(o), p) for o, p in outcomes)

    def _apply_action(self, action: int) -> None:
        state = self._engine.state
        if state.is_chance():
            state.apply(decode_outcome(action))
        else:
            state.apply(decode(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return str(decode_outcome(action))
        return str(decode(action))

    def is_terminal(self) -> bool:
        return bool(self._engine.state.is_terminal())

    def returns(self) -> list[float]:
        state = self._engine.state
        if not state.is_terminal():
            return [0.0] * state.players
        return final_rewards(state, self._reward)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float] | random.Random
    ) -> AleaIactaEstState:
        """A state ``player_id`` cannot tell from this one, hidden cards sampled afresh.

        ``probability_sampler`` is OpenSpiel's (a callable returning floats in
        [0, 1), which seeds the sampling) or a :class:`random.Random`. The
        sampled state carries this state's event log, so its information state
        for ``player_id`` is identical; others' hidden events in that log are
        the original ones (they are shown to ``player_id`` only as ``kind:?``),
        so the sample is for search, not for records.
        """
        state = self._engine.state
        if isinstance(probability_sampler, random.Random):
            rng = probability_sampler
        else:
            rng = random.Random(int(probability_sampler() * 2**53))
        sampled = determinize(state.view(player_id), rng)
        data = sampled.to_json()
        data["history"] = list(state.history)
        data["private"] = [[i, seat] for i, seat in state.private.items()]
        return AleaIactaEstState(self.get_game(), iacta.State.from_json(data))

    def __str__(self) -> str:
        state = self._engine.state
        hidden = (
            f"senate_cards={state.senate_cards} senate_pool={sorted(state.senate_pool)} "
            f"senate_bottom={state.senate_bottom} senate_hand={state.senate_hand} "
            f"fortuna_drawn={state.fortuna_drawn} fortuna_stack={state.fortuna_stack[1:]}"
        )
        return f"{state.players}p {' '.join(state.history)} | {hidden}"


def information_state_string(state: iacta.State, seat: int) -> str:
    """What ``seat`` knows: its current view (canonical JSON) and its event log."""
    view = json.dumps(state.view(seat), sort_keys=True, separators=(",", ":"))
    return f"{view}\n{' '.join(state.log(seat))}"


def _event_code(token: str) -> int:
    hidden = _HIDDEN_CODES.get(token)
    if hidden is not None:
        return _HIDDEN_CODE0 + hidden
    if token.partition(":")[0] in ("roll", "province", "patrician", "fortuna", "senate"):
        return _OUTCOME_CODE0 + encode_outcome(token)
    return 1 + encode(token)


class AleaIactaEstObserver:
    """OpenSpiel's PyObserver: fills ``tensor`` (and its named views in ``dict``).

    * default (``perfect_recall=False``): the tensor of :mod:`alea.envs.observation`
      and :func:`alea.envs.observation.observation_string`;
    * ``perfect_recall=True`` (information state): the same tensor followed by
      the seat's event log as integer codes, one per event (0 pads; 1 + action
      index; 6202 + outcome index; 9286, 9287, 9288 for another seat's hidden
      Fortuna draw, Senate draw and Senate choice), and
      :func:`information_state_string`;
    * ``private_info=NONE``: only public information (the observer's own
      secrets are left out too).
    """

    def __init__(self, iig_obs_type: Any, players: int, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observer of every player's private information is not provided")
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.events = max_events(players) if self.perfect_recall else 0
        self.tensor: npt.NDArray[np.float32] = np.zeros(
            OBSERVATION_SIZE + self.events, dtype=np.float32
        )
        self.dict: dict[str, npt.NDArray[np.float32]] = {
            "observation": self.tensor[:OBSERVATION_SIZE]
        }
        if self.perfect_recall:
            self.dict["events"] = self.tensor[OBSERVATION_SIZE:]

    def set_from(self, state: AleaIactaEstState, player: int) -> None:
        engine = state.engine
        observation_tensor(engine, player, out=self.dict["observation"], private=self.private)
        if self.perfect_recall:
            events = self.dict["events"]
            events.fill(0.0)
            log = engine.log(player if self.private else None)
            if log:
                events[: len(log)] = [_event_code(token) for token in log]

    def string_from(self, state: AleaIactaEstState, player: int) -> str:
        engine = state.engine
        seat = player if self.private else None
        if self.perfect_recall:
            if seat is None:
                return information_state_string_public(engine)
            return information_state_string(engine, seat)
        return observation_string(engine, seat)


def information_state_string_public(state: iacta.State) -> str:
    """What every seat knows: the spectator's view and event log."""
    view = json.dumps(state.view(None), sort_keys=True, separators=(",", ":"))
    return f"{view}\n{' '.join(state.log(None))}"


def resampler(seed: int) -> Callable[[Any, int], Any]:
    """A seeded resampling callback for ``ISMCTSBot.set_resampler`` (reproducible searches)."""
    rng = random.Random(seed)

    def resample(state: Any, player: int) -> Any:
        return state.resample_from_infostate(player, rng)

    return resample


pyspiel.register_game(_GAME_TYPE, AleaIactaEstGame)
