"""A game at the keyboard: who sits where, the dice, undo, save and load (no I/O here).

The terminal front end (:mod:`alea.play.terminal`) only talks to people; the
rules of the table live here so they can be tested without a terminal:

* **Seats** are humans or bots. Bots are asked through :func:`alea.bots.ask`,
  so they see only their seat's view.
* **Chance** comes from the session's own ``random.Random`` (seeded), and each
  bot seat has its own generator, so a session is reproducible from its seed.
* **Undo** takes back a human's last decision, and any bot decisions after
  it, as long as no chance event (a roll, a reveal, a draw) has happened
  since: undoing past a roll would let a player re-roll for free. The rule is
  :mod:`alea.undo`'s, the one the server applies too (where no other seat's
  decision may follow, bots' included).
* **Save/load** writes the game record (RULES.md §7), the seats and the
  generators' states; loading replays the record. The file holds the whole
  game, hidden cards included: it is for resuming, not for sharing mid-game.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import alea.iacta as iacta
from alea.bots import Bot, ask, make
from alea.undo import UndoRefused, decider, deciders_of, taken_back, undo_point

SAVE_FORMAT = "alea-play/1"
HUMAN = "human"


def _state_of(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _set_state(rng: random.Random, data: list[Any]) -> None:
    version, internal, gauss = data
    rng.setstate((version, tuple(internal), gauss))


@dataclass
class Snapshot:
    """What undo restores: the state and generators before a human's decision."""

    seat: int
    state: iacta.State
    chance: tuple[Any, ...]
    bots: list[tuple[Any, ...]]


class Session:
    """One game: the state, the seats (``"human"`` or a bot spec) and the generators."""

    def __init__(self, seats: list[str], seed: int | None = None, names: list[str] | None = None):
        if len(seats) not in (2, 3, 4, 5):
            raise ValueError(f"a game has 2 to 5 players, not {len(seats)}")
        if HUMAN not in seats:
            raise ValueError("at least one seat must be a human")
        self.seats = list(seats)
        self.bots: dict[int, Bot] = {s: make(spec) for s, spec in enumerate(seats) if spec != HUMAN}
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
        self.chance = random.Random(self.seed)
        self.bot_rngs = [random.Random(f"{self.seed}:{s}") for s in range(len(seats))]
        self.state = iacta.new_game(len(seats))
        default = [
            f"Player {s + 1}" if spec == HUMAN else f"{spec.split(':')[0]} bot"
            for s, spec in enumerate(seats)
        ]
        self.names = names or default
        self.undo_stack: list[Snapshot] = []
        #: The seat whose decision each event was (None: chance), for :mod:`alea.undo`.
        self.deciders: list[int | None] = []

    # -------------------------------------------------------------- seats

    @property
    def players(self) -> int:
        return len(self.seats)

    def is_human(self, seat: int) -> bool:
        return self.seats[seat] == HUMAN

    @property
    def humans(self) -> list[int]:
        return [s for s in range(self.players) if self.is_human(s)]

    def to_move(self) -> int:
        """The seat to decide, or :data:`iacta.CHANCE` / :data:`iacta.TERMINAL`."""
        return self.state.current_player()

    # -------------------------------------------------------------- moves

    def step_chance(self) -> iacta.Outcome:
        """Apply the pending chance event; from now on undo cannot go back past it."""
        outcome = self.state.sample_chance(self.chance)
        self.state.apply(outcome)
        self.deciders.append(None)
        self.undo_stack.clear()
        return outcome

    def step_bot(self) -> iacta.Action:
        """Let the bot in the seat to move decide, from its view only."""
        seat = self.state.current_player()
        action = ask(self.bots[seat], self.state, self.bot_rngs[seat])
        self.deciders.append(decider(iacta.INFO, self.state, action))
        self.state.apply(action)
        return action

    def human_move(self, text: str) -> iacta.Action:
        """Apply a human's decision (notation); IllegalActionError explains a bad one."""
        seat = self.state.current_player()
        if seat < 0 or not self.is_human(seat):
            raise iacta.IllegalActionError("it is not a human player's decision")
        legal = self.state.legal_actions()
        if text not in legal:
            raise iacta.IllegalActionError(self.state.explain(text) or f"{text}: not legal now")
        snapshot = Snapshot(
            seat,
            self.state.clone(),
            self.chance.getstate(),
            [r.getstate() for r in self.bot_rngs],
        )
        self.deciders.append(decider(iacta.INFO, self.state, text))
        self.state.apply(text)
        self.undo_stack.append(snapshot)
        return next(a for a in legal if a == text)

    def _undo_point(self, seat: int) -> int:
        """Where ``seat``'s undo goes back to (:func:`alea.undo.undo_point`; this
        session's bots' replies go back with it), or :class:`UndoRefused`."""
        return undo_point(self.state, self.deciders, seat, passes=lambda s: not self.is_human(s))

    def can_undo(self, seat: int) -> str:
        """'' if ``seat`` may undo its last decision now, else the reason why not."""
        try:
            self._undo_point(seat)
        except UndoRefused as err:
            return str(err)
        return ""

    def undo(self, seat: int) -> None:
        """Take back ``seat``'s last decision (and the bot moves after it)."""
        try:
            index = self._undo_point(seat)
        except UndoRefused as err:
            raise iacta.IllegalActionError(str(err)) from None
        # The newest snapshot is that decision's (a later human decision would have
        # blocked the undo); it restores the bots' generators too. A game just loaded
        # has none: the state is replayed without the events.
        snap = self.undo_stack[-1] if self.undo_stack else None
        if snap is not None and snap.seat == seat:
            self.undo_stack.pop()
            self.state = snap.state
            self.chance.setstate(snap.chance)
            for rng, saved in zip(self.bot_rngs, snap.bots, strict=True):
                rng.setstate(saved)
        else:
            self.state = cast(iacta.State, taken_back(self.state, index))
        del self.deciders[index:]

    # ---------------------------------------------------------- save/load

    def to_json(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "seats": self.seats,
            "names": self.names,
            "seed": self.seed,
            "record": self.state.record(),
            "chance": _state_of(self.chance),
            "bot_rngs": [_state_of(r) for r in self.bot_rngs],
        }

    def save(self, path: str | Path) -> Path:
        """Write the session to ``path`` (JSON); returns the path written."""
        target = Path(path)
        target.write_text(json.dumps(self.to_json()), encoding="utf-8")
        return target

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Session:
        if data.get("format") != SAVE_FORMAT:
            raise ValueError(f"not a saved game of this program (format {data.get('format')!r})")
        session = cls(list(data["seats"]), int(data["seed"]), list(data["names"]))
        session.state = iacta.replay(data["record"])
        session.deciders = deciders_of(session.state)
        _set_state(session.chance, data["chance"])
        for rng, saved in zip(session.bot_rngs, data["bot_rngs"], strict=True):
            _set_state(rng, saved)
        return session

    @classmethod
    def load(cls, path: str | Path) -> Session:
        """Read a session written by :meth:`save` (ValueError if it is not one)."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except json.JSONDecodeError as err:
            raise ValueError(f"{path}: not a saved game ({err})") from None
        if not isinstance(data, dict):
            raise ValueError(f"{path}: not a saved game")
        try:
            return cls.from_json(data)
        except (KeyError, TypeError) as err:
            raise ValueError(f"{path}: damaged saved game ({err})") from None
