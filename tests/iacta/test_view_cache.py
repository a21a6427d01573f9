"""The views built from a position's kept public part are exactly the views built afresh.

:func:`alea.iacta.views.view` writes the public part of a position's view once, keeps it
on the state and builds every observer's view from it and the observer's own secrets;
:func:`alea.iacta.views.reference_view` writes each observer's knowledge afresh, as
``view`` did before. These tests hold the two equal (as values and as JSON text, so key
order and types count too) at every step of seeded random games of 2 to 5 players, for
every seat and the spectator, and across the ways a kept part could go stale: views asked
again, in any order, of clones, after ``apply`` on a clone, and of two states in turn.
They also check that no secret reaches the kept part or another observer's view, and
that a caller may change what ``view`` returns without changing any later view.
CI runs them on the compiled build and again with ``ALEA_PURE_PYTHON=1``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import alea.iacta as iacta
from alea.iacta import COMPILED
from alea.iacta.determinize import determinize
from alea.iacta.knowledge import sees_senate_hand
from alea.iacta.views import reference_view, view

#: Seeded random games per player count, each checked at every step: fewer on the pure
#: build, which CI runs after the compiled one (the same sources, ~3x slower).
GAMES = 6 if COMPILED else 2
#: Every this many steps, a clone of the position is checked, and changed by one event.
CLONE_EVERY = 4
#: Every this many steps, the position kept for the interleaving checks is renewed.
KEEP_EVERY = 25


def observers(players: int) -> list[int | None]:
    return [*range(players), None]


def same(shown: dict[str, Any], expected: dict[str, Any], text: bool = False) -> None:
    """Equal values, and with ``text`` equal JSON text too (key order, and ``True`` is
    not ``1`` in JSON)."""
    assert shown == expected
    if text:
        assert json.dumps(shown) == json.dumps(expected)


def advance(state: iacta.State, rng: random.Random) -> None:
    """Apply one random event (a drawn chance outcome or a legal action)."""
    if state.is_chance():
        state.apply(state.sample_chance(rng))
    else:
        state.apply(rng.choice(state.legal_actions()))


def walk(players: int, seed: int) -> Iterator[tuple[int, iacta.State]]:
    """``(step, state)`` at every position of one seeded random game (the live state)."""
    rng = random.Random(seed * 1009 + players)
    state = iacta.new_game(players)
    step = 0
    while True:
        yield step, state
        if state.is_terminal():
            return
        advance(state, rng)
        step += 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_view_is_the_reference_at_every_step(players: int) -> None:
    everyone = observers(players)
    other_rng = random.Random(players)
    for seed in range(GAMES):
        kept: tuple[iacta.State, dict[int | None, dict[str, Any]]] | None = None
        for step, state in walk(players, seed):
            expected = {seat: reference_view(state, seat) for seat in everyone}
            # The first view asked builds the public part: a different observer each step.
            first = step % len(everyone)
            for seat in everyone[first:] + everyone[:first]:
                same(view(state, seat), expected[seat], text=True)
            public = state._public_view
            assert public is not None
            # What is kept is the spectator's view: no seat's secret went into it.
            same(public, expected[None])
            for seat in reversed(everyone):  # asked again: the kept part, unchanged
                same(view(state, seat), expected[seat])
            assert state._public_view is public
            if step % CLONE_EVERY == 0:
                copy = state.clone()
                assert copy._public_view is None  # a clone keeps nothing of the original's
                for seat in everyone:
                    same(view(copy, seat), expected[seat])
                if not copy.is_terminal():
                    advance(copy, other_rng)
                    assert copy._public_view is None  # apply cleared it
                    for seat in everyone:
                        same(view(copy, seat), reference_view(copy, seat))
                # The original's kept part is untouched by what its clone went through.
                assert state._public_view is public
                same(public, expected[None])
                for seat in everyone:
                    same(view(state, seat), expected[seat])
            if kept is not None and step % 2:
                # Two states' views asked in turn: each keeps its own public part.
                older, older_expected = kept
                for seat in everyone:
                    same(view(older, seat), older_expected[seat])
                    same(view(state, seat), expected[seat])
            if step % KEEP_EVERY == 0:
                kept = (state.clone(), expected)
        assert state.is_terminal()


def test_a_failed_event_leaves_the_view_right() -> None:
    """An illegal event changes nothing, and the view stays the reference."""
    for step, state in walk(4, 3):
        if step % 7 or state.is_terminal():
            continue
        before = {seat: view(state, seat) for seat in observers(4)}
        with pytest.raises(iacta.IllegalActionError):
            state.apply("C:9")
        for seat in observers(4):
            same(view(state, seat), before[seat])
            same(view(state, seat), reference_view(state, seat))


def test_records_and_determinised_states_start_without_a_kept_view() -> None:
    """States made from a saved position, a record or a seat's view keep nothing of the
    state they came from (whose public part was kept first)."""
    for step, state in walk(4, 5):
        if step % 30:
            continue
        view(state, 0)
        for copy in (iacta.State.from_json(state.to_json()), iacta.replay(state.record())):
            assert copy._public_view is None
            for seat in observers(4):
                same(view(copy, seat), reference_view(state, seat))
        if state.is_terminal():
            continue
        sampled = determinize(view(state, 1), random.Random(step))
        assert sampled._public_view is None
        same(view(sampled, 1), reference_view(state, 1))
        for seat in observers(4):
            same(view(sampled, seat), reference_view(sampled, seat))


def test_a_bad_seat_is_refused() -> None:
    state = iacta.new_game(3)
    for seat in (-1, 3, -5):
        with pytest.raises(ValueError, match="does not exist"):
            view(state, seat)
        with pytest.raises(ValueError, match="does not exist"):
            reference_view(state, seat)


def secrets_of(state: iacta.State, seat: int) -> dict[str, Any]:
    """What only ``seat`` may see now, read from the state (RULES.md §6)."""
    return {
        "drawn": list(state.fortuna_drawn[seat]),
        "cards": list(state.senate_cards[seat]),
        "hand": list(state.senate_hand) if sees_senate_hand(state, seat) else None,
        "bottom": [card for card, placer in state.senate_bottom if placer == seat],
    }


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_no_secret_reaches_another_observer(players: int) -> None:
    """Each seat's secrets are in its own view only (and every seat's cards once over),
    whichever observer asked first, and never in the kept public part."""
    seen = {"drawn": 0, "cards": 0, "hand": 0, "bottom": 0}
    if players < 4:
        del seen["drawn"]  # no Fortuna tiles with 2 or 3 players
    if players == 5:
        del seen["bottom"]  # three takers share the three cards drawn: none is left over
    for seed in range(3 if COMPILED else 2):
        for step, state in walk(players, seed):
            over = state.is_terminal()
            order = observers(players)
            if step % 2:
                order.reverse()  # the seats before the spectator, or after
            views = {seat: view(state, seat) for seat in order}
            public = state._public_view
            assert public is not None
            same(public, reference_view(state, None))
            for seat in range(players):
                mine = secrets_of(state, seat)
                own = views[seat]
                assert own["players_info"][seat]["fortuna_drawn_values"] == mine["drawn"]
                assert own["players_info"][seat]["senate"] == mine["cards"]
                assert own["senate_hand"] == mine["hand"]
                assert [c for c in own["senate_bottom"] if c is not None] == mine["bottom"]
                for key in seen:
                    seen[key] += bool(mine[key])
                for other in [*range(players), None]:
                    if other == seat:
                        continue
                    for shown in (views[other], public):
                        info = shown["players_info"][seat]
                        assert info["fortuna_drawn_values"] is None
                        assert info["senate"] == (mine["cards"] if over else None)
                    theirs = views[other]
                    if mine["hand"] is not None and (
                        other is None or not sees_senate_hand(state, other)
                    ):
                        assert theirs["senate_hand"] is None
                    for index, (_, placer) in enumerate(state.senate_bottom):
                        if placer == seat:
                            assert theirs["senate_bottom"][index] is None
            assert public["senate_hand"] is None
            assert set(public["senate_bottom"]) <= {None}
            assert public["seat"] is None
    # The games met every kind of secret (or the checks above would prove little).
    assert all(seen.values()), seen


def everything(value: Any, found: dict[int, str], path: str = "view") -> None:
    """Every dict and list in ``value``, by id, with where it is."""
    if isinstance(value, dict):
        found[id(value)] = path
        for key, item in value.items():
            everything(item, found, f"{path}.{key}")
    elif isinstance(value, list):
        found[id(value)] = path
        for index, item in enumerate(value):
            everything(item, found, f"{path}[{index}]")


def own_parts(shown: dict[str, Any]) -> dict[int, str]:
    """What ``view`` promises is new at every call: the dicts reached through keys only
    (the view, its parts, ``decks.fortuna_discards``), each player's entry, and the lists
    directly in the view."""
    found: dict[int, str] = {}

    def dicts(part: dict[str, Any], path: str) -> None:
        found[id(part)] = path
        for key, item in part.items():
            if isinstance(item, dict):
                dicts(item, f"{path}.{key}")

    dicts(shown, "view")
    for key, item in shown.items():
        if isinstance(item, list):
            found[id(item)] = f"view.{key}"
    for index, player in enumerate(shown["players_info"]):
        found[id(player)] = f"view.players_info[{index}]"
    return found


def spoil(shown: dict[str, Any]) -> None:
    """What a careless caller may do to its view: replace or delete every key of its own
    dicts and empty its own lists (never the lists and entries inside them)."""
    shown["removed"]["provinces"] = ["red4"]  # as a test of determinize does
    for player in shown["players_info"]:
        player["provinces"] = ["red4"]
        player.clear()
    for item in shown.values():
        if isinstance(item, list):
            item.clear()
    shown["decks"]["fortuna_discards"].clear()
    for item in shown.values():
        if isinstance(item, dict):
            item.clear()
    shown.clear()


@pytest.mark.parametrize("players", [2, 4, 5])
def test_what_a_caller_may_change_is_its_own(players: int) -> None:
    """No two calls share what ``view`` says is the caller's own, nor share it with the
    kept part; a caller spoiling all of it changes no later view of the position. The
    observer's secrets are its own too."""
    for step, state in walk(players, 11):
        if step % 9 and not state.is_terminal():
            continue
        everyone = observers(players)
        expected = {seat: reference_view(state, seat) for seat in everyone}
        calls = [view(state, seat) for seat in everyone] + [view(state, 0), view(state, None)]
        kept: dict[int, str] = {}
        everything(state._public_view, kept)
        owned: dict[int, str] = {}
        for number, shown in enumerate(calls):
            parts = own_parts(shown)
            seat = shown["seat"]
            if seat is not None:
                mine = shown["players_info"][seat]
                for key in ("senate", "fortuna_drawn_values"):
                    parts[id(mine[key])] = f"view.players_info[{seat}].{key}"
                if shown["senate_hand"] is not None:
                    parts[id(shown["senate_hand"])] = "view.senate_hand"
            shared = parts.keys() & owned.keys()
            assert not shared, (number, [parts[i] for i in shared])
            shared = parts.keys() & kept.keys()
            assert not shared, (number, [parts[i] for i in shared])
            owned.update(parts)
        for shown in calls:
            spoil(shown)
        for seat in everyone:
            same(view(state, seat), expected[seat], text=True)
        if state.is_terminal():
            assert expected[None]["result"] is not None  # the result's dict was spoiled too


