"""The engine's shared tokens: one object per notation text, however it is reached.

``State.apply`` finds the action with ``list.index``, identity first; the playout loop
and the bots pass the very objects of the legal list. The look-up tables that hand
those objects out (by kind then card, a tuple of Fortuna outcomes, the re-rolls kept
on a roll's :class:`~alea.iacta.dice.Roll` record) must give the same object, with the
same parts, as parsing its notation does.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import alea.iacta as iacta
from alea.iacta import dice, notation
from alea.iacta.cards import PATRICIANS, PROVINCES, SENATE_CARDS
from alea.iacta.notation import Action, Outcome
from alea.iacta.state import DECIDE


def test_card_tokens_are_the_parsed_ones() -> None:
    """card_action / card_outcome give the parser's object and parts for every card."""
    tables: dict[str, Mapping[str, object]] = {
        notation.CHOOSE_SENATE: SENATE_CARDS,
        notation.CHOOSE_PROVINCE: PROVINCES,
        notation.CHOOSE_PATRICIAN: PATRICIANS,
    }
    for kind, cards in tables.items():
        for card in cards:
            action = notation.card_action(kind, card)
            assert action is Action.parse(f"{kind}:{card}")
            assert (action.kind, action.dice, action.card) == (kind, (), card)
    outcomes: dict[str, Mapping[str, object]] = {
        notation.SENATE_DRAW: SENATE_CARDS,
        notation.PROVINCE: PROVINCES,
        notation.PATRICIAN: PATRICIANS,
    }
    for kind, cards in outcomes.items():
        for card in cards:
            outcome = notation.card_outcome(kind, card)
            assert outcome is Outcome.parse(f"{kind}:{card}")
            assert (outcome.kind, outcome.card) == (kind, card)


def test_fortuna_outcomes_are_the_parsed_ones() -> None:
    for value in (1, 2, 3):
        outcome = notation.fortuna_outcome(value)
        assert outcome is Outcome.parse(f"fortuna:{value}")
        assert outcome.card == str(value)


def test_legal_rerolls_are_the_roll_records() -> None:
    """The re-rolls in a legal list are the record's, one per sub-multiset, in its order."""
    rng = random.Random(11)
    seen = 0
    state = iacta.new_game(4)
    while not state.is_terminal() and seen < 40:
        if state.is_chance():
            state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        if state.phase == DECIDE and state.tokens[state.player]:
            info = dice.roll_info(state.roll)
            expected = [
                Action.parse("R:" + notation.dice_text(s)) for s in dice.submultisets(state.roll)
            ]
            rerolls = [a for a in legal if a.kind == notation.REROLL]
            assert rerolls == expected
            assert info.rerolls is not None
            assert all(a is b for a, b in zip(rerolls, info.rerolls, strict=True))
            seen += 1
        state.apply(rng.choice(legal))
    assert seen
