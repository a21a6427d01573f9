"""Records, saved positions and set-ups of Dado Romano.

A *record* (:func:`record`) is the game's options and every move in order, in
the layout every game shares (:func:`alea.game.make_record`): replaying it
(:func:`replay`) rebuilds the game exactly, since every roll and draw is a
move. A *position* (:func:`state_to_json`) is the whole state at one moment,
for saving and loading. :func:`position` sets a game up at the start of any
turn, for tests and puzzles; its set-up is stored in the record's options
(``start``), so its records replay too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from alea.game import RECORD_FORMAT, make_record, read_record
from alea.romano.bank import Bank
from alea.romano.events import Event
from alea.romano.notation import IllegalActionError
from alea.romano.state import RefereeMode, State
from alea.romano.views import GAME

TITLE = "Dado Romano"


def record(state: State) -> dict[str, Any]:
    """The game record of ``state``: options, every move, and the result once over."""
    return make_record(GAME, state.players, state.options(), state.history, state.result())


def replay(data: Mapping[str, Any], bank: Bank | None = None) -> State:
    """The state reached by a game record (see :func:`record`).

    Reads the first records too, which listed the moves under ``moves``.
    Raises :class:`IllegalActionError` naming the first move that cannot be
    played, and ``ValueError`` for a record of another game.
    """
    parts = read_record(data, GAME, TITLE)
    state = new_game_with_options(parts.players, bank=bank, **parts.options)
    for n, move in enumerate(parts.events):
        try:
            state.apply(move)
        except IllegalActionError as e:
            raise IllegalActionError(f"move {n} ({move!r}): {e}") from e
    return state


def replay_to(game: State, step: int | None = None) -> State:
    """The position after the first ``step`` events of the finished ``game`` (default: all),
    replayed from its options with its bank. ValueError while the game is not over, or
    for a step it does not have."""
    if not game.is_terminal():
        raise ValueError("the game is not over: it is replayed only once finished")
    events = len(game.history)
    if step is None:
        step = events
    if not 0 <= step <= events:
        raise ValueError(f"step {step} is not in this game: it has steps 0 to {events}")
    if step == events:
        return game
    position = new_game_with_options(game.players, bank=game.bank, **game.options())
    for event in game.history[:step]:
        position.apply(event)
    return position


def new_game_with_options(
    players: int,
    *,
    time_limit_rounds: int | None = None,
    referee: RefereeMode = "software",
    start: Mapping[str, Any] | None = None,
    bank: Bank | None = None,
    paced: bool = False,
    **unknown: Any,
) -> State:
    """A game from a record's options (:meth:`State.options`): ``new_game`` as the game
    contract calls it. ValueError for an option Dado Romano does not have."""
    if unknown:
        raise ValueError(f"{TITLE} has no option {', '.join(sorted(unknown))}")
    begin = dict(start or {})
    return position(
        players,
        time_limit_rounds=time_limit_rounds,
        referee=referee,
        bank=bank,
        paced=paced,
        scores=begin.get("scores"),
        seat=begin.get("seat", 0),
        round=begin.get("round", 1),
        turns_played=begin.get("turns_played"),
        eliminated=begin.get("eliminated"),
        skip_next=begin.get("skip_next"),
        pending_marcus=begin.get("pending_marcus"),
        last_round=begin.get("last_round"),
    )


def state_to_json(state: State) -> dict[str, Any]:
    """The whole state as JSON-ready data (see :func:`state_from_json`)."""
    return {
        "game": GAME,
        "format": RECORD_FORMAT,
        "players": state.players,
        "options": state.options(),
        "scores": list(state.scores),
        "played": list(state.played),
        "eliminated": list(state.eliminated),
        "skip_next": list(state.skip_next),
        "inverted": list(state.inverted),
        "pending_marcus": list(state.pending_marcus),
        "seat": state.seat,
        "round": state.round,
        "last_round": state.last_round,
        "turns": state.turns,
        "phase": state.phase,
        "purpose": state.purpose,
        "needed": state.needed,
        "rolls": list(state.rolls),
        "pairs": state.pairs,
        "thrown": state.thrown,
        "declared": list(state.declared) if state.declared else None,
        "figure": state.figure,
        "item_kind": state.item_kind,
        "item": state.item,
        "challenged": state.challenged,
        "return_number": state.return_number,
        "used": {k: list(v) for k, v in state.used.items()},
        "winners": list(state._winners),
        "end_reason": state.end_reason,
        "history": list(state.history),
        "events": [e.to_json() for e in state.events],
    }


def state_from_json(data: Mapping[str, Any], bank: Bank | None = None) -> State:
    """The state saved by :func:`state_to_json`; ValueError for another game's position."""
    if data.get("game", GAME) != GAME:
        raise ValueError(f"not a {TITLE} position (game: {data.get('game')!r})")
    opts = data["options"]
    s = State(
        int(data["players"]),
        time_limit_rounds=opts.get("time_limit_rounds"),
        referee=opts.get("referee", "software"),
        bank=bank,
        paced=bool(opts.get("paced", False)),
    )
    s.start = dict(opts["start"]) if opts.get("start") is not None else None
    s.scores = [int(x) for x in data["scores"]]
    s.played = [int(x) for x in data["played"]]
    s.eliminated = [bool(x) for x in data["eliminated"]]
    s.skip_next = [bool(x) for x in data["skip_next"]]
    s.inverted = [bool(x) for x in data["inverted"]]
    s.pending_marcus = [int(x) for x in data["pending_marcus"]]
    s.seat = int(data["seat"])
    s.round = int(data["round"])
    s.last_round = data["last_round"]
    s.turns = int(data["turns"])
    s.phase = data["phase"]
    s.purpose = data["purpose"]
    s.needed = int(data["needed"])
    s.rolls = [int(x) for x in data["rolls"]]
    s.pairs = int(data["pairs"])
    s.thrown = bool(data.get("thrown", False))
    s.declared = (data["declared"][0], data["declared"][1]) if data["declared"] else None
    s.figure = data["figure"]
    s.item_kind = data["item_kind"]
    s.item = data["item"]
    s.challenged = int(data["challenged"])
    s.return_number = int(data["return_number"])
    s.used = {k: list(v) for k, v in data["used"].items()}
    s._winners = [int(x) for x in data["winners"]]
    s.end_reason = data["end_reason"]
    s.history = list(data["history"])
    s.events = [Event(**e) for e in data["events"]]
    return s


