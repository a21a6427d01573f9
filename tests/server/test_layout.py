"""The shape of the server package: modules that stand alone, arrows that point one way.

Each module of :mod:`alea.server` does one job (docs/architecture-server.md).
These tests keep it that way: every module imports on its own in a fresh
interpreter, the imports between the package's modules (read from the source
with :mod:`ast`, ``TYPE_CHECKING`` imports included) form no cycle, only the
adapter :mod:`alea.server.rules` imports a rules engine, and no module grows
past the size a reader can hold in mind.
"""

from __future__ import annotations

import ast
import graphlib
import subprocess
import sys
from pathlib import Path

import pytest

import alea.server

PACKAGE = Path(alea.server.__file__).resolve().parent
ROOT = Path(__file__).resolve().parents[2]
#: The one module that may know the engines by name (see its docstring).
ADAPTER = "alea.server.rules"
ENGINES = ("alea.iacta", "alea.romano")
MAX_LINES = 600


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (the Alembic scripts excepted)."""
    found: dict[str, Path] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[0] == "migrations":
            continue  # run by Alembic, not imported by the server
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(("alea", "server", *parts))] = path
    return found


def imports(path: Path, name: str) -> set[str]:
    """The absolute names ``path`` (module ``name``) imports.

    ``from package import name`` counts as importing the submodule ``package.name``
    when there is one, else as importing ``package`` itself.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if _is_module(full) else base)
    return found


def _is_module(name: str) -> bool:
    parts = name.split(".")
    if parts[:2] != ["alea", "server"]:
        return False
    path = PACKAGE.joinpath(*parts[2:])
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports."""
    known = modules()
    return {
        name: {other for other in imports(path, name) if other in known and other != name}
        for name, path in known.items()
    }


def test_every_module_imports_on_its_own() -> None:
    """``python -c "import alea.server.<module>"`` works for each module, in a fresh process."""
    procs = {
        name: subprocess.Popen(
            [sys.executable, "-c", f"import {name}"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for name in modules()
    }
    failed = {}
    for name, proc in procs.items():
        output, _ = proc.communicate(timeout=120)
        if proc.returncode != 0:
            failed[name] = output[-2000:]
    assert not failed, failed


def test_the_imports_between_modules_have_no_cycle() -> None:
    arrows = graph()
    assert "alea.server.core" in arrows["alea.server.seats"]  # the graph is really read
    try:
        order = list(graphlib.TopologicalSorter(arrows).static_order())
    except graphlib.CycleError as err:
        pytest.fail(f"import cycle between server modules: {err.args[1]}")
    assert set(order) == set(arrows)


def test_only_the_adapter_knows_the_engines() -> None:
    """Every engine-specific fact of the server lives in :mod:`alea.server.rules`."""
    offenders = {
        name: sorted(i for i in imports(path, name) if i.startswith(ENGINES))
        for name, path in modules().items()
        if name != ADAPTER
    }
    assert {name: found for name, found in offenders.items() if found} == {}
    assert any(i.startswith(ENGINES) for i in imports(modules()[ADAPTER], ADAPTER))


@pytest.mark.parametrize("name", sorted(modules()))
def test_no_module_is_too_long_to_read(name: str) -> None:
    lines = modules()[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{name} has {lines} lines; split it along a seam"
