"""Build hook: the optional compiled parts of alea (everything else is in ``pyproject.toml``).

Two optional builds, each falling back to the same pure-Python source:

* ``alea.envs._fast``: the observation and mask builders of the research
  environments, in Cython, compiled against numpy's headers;
* the rules engine ``alea.iacta`` (every module but ``__init__``), compiled
  from its own ``mypy --strict`` source by mypyc, together with the bots' hot
  paths (``alea.bots.greedy``, ``table`` and ``values``: the heuristic every
  IS-MCTS playout runs; ``playouts``: the playout loop itself). No rules logic
  exists twice: the compiled modules *are* the ``.py`` files. The build also
  writes ``_compiled_from.json`` in each of the two packages, the hash of each
  source it compiled there (taken before mypyc reads it), so that an import
  never runs compiled code built from other sources (see
  :mod:`alea.iacta._compiled`).

Where no C compiler (or no mypyc) is available, or compiling fails, the build
skips the part with a warning and the pure-Python modules are used. Set
``ALEA_PURE_PYTHON=1`` at build time to skip compiling the engine, or at import
time to run the pure-Python engine even where it was compiled.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from sysconfig import get_config_var
from typing import Any

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).parent
ENGINE_DIR = Path("src", "alea", "iacta")
#: The engine modules mypyc compiles: all of alea.iacta but the package's __init__ and
#: _compiled, which choose at import time between the compiled and the pure-Python modules.
ENGINE_SOURCES = sorted(
    p.as_posix() for p in ENGINE_DIR.glob("*.py") if p.name not in ("__init__.py", "_compiled.py")
)
#: The bots' hot paths, compiled with the engine (one group: they call it natively).
BOTS_DIR = Path("src", "alea", "bots")
BOT_SOURCES = [
    (BOTS_DIR / f"{name}.py").as_posix() for name in ("greedy", "playouts", "table", "values")
]
MANIFEST = "_compiled_from.json"


def _pure_python() -> bool:
    return os.environ.get("ALEA_PURE_PYTHON", "") not in ("", "0")


def _warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


def _engine_extensions() -> list[Extension]:
    """mypyc's extensions for the engine, or none (pure Python) if it cannot make them."""
    if _pure_python():
        _warn("ALEA_PURE_PYTHON is set: the engine is not compiled")
        return []
    try:
        from mypyc.build import mypycify

        return list(
            mypycify(
                [*ENGINE_SOURCES, *BOT_SOURCES], opt_level="3", group_name="alea.iacta._engine"
            )
        )
    except Exception as err:  # no mypyc, a type error, no compiler: the engine stays Python
        _warn(f"the engine is not compiled (pure Python is used): {err}")
        return []


class BuildExt(build_ext):
    """Build every optional extension; the engine's are all-or-nothing.

    The engine's modules call one another natively through one shared
    library, so a partial build would be unusable: if any engine extension
    fails, none is kept and the engine stays pure Python. An in-place
    (editable) build that does not compile the engine also removes compiled
    engine modules left in the source tree by an earlier build.
    """

    engine: frozenset[str] = frozenset()

    def run(self) -> None:
        self._engine_failed = False
        super().run()
        in_source = bool(self.inplace or getattr(self, "editable_mode", False))
        if self._engine_failed or not self.engine:
            if in_source:
                _remove_compiled_engine(ROOT / "src")
            _remove_compiled_engine(Path(self.build_lib))
            return
        for package, sources in ((ENGINE_DIR, ENGINE_SOURCES), (BOTS_DIR, BOT_SOURCES)):
            hashes = {Path(source).stem: SOURCE_HASHES[source] for source in sources}
            text = json.dumps(hashes, indent=1, sort_keys=True) + "\n"
            places = [Path(self.build_lib, *package.parts[1:])]
            if in_source:
                places.append(ROOT / package)
            for place in places:
                place.mkdir(parents=True, exist_ok=True)
                (place / MANIFEST).write_text(text)

    def build_extension(self, ext: Any) -> None:
        if ext.name not in self.engine:
            super().build_extension(ext)
            return
        if self._engine_failed:
            return
        try:
            super().build_extension(ext)
        except Exception as err:
            self._engine_failed = True
            _warn(f"the engine is not compiled (pure Python is used): {err}")


def _remove_compiled_engine(top: Path) -> None:
    """Delete compiled engine and bot modules and their manifests under ``top`` (src or build)."""
    suffix = str(get_config_var("EXT_SUFFIX"))
    for package in (top / "alea" / "iacta", top / "alea" / "bots"):
        for path in package.glob("*" + suffix):  # the modules and the shared _engine__mypyc
            path.unlink()
        (package / MANIFEST).unlink(missing_ok=True)


envs = cythonize(
    [
        Extension(
            "alea.envs._fast",
            ["src/alea/envs/_fast.pyx"],
            include_dirs=[numpy.get_include()],
            define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
            optional=True,
        )
    ],
    compiler_directives={"language_level": "3"},
)
for extension in envs:
    extension.optional = True  # cythonize may rebuild the Extension objects
#: The hash of each source mypyc compiles, taken *before* mypyc reads it: a source edited
#: while a (minutes-long) build runs must not get a manifest entry that matches code the
#: build never compiled, or the import guard would run stale compiled code.
SOURCE_HASHES = {
    source: hashlib.sha256((ROOT / source).read_bytes()).hexdigest()
    for source in (*ENGINE_SOURCES, *BOT_SOURCES)
}
engine = _engine_extensions()
for extension in engine:
    extension.optional = True  # a failure leaves the engine in Python (BuildExt)
BuildExt.engine = frozenset(e.name for e in engine)

setup(ext_modules=[*envs, *engine], cmdclass={"build_ext": BuildExt})