def reference_log(state: iacta.State, seat: int | None, start: int) -> list[str]:
    """The history from ``start`` with every event private to another seat as ``kind:?``."""
    private = state.private
    return [
        f"{event.partition(':')[0]}:?" if private.get(index, seat) != seat else event
        for index, event in enumerate(state.history)
    ][start:]


@pytest.mark.parametrize("players", [2, 4, 5])
def test_log_from_any_entry(players: int) -> None:
    """The log from any entry on (the server sends a few entries at a time, looked up one
    by one; a long stretch walks the private events) hides what it did before."""
    for step, state in walk(players, 2):
        if step % 17 and not state.is_terminal():
            continue
        length = len(state.history)
        for start in {0, 1, length // 2, length - 3, length - 1, length, length + 2}:
            if start < 0:
                continue
            for seat in observers(players):
                assert state.log(seat, start) == reference_log(state, seat, start)
    assert len(state.private) > 10


def test_round_accounts_are_copied_once_and_follow_every_change() -> None:
    """The views' copies of the round accounts are made once per account and carried
    by clones (not copied again for every position), and an account replaced by the
    round's later evaluations is copied anew: every view still equals the reference,
    whose accounts are fresh copies."""
    reused = renewed = 0
    state = iacta.new_game(4)
    rng = random.Random(3)
    while not state.is_terminal():
        before = state._shown_accounts
        state = state.clone()
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
        for seat in observers(4):
            same(view(state, seat), reference_view(state, seat))
        after = state._shown_accounts
        assert after is not None or not state.evaluations
        if before is not None and after is not None and state.evaluations:
            shared = sum(a[1] is b[1] for a, b in zip(before, after, strict=False))
            reused += shared
            renewed += len(after) - shared
    assert reused > 20 * renewed > 0, (reused, renewed)
