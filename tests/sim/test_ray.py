"""The Ray backend gives the same results as multiprocessing (on a local Ray instance)."""

from __future__ import annotations

import pytest

from alea.sim import Tournament, run

ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'alea[sim]')")


def test_ray_matches_multiprocessing() -> None:
    t = Tournament(("greedy", "random", "easy"), games=6, seed=11)
    expected = run(t, backend="serial")
    got = run(t, backend="ray", workers=2)
    assert got == expected
    assert not ray.is_initialized()
