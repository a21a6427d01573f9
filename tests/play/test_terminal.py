"""The terminal game driven through its console and input function."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from alea.play import HUMAN, Session, TerminalGame
from alea.play.terminal import normalise


class Script:
    """Answers prompts from a list, then with a default; records the prompts."""

    def __init__(self, lines: list[str], default: str = "1", limit: int = 5000) -> None:
        self.lines: Iterator[str] = iter(lines)
        self.default = default
        self.prompts: list[str] = []
        self.limit = limit

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if len(self.prompts) > self.limit:
            raise EOFError
        return next(self.lines, self.default)


def _console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=120, color_system=None, force_terminal=False), out


def test_full_game_with_every_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    console, out = _console()
    script = Script(
        [
            "help", "rules forum", "rules nonsense", "log", "board", "", "banana", "999",
            "C:9", "K:VII", "undo", "save", "save " + str(tmp_path / "x" / "y.json"),
            "load missing.json", "load", "c:1",
        ]
    )  # fmt: skip
    game = TerminalGame(Session([HUMAN, "medium", "easy"], seed=4), console, script)
    game.run()
    text = out.getvalue()
    for expected in (
        "re-roll those dice",  # help
        "Forum. One die",  # rules forum
        "Rules of: temple",  # unknown topic
        "province:",  # log
        "Unknown input 'banana'",
        "No choice 999",
        "Not allowed:",
        "Cannot undo:",
        "Saved to alea-save.json",
        "Could not save:",
        "Could not load:",
        "Loaded alea-save.json",
        "Your roll:",
        "Player 1 (gray) (you)",
        "Re-roll: type R:",
        "Final scores",
        "Player 1 (gray): optimal arrangement",
        "winner",
    ):
        assert expected in text, expected
    assert (tmp_path / "alea-save.json").exists()
    assert "Traceback" not in text


def test_quit_and_closed_input() -> None:
    console, out = _console()
    TerminalGame(Session([HUMAN, "random"], seed=1), console, Script(["quit"])).run()
    assert "Goodbye" in out.getvalue()
    console, out = _console()
    TerminalGame(Session([HUMAN, "random"], seed=1), console, Script([], limit=0)).run()
    assert "Input closed" in out.getvalue()


def test_hotseat_hands_over_and_hides() -> None:
    console, out = _console()
    session = Session([HUMAN, HUMAN, "medium"], seed=8, names=["Aulus", "Berenice", "bot"])
    script = Script([])
    TerminalGame(session, console, script).run()
    text = out.getvalue()
    assert "Pass the keyboard to Berenice" in text and "Pass the keyboard to Aulus" in text
    segments = text.split("Pass the keyboard to ")[1:]
    assert len(segments) > 10
    for segment in segments[:-1]:
        who = segment.split(".", 1)[0]
        other = "Aulus" if who == "Berenice" else "Berenice"
        # Only the seat at the keyboard is "(you)"; the other's Senate cards are hidden.
        assert f"{who} (gray) (you)" in segment or f"{who} (brown) (you)" in segment
        players_table = segment.split("Player ", 1)[1].split("╰", 1)[0]
        rows = [
            line.strip(" │")
            for line in players_table.splitlines()
            if line.strip(" │").startswith(f"{other} (")
        ]
        assert rows, segment  # the other human's row in the players table
        for row in rows:
            assert "(you)" not in row
            assert "hidden" in row


def test_notation_is_case_insensitive() -> None:
    assert normalise("c:444") == "C:444"
    assert normalise("p:Blue3") == "P:blue3"
    assert normalise("k:vii") == "K:VII"
    assert normalise("k:xii-Red/Orange") == "K:XII-red/orange"
    assert normalise("help") == "help"


def test_pty_game_against_a_bot(tmp_path: Path) -> None:
    """A real pseudo-terminal: prompts, a bad input, then a whole game to the scores."""
    pytest.importorskip("pty", reason="pseudo-terminals are POSIX-only")
    from tests.play.pty_driver import PtyGame

    env = dict(os.environ, COLUMNS="120", LINES="40", NO_COLOR="1", TERM="xterm")
    with PtyGame(["--players", "2", "--bots", "random", "--seed", "12"], env, tmp_path) as game:
        game.expect("Player 1> ")
        game.send("hello")
        game.expect("Unknown input")
        game.send("rules castrum")
        game.expect("Castrum. Sets")
        turns = 0
        while not game.seen("Final scores"):
            game.send("1")
            game.expect_any(["Player 1> ", "Final scores"])
            turns += 1
            assert turns < 400
        game.wait_exit()
    assert game.returncode == 0
