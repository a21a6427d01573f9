"""Every bot plays legal moves, sees only views, and decides from the view alone."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

import alea.iacta as iacta
from alea.bots import (
    BOTS,
    EXPERT_STEPS,
    HARD_STEPS,
    LEVELS,
    Bot,
    ISMCTSBot,
    ask,
    make,
    parse_spec,
)
from alea.iacta.determinize import determinize

TINY = {
    "ismcts": "ismcts:iterations=6",
    "hard": "hard:iterations=6",
    "expert": "expert:iterations=6",
}


def _positions(players: int, seed: int, every: int = 5) -> Iterator[iacta.State]:
    """Decision positions of a random game."""
    rng = random.Random(seed)
    state = iacta.new_game(players)
    step = 0
    while not state.is_terminal():
        if state.is_chance():
            state.apply(state.sample_chance(rng))
            continue
        if step % every == 0:
            yield state.clone()
        state.apply(rng.choice(state.legal_actions()))
        step += 1


def _contains_state(value: Any, depth: int = 0) -> bool:
    """Whether a State object is reachable from ``value`` (dicts, lists, tuples)."""
    if isinstance(value, iacta.State):
        return True
    if depth > 12:
        return False
    if isinstance(value, dict):
        return any(_contains_state(v, depth + 1) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_contains_state(v, depth + 1) for v in value)
    return False


class SpyBot(Bot):
    """Plays at random and records what it is given."""

    def __init__(self) -> None:
        self.name = "spy"
        self.calls: list[tuple[Any, Any, Any]] = []

    def act(
        self, view: dict[str, Any], legal_actions: Sequence[iacta.Action], rng: random.Random
    ) -> iacta.Action:
        self.calls.append((view, legal_actions, rng))
        return legal_actions[int(rng.random() * len(legal_actions))]


def check_spy(spy: SpyBot) -> None:
    assert spy.calls
    for view, legal, rng in spy.calls:
        assert type(view) is dict
        assert view["game"] == "alea-iacta-est"
        assert isinstance(view["seat"], int)
        assert view["to_move"] == view["seat"]
        assert not _contains_state(view) and not _contains_state(legal)
        assert all(type(a) is iacta.Action for a in legal)
        assert type(rng) is random.Random
        # Nothing of another seat's secrets: their Senate cards and draws are hidden.
        for p in view["players_info"]:
            if p["seat"] != view["seat"] and view["result"] is None:
                assert p["senate"] is None and p["fortuna_drawn_values"] is None


@pytest.mark.parametrize("name", [*BOTS, *LEVELS])
@pytest.mark.parametrize("players", [2, 4, 5])
def test_every_bot_plays_legal_moves(name: str, players: int) -> None:
    bot = make(TINY.get(name, name))
    rng = random.Random(players)
    for i, state in enumerate(_positions(players, 7 * players, every=9)):
        if i % 3 and name in TINY:
            continue
        seat = state.current_player()
        action = bot.act(state.view(seat), state.legal_actions(), rng)
        assert action in state.legal_actions()
        assert type(action) is iacta.Action


def test_a_full_game_between_all_kinds() -> None:
    bots = [make("random"), make("easy"), make("medium"), make("ismcts:iterations=3")]
    rng = random.Random(3)
    state = iacta.new_game(4)
    while not state.is_terminal():
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(ask(bots[state.current_player()], state, rng))
    assert state.winners()


def test_ask_shows_only_the_view() -> None:
    spy = SpyBot()
    rng = random.Random(0)
    state = iacta.new_game(4)
    while not state.is_terminal():
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            seat = state.current_player()
            expected = state.view(seat)
            state.apply(ask(spy, state, rng))
            assert spy.calls[-1][0] == expected
    check_spy(spy)


def test_ask_rejects_an_illegal_answer() -> None:
    class Cheat(Bot):
        name = "cheat"

        def act(
            self, view: dict[str, Any], legal_actions: Sequence[iacta.Action], rng: random.Random
        ) -> iacta.Action:
            return iacta.Action.parse("L:1") if "L:1" not in legal_actions else legal_actions[0]

    state = next(_positions(4, 1))
    if "L:1" in state.legal_actions():  # pragma: no cover - not with this seed
        pytest.skip("seed gives a forced Latrine")
    with pytest.raises(ValueError, match="not legal"):
        ask(Cheat(), state, random.Random(0))


@pytest.mark.parametrize(
    "spec", ["medium", "greedy", "easy", "ismcts:iterations=8", "hard:iterations=8"]
)
def test_decision_depends_only_on_the_view(spec: str) -> None:
    """Two states that differ only in what the seat cannot see get the same decision."""
    rng = random.Random(11)
    checked = 0
    for i, state in enumerate(_positions(4, 21, every=11)):
        if spec.startswith(("ismcts", "hard")) and i % 4:
            continue
        seat = state.current_player()
        view = state.view(seat)
        other = determinize(view, rng)  # same view, other hidden cards and tiles
        assert other.view(seat) == view
        first = ask(make(spec), state, random.Random(5))
        second = ask(make(spec), other, random.Random(5))
        assert first == second
        checked += 1
    assert checked >= 3


def test_hidden_cards_really_differ_in_that_test() -> None:
    """The invariance test above is not vacuous: other seats' Senate cards change."""
    rng = random.Random(2)
    for state in _positions(4, 21, every=3):
        if state.round >= 2 and any(state.senate_cards[s] for s in range(4)):
            seat = state.current_player()
            others = [s for s in range(4) if s != seat and state.senate_cards[s]]
            if not others:
                continue
            samples = {
                tuple(determinize(state.view(seat), rng).senate_cards[others[0]]) for _ in range(30)
            }
            assert len(samples) > 1
            return
    pytest.fail("no position with hidden Senate cards")  # pragma: no cover


