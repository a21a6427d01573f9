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
    """RULES are pure: alea.iacta and alea.romano import nothing outside the stdlib."""
    code = (
        "import sys, alea.iacta, alea.iacta.scoring, alea.iacta.determinize, alea.romano;"
        "names = {m.split('.')[0] for m in sys.modules};"
        "std = set(sys.stdlib_module_names) | {'alea', 'builtins', 'sys'};"
        "print(sorted(n for n in names if n not in std and not n.startswith('_')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]", out.stdout
