"""The invariant harness: thousands of random seeded games per player count.

At every step: a legal action or a chance outcome exists unless the game is
over; every die and every card is in exactly one place. At sampled steps:
``to_json``/``from_json`` and ``replay`` reproduce the state exactly, and each
seat's view is unchanged when another seat's hidden information is swapped
(so it cannot contain it) and holds no other seat's hidden tiles or cards.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from itertools import chain

import pytest

import alea.iacta as iacta
from alea.iacta.cards import FORTUNA_COPIES, PATRICIANS, PROVINCES, senate_deck

GAMES = int(os.environ.get("ALEA_HARNESS_GAMES", "2000"))
DEEP_EVERY = 23  # expensive checks on every 23rd step


def check_counts(s: iacta.State) -> None:
    """The cheap check, every step: dice per seat and card totals."""
    n = s.players
    # One pass over the Castrum and the Forum for all seats (this runs at every step of
    # every game: most of the harness's time). Dice of an owner that is no seat fail too.
    placed = [0] * n
    for (owner, _), count in s.castrum.items():
        assert 0 <= owner < n, f"a Castrum die of seat {owner}"
        placed[owner] += count
    for _, owner in s.forum:
        assert 0 <= owner < n, f"a Forum die of seat {owner}"
        placed[owner] += 1
    for seat in range(n):
        straight = s.senate[seat]
        placed[seat] += (
            s.dice_left[seat]
            + len(s.temple[seat])
            + (0 if straight is None else straight[1] - straight[0] + 1)
            + s.latrine[seat]
        )
        assert placed[seat] == 8, f"seat {seat} has {placed[seat]} dice"
    assert (
        len(s.province_pool)
        + len(s.revealed_provinces)
        + len(s.removed_provinces)
        + sum(map(len, s.provinces))
    ) == 25
    assert (
        len(s.patrician_pool)
        + len(s.revealed_patricians)
        + len(s.removed_patricians)
        + sum(map(len, s.patricians))
    ) == 36


def check_conservation(s: iacta.State) -> None:
    """The full check: every die, card and tile in exactly one place, by identity."""
    n = s.players
    for seat in range(n):
        placed = (
            s.dice_left[seat]
            + len(s.temple[seat])
            + (0 if s.senate[seat] is None else s.senate[seat][1] - s.senate[seat][0] + 1)
            + sum(c for (o, _), c in s.castrum.items() if o == seat)
            + sum(1 for _, o in s.forum if o == seat)
            + s.latrine[seat]
        )
        assert placed == 8, f"seat {seat} has {placed} dice"
        assert (
            len(s.roll) + len(s.kept_dice) + (s.reroll_count if s.phase_name == "reroll" else 0)
            <= 8
        )
    provinces = (
        s.province_pool
        + s.revealed_provinces
        + s.removed_provinces
        + list(chain.from_iterable(s.provinces))
    )
    assert Counter(provinces) == Counter(list(PROVINCES))
    patricians = (
        s.patrician_pool
        + s.revealed_patricians
        + s.removed_patricians
        + list(chain.from_iterable(s.patricians))
    )
    assert Counter(patricians) == Counter(list(PATRICIANS))
    senate = (
        s.senate_pool
        + [c for c, _ in s.senate_bottom]
        + s.senate_hand
        + list(chain.from_iterable(s.senate_cards))
    )
    assert Counter(senate) == Counter(senate_deck(n))
    if n >= 4:
        tiles: Counter[int] = Counter()
        for v in (1, 2, 3):
            tiles[v] += s.fortuna_stack[v] + s.fortuna_discards[v]
        for seat in range(n):
            tiles.update(s.fortuna_drawn[seat])
            tiles.update(s.fortuna_kept[seat])
        assert tiles == Counter(FORTUNA_COPIES)
    else:
        assert sum(s.fortuna_stack) == 0 and not any(s.fortuna_kept)


def swap_hidden(s: iacta.State, seat: int, rng: random.Random) -> iacta.State:
    """A copy where every other seat's hidden cards and tiles are exchanged for unseen ones."""
    t = s.clone()
    for other in range(t.players):
        if other == seat:
            continue
        cards = t.senate_cards[other]
        for i, card in enumerate(cards):
            candidates = [c for c in t.senate_pool if c != card]
            if candidates:
                new = rng.choice(candidates)
                t.senate_pool.remove(new)
                t.senate_pool.append(card)
                cards[i] = new
        drawn = t.fortuna_drawn[other]
        for i, value in enumerate(drawn):
            options = [v for v in (1, 2, 3) if v != value and t.fortuna_stack[v]]
            if options:
                new_value = rng.choice(options)
                t.fortuna_stack[new_value] -= 1
                t.fortuna_stack[value] += 1
                drawn[i] = new_value
    return t


def check_views(s: iacta.State, rng: random.Random) -> None:
    over = s.is_terminal()
    for seat in [*range(s.players), None]:
        view = s.view(seat)
        json.dumps(view)
        for info in view["players_info"]:
            if info["seat"] != seat:
                assert info["fortuna_drawn_values"] is None
                if not over:
                    assert info["senate"] is None
        assert set(view["decks"]) == {
            "provinces",
            "patricians",
            "senate",
            "fortuna",
            "fortuna_discards",
        }
        if not over:
            assert swap_hidden(s, seat if seat is not None else -1, rng).view(seat) == view
    text = json.dumps(s.view(None))
    for other_cards in s.senate_cards:
        for card in other_cards:
            if not over and card.startswith("XII-"):
                assert card not in text


def check_round_trip(s: iacta.State) -> None:
    data = s.to_json()
    again = iacta.State.from_json(json.loads(json.dumps(data)))
    assert again.to_json() == data
    assert again.legal_actions() == s.legal_actions()
    assert again.clone().to_json() == data  # a loaded state is a full state: it clones
    assert again.chance_outcomes() == s.chance_outcomes()


def run_game(players: int, seed: int, deep: bool) -> iacta.State:
    rng = random.Random(seed)
    s = iacta.new_game(players)
    step = 0
    while True:
        check_counts(s)
        if deep and step % DEEP_EVERY == 0:
            check_conservation(s)
            check_round_trip(s)
            check_views(s, rng)
        if s.is_terminal():
            break
        if s.is_chance():
            assert s.chance_outcomes()
            s.apply(s.sample_chance(rng))
        else:
            legal = s.legal_actions()
            assert legal, "a decision node without a legal action"
            assert len(set(legal)) == len(legal)
            s.apply(rng.choice(legal))
        step += 1
    return s


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_every_invariant(players: int) -> None:
    for game in range(GAMES):
        deep = game % 20 == 0
        s = run_game(players, seed=players * 100_000 + game, deep=deep)
        if deep:
            check_views(s, random.Random(game))
            replayed = iacta.replay(json.loads(json.dumps(s.record())))
            assert replayed.to_json() == s.to_json()
            assert replayed.returns() == s.returns()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_same_seed_same_game(players: int) -> None:
    a = run_game(players, seed=42, deep=False)
    b = run_game(players, seed=42, deep=False)
    assert a.history == b.history
    assert a.returns() == b.returns()


def test_clone_is_independent() -> None:
    rng = random.Random(5)
    s = iacta.new_game(4)
    for _ in range(200):
        s.apply(s.sample_chance(rng) if s.is_chance() else rng.choice(s.legal_actions()))
    before = s.to_json()
    c = s.clone()
    for _ in range(100):
        if c.is_terminal():
            break
        c.apply(c.sample_chance(rng) if c.is_chance() else rng.choice(c.legal_actions()))
    assert s.to_json() == before
