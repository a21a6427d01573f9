"""The shape of the server package: modules that stand alone, arrows that point one way.

Each module of :mod:`alea.server` does one job (docs/architecture.md, "The
server"). These tests keep it that way: every module imports on its own in a
fresh interpreter, the imports between the package's modules (read from the
source with :mod:`ast`, ``TYPE_CHECKING`` imports included) form no cycle, no
module imports a rules engine or a game's bots (the server hosts games only
through :mod:`alea.game` and :func:`alea.bots.for_game`) nor names a game
(but for the one default of old databases), and no module grows past the size
a reader can hold in mind.
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
#: Every package of alea that knows a game's rules: the engines, and the bots' insides.
ENGINES = ("alea.iacta", "alea.romano", "alea.bots.")
#: The one place that names a game: the game of rows older than the ``game`` column.
DEFAULT_GAME_HOME = "alea.server.tables"
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


#: Run in one fresh interpreter: import the third-party libraries the server uses (no module
#: of alea), then fork one child per module named on the command line, which imports that
#: module alone and reports a traceback on failure. Each child starts with no alea module
#: imported, as a fresh interpreter would, without paying again for FastAPI, SQLAlchemy and
#: the rest: 68 full interpreters took most of a minute of CPU on CI.
FORKING_IMPORTER = """
import importlib, os, sys, traceback
for lib in ("fastapi", "starlette", "pydantic", "sqlalchemy", "alembic", "uvicorn", "httpx",
            "psycopg", "redis", "orjson", "openskill", "pwdlib", "limits", "email_validator",
            "typer", "rich", "websockets"):
    try:
        importlib.import_module(lib)
    except ImportError:
        pass
assert not any(m == "alea" or m.startswith("alea.") for m in sys.modules), "alea preloaded"
failed = 0
for name in sys.argv[1:]:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            importlib.import_module(name)
        except BaseException:
            os.write(write, traceback.format_exc()[-2000:].encode())
            os._exit(1)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        output = pipe.read().decode()
    _, status = os.waitpid(pid, 0)
    if status != 0:
        failed += 1
        print("FAILED " + name + "\\n" + output, flush=True)
sys.exit(1 if failed else 0)
"""


def test_every_module_imports_on_its_own() -> None:
    """``import alea.server.<module>`` works for each module in a process with no alea module.

    Each import runs in a child forked from one interpreter that has loaded only third-party
    libraries (:data:`FORKING_IMPORTER`), which is what a fresh interpreter would have after
    the module's own third-party imports.
    """
    names = sorted(modules())
    proc = subprocess.run(
        [sys.executable, "-c", FORKING_IMPORTER, *names],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-8000:] + proc.stderr[-2000:]
    assert "FAILED" not in proc.stdout, proc.stdout[-8000:]


def test_the_forking_importer_reports_a_module_that_fails_alone() -> None:
    """The check above can fail: a module that does not exist is reported, by name."""
    proc = subprocess.run(
        [sys.executable, "-c", FORKING_IMPORTER, "alea.server.core", "alea.server.no_such"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1
    assert "FAILED alea.server.no_such" in proc.stdout
    assert "FAILED alea.server.core" not in proc.stdout


def test_the_imports_between_modules_have_no_cycle() -> None:
    arrows = graph()
    assert "alea.server.core" in arrows["alea.server.seats"]  # the graph is really read
    try:
        order = list(graphlib.TopologicalSorter(arrows).static_order())
    except graphlib.CycleError as err:
        pytest.fail(f"import cycle between server modules: {err.args[1]}")
    assert set(order) == set(arrows)


def test_no_module_imports_an_engine() -> None:
    """The server talks to games only through :mod:`alea.game` (and gets bots from
    :mod:`alea.bots` itself): no module imports a rules engine or a game's bot module."""
    found = {name: imports(path, name) for name, path in modules().items()}
    offenders = {
        name: sorted(i for i in names if i.startswith(ENGINES)) for name, names in found.items()
    }
    assert {name: bad for name, bad in offenders.items() if bad} == {}
    assert "alea.game" in found["alea.server.core"]  # the imports are really read


def test_no_module_names_a_game() -> None:
    """No string in the server is a game's name (short or records'), except the one
    default of :data:`alea.server.tables.DEFAULT_GAME`."""
    import alea.game

    games = {n for info in alea.game.games() for n in (info.name, info.game)}
    named: dict[str, list[str]] = {}
    for name, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value in games:
                named.setdefault(name, []).append(str(node.value))
    assert named == {DEFAULT_GAME_HOME: ["iacta"]}


@pytest.mark.parametrize("name", sorted(modules()))
def test_no_module_is_too_long_to_read(name: str) -> None:
    lines = modules()[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{name} has {lines} lines; split it along a seam"
