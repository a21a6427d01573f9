"""Outages a test can cause without touching the machine's services.

The machine's PostgreSQL and Redis are shared (with other test runs, other
work), so a test must never stop them. Two stand-ins:

* :class:`TcpProxy`: a TCP relay between the server and a real service. ``cut()``
  closes every relayed connection and the listening socket, so the server sees
  exactly what a stopped database shows it (connections reset, new ones refused);
  ``restore()`` listens again on the same port. PostgreSQL's outage is simulated
  this way, at the connection level, since a real restart of the shared one
  would break everyone else's connections.
* :class:`PrivateRedis`: a ``redis-server`` of the test's own on a free port
  (no persistence), which the test can really stop (``SHUTDOWN NOSAVE``) and
  start again with the same configuration.
"""

from __future__ import annotations

import contextlib
import random
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest


def fixed_port() -> int:
    """A free port below the kernel's ephemeral range, for a service restarted on it: while
    it is down, a port of that range could become the local end of any outgoing connection
    on the machine, and the service could not listen on it again."""
    low = 32768
    with contextlib.suppress(OSError, ValueError):
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    for _ in range(200):
        port = random.randrange(max(1024, low - 12000), low)
        with socket.socket() as sock, contextlib.suppress(OSError):
            sock.bind(("127.0.0.1", port))
            return port
    raise RuntimeError("no free port below the ephemeral range")


class TcpProxy:
    """Relay ``127.0.0.1:port`` to ``target``; cut and restore it at will (threads)."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = fixed_port()  # restored on the same port
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self._listener: socket.socket | None = None
        self._thread: threading.Thread | None = None
        #: Connections relayed so far (a restored proxy must see new ones).
        self.accepted = 0

    def __enter__(self) -> TcpProxy:
        self.restore()
        return self

    def __exit__(self, *exc: object) -> None:
        self.cut()

    def restore(self) -> None:
        """Listen (again) on the same port and relay every new connection."""
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(128)
        self._listener = listener
        self._thread = threading.Thread(target=self._accept, args=(listener,), daemon=True)
        self._thread.start()

    def cut(self) -> None:
        """Stop listening and reset every relayed connection (as a stopped database)."""
        listener, self._listener = self._listener, None
        if listener is not None:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        with self._lock:
            doomed, self._sockets = self._sockets, set()
        for sock in doomed:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                upstream = socket.create_connection(self.target, timeout=5)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            with self._lock:
                if self._listener is not listener:  # cut meanwhile
                    client.close()
                    upstream.close()
                    return
                self._sockets.update((client, upstream))
                self.accepted += 1
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)


class PrivateRedis:
    """A ``redis-server`` of one test's own, on a free port, that the test may restart."""

    def __init__(self, tmp: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("a Redis restart needs redis-server (apt-get install redis-server)")
        self.binary = binary
        self.port = fixed_port()
        self.dir = tmp
        tmp.mkdir(parents=True, exist_ok=True)
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> PrivateRedis:
        # The same configuration every time: no snapshots, no log, loopback only.
        self.proc = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.time() + 10
        while time.time() < deadline:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock,
            ):
                sock.sendall(b"PING\r\n")
                if sock.recv(16).startswith(b"+PONG"):
                    return self
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        """``SHUTDOWN NOSAVE``: Redis goes away with everything it held."""
        if self.proc is None or self.proc.poll() is not None:
            return
        with (
            contextlib.suppress(OSError),
            socket.create_connection(("127.0.0.1", self.port), timeout=2) as sock,
        ):
            sock.sendall(b"SHUTDOWN NOSAVE\r\n")
            sock.recv(16)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def __enter__(self) -> PrivateRedis:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
