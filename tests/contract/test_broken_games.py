"""The contract test can fail: each game here breaks one promise, and the check of that
promise catches it (so a passing game has really kept it).

Every broken game is the toy game of ``toy.py`` with one method spoilt.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from alea.game import AnyState, GameInfo
from tests.contract import checks, toy


def broken(cls: type[toy.State], **facts: Any) -> GameInfo:
    """The toy game's facts, playing ``cls`` instead of the honest :class:`toy.State`."""

    def cast(state: AnyState) -> AnyState:
        assert isinstance(state, toy.State)
        state.__class__ = cls
        return state

    def resample(state: AnyState, seat: int, rng: random.Random) -> AnyState:
        return cast(toy.resample(state, seat, rng))

    def replay(record: Mapping[str, Any]) -> AnyState:
        return cast(toy.replay(record))

    def from_json(data: Mapping[str, Any]) -> AnyState:
        return cast(toy.from_json(data))

    def new_game(players: int, **options: Any) -> AnyState:
        return cast(toy.new_game(players, **options))

    defaults: dict[str, Any] = {
        "new_game": new_game,
        "replay": replay,
        "from_json": from_json,
        "resample": resample,
    }
    return dataclasses.replace(toy.INFO, **{**defaults, **facts})


class LeakyView(toy.State):
    def view(self, seat: int | None) -> dict[str, Any]:
        shown = super().view(seat)
        shown["hands"] = list(self.hands)  # everyone's card, to everyone
        return shown


class TextViewDiffers(toy.State):
    def view_text(self, seat: int | None, encode: Callable[[Any], str]) -> str:
        shown = self.view(seat)
        shown.pop("phase")  # the text leaves a key out
        return encode(shown)


class LeakyLog(toy.State):
    def log(self, seat: int | None, start: int = 0) -> list[str]:
        return self.history[start:]  # others' deals shown


class SharedClone(toy.State):
    def clone(self) -> SharedClone:
        copy = super().clone()
        copy.hands = self.hands  # one list for two states
        return copy


class UnfairChance(toy.State):
    def chance_outcomes(self) -> list[tuple[toy.Card, float]]:
        return [(card, 0.5) for card, _ in super().chance_outcomes()]


class Lenient(toy.State):
    def apply(self, move: toy.Choice | toy.Card | str) -> None:
        if str(move) == "keep" and self.is_chance():
            self.history.append("keep")  # a decision accepted at a chance event
            return
        super().apply(move)


class Forgetful(toy.State):
    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        data["discards"] = [0] * self.players  # the discards are lost on saving
        return data


class Nobody(toy.State):
    def actor(self) -> int | None:
        return None  # not even the seat deciding


class ClosedReplay(toy.State):
    def replay_view(self, step: int | None = None) -> dict[str, Any]:
        shown = super().replay_view(step)
        if step is not None and step < len(self.history):
            shown["hands"] = [None] * self.players  # hidden before the last step
        return shown


class EarlyReplay(toy.State):
    def replay_view(self, step: int | None = None) -> dict[str, Any]:
        return self.view(None)  # shown while the game is played too


def same_state(state: AnyState, seat: int, rng: random.Random) -> AnyState:
    return state.clone()  # nothing drawn anew: a leak check on it proves nothing


CASES: list[tuple[str, GameInfo, Callable[[GameInfo, Mapping[str, Any], int, int], None]]] = [
    ("a view shows others' cards", broken(LeakyView), checks.check_views_hide),
    ("view_text is not the view", broken(TextViewDiffers), checks.check_every_step),
    ("a log shows others' cards", broken(LeakyLog), checks.check_views_hide),
    ("resample draws nothing", broken(toy.State, resample=same_state), checks.check_views_hide),
    ("a clone shares a list", broken(SharedClone), checks.check_clone),
    ("chance sums to more than 1", broken(UnfairChance), checks.check_every_step),
    ("an illegal move is accepted", broken(Lenient), checks.check_illegal_refused),
    ("to_json loses a field", broken(Forgetful), checks.check_json_round_trip),
    ("a decision belongs to nobody", broken(Nobody), checks.check_every_step),
    ("a replay hides the cards", broken(ClosedReplay), checks.check_replay_view),
    ("a game in play is replayed", broken(EarlyReplay), checks.check_replay_view),
]


@pytest.mark.parametrize(("info", "check"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_check_catches_it(
    info: GameInfo, check: Callable[[GameInfo, Mapping[str, Any], int, int], None]
) -> None:
    with pytest.raises(AssertionError):
        check(info, {}, 3, 0)


def test_the_honest_toy_passes_the_same_checks() -> None:
    for _, _, check in CASES:
        check(toy.INFO, {}, 3, 0)
