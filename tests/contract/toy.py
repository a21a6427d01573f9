"""High card: a toy game that speaks alea's game contract, the worked example of a third game.

Rules. Two to four players and a deck of the cards 1 to 9. Each seat in turn
is dealt one card face down (a chance event only that seat sees). Then each
seat in turn either keeps its card (``keep``) or swaps it (``swap``): the old
card is discarded face up and a new one drawn face down. When every seat has
chosen, the cards are shown and the highest wins.

Small as it is, it has everything the contract test probes: chance events
(the deal and the draws, uniform over the deck), decisions, a private card per
seat (so the views and the log must hide something, and :func:`resample` has
something to draw anew), and a result. ``docs/architecture.md`` walks through
it; registering :data:`INFO` is all it takes for ``tests/contract`` to test it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, Self

from alea import game
from alea.game import CHANCE, TERMINAL, AnyState, Asked, GameInfo, GameState

GAME: Final = "toy-high-card"
CARDS: Final = tuple(range(1, 10))
HIDDEN: Final = "?"

Phase = Literal["deal", "decide", "draw", "over"]


class IllegalActionError(game.IllegalActionError):
    """A move High card does not allow now."""


class NotationError(IllegalActionError, game.NotationError):
    """A text that is not a High card move."""


@dataclass(frozen=True, slots=True)
class Choice:
    """A decision: ``keep`` or ``swap``."""

    kind: Literal["keep", "swap"]

    def __str__(self) -> str:
        return self.kind


@dataclass(frozen=True, slots=True)
class Card:
    """A chance outcome: the card dealt (``deal:7``) or drawn after a swap (``draw:3``)."""

    kind: Literal["deal", "draw"]
    value: int

    def __str__(self) -> str:
        return f"{self.kind}:{self.value}"


KEEP: Final = Choice("keep")
SWAP: Final = Choice("swap")


def parse(text: str) -> Choice | Card:
    """The move written ``text``; :class:`NotationError` if it is none."""
    if text in ("keep", "swap"):
        return KEEP if text == "keep" else SWAP
    kind, _, value = text.partition(":")
    if kind in ("deal", "draw") and value.isdigit() and int(value) in CARDS:
        return Card("deal" if kind == "deal" else "draw", int(value))
    raise NotationError(f"{text!r} is not a High card move (keep, swap, deal:N, draw:N)")


class State:
    """One position of High card."""

    def __init__(self, players: int) -> None:
        if not 2 <= players <= 4:
            raise ValueError(f"High card is for 2 to 4 players, not {players}")
        self.players = players
        self.hands = [0] * players  # 0: no card (not dealt yet, or discarded awaiting a draw)
        self.discards = [0] * players  # public once discarded
        self.deck = list(CARDS)
        self.seat = 0
        self.phase: Phase = "deal"
        self.history: list[str] = []
        #: History index -> the seat who alone saw that event.
        self.private: dict[int, int] = {}

    # ------------------------------------------------------------ who moves

    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        return self.seat if self.phase == "decide" else CHANCE

    def is_chance(self) -> bool:
        return self.phase in ("deal", "draw")

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def actor(self) -> int | None:
        """The seat dealt, deciding or drawing: every event of the game is one seat's."""
        return None if self.phase == "over" else self.seat

    # ------------------------------------------------------------ what is legal

    def legal_actions(self) -> list[Choice]:
        return [KEEP, SWAP] if self.phase == "decide" else []

    def chance_outcomes(self) -> list[tuple[Card, float]]:
        if not self.is_chance():
            return []
        kind: Literal["deal", "draw"] = "deal" if self.phase == "deal" else "draw"
        return [(Card(kind, v), 1 / len(self.deck)) for v in self.deck]

    def sample_chance(self, rng: random.Random) -> Card:
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise IllegalActionError("no chance event is next")
        return rng.choice(outcomes)[0]

    def apply(self, move: Choice | Card | str) -> None:
        m = parse(move) if isinstance(move, str) else move
        if self.phase == "over":
            raise IllegalActionError("the game is over")
        if isinstance(m, Card):
            if not self.is_chance() or m.kind != self.phase or m.value not in self.deck:
                raise IllegalActionError(f"{m} is not the chance event expected now")
            self.private[len(self.history)] = self.seat
            self.history.append(str(m))
            self.deck.remove(m.value)
            self.hands[self.seat] = m.value
            if self.phase == "deal":
                self._next_seat(first_phase="deal", then="decide")
            else:
                self._next_seat(first_phase="decide", then="over")
            return
        if self.phase != "decide":
            raise IllegalActionError(f"{m}: a chance event is next")
        self.history.append(str(m))
        if m == SWAP:
            self.discards[self.seat] = self.hands[self.seat]
            self.hands[self.seat] = 0
            self.phase = "draw"
        else:
            self._next_seat(first_phase="decide", then="over")

    def _next_seat(self, first_phase: Phase, then: Phase) -> None:
        self.seat += 1
        self.phase = first_phase
        if self.seat == self.players:
            self.seat = 0
            self.phase = then

    def clone(self) -> Self:
        c = type(self).__new__(type(self))
        c.players, c.seat, c.phase = self.players, self.seat, self.phase
        c.hands, c.discards, c.deck = self.hands[:], self.discards[:], self.deck[:]
        c.history, c.private = self.history[:], dict(self.private)
        return c

    # ------------------------------------------------------------ outcome

    def winners(self) -> list[int]:
        if self.phase != "over":
            return []
        return [self.hands.index(max(self.hands))]

    def returns(self) -> list[float]:
        won = self.winners()
        return [1.0 if seat in won else 0.0 for seat in range(self.players)]

    def result(self) -> dict[str, Any] | None:
        if self.phase != "over":
            return None
        return {"scores": list(self.hands), "winners": self.winners()}

    def progress(self) -> tuple[int, int]:
        return 1, 1  # one round

    # ------------------------------------------------------------ what a seat sees

    def view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"there is no seat {seat}")
        over = self.phase == "over"
        return {
            "game": GAME,
            "players": self.players,
            "seat": seat,
            "phase": self.phase,
            "turn": None if over else self.seat,
            "hands": [h if over or s == seat else None for s, h in enumerate(self.hands)],
            "holding": [h != 0 for h in self.hands],
            "discards": list(self.discards),
            "deck": len(self.deck),
            "result": self.result(),
        }

    def view_text(self, seat: int | None, encode: Callable[[Any], str]) -> str:
        return encode(self.view(seat))

    def replay_view(self, step: int | None = None) -> dict[str, Any]:
        """The table after ``step`` events of the finished game, every card shown."""
        if self.phase != "over":
            raise ValueError("High card is replayed only once over")
        step = len(self.history) if step is None else step
        if not 0 <= step <= len(self.history):
            raise ValueError(f"no step {step}")
        position = State(self.players)
        for event in self.history[:step]:
            position.apply(event)
        shown = position.view(None)
        shown["hands"] = list(position.hands)
        return shown

    def log(self, seat: int | None, start: int = 0) -> list[str]:
        shown = list(self.history)
        for index, owner in self.private.items():
            if owner != seat:
                shown[index] = f"{shown[index].partition(':')[0]}:{HIDDEN}"
        return shown[start:]

    # ------------------------------------------------------------ records, JSON

    def record(self) -> dict[str, Any]:
        return game.make_record(GAME, self.players, {}, self.history, self.result())

    def to_json(self) -> dict[str, Any]:
        return {
            "game": GAME,
            "players": self.players,
            "hands": list(self.hands),
            "discards": list(self.discards),
            "deck": list(self.deck),
            "seat": self.seat,
            "phase": self.phase,
            "history": list(self.history),
            "private": [[i, s] for i, s in self.private.items()],
        }

    # ------------------------------------------------------------ no clock, no referee

    def can_declare_time_up(self) -> bool:
        return False

    def time_up_declared(self) -> bool:
        return False

    def asked(self) -> Asked | None:
        return None


