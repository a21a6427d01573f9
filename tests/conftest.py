"""Settings of the whole test run: how many test processes, and the tests that run alone.

The suite runs in several processes (pytest-xdist, ``-n auto`` in pyproject.toml): most
tests wait on servers, sockets and timers rather than burn CPU, so a two-core machine
runs two test processes per core. A test that measures time (a latency bound, a
timing comparison) is marked ``serial``: it runs while no other test runs, so its
numbers are those of a machine running it alone, as in a one-process run.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

#: The directory of the run's two lock files, made by the process that starts the test
#: processes and inherited by them through the environment (absent: one process, no locks).
LOCKS_ENV = "ALEA_TEST_SERIAL_LOCKS"
#: Test processes for ``-n auto``: two per core (the tests mostly wait), at most this many
#: (each holds database connections, maybe a browser and a few servers).
MOST_WORKERS = 8

# A test process started by pytest-xdist inherits COLUMNS=80 and LINES=24, which GNU
# readline (imported by pytest) writes into the C environment of the pytest process that
# starts it; a one-process run has them only if the shell exported them. A rich console
# created at import would then keep 80 columns whatever a test sets (``COLUMNS`` in
# CliRunner's env). Every test process sees the environment a one-process run gives it.
if os.environ.get("PYTEST_XDIST_WORKER"):
    for name in ("COLUMNS", "LINES"):
        os.environ.pop(name, None)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two test processes per core, at least two and at most MOST_WORKERS."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(2, min(MOST_WORKERS, 2 * (cores or 1)))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "serial: the test measures time; it runs while no other test of the run does",
    )
    starts_workers = config.getoption("dist", "no") != "no" and not hasattr(config, "workerinput")
    if starts_workers:
        os.environ[LOCKS_ENV] = tempfile.mkdtemp(prefix="alea-serial-")
        config.stash[_made_key] = os.environ[LOCKS_ENV]


def pytest_unconfigure(config: pytest.Config) -> None:
    made = config.stash.get(_made_key, None)
    if made is not None:
        shutil.rmtree(made, ignore_errors=True)
        os.environ.pop(LOCKS_ENV, None)


_made_key = pytest.StashKey[str]()
_files: dict[str, IO[Any]] = {}


def _lock(name: str) -> int:
    """This process's descriptor of the run's lock file ``name`` (opened once)."""
    if name not in _files:
        _files[name] = open(Path(os.environ[LOCKS_ENV]) / name, "a")  # noqa: SIM115
    return _files[name].fileno()


def _serial(item: pytest.Item | None) -> bool:
    return item is not None and item.get_closest_marker("serial") is not None


@contextlib.contextmanager
def _turn(serial: bool, keep: bool) -> Iterator[None]:
    """Hold the run's readers-writer lock for one test: shared for an ordinary test,
    exclusive for a ``serial`` one (kept for the next test too when ``keep``: serial
    tests one after another wait only once for the tests under way elsewhere).

    Two flock(2) files: ``gate`` is held exclusively by a serial test from the moment it
    asks until it ends (so no new test starts meanwhile, and a serial test is not starved
    by the others coming and going) and briefly by every other test on its way in;
    ``tests`` is shared by the tests that run, and exclusive for a serial one once the
    tests before it have ended. Locking what this process holds already changes nothing.
    """
    if not os.environ.get(LOCKS_ENV):
        yield
        return
    gate, tests = _lock("gate"), _lock("tests")
    fcntl.flock(gate, fcntl.LOCK_EX)
    try:
        fcntl.flock(tests, fcntl.LOCK_EX if serial else fcntl.LOCK_SH)
    finally:
        if not serial:
            fcntl.flock(gate, fcntl.LOCK_UN)
    try:
        yield
    finally:
        if not keep:
            fcntl.flock(tests, fcntl.LOCK_UN)
            if serial:
                fcntl.flock(gate, fcntl.LOCK_UN)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In the test processes of a run in several, the ``serial`` tests come first (in
    their usual order), so one process is handed them together and runs them one after
    another, early, while the others wait once (:func:`_turn`); every process of the run
    reorders alike, as pytest-xdist requires. A run in one process keeps the usual order.
    """
    if not hasattr(config, "workerinput"):
        return
    items.sort(key=lambda item: not _serial(item))  # stable: each part keeps its order


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Run each test (its set-up, call and tear-down) holding its turn (:func:`_turn`)."""
    serial = _serial(item)
    with _turn(serial, keep=serial and _serial(nextitem)):
        yield