def test_expert_is_hard_with_a_larger_budget_and_a_wider_root() -> None:
    hard, expert = make("hard"), make("expert")
    assert isinstance(hard, ISMCTSBot) and isinstance(expert, ISMCTSBot)
    assert expert.name == "expert"
    assert (hard.steps, expert.steps) == (HARD_STEPS, EXPERT_STEPS)
    assert EXPERT_STEPS >= 3 * HARD_STEPS
    assert (expert.width, expert.rerolls) == (hard.width + 1, hard.rerolls + 1)
    # A spec's options still win over the level's defaults.
    tuned = make("expert:steps=40:width=2")
    assert isinstance(tuned, ISMCTSBot) and (tuned.steps, tuned.width) == (40, 2)
    assert list(LEVELS) == ["easy", "medium", "hard", "expert"]


def test_registry() -> None:
    assert make("random").name == "random"
    assert make("medium").name == "medium"
    assert make("hard").name == "hard"
    bot = make("ismcts:iterations=12:playout=random:root=ucb")
    assert isinstance(bot, ISMCTSBot)
    assert (bot.iterations, bot.playout_name, bot.root) == (12, "random", "ucb")
    assert make("greedy", die_value=0.5).name == "greedy"
    assert make("medium:name=Livia").name == "Livia"
    assert parse_spec("ismcts:seconds=0.5:iterations=none") == (
        "ismcts",
        {"seconds": 0.5, "iterations": None},
    )
    with pytest.raises(ValueError, match="unknown bot"):
        make("grandmaster")
    with pytest.raises(ValueError, match="bad options"):
        make("greedy:depth=3")
    with pytest.raises(ValueError, match="key=value"):
        make("ismcts:fast")
    with pytest.raises(ValueError, match="budget"):
        make("ismcts:iterations=none:steps=none")


def test_ismcts_budget_and_reproducibility() -> None:
    state = next(s for s in _positions(4, 5) if s.phase_name == "placement" and s.round == 1)
    seat = state.current_player()
    view, legal = state.view(seat), state.legal_actions()
    bot = ISMCTSBot(iterations=15)
    first = bot.act(view, legal, random.Random(9))
    assert 1 <= bot.last_iterations <= 15
    assert bot.act(view, legal, random.Random(9)) == first
    ucb = ISMCTSBot(iterations=10, root="ucb", horizon="game", playout="random")
    assert ucb.act(view, legal, random.Random(9)) in legal
    assert ucb.last_iterations == 10
    timed = ISMCTSBot(iterations=None, seconds=0.05)
    assert timed.act(view, legal, random.Random(1)) in legal
    assert timed.last_iterations >= 1
