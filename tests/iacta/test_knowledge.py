"""One hidden-information policy: ``knowledge`` decides, the view and the replay follow it.

Every observer (each seat and a spectator) at every position of random games
of every player count, chance events and the final position included: the
JSON view is exactly the knowledge written out and reads back into it, the
public facts are the same for everyone, each seat sees its own secrets and
nobody else's, and the open table of a finished game's replay holds every
seat's secrets as that seat sees them, and is refused while the game is on.
"""

from __future__ import annotations

import json
import random

import pytest

import alea.iacta as iacta
from alea.iacta.knowledge import Knowledge, knowledge, reveal_all
from alea.iacta.state import CHOOSE_SENATE_CARD, DRAW_SENATE
from alea.iacta.views import parse_view, replay_view, to_json
from tests.iacta.helpers import every_node

PLAYERS = [2, 3, 4, 5]


def _public(k: Knowledge) -> Knowledge:
    """``k`` without its observer and secrets: what every observer must agree on."""
    return k._replace(
        seat=None, fortuna_drawn_values=(), senate_cards=(), senate_hand=None, senate_bottom=()
    )


def _finished(players: int, seed: int) -> iacta.State:
    state = iacta.new_game(players)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(
            state.sample_chance(rng) if state.is_chance() else rng.choice(state.legal_actions())
        )
    return state


def _spec(state: iacta.State, seat: int | None) -> Knowledge:
    """The knowledge of ``seat`` written field by field, by name, straight from RULES.md §6."""
    n = state.players
    over = state.is_terminal()
    held: list[int] = []
    if state.phase == DRAW_SENATE:
        held = state.senate_takers[:1]
    elif state.phase == CHOOSE_SENATE_CARD:
        held = state.senate_takers[: state.senate_turn + 1]
    return Knowledge(
        seat=seat,
        players=n,
        rounds=state.rounds,
        round=min(state.round + 1, state.rounds),
        start=state.start,
        phase=state.phase,
        to_move=state.current_player(),
        turn_seat=None if over else state.player,
        ending=state.ending,
        roll=tuple(state.roll),
        kept=tuple(state.kept_dice),
        rerolling=state.reroll_count if state.phase_name == "reroll" else 0,
        fortuna_pending=state.fortuna_pending,
        dice=tuple(state.dice_left),
        tokens=tuple(state.tokens),
        latrine=tuple(state.latrine),
        temple=tuple(tuple(g) for g in state.temple),
        senate=tuple(state.senate),
        provinces=tuple(tuple(p) for p in state.provinces),
        patricians=tuple(tuple(p) for p in state.patricians),
        fortuna_kept=tuple(tuple(k) for k in state.fortuna_kept),
        fortuna_drawn=tuple(len(d) for d in state.fortuna_drawn),
        senate_count=tuple(len(c) for c in state.senate_cards),
        castrum=tuple(
            (owner, value, count)
            for (owner, value), count in sorted(
                state.castrum.items(), key=lambda item: (item[1], item[0][1]), reverse=True
            )
        ),
        forum=tuple(state.forum),
        forum_columns=n + 2,
        revealed_provinces=tuple(state.revealed_provinces),
        revealed_patricians=tuple(state.revealed_patricians),
        removed_provinces=tuple(state.removed_provinces),
        removed_patricians=tuple(state.removed_patricians),
        deck_provinces=len(state.province_pool),
        deck_patricians=len(state.patrician_pool),
        deck_senate=len(state.senate_pool) + len(state.senate_bottom),
        fortuna_stack=sum(state.fortuna_stack),
        fortuna_discards=tuple(state.fortuna_discards[1:]),  # type: ignore[arg-type]
        senate_hand_size=len(state.senate_hand),
        senate_takers=tuple(state.senate_takers),
        senate_turn=state.senate_turn,
        castrum_queue=tuple(state.castrum_queue),
        fortuna_drawn_values=tuple(
            tuple(d) if s == seat else None for s, d in enumerate(state.fortuna_drawn)
        ),
        senate_cards=tuple(
            tuple(c) if s == seat or over else None for s, c in enumerate(state.senate_cards)
        ),
        senate_hand=tuple(state.senate_hand) if seat in held else None,
        senate_bottom=tuple(
            card if placer == seat else None for card, placer in state.senate_bottom
        ),
    )


@pytest.mark.parametrize("players", PLAYERS)
def test_knowledge_is_what_the_rules_let_each_observer_see(players: int) -> None:
    for state in every_node(players, 7 * players):
        for observer in [None, *range(players)]:
            assert knowledge(state, observer) == _spec(state, observer)


