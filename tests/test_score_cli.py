"""The ``alea score`` calculator: input forms, output, ranking and error handling."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from alea.cli import app

runner = CliRunner()

ANTONIO_TEXT = (
    "Antonio: provinces: red3 blue4 grey0 green1; "
    "patricians: redm3 redw1 bluem3 bluew3 bluew2 yellowm2 yelloww1 redm1 redm2 yellowm1; "
    "senate: II XII-blue/purple III VII; fortuna: 3 2 1; tokens: 5"
)
ANTONIO_JSON = {
    "provinces": ["red3", "blue4", "grey0", "green1"],
    "patricians": [
        "redm3",
        "redw1",
        "bluem3",
        "bluew3",
        "bluew2",
        "yellowm2",
        "yelloww1",
        "redm1",
        "redm2",
        "yellowm1",
    ],
    "senate": ["II", "XII-blue/purple", "III", "VII"],
    "fortuna": [3, 2, 1],
    "tokens": 5,
}


def run(tmp_path: Path, content: str, *options: str) -> Any:
    path = tmp_path / "holdings.txt"
    path.write_text(content, encoding="utf-8")
    return runner.invoke(app, ["score", str(path), *options])


def run_json(tmp_path: Path, content: str) -> Any:
    result = run(tmp_path, content, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_text_form_prints_places_cards_and_total(tmp_path: Path) -> None:
    result = run(tmp_path, ANTONIO_TEXT + "\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Antonio: 43 points" in out
    for word in ("red3", "green1", "grey0", "XII-blue/purple", "Senate VII", "Fortuna"):
        assert word in out
    assert "Total 43" in out
    assert "province cards 7" in out and "patricians 15" in out
    assert "Senate cards 13" in out and "Fortuna 6" in out and "tokens 2" in out


def test_json_output_for_one_player(tmp_path: Path) -> None:
    data = run_json(tmp_path, json.dumps(ANTONIO_JSON))
    assert data["score"] == 43
    assert data["tiebreak"] == 4
    assert data["breakdown"]["senate_total"] == 13
    assert {p["card"] for p in data["places"]} >= {"red3", "blue4", "grey0", "green1"}
    assert sorted(data["unplaced"]) == ["redm1", "redm2", "yellowm1"]


def test_text_and_json_agree(tmp_path: Path) -> None:
    from_text = run_json(tmp_path, ANTONIO_TEXT)
    from_json = run_json(tmp_path, json.dumps({"players": {"Antonio": ANTONIO_JSON}}))
    assert from_text == from_json


def test_stdin(tmp_path: Path) -> None:
    result = runner.invoke(app, ["score", "-", "--json"], input=json.dumps(ANTONIO_JSON))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["score"] == 43


def test_short_keywords_any_case_and_comments(tmp_path: Path) -> None:
    text = """
    # one player per line; '#' starts a comment
    Pat: prov: Red4 ; pat: REDM3, redw1 ; sen: v xii-Red/Orange ; for: 2 ; tok: 3   # ok
    """
    data = run_json(tmp_path, text)
    pat = data["players"]["Pat"]
    assert pat["holdings"]["senate"] == ["V", "XII-red/orange"]
    # red4 (4 + 3 + 1), empty border (0), V (1 + 1), Fortuna 2, tokens 1.
    assert pat["score"] == 8 + 0 + 2 + 2 + 1


def test_unnamed_lines_are_numbered(tmp_path: Path) -> None:
    data = run_json(tmp_path, "provinces: red4\nprovinces: blue4\n")
    assert list(data["players"]) == ["Player 1", "Player 2"]


def test_ranking_applies_the_tie_break(tmp_path: Path) -> None:
    players = {
        "Anna": {"provinces": ["red4"], "patricians": ["redm3", "redm1"]},  # 7, tb 1
        "Bruno": {"provinces": ["blue4"], "patricians": ["bluem3", "greenm2"]},  # 7, tb 2
        "Carla": {"provinces": ["yellow4"], "patricians": ["yellowm3", "purplem1"]},  # 7, tb 1
    }
    data = run_json(tmp_path, json.dumps({"players": players}))
    ranking = [(r["rank"], r["name"], r["shared"]) for r in data["ranking"]]
    assert ranking == [(1, "Bruno", False), (2, "Anna", True), (2, "Carla", True)]
    result = run(tmp_path, json.dumps({"players": players}))
    assert result.exit_code == 0
    assert "Ranking" in result.stdout and "winner" in result.stdout


def test_shared_victory(tmp_path: Path) -> None:
    text = "A: prov: red4; pat: redm3\nB: prov: blue4; pat: bluew3\n"
    data = run_json(tmp_path, text)
    assert [(r["rank"], r["shared"]) for r in data["ranking"]] == [(1, True), (1, True)]
    assert "shared victory" in run(tmp_path, text).stdout


def test_more_than_six_senate_cards_warns_but_scores(tmp_path: Path) -> None:
    result = run(tmp_path, "senate: I II III V VI VII VIII")
    assert result.exit_code == 0
    assert "warning" in result.stderr and "7 Senate cards" in result.stderr
    assert "points" in result.stdout


@pytest.mark.parametrize(
    ("content", "token", "words"),
    [
        ("provinces: red4 red5", "'red5'", "worth 1 to 4"),
        ("provinces: redm2", "'redm2'", "patrician tile, not a province"),
        ("patricians: bluex2", "'bluex2'", "not a patrician"),
        ("senate: XII-red/yellow", "'XII-red/yellow'", "neighbouring"),
        ("senate: XIV", "'XIV'", "not a Senate card"),
        ("senate: XIII XIII XIII", "'XIII'", "holds it 2 times"),
        ("A: prov: red4\nB: prov: red4", "'red4'", "held by A, B"),
        ("fortuna: 2 4", "'4'", "Fortuna tile"),
        ("fortuna: " + "1 " * 9, "value 1", "only 8"),
        ("tokens: -3", "'-3'", "negative"),
        ("tokens: 2 3", "tokens", "one number"),
        ("tokens: many", "'many'", "not a number"),
        ("provences: red4", "'provences'", "not a section"),
        ("provinces: red4; provinces: blue4", "'provinces'", "given twice"),
        ('{"provinces": ["red4"], "tokens": -1}', "-1", "negative"),
        ('{"provinces": ["red4"', "JSON", "not valid JSON"),
        ('{"players": {"Anna": {"senate": ["XII"]}}}', "'XII'", "player 'Anna'"),
        ('{"provinces": ["red4"], "coins": 3}', "'coins'", "unknown field"),
        ("", "empty", "no holdings"),
    ],
)
def test_bad_input_names_the_token(tmp_path: Path, content: str, token: str, words: str) -> None:
    result = run(tmp_path, content)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    message = " ".join(result.stderr.split())  # undo Rich's line wrapping
    assert message.startswith("error:")
    assert token in message
    assert words in message
    assert result.stdout == ""


def test_line_number_in_text_errors(tmp_path: Path) -> None:
    result = run(tmp_path, "A: prov: red4\nB: prov: red9\n")
    assert result.exit_code == 2
    assert "line 2" in result.stderr and "'red9'" in result.stderr


def test_missing_file(tmp_path: Path) -> None:
    result = runner.invoke(app, ["score", str(tmp_path / "nope.txt")])
    assert result.exit_code == 2
    assert "no such file" in result.stderr
    assert "Traceback" not in result.output
