"""How the engine's classes compile: the one switch that keeps a class plain Python.

mypyc (docs/engine.md) compiles the engine's classes to native types: fixed
attributes, typed and checked on assignment. A few classes must stay ordinary
Python classes in the compiled build too: a native type cannot subclass
``str`` (:class:`~alea.iacta.notation.Action`, :class:`~alea.iacta.notation.Outcome`),
and a native dataclass checks its fields' types before ``__post_init__`` could
convert them (:class:`~alea.iacta.scoring.Holdings` accepts any iterable).
"""

from __future__ import annotations

from typing import TypeVar

_C = TypeVar("_C", bound=type)


def python_class(cls: _C) -> _C:
    """Return ``cls`` unchanged: as a decorator, it keeps the class plain Python under mypyc.

    mypyc compiles a class natively only when all its decorators are ones it
    knows (``dataclass``, ``final`` ...); any other decorator makes it build an
    ordinary class. This identity function is such a decorator, and in the
    pure-Python build it does nothing at all.
    """
    return cls
