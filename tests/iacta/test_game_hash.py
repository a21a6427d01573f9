"""Every game unchanged: 300 seeded random games of 2 to 5 players hash to a pinned value.

The engine's speed work (docs/engine.md, "Compiled engine") rewrites how legal moves,
chance outcomes and final scores are found, never what they are. This test pins all of it
at once, on whichever build runs it (CI runs it compiled and again with
``ALEA_PURE_PYTHON=1``): every legal list in order, every chance outcome list with its
probabilities, the outcome ``sample_chance`` draws from a seeded generator, each game's
history, returns, winners and result, the placements another seat could make with the
same roll, and the full arrangements of every tenth game. A change of any of them, in
either build, changes the digest.
"""

from __future__ import annotations

import hashlib
import random

import alea.iacta as iacta
from alea.iacta.state import REROLL_DICE, ROLL_DICE

GAMES = 300
#: The digest of :func:`game_digest` on the engine before the fourth speed round (main
#: at f46b617, compiled and pure Python alike).
PINNED = "6e0741101a6eb9aa5803437054c7d83e7eb08a6734bcceb5cae5b7f761f80d8e"


def game_digest(games: int = GAMES) -> str:
    """SHA-256 over everything a caller of the engine sees in ``games`` seeded random games."""
    digest = hashlib.sha256()
    roll_lists: dict[tuple[int, int], list[tuple[iacta.Outcome, float]]] = {}
    for number in range(games):
        players = 2 + number % 4
        rng = random.Random(number)
        state = iacta.new_game(players)
        while not state.is_terminal():
            if state.is_chance():
                phase = state.phase
                if phase in (ROLL_DICE, REROLL_DICE):
                    # A roll's list is 1,287 entries at most and the same at every roll of that
                    # many dice: its text is hashed once per count (and checked equal after).
                    outcomes = state.chance_outcomes()
                    count = len(outcomes[0][0].dice)
                    assert roll_lists.setdefault((phase, count), outcomes) == outcomes
                    digest.update(f"roll-list {phase} {count}\n".encode())
                else:
                    digest.update(repr(state.chance_outcomes()).encode())
                outcome = state.sample_chance(rng)
                digest.update(f"o {outcome}\n".encode())
                state.apply(outcome)
            else:
                legal = state.legal_actions()
                digest.update(f"{state.current_player()} {legal}\n".encode())
                if state.roll:
                    other = (state.player + 1) % players
                    digest.update(f"p {state.placements(other, state.roll)}\n".encode())
                state.apply(rng.choice(legal))
        digest.update(f"h {state.history}\n".encode())
        digest.update(f"r {state.returns()} {state.winners()} {state.result()}\n".encode())
        if number % 10 == 0:
            for arrangement in state.arrangements():
                digest.update(repr(arrangement.to_json()).encode())
    for (phase, count), outcomes in sorted(roll_lists.items()):
        digest.update(f"{phase} {count} {outcomes}\n".encode())
    return digest.hexdigest()


def test_three_hundred_seeded_games_are_unchanged() -> None:
    assert game_digest() == PINNED
