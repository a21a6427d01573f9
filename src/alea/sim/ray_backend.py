"""The Ray backend: the same tournament spread over a Ray cluster.

Each task plays a chunk of games with :func:`alea.sim.runner.play_games`,
exactly as a multiprocessing worker would, so the results are identical for
the same tournament (every game's randomness comes from the tournament seed
and the game index, never from the worker). ``address`` is a cluster to join
(``"ray://host:10001"`` or ``"auto"``); without one a local Ray instance is
started with ``workers`` CPUs and shut down afterwards.
"""

from __future__ import annotations

import os
from typing import Any

from alea.sim.runner import GameResult, Progress, Tournament, _chunk_size, chunks, play_games


def run_ray(
    tournament: Tournament,
    address: str | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
) -> list[GameResult]:
    """Play ``tournament`` on Ray; results in game order."""
    try:
        import ray
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise RuntimeError("the Ray backend needs ray: pip install 'alea[sim]'") from err

    started_here = not ray.is_initialized()
    if started_here:
        options: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "configure_logging": False,
        }
        if address:
            ray.init(address=address, **options)
        else:
            ray.init(num_cpus=workers or os.cpu_count() or 1, **options)
    try:
        remote = ray.remote(num_cpus=1)(play_games)
        cpus = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]
        size = _chunk_size(tournament.games, cpus)
        pending = [remote.remote(tournament, chunk) for chunk in chunks(tournament.games, size)]
        results: list[GameResult] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                results.extend(ray.get(ref))
            if progress is not None:
                progress(len(results), tournament.games)
        results.sort(key=lambda r: r.index)
        return results
    finally:
        if started_here:
            ray.shutdown()
