"""The games a server hosts, behind one small adapter: Alea Iacta Est and Dado Romano.

This is the **only** module of :mod:`alea.server` that knows a rules engine by
name. A stored game names its engine (``games.game``: ``iacta``, the default,
or ``romano``); :func:`rules_for` gives the :class:`Rules` of that name, and
everything the rest of the server needs from an engine goes through it: the
fixed facts (player limits, colours, time limit, whether a person may
referee), a new game, parsing a player's move, whose event a chance outcome
is, the view and log a seat may see, the replay view, the result summary and
the bot that plays a seat. The room (seats, tokens, the event log, group
commit, restart by replay) is the same for every game; the engine state itself
is used only through what both engines share (``apply``, ``clone``,
``is_chance``, ``sample_chance``, ``current_player``, ``legal_actions``,
``is_terminal``, ``history``).

Dado Romano's bot is :class:`alea.bots.romano.RandomRomanoBot`; its software
referee draws riddles and questions from the bank as chance outcomes,
server-side, like every other chance event. Its time limit (RULES.md B1) is
the server's clock, not a player's move: the rules name the event the server
applies when the time is up (``last-round``) and refuse it from players
(:class:`RefereeMove`); the engine itself never reads a clock.

A Dado Romano game may instead have a *human* referee (RULES.md B5): the rules
then build the engine with ``referee="human"``, so a riddle or question figure
leads to the ``mark`` phase, whose decision (``mark:right`` or ``mark:wrong``)
belongs to the referee role, not to any seat (:meth:`Rules.referee_to_move`).
"""

from __future__ import annotations

from typing import Any, Final

import alea.iacta as iacta
import alea.romano as romano
from alea.bots import Bot
from alea.bots.romano import RandomRomanoBot
from alea.iacta.cards import PLAYER_COLOURS
from alea.romano.notation import LAST_ROUND
from alea.romano.texts import EFFECTS

IACTA: Final = "iacta"
ROMANO: Final = "romano"
#: Who referees a game: the server's software (bank and clock) or a person.
SOFTWARE: Final = "software"
HUMAN_REFEREE: Final = "human"
REFEREES: Final = (SOFTWARE, HUMAN_REFEREE)
#: The pseudo-seat of a human referee: the engine's own number for the referee's decisions
#: (``romano.REFEREE``), so "is it this role's turn?" is one comparison for seats and referee.
#: Never an index into the seats (it is negative).
REFEREE: Final = int(romano.REFEREE)

#: Chance phases of Alea Iacta Est whose event belongs to the player whose turn it is.
_OWN_CHANCE = frozenset({"roll", "reroll", "fortuna-draw", "temple-bonus"})

#: Seat colours of Dado Romano (up to six players).
ROMANO_COLOURS: Final = ("gray", "brown", "blue", "green", "yellow", "purple")


class BadMove(Exception):
    """A move text that is not notation of the game (``bad_notation``)."""


class ChanceMove(Exception):
    """A move text that is a chance outcome: only the server draws those."""


class RefereeMove(Exception):
    """A move text that only the server's referee makes (the time limit's ``last-round``)."""


