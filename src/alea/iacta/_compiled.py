"""Choosing, at import time, between a package's compiled and pure-Python modules.

The rules engine (:mod:`alea.iacta`) may be compiled by mypyc from its own
source (``setup.py``), and with it the bots' hot paths (:mod:`alea.bots`):
each module ``m.py`` then has a compiled twin ``m.<abi>.so`` beside it,
which Python's import system would always prefer. That is only right while
the compiled modules were built from the sources now on disk, so the build
writes ``_compiled_from.json`` in each package (the SHA-256 of each source it
compiled there) and :func:`choose` checks it before the package's first
submodule is imported.

The compiled modules are used all together or not at all (they call each
other natively through one shared library). They are *not* used:

* when ``ALEA_PURE_PYTHON`` is set to anything but ``0`` (the way to run the
  pure-Python engine where a compiled one is installed, e.g. in CI);
* when a source has changed since the build (a warning says to rebuild with
  ``pip install -e . --no-deps``) or the manifest is missing;
* for a package that ``requires`` another (the compiled bots call the compiled
  engine natively), when that one runs pure Python.

In those cases an import finder placed first on :data:`sys.meta_path` loads
the ``.py`` source of every module that has a compiled twin.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.abc import MetaPathFinder
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from pathlib import Path
from types import ModuleType

MANIFEST = "_compiled_from.json"


@dataclass(frozen=True)
class Choice:
    """What :func:`choose` decided for a package, and why."""

    package: str
    compiled: bool
    reason: str


#: The choice made for each package that asked, by package name.
CHOICES: dict[str, Choice] = {}


def pure_python_forced() -> bool:
    """Whether ``ALEA_PURE_PYTHON`` asks for the pure-Python modules."""
    return os.environ.get("ALEA_PURE_PYTHON", "") not in ("", "0")


class _SourceFinder(MetaPathFinder):
    """Loads the ``.py`` source of the named modules, bypassing their compiled twins."""

    def __init__(self, package: str, directory: Path, names: frozenset[str]) -> None:
        self.package = package
        self.directory = directory
        self.names = names

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != self.package or name not in self.names:
            return None
        return importlib.util.spec_from_file_location(fullname, self.directory / f"{name}.py")


def _compiled_twins(directory: Path) -> frozenset[str]:
    """Names of the modules in ``directory`` that have a compiled twin of this interpreter."""
    suffix = EXTENSION_SUFFIXES[0]
    return frozenset(
        p.name[: -len(suffix)]
        for p in directory.glob("*" + suffix)
        if (directory / (p.name[: -len(suffix)] + ".py")).exists()
    )


def _stale(directory: Path, names: frozenset[str]) -> str:
    """Why the compiled twins of ``names`` do not match the sources ('' when they do)."""
    try:
        built = json.loads((directory / MANIFEST).read_text())
    except (OSError, ValueError):
        return f"{MANIFEST} is missing or unreadable"
    for name in sorted(names):
        source = (directory / f"{name}.py").read_bytes()
        if built.get(name) != hashlib.sha256(source).hexdigest():
            return f"{name}.py has changed since it was compiled"
    return ""


def choose(package: str, directory: str, requires: str | None = None) -> Choice:
    """Decide whether ``package`` (in ``directory``) runs its compiled modules, and arrange it.

    Called by the package's ``__init__`` before it imports any submodule. With
    ``requires`` (a package that chose already), the compiled modules run only
    if that package's do: they were compiled against it.
    """
    where = Path(directory)
    names = _compiled_twins(where)
    required = CHOICES.get(requires) if requires is not None else None
    if not names:
        choice = Choice(package, False, "not compiled (no compiled modules are installed)")
    elif pure_python_forced():
        choice = Choice(package, False, "ALEA_PURE_PYTHON is set")
    elif requires is not None and (required is None or not required.compiled):
        choice = Choice(package, False, f"{requires} runs its pure-Python modules")
    elif stale := _stale(where, names):
        choice = Choice(package, False, f"compiled modules are out of date: {stale}")
        warnings.warn(
            f"{package}: {choice.reason}; using the pure-Python modules "
            "(rebuild with: pip install -e . --no-deps)",
            RuntimeWarning,
            stacklevel=2,
        )
    else:
        choice = Choice(package, True, "compiled from the current sources")
    if names and not choice.compiled:
        sys.meta_path.insert(0, _SourceFinder(package, where, names))
    CHOICES[package] = choice
    return choice
