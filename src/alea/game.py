"""One contract for every game: what a rules engine offers the rest of alea.

alea hosts more than one game (Alea Iacta Est in :mod:`alea.iacta`, Dado Romano
in :mod:`alea.romano`). Everything above the engines — the server, the terminal
and the command line, the simulations, the contract test — talks to a game
through the two things defined here, in the manner of OpenSpiel's
``GameType``/``GameInfo`` and pgx's ``Env``:

- :class:`GameState`, a typed :class:`~typing.Protocol` that each engine's
  ``State`` satisfies (checked by mypy where each engine builds its
  :class:`GameInfo`, and by ``tests/contract``): who is to move, what is legal,
  explicit chance, per-seat views and logs, records, JSON, and the few answers
  a table needs (whose event comes next, the result, the round, the time
  limit, what a human referee is asking);
- :class:`GameInfo`, a frozen record of the fixed facts of one game (names,
  player counts, rounds, seat colours, referee and time limit, notation, and
  the functions that make, replay and load states).

Each engine package exposes its ``INFO``; :func:`games` and :func:`info` find
them (importing the engine packages on first use, so this module imports
nothing but the standard library and there is no import cycle: the engines
import their constants and error base from here).

The shared vocabulary is also defined here, once: :data:`CHANCE`,
:data:`TERMINAL` and :data:`REFEREE` (the values of ``current_player()`` that
are not seats), :class:`IllegalActionError` and :class:`NotationError` (bases
of each engine's own errors), and the record format (:data:`RECORD_FORMAT`,
:func:`make_record`, :func:`read_record`).

``tests/contract`` runs one contract test on every registered game; a third
game registers its ``INFO`` and passes or fails it without new tests
(``docs/architecture.md`` walks through a toy game doing exactly that).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol, Self, TypeVar, runtime_checkable

__all__ = [
    "CHANCE",
    "RECORD_FORMAT",
    "RECORD_KEYS",
    "REFEREE",
    "TERMINAL",
    "AnyState",
    "Asked",
    "GameInfo",
    "GameState",
    "IllegalActionError",
    "NotationError",
    "RecordParts",
    "games",
    "info",
    "make_record",
    "read_record",
    "register",
    "unregister",
]

#: ``current_player()`` when the next event is a chance outcome (a roll, a reveal, a draw).
CHANCE: Final = -1
#: ``current_player()`` once the game is over.
TERMINAL: Final = -4
#: ``current_player()`` when a decision belongs to an outside referee, not to a seat (Dado
#: Romano's human referee marking an answer, RULES.md B5). Negative, so never a seat index;
#: the server uses the same number for the referee's role, so "is it this role's turn?" is
#: one comparison for seats and referee alike.
REFEREE: Final = -5

#: The version of the record layout written by :func:`make_record` (bumped if it changes).
RECORD_FORMAT: Final = 1
#: The top-level keys of every game record, in every game (plus ``result`` once finished).
RECORD_KEYS: Final = ("game", "format", "players", "options", "events")


class IllegalActionError(ValueError):
    """A move the rules do not allow now, or that is not a move at all; nothing changed.

    Each engine raises its own subclass (``alea.iacta.IllegalActionError``,
    ``alea.romano.IllegalActionError``) with a message meant for a player, so an
    interface hosting any game catches this one type. A ``ValueError``, so
    callers that only care about "bad input" catch one thing.
    """


class NotationError(IllegalActionError):
    """A text that is not notation of the game at all (``GameInfo.parse`` raises it).

    Kept apart from a well-formed but illegal move so an interface can say
    "that is not a move" rather than "that move is not allowed now".
    """


@dataclass(frozen=True, slots=True)
class Asked:
    """What an outside referee is asking, while the game waits for the referee's mark.

    In Dado Romano with a human referee (RULES.md B5) a riddle or question
    figure makes the referee pose a riddle or question aloud (or typed), the
    seat answer it, and the referee mark the answer. The engine knows when that
    happens and who answers; interfaces keep the typed words beside the game
    under :attr:`key`, so they know when those words are out of date.
    """

    #: Names this asking among all of the game (a new riddle or question, a new key).
    key: int
    #: The seat answering.
    seat: int
    #: What is asked, in the game's words (Dado Romano: ``riddle`` or ``question``).
    kind: str


ActionT = TypeVar("ActionT")
OutcomeT = TypeVar("OutcomeT")


@runtime_checkable
class GameState(Protocol[ActionT, OutcomeT]):
    """One position of one game, as every interface sees it (``ActionT``/``OutcomeT``:
    the engine's decision and chance-outcome types; :data:`AnyState` when unknown).

    A state is mutable and changed only by :meth:`apply`. The engine holds no
    random generator: chance outcomes are chosen outside (:meth:`sample_chance`
    with the caller's ``random.Random``), so the same outcomes and decisions
    always give the same game, and a record of them replays it exactly.
    """

    @property
    def players(self) -> int:
        """The number of seats (0 to ``players - 1``)."""
        ...

    @property
    def history(self) -> Sequence[str]:
        """Every event applied so far, decisions and chance outcomes, in notation.

        The full truth (hidden draws included): for records and servers, never
        for a player's eyes (that is :meth:`log`).
        """
        ...

    # ---------------------------------------------------------------- who moves

    def current_player(self) -> int:
        """The seat to decide, or :data:`CHANCE`, :data:`REFEREE` or :data:`TERMINAL`."""
        ...

    def is_chance(self) -> bool:
        """Whether the next event is a chance outcome (``current_player() == CHANCE``)."""
        ...

    def is_terminal(self) -> bool:
        """Whether the game is over (``current_player() == TERMINAL``)."""
        ...

    def actor(self) -> int | None:
        """The seat the event about to be applied belongs to, or None (nobody's: a public
        reveal, the end of the game).

        At a seat's decision it is that seat; at a chance event it is the seat
        the rules give it to (a player's own roll or draw), at a referee's
        decision the seat concerned (whose answer is marked). Interfaces store
        it beside each event so that a log can say who did what without
        knowing the rules. An out-of-turn referee action (the time-up action)
        belongs to nobody.
        """
        ...

    # ---------------------------------------------------------------- what is legal

    def legal_actions(self) -> Sequence[ActionT]:
        """The decisions allowed now; empty at chance events and at the end."""
        ...

    def chance_outcomes(self) -> Sequence[tuple[OutcomeT, float]]:
        """The chance outcomes possible now with their probabilities (summing to 1);
        empty at decisions and at the end."""
        ...

    def sample_chance(self, rng: random.Random) -> OutcomeT:
        """One of :meth:`chance_outcomes`, drawn with ``rng``; the state is not changed."""
        ...

    def apply(self, move: ActionT | OutcomeT | str, /) -> None:
        """Apply a decision or chance outcome (or its notation), in place.

        Raises :class:`IllegalActionError` naming why, and changes nothing,
        when the move is not notation, not allowed now, or the game is over.
        """
        ...

    def clone(self) -> Self:
        """An independent copy, cheap enough for search (no JSON round trip)."""
        ...

    # ---------------------------------------------------------------- outcome

    def returns(self) -> Sequence[float]:
        """Each seat's payoff at the end (all 0 before), as OpenSpiel's ``returns``."""
        ...

    def winners(self) -> list[int]:
        """The winning seats (several for a shared victory); empty before the end."""
        ...

    def result(self) -> dict[str, Any] | None:
        """The JSON-ready summary of a finished game (None before the end).

        Always ``scores`` (the game's own score per seat, as players count
        it) and ``winners``, plus what the game needs to explain the outcome
        (Alea Iacta Est: ``tiebreaks``; Dado Romano: ``reason``, ``150`` or
        ``time``). Servers store it with the finished game; records carry it.
        """
        ...

    def progress(self) -> tuple[int, int]:
        """``(round, rounds)`` for a lobby: the round under way (from 1) and the number of
        rounds, 0 while the game has no fixed number (Dado Romano until its last round is
        declared)."""
        ...

    # ---------------------------------------------------------------- what a seat sees

    def view(self, seat: int | None, /) -> dict[str, Any]:
        """What ``seat`` may see, JSON-ready; ``None`` is a spectator (the public table).

        The only door through which state reaches a player, bot or spectator.
        Every view carries ``game`` (the record's game name), ``players``,
        ``seat`` and ``result`` (None until the end, then a superset of
        :meth:`result`).
        """
        ...

    def view_text(self, seat: int | None, encode: Callable[[Any], str], /) -> str:
        """:meth:`view` as JSON text written by ``encode`` (a value to its JSON text): the
        same JSON value as ``encode(self.view(seat))``. A server sends every seat its view
        after every event; an engine may write the seats' common part once per position
        (Alea Iacta Est does: :mod:`alea.iacta.view_text`)."""
        ...

    def log(self, seat: int | None, start: int = 0, /) -> list[str]:
        """:attr:`history` from entry ``start`` on, as ``seat`` may see it (one entry per
        event; hidden events redacted). A server sends each seat only the entries it has not
        had yet, so ``start`` spares it redacting the whole game at every move."""
        ...

    def replay_view(self, step: int | None = None, /) -> dict[str, Any]:
        """The table after the first ``step`` events of this finished game (default: all of
        them), nothing hidden: shaped like a spectator's :meth:`view` (``seat`` None), with
        every seat's secrets shown. For replays, once no secret is left to keep.

        ValueError while the game is not over, or for a step outside 0 to ``len(history)``.
        """
        ...

    # ---------------------------------------------------------------- records, JSON

    def record(self) -> dict[str, Any]:
        """The game record (:data:`RECORD_KEYS`, plus ``result`` once finished): replays
        to this state with ``GameInfo.replay``."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The whole state, hidden parts included, JSON-ready; ``GameInfo.from_json`` restores
        it exactly. For saving positions, never for a player's eyes."""
        ...

    # ---------------------------------------------------------------- time limit, referee

    def can_declare_time_up(self) -> bool:
        """Whether ``GameInfo.time_up_action`` may be applied now (False for a game
        without a time limit). A clock outside the engine applies it when the time is
        up; the engine itself never reads a clock."""
        ...

    def time_up_declared(self) -> bool:
        """Whether the end of the game has been fixed by the time limit (the time-up action
        applied, or a round limit set in advance), so a table can say "last round"."""
        ...

    def asked(self) -> Asked | None:
        """What an outside referee is asking now, while ``current_player() == REFEREE``
        (None otherwise, and always in a game without a human referee)."""
        ...


#: A state of any registered game (what a server holding several games stores).
AnyState = GameState[Any, Any]


@dataclass(frozen=True, kw_only=True, eq=False, repr=False)
class GameInfo:
    """The fixed facts of one game: what never changes from one game to the next.

    The server and the command line read these instead of copying constants
    of the rules by hand; the contract test reads them to know what to test.
    One record per game, compared and hashed by identity.
    """

    #: Short name used by the server and the command line (``iacta``, ``romano``).
    name: str
    #: The ``game`` value of its records, views and positions (``alea-iacta-est``).
    game: str
    #: The title shown to people.
    title: str
    #: Bumped whenever the rules' behaviour changes (a record replays the same way only
    #: under the same version), as pgx does.
    version: int
    #: The fewest players the rules allow (``new_game`` refuses fewer).
    min_players: int
    #: The most players alea seats at a table (one colour each). The rules may allow more:
    #: Dado Romano is for "2 or more" (RULES.md B) and its terminal game seats up to 12.
    max_players: int
    #: Number of rounds by player count, or None when the game has no fixed number.
    rounds: Mapping[int, int] | None
    #: Colour of each seat, from seat 0 (at least ``max_players`` of them).
    colours: tuple[str, ...]
    #: Whether a seat can know something another cannot (hidden cards, private draws).
    #: The contract test then insists that :attr:`resample` really changes something.
    hidden_information: bool
    #: Whether a person may referee, deciding at :data:`REFEREE` nodes (option
    #: ``referee="human"`` of :attr:`new_game`).
    human_referee: bool
    #: Minutes of the time limit when nobody chooses (None: the game has no time limit).
    default_time_limit: int | None
    #: The action a referee (a clock) applies when the time is up; never in
    #: ``legal_actions()`` and never a player's to send (None: no time limit).
    time_up_action: str | None
    #: The engine's decision type: tells a decision from a chance outcome after parsing.
    action_type: type
    #: The engine's chance-outcome type.
    outcome_type: type
    #: Text to a decision or chance outcome; :class:`NotationError` if it is not notation.
    parse: Callable[[str], object]
    #: ``new_game(players, **options)``: a new game; ``options`` are the record's
    #: ``options`` (ValueError for a player count or option the game does not have).
    new_game: Callable[..., AnyState]
    #: The state a record (:meth:`GameState.record`) replays to; IllegalActionError
    #: naming the first bad event, ValueError for a record of another game.
    replay: Callable[[Mapping[str, Any]], AnyState]
    #: The state saved by :meth:`GameState.to_json`.
    from_json: Callable[[Mapping[str, Any]], AnyState]
    #: ``resample(state, seat, rng)``: a state ``seat`` cannot tell from ``state`` — the
    #: same ``view(seat)`` and ``view(None)``, hidden parts drawn anew (OpenSpiel's
    #: ``resample_from_infostate``). When it keeps the history, its logs match too.
    #: Searching bots use it; the contract test uses it to prove views leak nothing.
    resample: Callable[[AnyState, int, random.Random], AnyState]
    #: Option sets worth playing and testing (each a ``new_game`` keyword set).
    variants: tuple[Mapping[str, Any], ...] = field(default=({},))
    #: The ``new_game`` options of a table hosted online, where people play at a person's
    #: pace (Dado Romano's ``paced``: each die waits for its player's Roll).
    table_options: Mapping[str, Any] = field(default_factory=dict)
    #: ``projection(view)``: the final scores a seat can foresee from its own view (a
    #: :meth:`GameState.view`, never the state, so it shows nothing the view hides):
    #: ``{"seat", "own", "public"}``. None: the game has no hidden score to project.
    projection: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None

    def __repr__(self) -> str:
        return f"<GameInfo {self.name}: {self.title}, version {self.version}>"

    def player_counts(self) -> range:
        """Every allowed number of players."""
        return range(self.min_players, self.max_players + 1)

    def colour(self, seat: int) -> str:
        """The colour of ``seat``."""
        return self.colours[seat]

    def is_decision(self, move: object) -> bool:
        """Whether a parsed move is a decision (else a chance outcome, drawn by whoever
        holds the random source, never sent by a player)."""
        return isinstance(move, self.action_type)


# ---------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class RecordParts:
    """The parts of a record an engine replays: players, options, events."""

    players: int
    options: dict[str, Any]
    events: list[str]


def make_record(
    game: str,
    players: int,
    options: Mapping[str, Any],
    events: Sequence[str],
    result: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """A game record in the one layout every game shares (docs/records.md)."""
    data: dict[str, Any] = {
        "game": game,
        "format": RECORD_FORMAT,
        "players": players,
        "options": dict(options),
        "events": list(events),
    }
    if result is not None:
        data["result"] = dict(result)
    return data


def read_record(data: Mapping[str, Any], game: str, title: str) -> RecordParts:
    """The players, options and events of a record of ``game`` (``title`` for messages).

    Reads the records of earlier versions too: without ``game``, ``format`` or
    ``options``, and with ``moves`` for ``events`` (Dado Romano's first records).
    Raises ValueError for a record of another game or of a newer format.
    """
    found = data.get("game", game)
    if found != game:
        raise ValueError(f"not a {title} record (game: {found!r})")
    fmt = data.get("format", RECORD_FORMAT)
    if not isinstance(fmt, int) or fmt > RECORD_FORMAT:
        raise ValueError(f"a {title} record of format {fmt!r}: this version reads up to 1")
    events = data["events"] if "events" in data else data.get("moves")
    if events is None:
        raise ValueError(f"a {title} record needs 'players' and 'events'")
    options = data.get("options") or {}
    if not isinstance(options, Mapping):
        raise ValueError(f"a {title} record's 'options' must be an object")
    return RecordParts(int(data["players"]), dict(options), [str(e) for e in events])


# ---------------------------------------------------------------------- registry

#: The engine packages that ship with alea; each exposes ``INFO``.
_BUILTIN: Final = ("alea.iacta", "alea.romano")
_registry: dict[str, GameInfo] = {}
_loaded = False


def _load() -> None:
    """Import the built-in engines once (lazily: importing this module imports none)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in _BUILTIN:
        game_info: GameInfo = importlib.import_module(module).INFO
        _registry.setdefault(game_info.name, game_info)


def register(game_info: GameInfo) -> None:
    """Add a game (a third engine, or a test's toy game) to :func:`games`.

    ValueError if another game already has its short name or record name.
    """
    _load()
    for other in _registry.values():
        if other is not game_info and game_info.game in (other.game, other.name):
            raise ValueError(f"a game called {game_info.game!r} is registered already")
        if other is not game_info and game_info.name in (other.game, other.name):
            raise ValueError(f"a game called {game_info.name!r} is registered already")
    _registry[game_info.name] = game_info


def unregister(name: str) -> None:
    """Remove the game ``name`` (for tests that registered one); KeyError if unknown."""
    _load()
    del _registry[name]


def games() -> tuple[GameInfo, ...]:
    """Every registered game, the built-in ones first."""
    _load()
    return tuple(_registry.values())


def info(name: str) -> GameInfo:
    """The game called ``name``: its short name (``romano``) or its records' (``dado-romano``).

    KeyError if no registered game has that name.
    """
    _load()
    found = _registry.get(name)
    if found is not None:
        return found
    for candidate in _registry.values():
        if candidate.game == name:
            return candidate
    raise KeyError(name)