class Rules:
    """One rules engine as the server uses it (Alea Iacta Est here; see :class:`RomanoRules`)."""

    name: str = IACTA
    #: The game's name as people read it.
    title: str = "Alea Iacta Est"
    min_players: int = 2
    max_players: int = 5
    illegal: type[Exception] = iacta.IllegalActionError
    #: The event the server applies when a game's time limit runs out (None: this
    #: game has no time limit, and creating a game with one is refused).
    time_up_event: str | None = None
    #: Minutes of the time limit when the creator does not choose (None: no limit).
    default_time_limit: int | None = None
    #: Whether a game of this kind may have a human referee (RULES.md B5: Dado Romano).
    human_referee: bool = False

    def colour(self, seat: int) -> str:
        return str(PLAYER_COLOURS[seat])

    def new_game(self, players: int, referee: str = SOFTWARE) -> Any:
        """A new game's state; ``referee`` is ``software`` here (the server checks first)."""
        if referee != SOFTWARE:
            raise ValueError(f"{self.name} games have no referee")
        return iacta.new_game(players)

    def referee_to_move(self, state: Any) -> bool:
        """Whether the next decision is the human referee's (never in Alea Iacta Est)."""
        return False

    def exchange_key(self, state: Any) -> int | None:
        """The item the human referee is asking now, as a number (None: nothing asked).

        The typed question and answer of the table belong to this key: when it
        changes (or becomes None) the stored exchange is out of date.
        """
        return None

    def answering_seat(self, state: Any) -> int | None:
        """The seat answering the human referee's riddle or question now (None: nobody)."""
        return None

    def item_kind(self, state: Any) -> str | None:
        """What the human referee asks now: ``riddle`` or ``question`` (None: nothing)."""
        return None

    def parse_action(self, text: str) -> Any:
        """The action ``text`` stands for; :class:`BadMove` or :class:`ChanceMove` if none."""
        try:
            token = iacta.parse(text)
        except iacta.NotationError as err:
            raise BadMove(str(err)) from None
        if not isinstance(token, iacta.Action):
            raise ChanceMove(text)
        return token

    def actor_of(self, state: Any) -> int | None:
        """The seat an event about to be applied belongs to (None for public reveals)."""
        player = int(state.current_player())
        if player >= 0:
            return player
        if player == iacta.TERMINAL:
            return None
        phase = state.phase_name
        if phase in _OWN_CHANCE:
            return int(state.player)
        if phase == "senate-draw" and state.senate_takers:
            return int(state.senate_takers[0])
        return None

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator), as the engine shows it."""
        view: dict[str, Any] = state.view(seat)
        return view

    def log(self, state: Any, seat: int | None) -> list[str]:
        """The event log as ``seat`` may see it (others' hidden draws redacted)."""
        shown: list[str] = state.log(seat)
        return shown

    def replay_view(self, state: Any) -> dict[str, Any]:
        """A spectator view with every hand shown: for replays of finished games only."""
        view: dict[str, Any] = state.view(None)
        for seat, info in enumerate(view["players_info"]):
            own = state.view(seat)["players_info"][seat]
            info["fortuna_drawn_values"] = own["fortuna_drawn_values"]
            info["senate"] = own["senate"]
        if state.senate_hand:
            view["senate_hand"] = list(state.senate_hand)
        view["senate_bottom"] = [card for card, _ in state.senate_bottom]
        return view

    def result_summary(self, state: Any) -> dict[str, Any]:
        """Scores, tie-breaks and winners of a finished game (stored with the game row)."""
        arrangements = state.arrangements()
        return {
            "scores": [int(a.score) for a in arrangements],
            "tiebreaks": [int(a.tiebreak) for a in arrangements],
            "winners": list(state.winners()),
        }

    def final_result(self, state: Any) -> Any:
        """The result a replay shows (the view's, with every arrangement)."""
        return state.view(None)["result"]

    def rounds(self, state: Any) -> tuple[int, int]:
        """``(round, rounds)`` for the lobby (rounds 0: no fixed number)."""
        return min(int(state.round) + 1, int(state.rounds)), int(state.rounds)

    def bot(self, level: str) -> Bot | None:
        """The bot of this game for ``level`` (None: the server's bot factory decides)."""
        return None

    def time_up_pending(self, state: Any) -> bool:
        """Whether :attr:`time_up_event` may still be applied to ``state`` (never here)."""
        return False

    def last_round_declared(self, state: Any) -> bool:
        """Whether the time limit's last round has been declared (never here)."""
        return False


class RomanoRules(Rules):
    """Dado Romano (:mod:`alea.romano`): software referee, time limit by the server's clock."""

    name = ROMANO
    title = "Dado Romano"
    min_players = 2
    max_players = 6
    illegal = romano.IllegalActionError
    time_up_event = str(LAST_ROUND)
    default_time_limit = 60  # RULES.md B1: "default one hour"
    human_referee = True

    def colour(self, seat: int) -> str:
        return ROMANO_COLOURS[seat]

    def new_game(self, players: int, referee: str = SOFTWARE) -> Any:
        if referee not in REFEREES:
            raise ValueError(f"unknown referee {referee!r}")
        return romano.new_game(players, referee="human" if referee == HUMAN_REFEREE else "software")

    def referee_to_move(self, state: Any) -> bool:
        return int(state.current_player()) == romano.REFEREE

    def exchange_key(self, state: Any) -> int | None:
        """The turn slot of the ``mark`` phase: one riddle or question per turn at most.

        A turn asks at most one item (the riddle and question figures end the
        turn once marked), so the engine's count of turn slots names it; no new
        event is needed, and the clock's ``last-round`` does not change it.
        """
        return int(state.turns) if self.referee_to_move(state) else None

    def answering_seat(self, state: Any) -> int | None:
        return int(state.seat) if self.referee_to_move(state) else None

    def item_kind(self, state: Any) -> str | None:
        return str(state.item_kind) if self.referee_to_move(state) else None

    def parse_action(self, text: str) -> Any:
        try:
            token = romano.parse(text)
        except romano.IllegalActionError as err:
            raise BadMove(str(err)) from None
        if not isinstance(token, romano.Action):
            raise ChanceMove(text)
        if token == LAST_ROUND:
            # The engine accepts it from anyone at any time (the referee's word); online
            # the referee is the server's clock, so a player may not end the game early.
            raise RefereeMove(text)
        return token

    def actor_of(self, state: Any) -> int | None:
        player = int(state.current_player())
        if player >= 0:
            return player
        if player == romano.TERMINAL:
            return None
        return int(state.seat)

    def time_up_pending(self, state: Any) -> bool:
        """The engine's own check: the game is on and the last round not yet declared."""
        return bool(state.can_declare_last_round())

    def last_round_declared(self, state: Any) -> bool:
        return state.last_round is not None

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """``State.view(seat)`` plus the words a table needs (spectators: seat null).

        Added keys: ``figure_name`` and ``figure_effect`` (``{"it", "en"}``) of the
        figure being resolved, and ``item_text`` (the riddle or question being
        asked, with its four choices in both languages; never its answer).
        """
        view: dict[str, Any] = state.view(0 if seat is None else seat)
        if seat is None:
            view["seat"] = None
        fig = str(state.figure)
        view["figure_name"] = romano.FIGURES[fig].name if fig else ""
        view["figure_effect"] = (
            {lang: EFFECTS[lang].get(fig, "") for lang in ("it", "en")} if fig else None
        )
        item_id = view.get("item") or ""
        if item_id:
            item = state.bank.get(item_id)
            view["item_text"] = {
                "id": item.id,
                "kind": item.kind,
                "text": dict(item.text),
                "choices": {lang: list(c) for lang, c in item.choices.items()},
            }
        else:
            view["item_text"] = None
        return view

    def log(self, state: Any, seat: int | None) -> list[str]:
        return list(state.history)  # nothing is hidden: the answers live in the bank

    def replay_view(self, state: Any) -> dict[str, Any]:
        return self.view(state, None)  # nothing is hidden: the spectator's view is complete

    def result_summary(self, state: Any) -> dict[str, Any]:
        return {
            "scores": [int(s) for s in state.scores],
            "winners": list(state.winners()),
            "reason": str(state.end_reason),
        }

    def final_result(self, state: Any) -> Any:
        return self.result_summary(state)

    def rounds(self, state: Any) -> tuple[int, int]:
        return int(state.round), int(state.last_round or 0)

    def bot(self, level: str) -> Bot | None:
        return RandomRomanoBot()


_RULES: Final[dict[str, Rules]] = {IACTA: Rules(), ROMANO: RomanoRules()}

#: The names of the games this server hosts (``games.game``), the default first.
GAMES: Final = tuple(_RULES)
DEFAULT_GAME: Final = IACTA
#: The fewest and most seats of any hosted game (the API's bounds before the game is known).
MIN_SEATS: Final = min(r.min_players for r in _RULES.values())
MAX_SEATS: Final = max(r.max_players for r in _RULES.values())


def rules_for(name: str) -> Rules:
    """The :class:`Rules` of the game called ``name`` (``KeyError`` if unknown)."""
    return _RULES[name]


def describe_games() -> str:
    """The hosted games with their seat counts, for the API's description."""
    return " or ".join(
        f"{r.title} ({r.min_players}-{r.max_players} seats)" for r in _RULES.values()
    )
