"""``run_simulation``: random games, the summary tables and the JSON-lines output."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

import alea.romano as romano
from alea.sim.romano import ROUND_CAP, deciding_causes, run_simulation, simulate


def test_summary_tables_and_jsonl(tmp_path: Path) -> None:
    out = io.StringIO()
    path = tmp_path / "games.jsonl"
    run_simulation(3, 25, 4, str(path), Console(file=out, width=120))
    text = out.getvalue()
    for heading in ("25 random games", "How games end", "Win share per seat", "Deciding figure"):
        assert heading in text
    assert "exactly 150" in text and "time limit" in text
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(lines) == 25
    for line in lines[:5]:
        state = romano.replay(line["record"])
        assert state.winners() == line["winners"] and state.scores == line["scores"]
        assert line["rounds"] <= ROUND_CAP and line["end"] in ("150", "time")


def test_simulation_is_reproducible_and_counts_add_up() -> None:
    a = simulate(4, 30, seed=9)
    b = simulate(4, 30, seed=9)
    assert [r.record for r in a.results] == [r.record for r in b.results]
    assert a.ended("150") + a.ended("time") == 30
    assert sum(a.win_share()) == pytest.approx(30)
    assert sum(count for _, count in a.deciding_figures()) == pytest.approx(30)


def test_deciding_cause_is_the_winners_last_score_change() -> None:
    s = romano.position(2, scores=[140, 30])
    s.apply("roll:2")
    s.apply("roll:4")
    assert deciding_causes(s) == ["2-4"]


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        run_simulation(1, 3, None, None, Console(file=io.StringIO()))
    with pytest.raises(ValueError):
        run_simulation(2, -1, None, None, Console(file=io.StringIO()))


def test_zero_games() -> None:
    out = io.StringIO()
    run_simulation(2, 0, None, None, Console(file=out, width=120))
    assert "0 random games" in out.getvalue()
