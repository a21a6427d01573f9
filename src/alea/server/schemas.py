"""Pydantic models of the HTTP API: they validate requests and document the OpenAPI schema.

The game view itself (``view``) is the engine's JSON (``State.view``) and is
typed loosely here on purpose: the engine owns its shape, and documenting it
twice would let the two drift apart. docs/server.md describes its fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from alea.bots import LEVELS
from alea.server.games import DEFAULT_GAME, describe_games

if TYPE_CHECKING:
    Level = str
else:
    # The accepted values come from where they are defined (the bot levels), so the
    # schema never drifts from them; pydantic and the OpenAPI description still see
    # them as an enumeration.
    Level = Literal[tuple(LEVELS)]

#: A game's short name. Not an enumeration: games are registered at run time
#: (:func:`alea.game.register`), so the server checks the name (``bad_request``).
GameName = str
#: Most seats a request may list: a bound on its size only; each game's own player
#: counts are checked by the server (``bad_request``, naming them).
MAX_SEATS = 16


class SeatIn(BaseModel):
    """One seat of a new game: a human (anyone with the link may claim it) or a bot."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["human", "bot"] = "human"
    level: Level | None = Field(None, description="bot difficulty (bots only)")
    name: str = Field("", max_length=40)


class CreateGameIn(BaseModel):
    """A new game. The creator sits in seat ``claim`` (default: the first human seat)."""

    model_config = ConfigDict(extra="forbid")

    game: GameName = Field(DEFAULT_GAME, description=f"the game: {describe_games()}")
    seats: list[SeatIn] = Field(..., min_length=1, max_length=MAX_SEATS)
    public: bool = Field(True, description="list the game in the lobby")
    title: str = Field("", max_length=80)
    sit: bool = Field(True, description="whether the creator takes a seat")
    claim: int | None = Field(None, ge=0, le=MAX_SEATS - 1, description="seat for the creator")
    name: str = Field("", max_length=40, description="the creator's display name")
    # The range is checked by the server (error code bad_time_limit, in the client's
    # language) rather than here; strict so that true or "60" are not taken for minutes.
    time_limit: StrictInt | None = Field(
        None,
        description=(
            "Dado Romano only: minutes from the start of play until the last round is "
            "declared (1-600). Absent: 60 (RULES.md B1); 0 or null: no limit. "
            "Alea Iacta Est games refuse any other value than 0 or null (bad_time_limit)."
        ),
    )
    referee: Literal["software", "human"] = Field(
        "software",
        description=(
            "Dado Romano only (RULES.md B5): 'software' draws riddles and questions from "
            "the bank; 'human' adds a referee role, a person who poses their own and marks "
            "the answers (mark:right / mark:wrong). Alea Iacta Est refuses 'human' "
            "(bad_referee)."
        ),
    )
    time_control: dict[str, Any] | None = Field(
        None,
        description=(
            "the clock per move (absent or null: none). "
            '{"mode": "realtime", "per_move": 10-3600 seconds, "bank": 0-7200 seconds, '
            '"on_timeout": "bot_move"|"bot_seat"} or {"mode": "turn", "per_move": '
            '3600-1209600 seconds (1 hour to 14 days), "on_timeout": ...}. bot_move: a '
            "bot plays the late turn; bot_seat: the seat passes to a bot until its owner "
            "reclaims it. Refused with bad_time_control."
        ),
    )
    rated: bool = Field(
        False,
        description=(
            "a rated table: every human seat must be taken by a signed-in account "
            "(guests are refused with rated_needs_account); bots may sit as fixed-strength "
            "entrants. The finished game updates the players' ratings; no hints are given."
        ),
    )
    as_referee: bool = Field(
        False,
        description=(
            "with referee 'human': the creator takes the referee role instead of a seat "
            "(the referee is not a player); the answer's token is then the referee's"
        ),
    )


