"""The rules engine of Dado Romano (RULES.md Part B), OpenSpiel-like.

A :class:`State` is one position of one game. It is mutated in place by
:meth:`State.apply`, which takes a decision (:class:`Action`), a chance outcome
(:class:`Outcome`) or the notation string of either. Every die rolled and every
riddle or question drawn is a chance outcome, so a game record (the options
and the list of every move) replays exactly and nothing in here is random;
:meth:`State.sample_chance` draws with a ``random.Random`` the caller owns.

The time limit is never read from a clock: the referee (or the terminal
game's clock, or the ``time_limit_rounds`` option) applies ``last-round``,
which makes the current round the last one. That keeps games deterministic
and testable.

What each figure does to the scores is :mod:`alea.romano.effects`; records,
positions and the JSON of a state are :mod:`alea.romano.records`, the view is
:mod:`alea.romano.views`. Readings beyond Part B are documented in
``docs/romano.md`` and marked "reading:" in comments where they are
implemented.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, Final, Literal

from alea.game import CHANCE as CHANCE  # the values every game shares (alea.game)
from alea.game import REFEREE as REFEREE
from alea.game import TERMINAL as TERMINAL
from alea.game import Asked
from alea.romano import effects
from alea.romano.bank import Bank, ItemKind, default_bank
from alea.romano.ceiling import TARGET, distance, is_above
from alea.romano.combinations import FIGURES
from alea.romano.events import Event
from alea.romano.notation import (
    DECLINE,
    LAST_ROUND,
    RIGHT,
    THROW,
    WRONG,
    Action,
    IllegalActionError,
    Outcome,
    answer,
    challenge,
    declare,
    drawn,
    parse,
    return_number,
    roll,
)

#: The third turn a player actually plays is the one with the declaration (B2).
DECLARATION_TURN: Final = 3
#: Riddles and questions offer this many answers.
ANSWERS: Final = 4

RefereeMode = Literal["software", "human"]
Phase = Literal["declare", "roll", "draw", "answer", "mark", "challenge", "return", "over"]
#: What a pending roll is for; decides what happens once enough dice are rolled.
RollPurpose = Literal[
    "pair",  # the two rolls of a combination
    "second",  # Quintus Ennius: the second die again
    "sum",  # Octavius Augustus (3 rolls), Claudius (2 rolls): add the sum
    "six-times",  # Seneca
    "tiberius",  # Tiberius
    "challenge",  # Messalina: challenger, then challenged
    "return",  # Nero's return: three rolls
]

_ALL_DECLARATIONS: Final = tuple(declare(a, b) for a in range(1, 7) for b in range(1, 7))
_ALL_RETURNS: Final = tuple(return_number(n) for n in range(1, 7))
_ALL_ANSWERS: Final = tuple(answer(n) for n in range(1, ANSWERS + 1))
_ROLLS: Final = tuple((roll(v), 1 / 6) for v in range(1, 7))


class State:
    """One position of a game of Dado Romano; see the module docstring."""

    def __init__(
        self,
        players: int,
        *,
        time_limit_rounds: int | None = None,
        referee: RefereeMode = "software",
        bank: Bank | None = None,
        paced: bool = False,
    ) -> None:
        """An empty state; use :func:`new_game` or :func:`position` to start a game.

        ``paced``: each die waits for its player's ``throw`` (a table online, where a
        person presses Roll and a bot rolls after a pause) instead of being rolled as
        soon as it is due.
        """
        if players < 2:
            raise ValueError("Dado Romano needs at least 2 players")
        if time_limit_rounds is not None and time_limit_rounds < 1:
            raise ValueError("time_limit_rounds must be at least 1 (or None for no limit)")
        if referee not in ("software", "human"):
            raise ValueError("referee must be 'software' or 'human'")
        self.players = players
        self.time_limit_rounds = time_limit_rounds
        self.referee: RefereeMode = referee
        self.paced = paced
        #: At a paced table: whether the die now due has been called for (``throw``).
        self.thrown = False
        self.bank = bank if bank is not None else default_bank()
        self.scores = [0] * players
        #: Turns each player actually played (skipped and eliminated turns excluded).
        self.played = [0] * players
        self.eliminated = [False] * players
        self.skip_next = [False] * players
        #: Each player's ceiling state, fixed at the start of the current turn (B6).
        self.inverted = [False] * players
        #: Players who rolled Marcus Aurelius, waiting for the next opponent's rolls.
        self.pending_marcus: list[int] = []
        self.seat = 0
        self.round = 1
        self.last_round: int | None = time_limit_rounds
        #: Turn slots started so far (played, skipped or spent trying to return).
        self.turns = 0
        self.phase: Phase = "roll"
        # The current turn's scratch.
        self.purpose: RollPurpose = "pair"
        self.needed = 2
        self.rolls: list[int] = []
        self.pairs = 0
        self.declared: tuple[int, int] | None = None
        self.figure: str = ""
        self.item_kind: ItemKind = "riddle"
        self.item: str = ""
        self.challenged = -1
        self.return_number = 0
        self.used: dict[str, list[str]] = {"riddle": [], "question": []}
        self._winners: list[int] = []
        self.end_reason = ""
        self.history: list[str] = []
        self.events: list[Event] = []
        self.start: dict[str, Any] | None = None

    # ------------------------------------------------------------------ queries

    def awaiting_throw(self) -> bool:
        """Whether a paced table waits for the turn's player to roll the die now due."""
        return self.paced and self.phase == "roll" and not self.thrown

    def current_player(self) -> int:
        """The seat to decide, or :data:`CHANCE`, :data:`REFEREE` or :data:`TERMINAL`."""
        if self.phase == "over":
            return TERMINAL
        if self.awaiting_throw():
            return self.seat
        if self.phase in ("roll", "draw"):
            return CHANCE
        if self.phase == "mark":
            return REFEREE
        return self.seat

    def is_chance(self) -> bool:
        """Whether the next move is a chance outcome (a roll or a draw)."""
        return self.phase in ("roll", "draw") and not self.awaiting_throw()

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.phase == "over"

    def legal_actions(self) -> list[Action]:
        """The decisions allowed now (empty at chance nodes and at the end).

        ``last-round`` is not listed: it is the clock's (or referee's) event,
        not a move of the player to act; :meth:`can_declare_last_round` says
        whether it may be applied.
        """
        p = self.phase
        if self.awaiting_throw():
            return [THROW]
        if p == "declare" or p == "return":
            return list(_ALL_DECLARATIONS if p == "declare" else _ALL_RETURNS)
        if p == "challenge":
            return [challenge(t) for t in self._challengeable()] + [DECLINE]
        if p == "answer":
            return list(_ALL_ANSWERS)
        if p == "mark":
            return [RIGHT, WRONG]
        return []

    def chance_outcomes(self) -> list[tuple[Outcome, float]]:
        """The possible chance outcomes now with their probabilities (summing to 1)."""
        if not self.is_chance():
            return []
        if self.phase == "roll":
            return list(_ROLLS)
        if self.phase == "draw":
            ids = self._drawable()
            return [(drawn(self.item_kind, i), 1 / len(ids)) for i in ids]
        return []

    def sample_chance(self, rng: random.Random) -> Outcome:
        """One chance outcome drawn with ``rng`` (the state is not changed)."""
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise IllegalActionError("No chance event is pending: " + self.expected())
        return rng.choices([o for o, _ in outcomes], weights=[w for _, w in outcomes])[0]

    def can_declare_last_round(self) -> bool:
        """Whether ``last-round`` may be applied (game on, current round not already last)."""
        return self.phase != "over" and (self.last_round is None or self.last_round > self.round)

    def is_last_round(self) -> bool:
        """Whether the current round has been declared the last."""
        return self.last_round is not None and self.round >= self.last_round

    def returns(self) -> list[float]:
        """Each player's result: the winners share 1 equally, others 0 (all 0 before the end)."""
        out = [0.0] * self.players
        for w in self._winners:
            out[w] = 1 / len(self._winners)
        return out

    def winners(self) -> list[int]:
        """The seats that won (several for a shared victory); empty before the end."""
        return list(self._winners)

    def expected(self) -> str:
        """What the game waits for, in words a player understands."""
        s = f"seat {self.seat}"
        if self.phase == "over":
            return "the game is over"
        if self.phase == "declare":
            return (
                f"{s} must declare the two numbers of their third turn, first roll then "
                "second (D:11 ... D:66)"
            )
        if self.phase == "return":
            return f"{s} is out (Nero) and declares a number 1-6 to try to return (N:1 ... N:6)"
        if self.phase == "challenge":
            targets = ", ".join(f"M:{t}" for t in self._challengeable())
            return (
                f"{s} rolled Messalina and may challenge an opponent "
                f"({targets or 'nobody can be challenged'}) or decline (M:pass)"
            )
        if self.phase == "answer":
            return f"{s} answers the {self.item_kind} by choosing one of four answers (A:1 ... A:4)"
        if self.phase == "mark":
            return (
                f"the referee marks {s}'s answer to the {self.item_kind} (mark:right or mark:wrong)"
            )
        if self.phase == "draw":
            return f"the referee draws a {self.item_kind} from the bank ({self.item_kind}:<id>)"
        what = {
            "pair": "a roll of the die",
            "second": "Quintus Ennius' new second roll",
            "sum": f"roll {len(self.rolls) + 1} of {self.needed} for {self.figure_name()}",
            "six-times": "Seneca's roll",
            "tiberius": "Tiberius' roll",
            "challenge": "the challenge rolls (challenger first)",
            "return": f"return roll {len(self.rolls) + 1} of 3",
        }[self.purpose]
        if self.awaiting_throw():
            return f"{s} to roll the die ({what}: throw)"
        return f"{what} for {s} (roll:1 ... roll:6)"

    def figure_name(self) -> str:
        """The name of the figure being resolved this turn ('' before the first combination)."""
        return FIGURES[self.figure].name if self.figure else ""

    # ------------------------------------------------------------------ moves

    def apply(self, move: Action | Outcome | str) -> None:
        """Apply a decision or chance outcome, in place.

        Raises :class:`IllegalActionError` (and changes nothing) when the move
        is malformed or not allowed now.
        """
        m = parse(move) if isinstance(move, str) else move
        if self.phase == "over":
            raise IllegalActionError(f"The game is over; {str(m)!r} cannot be played.")
        if m == LAST_ROUND:
            if not self.can_declare_last_round():
                raise IllegalActionError("The last round has already been declared.")
            self.history.append(str(m))
            self.last_round = self.round
            self._event("last-round", value=self.round)
            return
        if self.is_chance():
            if not isinstance(m, Outcome):
                raise self._not_now(m)
            self._check_outcome(m)
            self.history.append(str(m))
            if m.kind == "roll":
                self._on_roll(m.value)
            else:
                self._on_draw(m.item)
            return
        if not isinstance(m, Action):
            raise self._not_now(m)
        self._check_action(m)
        self.history.append(str(m))
        if m == THROW:
            self.thrown = True
            return
        self._on_action(m)

    def _not_now(self, m: Action | Outcome) -> IllegalActionError:
        return IllegalActionError(f"{str(m)!r} is not possible now: expected {self.expected()}.")

    def _check_outcome(self, m: Outcome) -> None:
        if self.phase == "roll":
            if m.kind != "roll":
                raise self._not_now(m)
            return
        if m.kind != self.item_kind:
            raise self._not_now(m)
        if m.item not in self.bank.ids(self.item_kind):
            raise IllegalActionError(f"There is no {m.kind} {m.item!r} in the bank.")
        if m.item not in self._drawable():
            raise IllegalActionError(f"The {m.kind} {m.item} was already asked in this game.")

    def _check_action(self, m: Action) -> None:
        if m in self.legal_actions():
            return
        if self.phase == "challenge" and m.kind == "challenge":
            t = m.values[0]
            if t == self.seat:
                raise IllegalActionError("Messalina cannot challenge herself: choose an opponent.")
            if t >= self.players:
                raise IllegalActionError(f"There is no seat {t} (seats are 0-{self.players - 1}).")
            raise IllegalActionError(
                f"Seat {t} is out of the game (Nero) and cannot be challenged."
            )
        raise self._not_now(m)

    def _on_action(self, m: Action) -> None:
        p = self.seat
        if m.kind == "declare":
            self.declared = (m.values[0], m.values[1])
            self._event("declare", seat=p, text=f"{m.values[0]}{m.values[1]}")
            self._need("pair", 2)
        elif m.kind == "return":
            self.return_number = m.values[0]
            self._need("return", 3)
        elif m.kind == "challenge":
            self.challenged = m.values[0]
            self._event("challenge", seat=p, other=self.challenged)
            self._need("challenge", 2)
        elif m.kind == "decline":
            self._event("decline", seat=p)
            self._end_turn()
        elif m.kind == "answer":
            right = self.bank.get(self.item).is_right(m.values[0])
            verdict = "right" if right else "wrong"
            self._event("answer", seat=p, value=m.values[0], text=verdict, item=self.item)
            effects.reward(self, right)
        else:  # mark
            right = m.values[0] == 1
            self._event("mark", seat=p, text="right" if right else "wrong")
            effects.reward(self, right)

    def _on_draw(self, item: str) -> None:
        ids = self.used[self.item_kind]
        if set(self.bank.ids(self.item_kind)) <= set(ids):
            ids.clear()  # every item was asked: the bank starts over
        ids.append(item)
        self.item = item
        self._event("draw", seat=self.seat, item=item, cause=self.figure)
        self.phase = "answer"

    def _on_roll(self, value: int) -> None:
        who = self.challenged if self.purpose == "challenge" and len(self.rolls) == 1 else self.seat
        self.thrown = False
        self.rolls.append(value)
        self._event("roll", seat=who, value=value, text=self.purpose)
        if len(self.rolls) < self.needed:
            return
        rolls, p = self.rolls, self.seat
        if self.purpose == "pair":
            effects.combination(self, rolls[0], rolls[1])
        elif self.purpose == "second":
            effects.combination(self, 1, rolls[0])
        elif self.purpose == "sum":
            effects.change(self, p, sum(rolls), self.figure)
            self._end_turn()
        elif self.purpose == "six-times":
            effects.change(self, p, 6 * rolls[0], self.figure)
            self._end_turn()
        elif self.purpose == "tiberius":
            effects.change(self, p, -rolls[0] if rolls[0] <= 3 else rolls[0], self.figure)
            self._end_turn()
        elif self.purpose == "challenge":
            effects.resolve_challenge(self, rolls[0], rolls[1])
            self._end_turn()
        else:  # return
            back = self.return_number in rolls
            self._event("return", seat=p, value=self.return_number, text="back" if back else "out")
            if back:
                self.eliminated[p] = False
            self._end_turn()

    # ------------------------------------------------------------------ turn flow

    def _need(self, purpose: RollPurpose, count: int) -> None:
        self.phase = "roll"
        self.purpose = purpose
        self.needed = count
        self.rolls = []

    def _challengeable(self) -> list[int]:
        # reading: an eliminated player is out of the game and cannot be challenged.
        return [t for t in range(self.players) if t != self.seat and not self.eliminated[t]]

    def _drawable(self) -> list[str]:
        ids = self.bank.ids(self.item_kind)
        used = set(self.used[self.item_kind])
        fresh = [i for i in ids if i not in used]
        return fresh or list(ids)

    def _event(self, kind: str, **fields: Any) -> None:
        self.events.append(Event(kind, **fields))

    def _begin(self) -> bool:
        """Start the turn of ``self.seat``; False if it is skipped (Caracalla)."""
        p = self.seat
        self.turns += 1
        self.inverted = [is_above(s) for s in self.scores]
        self.rolls, self.pairs, self.declared, self.figure = [], 0, None, ""
        self.item, self.challenged, self.return_number = "", -1, 0
        if self.skip_next[p]:
            self.skip_next[p] = False
            self._event("skip", seat=p)
            return False
        if self.eliminated[p]:
            self._event("turn", seat=p, value=self.played[p], text="return")
            self.phase = "return"
            return True
        self.played[p] += 1
        if self.played[p] == DECLARATION_TURN:
            self._event("turn", seat=p, value=self.played[p], text="declaration")
            self.phase = "declare"
        else:
            self._event("turn", seat=p, value=self.played[p], text="normal")
            self._need("pair", 2)
        return True

    def _start(self) -> None:
        """Start the game at the beginning of ``self.seat``'s turn."""
        self._event("round", value=self.round)
        if not self._begin():
            self._end_turn()

    def _end_turn(self) -> None:
        """End the current turn: wins on 150, the last round, then the next turn."""
        n = self.players
        while True:
            winners = [i for i in range(n) if self.scores[i] == TARGET and not self.eliminated[i]]
            if winners:
                self._finish(winners, "150")
                return
            if self.seat == n - 1 and self.is_last_round():
                eligible = [i for i in range(n) if not self.eliminated[i]] or list(range(n))
                best = min(distance(self.scores[i]) for i in eligible)
                self._finish([i for i in eligible if distance(self.scores[i]) == best], "time")
                return
            self.seat = (self.seat + 1) % n
            if self.seat == 0:
                self.round += 1
                self._event("round", value=self.round)
            if self._begin():
                return

    def _finish(self, winners: list[int], reason: str) -> None:
        self.phase = "over"
        self._winners = list(winners)
        self.end_reason = reason
        self._event("end", text=reason)
        for w in winners:
            self._event("win", seat=w)

    # ------------------------------------------------------------------ copies, JSON

    def clone(self) -> State:
        """An independent copy, field by field (shares only the read-only bank and start).

        Cheap enough for search: lists are copied flat (events are frozen, so
        sharing them is safe), with no JSON round trip.
        """
        c = State.__new__(State)
        c.players = self.players
        c.time_limit_rounds = self.time_limit_rounds
        c.referee = self.referee
        c.paced = self.paced
        c.thrown = self.thrown
        c.bank = self.bank
        c.scores = self.scores[:]
        c.played = self.played[:]
        c.eliminated = self.eliminated[:]
        c.skip_next = self.skip_next[:]
        c.inverted = self.inverted[:]
        c.pending_marcus = self.pending_marcus[:]
        c.seat = self.seat
        c.round = self.round
        c.last_round = self.last_round
        c.turns = self.turns
        c.phase = self.phase
        c.purpose = self.purpose
        c.needed = self.needed
        c.rolls = self.rolls[:]
        c.pairs = self.pairs
        c.declared = self.declared
        c.figure = self.figure
        c.item_kind = self.item_kind
        c.item = self.item
        c.challenged = self.challenged
        c.return_number = self.return_number
        c.used = {kind: ids[:] for kind, ids in self.used.items()}
        c._winners = self._winners[:]
        c.end_reason = self.end_reason
        c.history = self.history[:]
        c.events = self.events[:]
        c.start = self.start  # set once by position(), never changed: shared
        return c

    def options(self) -> dict[str, Any]:
        """The game options, as stored in a record (the keywords of ``new_game`` and a
        custom start position's ``start``)."""
        out: dict[str, Any] = {
            "time_limit_rounds": self.time_limit_rounds,
            "referee": self.referee,
        }
        if self.paced:  # left out when not, so the records of unpaced games stay as they were
            out["paced"] = True
        if self.start is not None:
            out["start"] = dict(self.start)
        return out

    # ------------------------------------------------------------------ the game contract

    def actor(self) -> int | None:
        """The seat the next event belongs to: the seat whose turn it is (None once over).

        Every roll and draw of a turn is the turn's, the referee's mark is of
        the answering seat's answer, and a challenge roll is part of the
        challenger's turn.
        """
        return None if self.phase == "over" else self.seat

    def result(self) -> dict[str, Any] | None:
        """Scores, winners and why the game ended (``150`` or ``time``); None before the end."""
        if self.phase != "over":
            return None
        return {
            "scores": list(self.scores),
            "winners": list(self._winners),
            "reason": self.end_reason,
        }

    def progress(self) -> tuple[int, int]:
        """``(round, last round)``; the last round is 0 until the time limit fixes it."""
        return self.round, self.last_round or 0

    def can_declare_time_up(self) -> bool:
        """Whether the clock's ``last-round`` may be applied (:meth:`can_declare_last_round`)."""
        return self.can_declare_last_round()

    def time_up_declared(self) -> bool:
        """Whether a last round is fixed (declared by the clock, or set in advance)."""
        return self.last_round is not None

    def asked(self) -> Asked | None:
        """The riddle or question a human referee is asking (B5) while the mark awaits.

        Its key is the turn slot: a turn asks at most one item (the riddle and
        question figures end the turn once marked), so the count of turn slots
        names it, and the clock's ``last-round`` does not change it.
        """
        if self.phase != "mark":
            return None
        return Asked(self.turns, self.seat, self.item_kind)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` can see, JSON-ready (``None``: a spectator); see :mod:`.views`."""
        from alea.romano.views import view

        return view(self, seat)

    def view_text(self, seat: int | None, encode: Callable[[Any], str]) -> str:
        """:meth:`view` as JSON text written by ``encode`` (a view here is small: encoded
        whole)."""
        return encode(self.view(seat))

    def log(self, seat: int | None, start: int = 0) -> list[str]:
        """The history from ``start`` on as ``seat`` may see it: all of it (the answers
        live in the bank)."""
        return self.history[start:]

    def replay_view(self, step: int | None = None) -> dict[str, Any]:
        """The table after ``step`` events of this finished game: a spectator's view, since
        nothing at the table is hidden (the answers live in the bank)."""
        from alea.romano.records import replay_to

        return replay_to(self, step).view(None)

    def record(self) -> dict[str, Any]:
        """The game record (:func:`alea.game.make_record`): options and every move in order."""
        from alea.romano.records import record

        return record(self)

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (see :meth:`from_json`)."""
        from alea.romano.records import state_to_json

        return state_to_json(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any], bank: Bank | None = None) -> State:
        """The state saved by :meth:`to_json` (``bank``: the one it was played with)."""
        from alea.romano.records import state_from_json

        return state_from_json(data, bank)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (
            f"<Dado Romano: round {self.round}, seat {self.seat}, scores {self.scores}, "
            f"{self.expected()}>"
        )
