"""The games a server hosts, behind one small interface: Alea Iacta Est and Dado Romano.

A stored game has a *kind* (``games.game``: ``iacta``, the default, or
``romano``). Everything the room (:mod:`alea.server.games`) needs from a rules
engine goes through a :class:`Kind`: a new game, parsing a player's move,
whose event a chance outcome is, the view and log a seat may see, the result
summary, and the bot that plays a seat. The room itself (seats, tokens, the
event log, group commit, restart by replay) is the same for every kind.

Dado Romano's bot picks uniformly among the legal actions (:class:`RandomRomanoBot`);
its software referee draws riddles and questions from the bank as chance
outcomes, server-side, like every other chance event. Its time limit (RULES.md
B1) is the server's clock, not a player's move: the kind names the event the
server applies when the time is up (``last-round``) and refuses it from
players (:class:`RefereeMove`); the engine itself never reads a clock.

A Dado Romano game may instead have a *human* referee (RULES.md B5): the kind
then builds the engine with ``referee="human"``, so a riddle or question
figure leads to the ``mark`` phase, whose decision (``mark:right`` or
``mark:wrong``) belongs to the referee role, not to any seat
(:attr:`Kind.referee_to_move`).
"""

from __future__ import annotations

import random
from typing import Any, Final

import alea.iacta as iacta
import alea.romano as romano
from alea.iacta.cards import PLAYER_COLOURS
from alea.romano.notation import LAST_ROUND
from alea.romano.texts import EFFECTS
from alea.server.config import Bot

IACTA: Final = "iacta"
#: Who referees a game: the server's software (bank and clock) or a person.
SOFTWARE: Final = "software"
HUMAN_REFEREE: Final = "human"
REFEREES: Final = (SOFTWARE, HUMAN_REFEREE)
#: The pseudo-seat of a human referee: the engine's own number for the referee's decisions
#: (``romano.REFEREE``), so "is it this role's turn?" is one comparison for seats and referee.
#: Never an index into the seats (it is negative): see ``Game.role_of``.
REFEREE: Final = int(romano.REFEREE)
ROMANO: Final = "romano"
KINDS: Final = (IACTA, ROMANO)

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


class Kind:
    """The rules engine of one game kind, as the room uses it (Alea Iacta Est here)."""

    name: str = IACTA
    min_players: int = 2
    max_players: int = 5
    illegal: type[Exception] = iacta.IllegalActionError
    #: The event the server applies when a game's time limit runs out (None: this
    #: kind has no time limit, and creating a game with one is refused).
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
        view: dict[str, Any] = state.view(seat)
        return view

    def log(self, state: Any, seat: int | None) -> list[str]:
        shown: list[str] = state.log(seat)
        return shown

    def result_summary(self, state: Any) -> dict[str, Any]:
        """Scores, tie-breaks and winners of a finished game (stored with the game row)."""
        arrangements = state.arrangements()
        return {
            "scores": [int(a.score) for a in arrangements],
            "tiebreaks": [int(a.tiebreak) for a in arrangements],
            "winners": list(state.winners()),
        }

    def rounds(self, state: Any) -> tuple[int, int]:
        """``(round, rounds)`` for the lobby (rounds 0: no fixed number)."""
        return min(int(state.round) + 1, int(state.rounds)), int(state.rounds)

    def final_result(self, state: Any) -> Any:
        return state.view(None)["result"]

    def bot(self, level: str) -> Bot | None:
        """The bot for this kind (None: the server's bot factory for ``level``)."""
        return None

    def time_up_pending(self, state: Any) -> bool:
        """Whether :attr:`time_up_event` may still be applied to ``state`` (never here)."""
        return False

    def last_round_declared(self, state: Any) -> bool:
        """Whether the time limit's last round has been declared (never here)."""
        return False


class RandomRomanoBot:
    """Dado Romano's bot: a uniformly random legal action (answers included)."""

    def act(self, view: dict[str, Any], legal_actions: list[Any], rng: random.Random) -> Any:
        return rng.choice(legal_actions)


class RomanoKind(Kind):
    """Dado Romano (:mod:`alea.romano`): software referee, time limit by the server's clock."""

    name = ROMANO
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

    def result_summary(self, state: Any) -> dict[str, Any]:
        return {
            "scores": [int(s) for s in state.scores],
            "winners": list(state.winners()),
            "reason": str(state.end_reason),
        }

    def rounds(self, state: Any) -> tuple[int, int]:
        return int(state.round), int(state.last_round or 0)

    def final_result(self, state: Any) -> Any:
        return self.result_summary(state)

    def bot(self, level: str) -> Bot | None:
        return RandomRomanoBot()


_KINDS: Final[dict[str, Kind]] = {IACTA: Kind(), ROMANO: RomanoKind()}


def kind(name: str) -> Kind:
    """The :class:`Kind` called ``name`` (``KeyError`` if unknown)."""
    return _KINDS[name]