class SeatOut(BaseModel):
    seat: int
    colour: str
    kind: Literal["human", "bot"]
    level: str | None
    name: str
    claimed: bool
    connected: bool
    away_since: float | None = Field(
        None,
        description="presence: since when (epoch seconds) the seat has had no connection; "
        "null while connected or never connected since the server started",
    )
    replaced: bool = Field(description="a bot is playing for a human who went quiet")


class RefereeOut(BaseModel):
    """The human referee role of a Dado Romano game (``referee`` is null with the software)."""

    name: str
    claimed: bool
    connected: bool
    away_since: float | None = None


class RematchOut(BaseModel):
    """A rematch proposed after the game ended (null until someone proposes one)."""

    by: int = Field(description="the seat that proposed it")
    deadline: float = Field(description="when seats that have not answered go to bots")
    asked: list[int] = Field(description="the human seats asked")
    accepted: list[int]
    declined: list[int]
    game: str | None = Field(description="the new game's id, once it is made")


class ExchangeOut(BaseModel):
    """What the referee and the answering player typed about the item awaiting its mark."""

    seat: int = Field(description="the seat answering")
    kind: Literal["riddle", "question"]
    posed: str | None = Field(description="the referee's riddle or question, null until typed")
    answer: str | None = Field(description="the player's answer, null until typed")


class ClockOut(BaseModel):
    """The time limit of a Dado Romano game (``clock`` is null for games without one)."""

    time_limit: int = Field(description="minutes from the start of play")
    deadline: float | None = Field(
        description="when the server declares the last round (epoch seconds); null until "
        "every seat is taken and play begins"
    )
    deadline_utc: str | None = Field(description="the deadline in ISO 8601 UTC")
    last_round: bool = Field(description="the last round has been declared")


class TimeControlOut(BaseModel):
    """A table's time control and the clock of the turn being played."""

    mode: Literal["realtime", "turn"]
    per_move: int = Field(description="seconds per turn")
    bank: int = Field(description="extra seconds each seat starts with (real time only)")
    on_timeout: Literal["bot_move", "bot_seat"]
    seat: int | None = Field(description="the human seat whose turn is timed, null: none")
    turn_started: float | None
    deadline: float | None = Field(description="when that turn runs out (epoch seconds)")
    banks: list[int] = Field(description="seconds of bank each seat has left")


class GameInfo(BaseModel):
    id: str
    game: GameName = Field(description="the game kind")
    players: int
    status: Literal["open", "active", "finished", "abandoned"]
    public: bool
    title: str
    created_at: float
    updated_at: float
    version: int = Field(description="number of events in the log")
    round: int
    rounds: int
    to_move: int | None
    seats: list[SeatOut]
    open_seats: list[int]
    spectators: int
    result: dict[str, Any] | None
    clock: ClockOut | None = Field(description="the time limit, null without one")
    time_control: TimeControlOut | None = Field(description="the clock per turn, null: none")
    referee: RefereeOut | None = Field(description="the human referee role, null without one")
    rated: bool = Field(False, description="a rated table (its result updates ratings)")


class Links(BaseModel):
    play: str
    watch: str
    replay: str


class CreatedOut(BaseModel):
    game: GameInfo
    seat: int | None
    token: str | None = Field(description="secret seat token: keep it, it is shown once")
    role: Literal["player", "referee", "spectator"] = Field(
        description="what the token is for: the creator's seat, the referee role, or none"
    )
    links: Links


class ClaimIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field("", max_length=40)


class ClaimedOut(BaseModel):
    game_id: str
    seat: int
    token: str = Field(description="secret seat token: keep it, it is shown once")


class ClaimedRefereeOut(BaseModel):
    game_id: str
    role: Literal["referee"]
    token: str = Field(description="secret referee token: keep it, it is shown once")


class SayIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # Cleaned and cut to 280 characters by the server (like names); the bound here only
    # stops absurd bodies.
    text: str = Field(..., min_length=1, max_length=2000)


class ActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: str = Field(..., min_length=1, max_length=40, description="RULES.md §7 notation")
    version: int = Field(..., ge=0, description="the version of the view you chose from")


class UndoIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int = Field(..., ge=0, description="the version of the view you saw")


class UndoneOut(BaseModel):
    version: int = Field(description="the version after the undo (the log is shorter)")
    state: StateOut


class PublicEstimateOut(BaseModel):
    seat: int
    score: int = Field(description="best score of the seat's public holdings")
    tiebreak: int
    hidden_senate: int = Field(description="Senate cards held face down, not counted")


class ProjectionOut(BaseModel):
    seat: int | None = Field(description="the seat asking; null: a spectator")
    own: dict[str, Any] | None = Field(
        description="the seat's best arrangement now (as POST /api/score gives one player)"
    )
    public: list[PublicEstimateOut]


class BotLevelIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    level: Level | None = None


class StateOut(BaseModel):
    """What one seat (or a spectator) may see now."""

    game: str
    status: str
    version: int
    rated: bool = Field(False, description="a rated table: no hints; the result is rated")
    seat: int | None
    role: Literal["player", "referee", "spectator"]
    view: dict[str, Any] = Field(description="State.view(seat): see docs/server.md")
    legal: list[str] = Field(description="legal actions when it is this seat's decision")
    undo: bool = Field(
        False, description="whether this seat may take back its own last decision now"
    )
    log: list[tuple[str, int | None]] = Field(description="[event, actor] pairs, redacted")
    seats: list[SeatOut]
    takeover_at: float | None
    clock: ClockOut | None = Field(description="the time limit, null without one")
    time_control: TimeControlOut | None = Field(description="the clock per turn, null: none")
    referee: RefereeOut | None = Field(description="the human referee role, null without one")
    exchange: ExchangeOut | None = Field(
        description="the typed riddle or question and answer while the referee is to mark"
    )
    spectators: int = Field(0, description="presence: sockets watching without a seat")
    rematch: RematchOut | None = Field(None, description="the rematch offered, if any")


class ActedOut(BaseModel):
    index: int = Field(description="position of the action in the log")
    version: int
    state: StateOut


class ReplayOut(BaseModel):
    game: GameInfo
    players: int
    events: list[str] = Field(description="every action and chance outcome, unredacted")
    actors: list[int | None]
    result: dict[str, Any] | None


class ReplayStepOut(BaseModel):
    step: int = Field(description="events applied so far")
    steps: int
    event: str | None = Field(description="the last event applied")
    actor: int | None
    view: dict[str, Any] = Field(description="spectator view with every hand shown")


class ErrorBody(BaseModel):
    code: str
    message: str
    detail: Any = ""


class ErrorOut(BaseModel):
    error: ErrorBody


class Health(BaseModel):
    ok: bool
    games: int
    database: str
    #: "ok" if the database answered a probe just now, "unavailable" if not (restarting).
    storage: str = "ok"
    #: With several processes (``--redis-url``): this one's name, leases held, fan-out
    #: counters and bot moves; None for a single process.
    cluster: dict[str, Any] | None = None
    #: The gate of WebSocket openings: sockets waiting now, the longest line, refusals.
    admission: dict[str, int] | None = None


class ChatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # Cleaned and limited to 300 characters by the server (``chat_too_long`` beyond);
    # the bound here only stops absurd bodies.
    text: str = Field(..., max_length=2000)
    name: str = Field("", max_length=40, description="a spectator's display name")


class ChatLineOut(BaseModel):
    idx: int
    channel: Literal["players", "spectators"]
    seat: int | None = Field(description="the speaker's seat; null: a spectator or the referee")
    role: Literal["player", "referee", "spectator"]
    name: str
    text: str = Field(description="plain text: show it as text, never as HTML")
    step: int = Field(description="the game's version when it was said (its replay step)")
    at: float


class RematchIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    accept: bool = Field(True, description="true: propose or accept; false: decline")
