"""ruff and mypy as part of the test run, so the one test command checks everything."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_tool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_lint_and_format() -> None:
    lint = run_tool("ruff", "check", "src", "tests", "bench", "examples")
    assert lint.returncode == 0, lint.stdout + lint.stderr
    fmt = run_tool("ruff", "format", "--check", "src", "tests", "bench", "examples")
    assert fmt.returncode == 0, fmt.stdout + fmt.stderr


def test_mypy_strict() -> None:
    result = run_tool("mypy")
    assert result.returncode == 0, result.stdout + result.stderr


def test_engine_imports_only_the_standard_library() -> None:
    """RULES are pure: every module of alea.iacta and alea.romano, and the game contract
    alea.game, import nothing outside the standard library (nor alea's other layers)."""
    code = (
        "import importlib, pkgutil, sys, alea.game, alea.iacta, alea.romano;"
        "mods = [m.name for p in (alea.iacta, alea.romano)"
        " for m in pkgutil.walk_packages(p.__path__, p.__name__ + '.')];"
        "[importlib.import_module(m) for m in mods];"
        "names = {m.split('.')[0] for m in sys.modules};"
        "std = set(sys.stdlib_module_names) | {'alea', 'builtins', 'sys'};"
        "rules = ('alea.iacta', 'alea.romano');"
        "layers = [m for m in sys.modules if m.startswith('alea.') and m != 'alea.game'"
        " and not m.startswith(rules)];"
        "print(len(mods), sorted(n for n in names if n not in std and not n.startswith('_')),"
        " sorted(layers))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    count, rest = out.stdout.strip().split(" ", 1)
    assert int(count) >= 25, out.stdout  # every module was walked, not just the packages
    assert rest == "[] []", out.stdout
