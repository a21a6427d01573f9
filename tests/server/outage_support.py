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
  start again with the same configuration (``bench/private_services.py``'s, which
  the fault campaign uses too).
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import threading
from pathlib import Path

import pytest
from bench import private_services
from bench.private_services import fixed_port


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


class PrivateRedis(private_services.PrivateRedis):
    """A ``redis-server`` of one test's own in ``tmp``, on a free port, that the test may
    restart (the benchmarks' :class:`bench.private_services.PrivateRedis`); the test is
    skipped where redis-server is not installed."""

    def __init__(self, tmp: Path) -> None:
        if shutil.which("redis-server") is None:
            pytest.skip("a Redis restart needs redis-server (apt-get install redis-server)")
        super().__init__(tmp)
