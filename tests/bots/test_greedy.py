"""The greedy heuristic makes the choices a decent human would."""

from __future__ import annotations

import random

import alea.iacta as iacta
from alea.bots import GreedyBot, GreedyParams, ask, make
from alea.bots.greedy import _straight_after, placements, reroll_plans
from alea.bots.table import Table
from alea.iacta import senate
from alea.iacta.notation import dice_action
from alea.iacta.scoring import Holdings, best_arrangement


def _play(bots: list[str], seed: int) -> iacta.State:
    players = [make(b) for b in bots]
    rng = random.Random(seed)
    state = iacta.new_game(len(bots))
    while not state.is_terminal():
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(ask(players[state.current_player()], state, rng))
    return state


def test_greedy_beats_random() -> None:
    wins = 0
    for g in range(6):
        seats = ["random"] * 3
        seats.insert(g % 4, "greedy")
        state = _play(seats, 100 + g)
        wins += (g % 4) in state.winners()
    assert wins >= 5


def test_last_round_card_choices_maximise_the_final_score() -> None:
    """In the last round a card is worth exactly what it adds to the final score."""
    rng = random.Random(8)
    bot = GreedyBot()
    checked = 0
    for _seed in range(30):
        state = iacta.new_game(4)
        while not state.is_terminal():
            if state.is_chance():
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            seat = state.current_player()
            if state.round == state.rounds - 1 and legal[0].kind in ("P", "N") and len(legal) > 1:
                choice = bot.act(state.view(seat), legal, rng)
                h = state.holdings(seat)

                def final(card: str, kind: str = legal[0].kind, h: Holdings = h) -> int:
                    if kind == "P":
                        more = Holdings((*h.provinces, card), h.patricians, h.senate, h.fortuna)
                    else:
                        more = Holdings(h.provinces, (*h.patricians, card), h.senate, h.fortuna)
                    return best_arrangement(more).score

                assert final(choice.card) == max(final(a.card) for a in legal)
                checked += 1
            state.apply(rng.choice(legal))
        if checked >= 5:
            break
    assert checked >= 5


def test_no_reroll_without_need() -> None:
    """With re-rolls switched off it never re-rolls; its plans keep sensible dice."""
    assert reroll_plans((4, 4, 4, 4, 1, 2))[0] == (1, 2)
    assert (1, 2, 3, 4, 4, 4) in reroll_plans((1, 2, 3, 4, 4, 4))
    rng = random.Random(1)
    bot = GreedyBot(GreedyParams(reroll_samples=0))
    state = iacta.new_game(4)
    while not state.is_terminal():
        if state.is_chance():
            state.apply(state.sample_chance(rng))
            continue
        action = bot.act(state.view(state.current_player()), state.legal_actions(), rng)
        assert action.kind != "R"
        state.apply(action)


def test_imagined_placements_follow_the_engine() -> None:
    """placements() for the current roll is exactly the engine's list of placements."""
    rng = random.Random(4)
    for players in (3, 4):
        state = iacta.new_game(players)
        while not state.is_terminal():
            if state.is_chance():
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if state.phase_name == "placement":
                seat = state.current_player()
                mine = placements(Table.from_view(state.view(seat)), state.roll)
                assert mine == [a for a in legal if a.kind != "R"]
            state.apply(rng.choice(legal))


def test_straight_after_is_the_engines_result() -> None:
    """The heuristic's cache of Senate results answers as senate.result_of does."""
    owns: list[tuple[int, int] | None] = [None, (1, 3), (2, 2), (4, 6)]
    for own in owns:
        for dice in [(1,), (2, 3), (4,), (5, 6), (1, 2, 3), (3, 5), (6,)]:
            action = dice_action("S", dice)
            assert _straight_after(own, action, dice) == senate.result_of(own, dice)
            assert _straight_after(own, action, dice) == senate.result_of(own, dice)
