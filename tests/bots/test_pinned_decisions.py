"""The bots' decisions are pinned: speeding them up must not change a single one.

Seeded tournaments of these bots run for days, and their figures stay valid only
while the same seed gives the same game. So the greedy heuristic and the IS-MCTS
search are checked against decisions recorded once, on the code before their
optimisation (``pinned_decisions.json`` beside this file): for a few seeded games
of two to five players, every decision of ``medium`` (greedy, re-roll sampling
included) and of IS-MCTS with a small fixed budget in simulated decisions
(``hard``'s and ``expert``'s settings, and the plain UCB root with a game horizon),
together with the number of playouts each search ran. IS-MCTS with a budget in
steps and a seeded generator is deterministic, so any difference is a changed
decision (or a changed search), not noise.

Regenerate (only for an intended change of play, which voids earlier tournaments)::

    python -m tests.bots.test_pinned_decisions
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import alea.iacta as iacta
from alea.bots import ISMCTSBot, ask, make

FIXTURE = Path(__file__).with_name("pinned_decisions.json")

#: (name, seats, seed): the games whose every decision is pinned. An IS-MCTS spec
#: gets a small budget so that the whole file runs in seconds.
GAMES: list[tuple[str, list[str], int]] = [
    ("medium-2", ["medium", "medium"], 11),
    ("medium-3", ["medium", "medium", "medium"], 12),
    ("medium-4", ["medium", "medium", "medium", "medium"], 13),
    ("medium-5", ["medium", "medium", "medium", "medium", "medium"], 14),
    ("hard-2", ["hard:steps=120", "medium"], 21),
    ("hard-3", ["medium", "hard:steps=120", "medium"], 22),
    ("hard-4", ["medium", "medium", "hard:steps=120", "medium"], 23),
    ("hard-5", ["hard:steps=120", "medium", "medium", "medium", "hard:steps=80"], 24),
    ("expert-4", ["expert:steps=200", "medium", "medium", "medium"], 31),
    (
        "ucb-3",
        ["ismcts:steps=None:iterations=12:root=ucb:horizon=game", "medium", "medium"],
        41,
    ),
]


def play(seats: list[str], seed: int) -> list[str]:
    """Every decision of a seeded game, in order, as ``seat action`` (and ``n=playouts``)."""
    bots = [make(spec) for spec in seats]
    rng = random.Random(seed)
    state = iacta.new_game(len(seats))
    record: list[str] = []
    while not state.is_terminal():
        if state.is_chance():
            state.apply(state.sample_chance(rng))
            continue
        seat = state.current_player()
        bot = bots[seat]
        action = ask(bot, state, rng)
        entry = f"{seat} {action}"
        if isinstance(bot, ISMCTSBot):
            entry += f" n={bot.last_iterations}"
        record.append(entry)
        state.apply(action)
    return record


@pytest.mark.parametrize(("name", "seats", "seed"), GAMES, ids=[g[0] for g in GAMES])
def test_decisions_match_the_recorded_ones(name: str, seats: list[str], seed: int) -> None:
    pinned = json.loads(FIXTURE.read_text())[name]
    assert pinned["seats"] == seats and pinned["seed"] == seed
    played = play(seats, seed)
    # The first difference, not the whole list, makes a readable failure.
    for i, (got, want) in enumerate(zip(played, pinned["decisions"], strict=False)):
        assert got == want, f"{name}: decision {i} differs"
    assert len(played) == len(pinned["decisions"])


def test_the_fixture_covers_searches_and_rerolls() -> None:
    """The pinned games exercise what must not change: searches that ran and re-rolls."""
    pinned = json.loads(FIXTURE.read_text())
    decisions = [d for game in pinned.values() for d in game["decisions"]]
    assert sum(1 for d in decisions if " n=" in d and not d.endswith(" n=0")) >= 200
    assert any(d.split(" ")[1].startswith("R:") for d in decisions)
    assert {len(game["seats"]) for game in pinned.values()} == {2, 3, 4, 5}


def write() -> None:
    """Record the decisions of :data:`GAMES` with the current code (see the module doc)."""
    pinned = {
        name: {"seats": seats, "seed": seed, "decisions": play(seats, seed)}
        for name, seats, seed in GAMES
    }
    FIXTURE.write_text(json.dumps(pinned, indent=0) + "\n")


if __name__ == "__main__":
    write()