@pytest.mark.parametrize("players", PLAYERS)
def test_the_view_is_the_knowledge_as_json(players: int) -> None:
    for state in every_node(players, 11 * players):
        for observer in [None, *range(players)]:
            k = knowledge(state, observer)
            view = state.view(observer)
            assert to_json(k, state) == view
            assert parse_view(json.loads(json.dumps(view))) == k


@pytest.mark.parametrize("players", PLAYERS)
def test_each_seat_knows_the_public_facts_and_only_its_own_secrets(players: int) -> None:
    seen_hand = seen_bottom = seen_draws = 0
    for state in every_node(players, 13 * players):
        over = state.is_terminal()
        spectator = knowledge(state, None)
        assert spectator.fortuna_drawn_values == (None,) * players
        assert spectator.senate_hand is None
        assert set(spectator.senate_bottom) <= {None}
        truth = tuple(tuple(cards) for cards in state.senate_cards)
        assert spectator.senate_cards == (truth if over else (None,) * players)
        for seat in range(players):
            k = knowledge(state, seat)
            assert k.seat == seat and _public(k) == _public(spectator)
            assert k.fortuna_drawn_values[seat] == tuple(state.fortuna_drawn[seat])
            assert k.senate_cards[seat] == truth[seat]
            for other in range(players):
                if other != seat:
                    assert k.fortuna_drawn_values[other] is None
                    assert k.senate_cards[other] == (truth[other] if over else None)
            assert k.senate_bottom == tuple(
                card if placer == seat else None for card, placer in state.senate_bottom
            )
            # The hand being passed: the takers who have held it see all of it (§6).
            if state.phase == DRAW_SENATE:
                held = state.senate_takers[:1]
            elif state.phase == CHOOSE_SENATE_CARD:
                held = state.senate_takers[: state.senate_turn + 1]
            else:
                held = []
            assert k.senate_hand == (tuple(state.senate_hand) if seat in held else None)
            seen_hand += bool(k.senate_hand)
            seen_bottom += any(card is not None for card in k.senate_bottom)
            seen_draws += bool(k.fortuna_drawn_values[seat])
        with pytest.raises(ValueError, match="does not exist"):
            knowledge(state, players)
    # The games reach every kind of secret (the draws only with a Temple).
    assert seen_hand and seen_bottom and (seen_draws or players < 4)


@pytest.mark.parametrize("players", PLAYERS)
def test_the_open_table_holds_every_secret_as_its_holder_sees_it(players: int) -> None:
    for state in every_node(players, 17 * players):
        full = reveal_all(state)
        assert full.seat is None and _public(full) == _public(knowledge(state, None))
        assert full.fortuna_drawn_values == tuple(tuple(d) for d in state.fortuna_drawn)
        assert full.senate_cards == tuple(tuple(c) for c in state.senate_cards)
        assert full.senate_bottom == tuple(card for card, _ in state.senate_bottom)
        holders = [knowledge(state, seat).senate_hand for seat in range(players)]
        shown = [hand for hand in holders if hand is not None]
        assert full.senate_hand == (shown[0] if shown else None)
        if state.senate_hand and state.phase in (DRAW_SENATE, CHOOSE_SENATE_CARD):
            assert full.senate_hand == tuple(state.senate_hand)


@pytest.mark.parametrize("players", PLAYERS)
def test_replay_view_shows_any_step_of_a_finished_game(players: int) -> None:
    game = _finished(players, 5 * players)
    events = game.history
    position = iacta.new_game(players)
    for step in range(len(events) + 1):
        if step % 37 == 0 or step == len(events) or position.phase == CHOOSE_SENATE_CARD:
            shown = replay_view(game, step)
            assert shown == to_json(reveal_all(position), position)
            assert shown.keys() == position.view(None).keys() and shown["seat"] is None
            for seat in range(players):
                mine = position.view(seat)["players_info"][seat]
                info = shown["players_info"][seat]
                assert info["senate"] == mine["senate"]
                assert info["fortuna_drawn_values"] == mine["fortuna_drawn_values"]
        if step < len(events):
            position.apply(events[step])
    final = replay_view(game)
    assert final == replay_view(game, len(events))
    assert final["result"] == game.view(None)["result"] is not None
    assert replay_view(game, 0)["result"] is None


def test_replay_view_is_refused_before_the_end_and_outside_the_game() -> None:
    game = _finished(3, 1)
    for step in (-1, len(game.history) + 1):
        with pytest.raises(ValueError, match="not in this game"):
            replay_view(game, step)
    rng = random.Random(2)
    live = iacta.new_game(3)
    for _ in range(60):
        live.apply(
            live.sample_chance(rng) if live.is_chance() else rng.choice(live.legal_actions())
        )
    for later in (0, 10, None):
        with pytest.raises(ValueError, match="not over"):
            replay_view(live, later)
