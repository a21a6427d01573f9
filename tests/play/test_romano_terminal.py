"""``alea romano`` driven with scripted input (Typer's CliRunner) and a seed.

The scripts for whole games are produced by a small deterministic policy
playing the same seeded game through :class:`TerminalGame`, then fed to the
real command as its standard input, so the tests cover every prompt a game
reaches without hard-coding dice that an engine change could shift.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
import typer
from rich.console import Console
from typer.testing import CliRunner

import alea.romano as romano
from alea.commands import romano as romano_command
from alea.play.romano import Options, TerminalGame, clock_text, parse_declaration, parse_die
from alea.play.romano_texts import TEXTS


def make_app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """Test application holding only the romano command."""

    romano_command.register(app)
    return app


def invoke(args: list[str], lines: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(make_app(), ["romano", *args], input="\n".join(lines) + "\n")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def policy_script(options: Options, bad_first: bool = False) -> tuple[TerminalGame, list[str]]:
    """Play ``options`` with a fixed policy; the lines it typed (optionally a bad one first)."""
    lines: list[str] = []
    game: TerminalGame

    def ask(prompt: str) -> str:
        s = game.state
        if s.is_chance():
            reply = ""
        elif s.phase == "declare":
            reply = "5 3"
        elif s.phase == "challenge":
            first = s.legal_actions()[0]
            reply = str(first.values[0] + 1) if first.kind == "challenge" else "0"
        elif s.phase == "return":
            reply = "6"
        elif s.phase == "answer":
            reply = "2"
        else:
            reply = "y"
        if bad_first and not s.is_chance() and (not lines or lines[-1] != "oops"):
            lines.append("oops")
            return "oops"
        lines.append(reply)
        return reply

    game = TerminalGame(options, Console(file=io.StringIO(), width=100), ask=ask)
    assert game.run() == 0
    return game, lines


def test_full_game_to_exactly_150() -> None:
    game, lines = policy_script(Options(players=2, seed=59))
    s = game.state
    assert s.end_reason == "150" and s.round < 15  # a short game
    kinds = {e.kind for e in s.events}
    assert {"declaration", "draw", "challenge", "answer"} <= kinds
    code, out = invoke(["--players", "2", "--seed", "59"], lines)
    assert code == 0
    assert "Exactly 150!" in out and f"Player {s.winners()[0] + 1} wins!" in out
    assert "Messalina" in out and "Declaration 5-3" in out and "Final scores" in out
    assert "Question for" in out or "Riddle for" in out


def test_full_game_with_nero_and_a_return() -> None:
    game, lines = policy_script(Options(players=2, seed=71))
    assert {"eliminated", "return"} <= {e.kind for e in game.state.events}
    code, out = invoke(["--players", "2", "--seed", "71"], lines)
    assert code == 0 and "out of the game (Nero)" in out and "wins!" in out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_one_round_games_with_time_limit_zero(seed: int) -> None:
    game, lines = policy_script(Options(players=4, seed=seed, time_limit=0))
    assert game.state.round == 1 or game.state.end_reason == "150"
    code, out = invoke(["-p", "4", "--seed", str(seed), "--time-limit", "0"], lines)
    assert code == 0
    assert "Round 1 - the last round" in out and "Time is up!" in out
    assert "closest to 150 wins" in out or "Exactly 150!" in out


def test_invalid_input_gets_a_message_and_the_same_question() -> None:
    _, lines = policy_script(Options(players=2, seed=59), bad_first=True)
    assert "oops" in lines
    code, out = invoke(["--players", "2", "--seed", "59"], lines)
    assert code == 0 and "wins!" in out
    assert "Please type" in out or "Type the number" in out


def test_human_referee_marks_answers() -> None:
    game, lines = policy_script(Options(players=4, seed=2, referee="human", time_limit=0))
    assert any(e.kind == "mark" for e in game.state.events)
    args = ["--players", "4", "--seed", "2", "--referee", "human", "--time-limit", "0"]
    code, out = invoke(args, lines)
    assert code == 0
    assert "Was the answer right? (y/n)" in out and "The referee marks the answer right." in out


def test_italian() -> None:
    _, lines = policy_script(Options(players=2, seed=59, lang="it"))
    code, out = invoke(["--players", "2", "--seed", "59", "--lang", "it"], lines)
    assert code == 0 and "Esattamente 150!" in out and "Punteggi finali" in out


def test_names_and_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    game, lines = policy_script(Options(players=3, seed=5, time_limit=0, names=["Ann", "[Bo]"]))
    args = ["-p", "3", "--seed", "5", "--time-limit", "0", "--names", "Ann,[Bo]"]
    code, out = invoke([*args, "--record", str(path)], lines)
    assert code == 0 and "Ann's turn" in out and "[Bo]'s turn" in out and "Player 3" in out
    data = json.loads(path.read_text("utf-8"))
    assert data["seed"] == 5 and data["names"] == ["Ann", "[Bo]", "Player 3"]
    assert romano.replay(data) == game.state


def test_quit() -> None:
    code, out = invoke(["--players", "2", "--seed", "1"], ["", "q"])
    assert code == 0 and "Game stopped." in out and "Final scores" in out


def test_end_of_input_stops_cleanly() -> None:
    code, out = invoke(["--players", "3", "--seed", "1"], [""])
    assert code == 1 and "No more input: game stopped." in out


@pytest.mark.parametrize(
    "args",
    [["--players", "1"], ["--referee", "robot"], ["--lang", "fr"], ["--time-limit", "-1"]],
)
def test_bad_options_are_refused(args: list[str]) -> None:
    result = CliRunner().invoke(make_app(), ["romano", *args])
    assert result.exit_code == 2


def test_the_clock_declares_the_last_round() -> None:
    now = [0.0]

    def clock() -> float:
        now[0] += 1.0  # one second per step of the game
        return now[0]

    lines: list[str] = []
    game: TerminalGame

    def ask(prompt: str) -> str:
        s = game.state
        reply = "" if s.is_chance() else {"declare": "11", "return": "1"}.get(s.phase, "1")
        if s.phase == "challenge":
            reply = "0"
        lines.append(reply)
        return reply

    out = io.StringIO()
    options = Options(players=3, seed=8, time_limit=1.0)  # 60 s: some 60 steps
    game = TerminalGame(options, Console(file=out, width=100), ask=ask, clock=clock)
    assert game.run() == 0
    s = game.state
    declared = [e for e in s.events if e.kind == "last-round"]
    if s.end_reason == "time":
        assert declared and s.round == declared[0].value and s.seat == 2
        assert "Time is up!" in out.getvalue() and "Time left:" in out.getvalue()
    else:
        assert s.end_reason == "150"


def test_input_parsers() -> None:
    assert parse_declaration("53") == (5, 3)
    assert parse_declaration(" 5 - 3 ") == (5, 3)
    assert parse_declaration("V III") == (5, 3)
    assert parse_declaration("vi,i") == (6, 1)
    for bad in ("", "5", "573", "7 3", "0 1", "five three"):
        assert parse_declaration(bad) is None
    assert parse_die("IV") == 4 and parse_die(" 6 ") == 6 and parse_die("7") is None
    assert clock_text(75) == "01:15" and clock_text(-3) == "00:00" and clock_text(3725) == "1:02:05"


def test_ui_texts_exist_in_both_languages() -> None:
    assert set(TEXTS["it"]) == set(TEXTS["en"])


def test_the_default_time_limit_is_the_rules_hour_as_on_the_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # RULES.md B1: one hour unless chosen; the server's default is the game's INFO.
    assert romano.INFO.default_time_limit == 60
    assert Options().time_limit == 60.0
    seen: list[float | None] = []

    def fake_play(options: Options, console: Console) -> int:
        seen.append(options.time_limit)
        return 0

    monkeypatch.setattr(romano_command, "play", fake_play)
    assert invoke([], [])[0] == 0
    assert invoke(["--time-limit", "15"], [])[0] == 0
    assert invoke(["--no-time-limit"], [])[0] == 0
    assert seen == [60.0, 15.0, None]
    game = TerminalGame(Options(seed=1), Console(file=io.StringIO()), ask=lambda _: "q")
    game.run()
    assert game.deadline is not None
