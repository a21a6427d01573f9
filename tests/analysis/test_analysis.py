"""Game analysis: judged from the seat's own view, reproducible, and it finds real mistakes."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from typer.testing import CliRunner

import alea.analysis as analysis
import alea.iacta as iacta
from alea.analysis.words import explain
from alea.bots import ask, make
from alea.cli import app


def play(levels: list[str], seed: int) -> iacta.State:
    """A finished game between bots of ``levels``, seeded."""
    state = iacta.new_game(players=len(levels))
    bots = [make(level) for level in levels]
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(ask(bots[state.current_player()], state, rng))
    return state


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return play(["random", "medium", "medium"], seed=5).record()


def test_points_are_the_seats_decisions_with_its_view(record: dict[str, Any]) -> None:
    state = iacta.new_game(players=3)
    expected = []
    for step, event in enumerate(record["events"]):
        if not state.is_chance() and not state.is_terminal() and state.current_player() == 1:
            expected.append((step, state.view(1), event))
        state.apply(event)
    found = [(p.step, p.view, str(p.played)) for p in analysis.points("iacta", record, 1)]
    assert found == expected
    assert [p.number for p in analysis.points("iacta", record, 1)] == list(
        range(1, len(expected) + 1)
    )


def test_hidden_information_changes_nothing(record: dict[str, Any]) -> None:
    """Two states that differ only in what the seat cannot see get the same verdicts."""
    rng = random.Random(9)
    state = iacta.new_game(players=3)
    checked = 0
    for step, event in enumerate(record["events"]):
        if not state.is_chance() and not state.is_terminal() and state.current_player() == 0:
            other = iacta.INFO.resample(state, 0, rng)
            assert other.view(0) == state.view(0)
            assert other.to_json() != state.to_json() or step < 3
            mine = analysis.Point(step, 1, None, state.view(0), state.legal_actions(), event)
            theirs = analysis.Point(step, 1, None, other.view(0), other.legal_actions(), event)
            assert analysis.assess("iacta", mine, samples=3) == analysis.assess(
                "iacta", theirs, samples=3
            )
            assert analysis.hint("iacta", state.view(0), state.legal_actions(), 3) == (
                analysis.hint("iacta", other.view(0), other.legal_actions(), 3)
            )
            checked += 1
            if checked == 6:
                break
        state.apply(event)
    assert checked == 6


def test_an_analysis_is_reproducible_in_any_order(record: dict[str, Any]) -> None:
    whole = analysis.analyse("iacta", record, 2, samples=3, seed=4)
    backwards = [
        analysis.assess("iacta", p, samples=3, seed=4)
        for p in reversed(list(analysis.points("iacta", record, 2)))
    ]
    assert whole.decisions == backwards[::-1]
    assert whole.to_json() == analysis.analyse("iacta", record, 2, samples=3, seed=4).to_json()
    assert whole.to_json() != analysis.analyse("iacta", record, 2, samples=3, seed=5).to_json()


def test_random_play_is_flagged_more_than_the_heuristic(record: dict[str, Any]) -> None:
    random_seat = analysis.analyse("iacta", record, 0, samples=8)
    greedy_seat = analysis.analyse("iacta", record, 1, samples=8)
    assert len(random_seat.flagged()) >= 3
    assert len(random_seat.flagged()) > len(greedy_seat.flagged())
    lost = sum(d.loss for d in random_seat.decisions) / len(random_seat.decisions)
    kept = sum(d.loss for d in greedy_seat.decisions) / len(greedy_seat.decisions)
    assert lost > kept
    for d in random_seat.flagged():
        assert d.verdict.best != d.verdict.played
        assert d.loss >= analysis.THRESHOLD and d.loss > 2 * d.verdict.error
        assert "was better than" in explain(d)


def test_every_verdict_is_consistent(record: dict[str, Any]) -> None:
    result = analysis.analyse("iacta", record, 1, samples=4)
    legal_moves = {p.step: {str(a) for a in p.legal} for p in analysis.points("iacta", record, 1)}
    for d in result.decisions:
        v = d.verdict
        assert v.best in legal_moves[d.step] and v.played in legal_moves[d.step]
        assert d.loss == pytest.approx(max(0.0, v.best_margin - v.played_margin))
        assert 0.0 <= v.played_win <= 1.0 and 0.0 <= v.best_win <= 1.0
        if len(legal_moves[d.step]) == 1:
            assert v.options == 1 and not d.flagged and "only move" in explain(d)
        assert v.best_margin >= v.played_margin or v.best == v.played


def test_a_hint_is_a_legal_move_and_the_best_it_found() -> None:
    state = iacta.new_game(players=2)
    rng = random.Random(2)
    while state.is_chance():
        state.apply(state.sample_chance(rng))
    seat = state.current_player()
    verdict = analysis.hint("iacta", state.view(seat), state.legal_actions(), samples=4)
    assert verdict.best in {str(a) for a in state.legal_actions()}
    assert verdict.played == verdict.best


def test_bad_requests_are_refused(record: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="seat 4"):
        list(analysis.points("iacta", record, 3))
    with pytest.raises(ValueError, match="cannot be analysed"):
        analysis.analyse("romano", {"players": 2, "events": []}, 0)
    with pytest.raises(ValueError, match="at least 2"):
        analysis.analyse("iacta", record, 0, samples=1)
    with pytest.raises(ValueError, match="nothing is legal"):
        analysis.hint("iacta", {}, [])
    assert analysis.supports("iacta") and not analysis.supports("romano")


def test_the_command_line(record: dict[str, Any], tmp_path: Any) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    runner = CliRunner()
    shown = runner.invoke(app, ["analyse", str(path), "--seat", "1", "--samples", "4"])
    assert shown.exit_code == 0, shown.output
    assert "Seat 1" in shown.output and "mistakes in" in shown.output
    assert "Winning chances across the game" in shown.output
    data = runner.invoke(app, ["analyse", str(path), "--seat", "2", "--samples", "3", "--json"])
    assert data.exit_code == 0, data.output
    parsed = json.loads(data.output)
    assert parsed["seat"] == 1 and parsed["decisions"]
    bad = runner.invoke(app, ["analyse", str(path), "--seat", "7"])
    assert bad.exit_code == 2 and "seat 7" in bad.output
    romano = tmp_path / "romano.json"
    romano.write_text(json.dumps({"game": "dado-romano", "players": 2, "events": []}))
    refused = runner.invoke(app, ["analyse", str(romano)])
    assert refused.exit_code == 2 and "cannot be analysed" in refused.output
