"""The engine's command-line tools: simulate, replay, legal, demo."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

import alea.iacta as iacta
import alea.romano as romano
from alea.cli import app
from tests.iacta.helpers import play, started

runner = CliRunner()


def test_simulate_writes_records_that_replay_and_verify(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = runner.invoke(
        app, ["simulate", "--players", "3", "--games", "5", "--seed", "7", "--jsonl", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "Mean decisions per game" in result.output and "Win share" in result.output
    lines = out.read_text().splitlines()
    assert len(lines) == 5
    record = json.loads(lines[0])
    assert record["players"] == 3 and record["result"]["winners"]
    verified = runner.invoke(app, ["replay", str(out), "--verify", "--quiet"])
    assert verified.exit_code == 0, verified.output
    assert verified.output.count("verified:") == 5


def test_simulate_is_reproducible_with_a_seed(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (a, b):
        runner.invoke(app, ["simulate", "--games", "3", "--seed", "3", "--jsonl", str(path)])
    assert a.read_text() == b.read_text()


def test_replay_detects_a_tampered_result(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    runner.invoke(
        app, ["simulate", "--players", "2", "--games", "1", "--seed", "1", "--jsonl", str(out)]
    )
    record = json.loads(out.read_text())
    record["result"]["scores"][0] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", str(bad), "--verify", "--quiet"])
    assert result.exit_code == 1 and "mismatch" in result.output


def test_replay_shows_moves_and_rounds(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    runner.invoke(
        app, ["simulate", "--players", "2", "--games", "1", "--seed", "2", "--jsonl", str(out)]
    )
    result = runner.invoke(app, ["replay", str(out)], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "After round 6" in result.output and "Final scores" in result.output
    assert "rolls" in result.output and "province revealed" in result.output


def test_replay_names_the_first_illegal_event(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"players": 2, "events": ["province:red4", "province:red4"]}))
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 2
    assert "event 2 (province:red4)" in result.output


def test_replay_says_so_for_a_record_of_another_game(tmp_path: Path) -> None:
    other = tmp_path / "romano.json"
    other.write_text(json.dumps(romano.new_game(2).record()))
    result = runner.invoke(app, ["replay", str(other)])
    assert result.exit_code == 2 and "Dado Romano record" in result.output


def test_legal_lists_actions_of_a_saved_position(tmp_path: Path) -> None:
    s = play(started(2), "roll:12344445")
    position = tmp_path / "pos.json"
    position.write_text(json.dumps(s.to_json()))
    result = runner.invoke(app, ["legal", str(position)])
    assert result.exit_code == 0, result.output
    for action in s.legal_actions():
        assert str(action) in result.output
    assert "Seat 0 to move" in result.output


def test_legal_lists_chance_outcomes_of_a_record(tmp_path: Path) -> None:
    record = tmp_path / "rec.json"
    record.write_text(json.dumps(iacta.new_game(4).record()))
    result = runner.invoke(app, ["legal", str(record)])
    assert result.exit_code == 0 and "Chance event next" in result.output
    assert "0.0400" in result.output  # 1 of 25 provinces


def test_legal_rejects_garbage(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("{not json")
    assert runner.invoke(app, ["legal", str(path)]).exit_code == 2


def test_demo_plays_a_whole_game() -> None:
    result = runner.invoke(
        app, ["demo", "--players", "3", "--bots", "easy", "--seed", "4"], env={"COLUMNS": "120"}
    )
    assert result.exit_code == 0, result.output
    assert "Final scores" in result.output and "winner" in result.output
