"""Which engine build runs: compiled (mypyc) or pure Python, and never a stale compiled one.

CI builds the compiled engine and sets ``ALEA_REQUIRE_COMPILED=1``, so there the
compiled modules must be the ones in use; it then runs the engine suite again with
``ALEA_PURE_PYTHON=1`` (.ci/run), where the pure-Python modules must be.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import warnings
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import alea.bots
import alea.bots.greedy as greedy_module
import alea.iacta as iacta
from alea.iacta import _compiled
from alea.iacta import state as state_module

ENGINE_DIR = Path(iacta.__file__).parent
ENGINE_MODULES = {p.stem for p in ENGINE_DIR.glob("*.py")} - {"__init__", "_compiled"}


def _forced_pure() -> bool:
    return os.environ.get("ALEA_PURE_PYTHON", "") not in ("", "0")


def test_compiled_engine_in_use_where_required() -> None:
    """Where the compiled engine must exist (CI sets ALEA_REQUIRE_COMPILED=1), it runs."""
    if os.environ.get("ALEA_REQUIRE_COMPILED") != "1" or _forced_pure():
        pytest.skip("ALEA_REQUIRE_COMPILED is not set (or pure Python is forced)")
    choice = _compiled.CHOICES["alea.iacta"]
    assert iacta.COMPILED, choice.reason
    assert state_module.__file__ is not None
    assert state_module.__file__.endswith(EXTENSION_SUFFIXES[0])
    # Every engine module but __init__ is compiled: none was left out of the build.
    assert _compiled._compiled_twins(ENGINE_DIR) == ENGINE_MODULES


def test_pure_python_when_forced() -> None:
    if not _forced_pure():
        pytest.skip("ALEA_PURE_PYTHON is not set")
    assert not iacta.COMPILED
    assert state_module.__file__ is not None
    assert state_module.__file__.endswith(".py")


def test_the_environment_variable_selects_pure_python_at_import() -> None:
    code = (
        "import alea.iacta as i, alea.iacta.state as s, alea.iacta.scoring as c; "
        "print(i.COMPILED, s.__file__.endswith('.py'), c.__file__.endswith('.py'))"
    )
    env = {**os.environ, "ALEA_PURE_PYTHON": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["False", "True", "True"]


def test_compiled_modules_match_the_sources_when_in_use() -> None:
    if not iacta.COMPILED:
        pytest.skip("the pure-Python engine is in use")
    built = json.loads((ENGINE_DIR / _compiled.MANIFEST).read_text())
    for name in ENGINE_MODULES:
        source = (ENGINE_DIR / f"{name}.py").read_bytes()
        assert built[name] == hashlib.sha256(source).hexdigest(), name


@pytest.fixture
def fake_package(tmp_path: Path) -> Path:
    """A package directory with one module and a stand-in for its compiled twin."""
    (tmp_path / "m.py").write_text("WHERE = 'source'\n")
    (tmp_path / ("m" + EXTENSION_SUFFIXES[0])).write_bytes(b"not a real extension")
    return tmp_path


def _manifest(directory: Path, text: str) -> None:
    digest = hashlib.sha256(text.encode()).hexdigest()
    (directory / _compiled.MANIFEST).write_text(json.dumps({"m": digest}))


def _choose(directory: Path) -> _compiled.Choice:
    before = list(sys.meta_path)
    try:
        return _compiled.choose("alea_fake_pkg", str(directory))
    finally:
        sys.meta_path[:] = before
        _compiled.CHOICES.pop("alea_fake_pkg", None)


def test_a_compiled_twin_built_from_the_current_source_is_chosen(
    fake_package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ALEA_PURE_PYTHON", raising=False)
    _manifest(fake_package, "WHERE = 'source'\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _choose(fake_package).compiled


def test_a_stale_compiled_twin_is_never_used(
    fake_package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ALEA_PURE_PYTHON", raising=False)
    _manifest(fake_package, "WHERE = 'an older source'\n")
    with pytest.warns(RuntimeWarning, match="m.py has changed since it was compiled"):
        choice = _choose(fake_package)
    assert not choice.compiled
    (fake_package / _compiled.MANIFEST).unlink()
    with pytest.warns(RuntimeWarning, match="missing"):
        assert not _choose(fake_package).compiled


def test_the_source_finder_loads_the_py_file(fake_package: Path) -> None:
    finder = _compiled._SourceFinder("alea_fake_pkg", fake_package, frozenset({"m"}))
    spec = finder.find_spec("alea_fake_pkg.m", None)
    assert spec is not None and spec.origin == str(fake_package / "m.py")
    assert finder.find_spec("alea_fake_pkg.other", None) is None
    assert finder.find_spec("elsewhere.m", None) is None


def test_no_compiled_twins_means_pure_python_without_a_warning(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        choice = _choose(tmp_path)
    assert not choice.compiled and "not compiled" in choice.reason


# ------------------------------------------------- the bots' compiled hot paths

BOTS_DIR = Path(alea.bots.__file__).parent
#: The bot modules compiled with the engine (setup.py's BOT_SOURCES).
BOT_MODULES = {"greedy", "playouts", "table", "values"}


def test_compiled_bots_in_use_where_required() -> None:
    """With the compiled engine in use (CI), the bots' hot paths run compiled too."""
    if os.environ.get("ALEA_REQUIRE_COMPILED") != "1" or _forced_pure():
        pytest.skip("ALEA_REQUIRE_COMPILED is not set (or pure Python is forced)")
    assert alea.bots.COMPILED, _compiled.CHOICES["alea.bots"].reason
    assert greedy_module.__file__ is not None
    assert greedy_module.__file__.endswith(EXTENSION_SUFFIXES[0])
    assert _compiled._compiled_twins(BOTS_DIR) == BOT_MODULES


def test_the_bots_follow_the_engine() -> None:
    """Compiled bots call the compiled engine natively: never one without the other."""
    if alea.bots.COMPILED:
        assert iacta.COMPILED
    if _forced_pure():
        assert not alea.bots.COMPILED
        assert greedy_module.__file__ is not None and greedy_module.__file__.endswith(".py")


def test_compiled_bots_match_their_sources_when_in_use() -> None:
    if not alea.bots.COMPILED:
        pytest.skip("the pure-Python bots are in use")
    built = json.loads((BOTS_DIR / _compiled.MANIFEST).read_text())
    for name in BOT_MODULES:
        source = (BOTS_DIR / f"{name}.py").read_bytes()
        assert built[name] == hashlib.sha256(source).hexdigest(), name


def test_a_package_that_requires_a_pure_python_one_stays_pure(
    fake_package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ALEA_PURE_PYTHON", raising=False)
    _manifest(fake_package, "WHERE = 'source'\n")
    before = list(sys.meta_path)
    try:
        _compiled.CHOICES["alea_fake_base"] = _compiled.Choice("alea_fake_base", False, "test")
        choice = _compiled.choose("alea_fake_pkg", str(fake_package), requires="alea_fake_base")
        assert not choice.compiled and "alea_fake_base" in choice.reason
        _compiled.CHOICES["alea_fake_base"] = _compiled.Choice("alea_fake_base", True, "test")
        again = _compiled.choose("alea_fake_pkg", str(fake_package), requires="alea_fake_base")
        assert again.compiled
    finally:
        sys.meta_path[:] = before
        _compiled.CHOICES.pop("alea_fake_pkg", None)
        _compiled.CHOICES.pop("alea_fake_base", None)
