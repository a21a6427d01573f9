"""``alea.render``: the one terminal renderer, with and without player names."""

from __future__ import annotations

import io
import json
import random
from typing import Any

from rich.console import Console, RenderableType

import alea.iacta as iacta
from alea import render
from alea.iacta.notation import Action
from tests.iacta.helpers import play, started

NAMES = ["Anna", "Bruto", "Cato", "Dido"]


def text(renderable: RenderableType) -> str:
    out = io.StringIO()
    Console(file=out, width=140, color_system=None, force_terminal=False).print(renderable)
    return out.getvalue()


def _plain(view: dict[str, Any]) -> dict[str, Any]:
    """The view as a client would receive it: JSON, nothing else."""
    return dict(json.loads(json.dumps(view)))


def finished_game(players: int = 4, seed: int = 5) -> iacta.State:
    rng = random.Random(seed)
    state = iacta.new_game(players)
    while not state.is_terminal():
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state


def test_seat_labels_with_and_without_names() -> None:
    assert render.seat_label(2).plain == "seat 2 (blue)"
    assert render.seat_label(2, viewer=2).plain == "seat 2 (blue) (you)"
    assert render.seat_label(1, viewer=2, names=NAMES).plain == "Bruto (brown)"
    assert render.seat_label(0, viewer=0, names=NAMES).plain == "Anna (gray) (you)"


def test_cards_are_coloured_by_the_catalogue() -> None:
    assert render.card("red4").style == render.CARD_STYLES["red"]
    assert render.card("purplew2").style == render.CARD_STYLES["purple"]
    assert render.card("+bluem1").style == render.CARD_STYLES["blue"]  # an XI extra
    assert render.card("XII-green/blue").style == render.SENATE_STYLE
    assert render.cards([]).plain == "—"


def test_board_for_a_spectator_reads_seats_by_number() -> None:
    state = play(started(4), "roll:12345666 T:6 fortuna:2")
    screen = text(render.board(_plain(state.view(None)), title="After round 1"))
    assert "After round 1" in screen and "Templum" in screen
    assert "seat 0 (gray) ★" in screen
    assert "seat 0 (gray)  6  =6" in screen  # Temple dice named by owner
    assert "+[?]" in screen  # someone else's Fortuna draw stays secret
    assert "(you)" not in screen and "Your roll" not in screen


def test_board_for_the_seat_to_move_with_names() -> None:
    state = play(started(4), "roll:12345666 T:6 fortuna:2 roll:12234555")
    mover = state.current_player()
    assert mover == 1
    screen = text(render.board(_plain(state.view(mover)), NAMES))
    assert "Bruto (brown) (you)" in screen
    assert "to move: Bruto (brown) (you)" in screen
    assert "Your roll:  1   2   2   3   4   5   5   5" in screen
    assert "Anna (gray)  6  =6" in screen
    assert "+[?]" in screen  # Anna's draw, unseen by Bruto
    assert "seat " not in screen
    # Anna's own view shows her draw and no roll line (it is not her decision).
    anna = text(render.board(_plain(state.view(0)), NAMES))
    assert "+[2]" in anna and "Anna (gray) (you) ★" in anna and "Your roll" not in anna


def test_board_shows_the_senate_hand_to_choose_from() -> None:
    rng = random.Random(3)
    state = started(3)
    while not (not state.is_chance() and state.phase_name == "senate-choice"):
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    mover = state.current_player()
    view = _plain(state.view(mover))
    screen = text(render.board(view, NAMES[:3]))
    assert "Senate cards to choose from: " + " ".join(view["senate_hand"]) in screen
    others = text(render.board(_plain(state.view((mover + 1) % 3)), NAMES[:3]))
    assert "Senate cards to choose from" not in others
    assert "hidden" in others


def test_choices_are_numbered_with_a_reroll_hint() -> None:
    actions = [Action.parse(a) for a in ("C:444", "F:14", "K:VII", "R:4", "R:144")]
    screen = text(render.choices(actions, tokens=1))
    assert "1. C:444  Castrum: 3 × 4" in screen
    assert "2. F:14  Forum: 1-4" in screen
    assert "3. K:VII  keep Senate card VII" in screen
    assert "R:4 " not in screen  # re-rolls are not numbered ...
    assert "e.g. R:144 for all (1 token left)" in screen  # ... but summarised
    assert render.describe_action(Action.parse("R:116")) == "re-roll 1-1-6 (costs a token)"
    assert render.describe_action(Action.parse("P:blue3")) == "take province blue3"


def test_record_events_in_words_with_and_without_names() -> None:
    assert render.describe("C:44", 1).plain == "seat 1 (brown) places  4   4  in the Castrum"
    assert render.describe("C:44", 1, NAMES).plain == "Bruto (brown) places  4   4  in the Castrum"
    assert render.describe("province:red4", "chance").plain == "  province revealed: red4"


def test_score_table_with_names_and_arrangements() -> None:
    view = _plain(finished_game().view(None))
    screen = text(render.score_table(view, NAMES))
    assert "Final scores" in screen and "Tie-break" in screen
    for name, colour in zip(NAMES, render.SEAT_NAMES, strict=False):
        assert f"{name} ({colour}): optimal arrangement" in screen
    assert screen.count(": optimal arrangement") == 4 and "seat " not in screen
    assert "winner" in screen
    totals = text(render.score_table(view, arrangements=False))
    assert ": optimal arrangement" not in totals and "seat 3 (green)" in totals
    single = text(render.arrangement_table(2, view["result"]["arrangements"][2], NAMES))
    assert "Cato (blue): optimal arrangement" in single and "Why" in single