def new_game(players: int, **options: Any) -> GameState[Choice, Card]:
    if options:
        raise ValueError(f"High card has no options (got {sorted(options)})")
    return State(players)


def replay(record: Mapping[str, Any]) -> GameState[Choice, Card]:
    parts = game.read_record(record, GAME, "High card")
    state = State(parts.players)
    for event in parts.events:
        state.apply(event)
    return state


def from_json(data: Mapping[str, Any]) -> GameState[Choice, Card]:
    if data.get("game") != GAME:
        raise ValueError("not a High card position")
    s = State(int(data["players"]))
    s.hands, s.discards = list(data["hands"]), list(data["discards"])
    s.deck, s.seat, s.phase = list(data["deck"]), int(data["seat"]), data["phase"]
    s.history = list(data["history"])
    s.private = {int(i): int(seat) for i, seat in data["private"]}
    return s


def resample(state: AnyState, seat: int, rng: random.Random) -> GameState[Choice, Card]:
    """A state ``seat`` cannot tell apart: the cards others hold now, and the deck, dealt
    anew from the cards ``seat`` has not seen; their events in the history say so too."""
    if not isinstance(state, State):
        raise TypeError(f"not a High card state: {state!r}")
    new = state.clone()
    if new.phase == "over":
        return new  # every card is shown: nothing is hidden any more
    others = [s for s in range(new.players) if s != seat and new.hands[s]]
    unseen = new.deck + [new.hands[s] for s in others]
    rng.shuffle(unseen)
    for s in others:
        new.hands[s] = unseen.pop()
        # The card a seat holds came with its last private event (a discarded deal is public).
        last = max(i for i, owner in new.private.items() if owner == s)
        new.history[last] = f"{new.history[last].partition(':')[0]}:{new.hands[s]}"
    new.deck = sorted(unseen)
    return new


INFO: Final = GameInfo(
    name="toy",
    game=GAME,
    title="High card",
    version=1,
    min_players=2,
    max_players=4,
    rounds={n: 1 for n in range(2, 5)},
    colours=("red", "blue", "green", "white"),
    hidden_information=True,
    human_referee=False,
    default_time_limit=None,
    time_up_action=None,
    action_type=Choice,
    outcome_type=Card,
    parse=parse,
    new_game=new_game,
    replay=replay,
    from_json=from_json,
    resample=resample,
)