def position(
    players: int = 3,
    *,
    scores: list[int] | None = None,
    seat: int = 0,
    round: int = 1,
    turns_played: list[int] | None = None,
    eliminated: list[bool] | None = None,
    skip_next: list[bool] | None = None,
    pending_marcus: list[int] | None = None,
    time_limit_rounds: int | None = None,
    last_round: int | None = None,
    referee: RefereeMode = "software",
    bank: Bank | None = None,
    paced: bool = False,
) -> State:
    """A game set up at the start of ``seat``'s turn in ``round``, for tests and puzzles.

    ``turns_played`` counts the turns each player has already played, so
    ``turns_played[seat] == 2`` starts the seat's declaration turn. A position
    other than the plain start is stored in the record's options under
    ``start``, so its records replay too.
    """
    s = State(players, time_limit_rounds=time_limit_rounds, referee=referee, bank=bank, paced=paced)

    def fill(values: list[Any] | None, default: Any, name: str) -> list[Any]:
        if values is None:
            return [default] * players
        if len(values) != players:
            raise ValueError(f"{name} needs one entry per player ({players})")
        return list(values)

    if not 0 <= seat < players:
        raise ValueError(f"there is no seat {seat}")
    if round < 1:
        raise ValueError("rounds count from 1")
    s.scores = [int(x) for x in fill(scores, 0, "scores")]
    s.played = [int(x) for x in fill(turns_played, 0, "turns_played")]
    s.eliminated = [bool(x) for x in fill(eliminated, False, "eliminated")]
    s.skip_next = [bool(x) for x in fill(skip_next, False, "skip_next")]
    s.pending_marcus = list(pending_marcus or [])
    s.seat, s.round = seat, round
    if last_round is not None:
        s.last_round = last_round if s.last_round is None else min(s.last_round, last_round)
    start = {
        "scores": s.scores,
        "seat": seat,
        "round": round,
        "turns_played": s.played,
        "eliminated": s.eliminated,
        "skip_next": s.skip_next,
        "pending_marcus": s.pending_marcus,
        "last_round": last_round,
    }
    plain = new_game_start(players)
    s.start = None if start == plain else {k: _copy(v) for k, v in start.items()}
    s._start()
    return s


def _copy(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value


def new_game_start(players: int) -> dict[str, Any]:
    """The ``start`` block of a plain new game (used to leave it out of records)."""
    return {
        "scores": [0] * players,
        "seat": 0,
        "round": 1,
        "turns_played": [0] * players,
        "eliminated": [False] * players,
        "skip_next": [False] * players,
        "pending_marcus": [],
        "last_round": None,
    }


def new_game(
    players: int = 3,
    time_limit_rounds: int | None = None,
    referee: RefereeMode = "software",
    bank: Bank | None = None,
    paced: bool = False,
) -> State:
    """A new game: everyone on 0, seat 0 about to roll.

    ``time_limit_rounds`` makes that round the last one (a deterministic
    stand-in for the clock, used by simulations); the clock of a real game
    applies ``last-round`` instead. ``referee`` is ``"software"`` (riddles and
    questions drawn from the bank, answered by choosing 1-4) or ``"human"`` (a
    person poses them and marks the answer right or wrong). ``paced``: every die waits
    for its player's ``throw`` (the server's tables; :data:`~alea.romano.INFO`'s
    ``table_options``).
    """
    return position(
        players, time_limit_rounds=time_limit_rounds, referee=referee, bank=bank, paced=paced
    )
