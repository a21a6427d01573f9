"""A PostgreSQL cluster and a Redis of the benchmark's own, which it may stop and restart.

The machine's PostgreSQL and Redis are shared (tests, other benchmarks, other
people's work): restarting them mid-run would break every other connection.
The fault campaign therefore runs the same binaries as private instances on
free loopback ports, in temporary directories removed afterwards, and restarts
*those* for real: ``pg_ctl stop -m fast`` then ``pg_ctl start`` (as the
``postgres`` user when run as root, since PostgreSQL refuses to run as root),
and ``SHUTDOWN NOSAVE`` then ``redis-server`` again with the same arguments.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def fixed_port() -> int:
    """A free port *below* the kernel's ephemeral range, for a process restarted on it.

    While a killed process is down, its port is free, and a port from the ephemeral
    range may meanwhile be taken as the local end of any outgoing connection (hundreds
    reconnect at that moment): the restarted process then cannot listen on it. No
    outgoing connection is given a port below the range.
    """
    low = 32768
    with contextlib.suppress(OSError, ValueError):
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    rng = random.Random()
    for _ in range(200):
        port = rng.randrange(max(1024, low - 12000), low)
        with socket.socket() as sock, contextlib.suppress(OSError):
            sock.bind(("127.0.0.1", port))
            return port
    raise SystemExit("no free port below the ephemeral range")


def _answers(port: int, probe: bytes, expect: bytes) -> bool:
    with (
        contextlib.suppress(OSError),
        socket.create_connection(("127.0.0.1", port), timeout=1) as sock,
    ):
        sock.sendall(probe)
        return sock.recv(64).startswith(expect)
    return False


class PrivateRedis:
    """``redis-server`` on a free port below the ephemeral range (:func:`fixed_port`: it is
    restarted on it), no persistence: a restart loses everything. The fault campaign and
    the server's fault tests (``tests/server/outage_support.py``) both use it.

    ``directory``: its working directory, made if missing and left in place; by default a
    temporary one, removed by :meth:`close`.
    """

    def __init__(self, directory: Path | None = None) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise SystemExit("a private Redis needs redis-server (apt-get install redis-server)")
        self.binary = binary
        self.port = fixed_port()
        self._own_dir = directory is None
        self.dir = Path(tempfile.mkdtemp(prefix="alea-redis-")) if directory is None else directory
        self.dir.mkdir(parents=True, exist_ok=True)
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> PrivateRedis:
        """Start it (again), with the same configuration every time: no snapshots, no log,
        loopback only; return once it answers ``PING``."""
        self.proc = subprocess.Popen(
            [
                *(self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""),
                *("--appendonly", "no", "--dir", str(self.dir)),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.time() + 10
        while not _answers(self.port, b"PING\r\n", b"+PONG"):
            if time.time() > deadline:
                raise SystemExit("redis-server did not start")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        """``SHUTDOWN NOSAVE``: Redis goes away with everything it held."""
        if self.proc is None or self.proc.poll() is not None:
            return
        _answers(self.port, b"SHUTDOWN NOSAVE\r\n", b"")
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def close(self) -> None:
        """Stop it and remove its directory if it is a temporary one of its own."""
        self.stop()
        if self._own_dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> PrivateRedis:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


class PrivatePostgres:
    """A fresh PostgreSQL cluster (``initdb``) on a free port, trust authentication."""

    def __init__(self) -> None:
        found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
        if not found:
            raise SystemExit("the fault campaign needs PostgreSQL's server binaries (postgresql)")
        self.bin = found[-1].parent
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="alea-pg-"))
        self.data = self.dir / "data"
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL never runs as root
            import pwd

            owner = pwd.getpwnam("postgres")
            os.chown(self.dir, owner.pw_uid, owner.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run(
            [*self.as_user, str(self.bin / tool), *args],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir}"
        log = str(self.dir / "log")
        self._run("pg_ctl", "-D", str(self.data), "-l", log, "-w", "-o", options, "start")

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
