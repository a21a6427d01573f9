"""Several ``alea serve`` processes on one PostgreSQL database and one Redis, and nginx in
front of them: the deployment of docs/deploy.md, started and torn down by a test.

Everything needed is a real service: PostgreSQL (``ALEA_TEST_DATABASE_URL``), Redis
(``ALEA_TEST_REDIS_URL``) and Debian's nginx. A test skips, saying which is missing,
when one is absent. Each test has its own PostgreSQL schema and its own Redis key
prefix, so tests never see each other's games or leases.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from alea.deploy import nginx_conf
from alea.server.clock import TEST_CLOCK_ENV
from tests.server.support import Database, ServerProcess, database

REDIS_ENV = "ALEA_TEST_REDIS_URL"
NGINX = "/usr/sbin/nginx"


def redis_url() -> str:
    """The test Redis (skips the test without one)."""
    url = os.environ.get(REDIS_ENV)
    if not url:
        pytest.skip(f"cluster tests need Redis: set {REDIS_ENV} (e.g. redis://127.0.0.1:6379/0)")
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except Exception as err:
        pytest.skip(f"cluster tests need Redis at {REDIS_ENV}={url}: {err}")
    return url


def nginx_path() -> str:
    """Debian's nginx (skips the test without it)."""
    found = shutil.which("nginx") or (NGINX if Path(NGINX).exists() else None)
    if found is None:
        pytest.skip("load-balancer tests need nginx (apt-get install nginx)")
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class SharedClock:
    """One clock for every process of a service that a test moves forward: the wall clock
    plus an offset in a file the processes read (``alea serve``'s test-only
    ``ALEA_TEST_CLOCK_FILE``, :class:`alea.server.clock.OffsetFileClock`).

    Time still flows for the processes; :meth:`advance` makes a one-minute limit run out
    in seconds instead of a minute, with every process seeing the same jump.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0.0
        self._write()

    def now(self) -> float:
        """The processes' time now (epoch seconds)."""
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        """Move every process's clock ``seconds`` forward."""
        self.offset += seconds
        self._write()

    def env(self) -> dict[str, str]:
        """The environment a process needs to read this clock."""
        return {TEST_CLOCK_ENV: str(self.path)}

    def _write(self) -> None:
        partial = self.path.with_suffix(".partial")
        partial.write_text(repr(self.offset))
        partial.replace(self.path)  # atomic: a process never reads half a number


@dataclass
class Service:
    """N processes of one service: one database, one Redis prefix (and maybe one clock)."""

    db: Database
    redis: str
    prefix: str
    data_dir: Path
    extra: tuple[str, ...]
    processes: list[ServerProcess] = field(default_factory=list)
    clock: SharedClock | None = None

    def add(self) -> ServerProcess:
        """One more process, started and serving."""
        return self.spawn().ready()

    def spawn(self) -> ServerProcess:
        """One more process, started but not waited for (:meth:`ServerProcess.ready`)."""
        proc = ServerProcess(
            self.db.url,
            self.data_dir,
            "--redis-url",
            self.redis,
            "--redis-prefix",
            self.prefix,
            "--create-rate",
            "",
            "--bot-processes",
            "0",
            *self.extra,
            env=self.clock.env() if self.clock is not None else None,
        ).spawn()
        self.processes.append(proc)
        return proc

    def alive(self) -> list[ServerProcess]:
        return [p for p in self.processes if p.proc is not None and p.proc.poll() is None]

    def health(self, proc: ServerProcess) -> dict[str, Any]:
        found: dict[str, Any] = httpx.get(f"{proc.base}/api/health", timeout=10).json()
        return found

    def stop(self) -> None:
        for proc in self.processes:
            with contextlib.suppress(Exception):
                proc.stop()
        for number, proc in enumerate(self.processes):
            text = "".join(proc.output)
            if "Traceback" in text or "ERROR" in text:  # shown with a failing test's output
                print(f"--- process {number} said:\n{text[-6000:]}")
        with contextlib.suppress(Exception):
            import redis

            client = redis.Redis.from_url(self.redis)
            keys = list(client.scan_iter(f"{self.prefix}:*"))
            if keys:
                client.delete(*keys)


@contextlib.contextmanager
def service(tmp_path: Path, count: int, *extra: str, clock: bool = False) -> Iterator[Service]:
    """``count`` processes on a fresh PostgreSQL schema and a fresh Redis prefix; with
    ``clock``, on one :class:`SharedClock` the test moves (``Service.clock``).

    The first process migrates the new schema alone (two migrating one schema at once
    would collide); the others then start side by side, as a deployment's would.
    """
    url = redis_url()
    with database("postgresql", tmp_path) as db:
        shared = SharedClock(tmp_path / "clock-offset") if clock else None
        found = Service(db, url, f"alea-t-{secrets.token_hex(4)}", tmp_path, extra, clock=shared)
        try:
            if count:
                found.add()
            for proc in [found.spawn() for _ in range(count - 1)]:
                proc.ready()
            yield found
        finally:
            found.stop()


class Nginx:
    """nginx in the foreground as the current user, its config (:mod:`alea.deploy`, as
    docs/deploy.md shows it), pid and logs in a temp dir."""

    def __init__(self, tmp: Path, upstreams: list[str]) -> None:
        self.binary = nginx_path()
        self.tmp = tmp
        tmp.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        # As root nginx would hand its workers to "nobody", who may not write the temp dir.
        self.conf = tmp / "nginx.conf"
        self.conf.write_text(
            nginx_conf(
                upstreams,
                port=self.port,
                prefix=str(tmp),
                worker_connections=1024,
                as_root=os.geteuid() == 0,
            )
        )
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Nginx:
        self.proc = subprocess.Popen(
            [
                self.binary,
                "-p",
                str(self.tmp),
                "-c",
                str(self.conf),
                "-e",
                str(self.tmp / "error.log"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.time() + 20
        while time.time() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"nginx did not start: {err}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base}/api/health", timeout=2).status_code == 200:
                    return self
            time.sleep(0.05)
        raise RuntimeError("nginx did not answer")

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


def wait_for(predicate: Any, timeout: float, step: float = 0.05) -> bool:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return bool(predicate())
