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


@dataclass
class Service:
    """N processes of one service: one database, one Redis prefix."""

    db: Database
    redis: str
    prefix: str
    data_dir: Path
    extra: tuple[str, ...]
    processes: list[ServerProcess] = field(default_factory=list)

    def add(self) -> ServerProcess:
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
        ).start()
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
def service(tmp_path: Path, count: int, *extra: str) -> Iterator[Service]:
    """``count`` processes on a fresh PostgreSQL schema and a fresh Redis prefix."""
    url = redis_url()
    with database("postgresql", tmp_path) as db:
        found = Service(db, url, f"alea-t-{secrets.token_hex(4)}", tmp_path, extra)
        try:
            for _ in range(count):
                found.add()
            yield found
        finally:
            found.stop()


NGINX_CONF = """
worker_processes 1;
daemon off;
{user}
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      close;
    }}
    upstream alea {{
{servers}
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://alea;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_read_timeout 3600s;
            proxy_connect_timeout 2s;
            proxy_next_upstream error timeout http_502 http_503;
        }}
    }}
}}
"""


class Nginx:
    """nginx in the foreground as the current user, its config, pid and logs in a temp dir."""

    def __init__(self, tmp: Path, upstreams: list[str]) -> None:
        self.binary = nginx_path()
        self.tmp = tmp
        tmp.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        servers = "\n".join(
            f"        server {u.removeprefix('http://')} max_fails=0;" for u in upstreams
        )
        # As root nginx would hand its workers to "nobody", who may not write the temp dir.
        user = "user root;" if os.geteuid() == 0 else ""
        self.conf = tmp / "nginx.conf"
        self.conf.write_text(NGINX_CONF.format(user=user, tmp=tmp, servers=servers, port=self.port))
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
