"""Every example script runs to the end (with small budgets, to keep CI fast)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _run(script: str, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_pettingzoo_random() -> None:
    pytest.importorskip("pettingzoo", reason="needs: pip install 'alea[rl]'")
    out = _run("pettingzoo_random.py", "--players", "3", "--seed", "2")
    assert "decisions" in out and "player_2: reward" in out


def test_gymnasium_random() -> None:
    pytest.importorskip("gymnasium", reason="needs: pip install 'alea[rl]'")
    out = _run("gymnasium_random.py", "--players", "2", "--episodes", "1", "--opponents", "easy")
    assert "episode 0" in out


def test_openspiel_ismcts_against_hard() -> None:
    pytest.importorskip("pyspiel", reason="needs: pip install 'alea[rl]'")
    out = _run(
        "openspiel_ismcts.py", "--players", "2", "--simulations", "3", "--opponent", "hard:steps=20"
    )
    assert "IS-MCTS (seat 0) scored" in out
