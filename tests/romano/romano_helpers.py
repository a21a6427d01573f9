"""Shared helpers for the Dado Romano tests (a plain module: see conftest-free layout)."""

from __future__ import annotations

import json
from typing import Any

import alea.romano as romano
from alea.romano.state import State


def play(state: State, *moves: str) -> State:
    """Apply each move in order; return the state for chaining."""
    for m in moves:
        state.apply(m)
    return state


def right_choice(state: State) -> str:
    """The answer action that is right for the riddle or question being asked."""
    item = state.bank.get(state.item)
    return f"A:{item.answer + 1}"


def wrong_choice(state: State) -> str:
    """An answer action that is wrong for the riddle or question being asked."""
    item = state.bank.get(state.item)
    return f"A:{(item.answer + 1) % 4 + 1}"


def answer(state: State, right: bool) -> State:
    """Draw the first available item (software referee) and answer it right or wrong."""
    outcome, _ = state.chance_outcomes()[0]
    state.apply(outcome)
    state.apply(right_choice(state) if right else wrong_choice(state))
    return state


def snapshot(state: State) -> str:
    """The whole state as canonical JSON text, to check that nothing changed."""
    return json.dumps(state.to_json(), sort_keys=True)


def start(scores: list[int], **kw: Any) -> State:
    """A position at the start of a turn (seat 0 by default) with these scores."""
    return romano.position(len(scores), scores=scores, **kw)
