"""``alea serve`` started while PostgreSQL is down waits for it instead of exiting
(issue 15): it says so at each attempt, does not listen meanwhile (connections are
refused, so a load balancer sends nobody to it), and serves as soon as the database
answers. Also a wrong database URL of another kind still fails at once.

PostgreSQL "started late" is the test's own TCP relay to the shared one, listening
only from the moment the test says (tests/server/outage_support.py): the server
sees what a database that is not up yet shows it, connections refused.
"""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy.engine import make_url

from alea.server import outage
from tests.server.outage_support import TcpProxy
from tests.server.support import create_game, database


class Serving:
    """``python -m alea serve`` whose output is read as it comes."""

    def __init__(self, url: str, data_dir: Path) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "alea",
                "serve",
                "--port",
                "0",
                "--database-url",
                url,
                "--data-dir",
                str(data_dir),
                "--log-level",
                "warning",
                "--bot-processes",
                "0",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)

    def said(self, pattern: str) -> list[str]:
        return [line for line in list(self.lines) if re.search(pattern, line)]

    def wait_said(self, pattern: str, timeout: float) -> list[str]:
        deadline = time.time() + timeout
        while time.time() < deadline:
            found = self.said(pattern)
            if found:
                return found
            assert self.proc.poll() is None, "".join(self.lines)
            time.sleep(0.05)
        raise AssertionError(f"never said {pattern!r}:\n" + "".join(self.lines))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


@pytest.mark.serial  # measures time: runs alone (tests/conftest.py)
def test_serve_waits_for_a_postgresql_started_late(tmp_path: Path) -> None:
    with database("postgresql", tmp_path / "db") as db:
        target = make_url(db.url)
        proxy = TcpProxy(target.host or "127.0.0.1", target.port or 5432)  # down for now
        url = target.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
        server = Serving(url, tmp_path)
        try:
            waiting = server.wait_said(r"does not answer", 30)
            assert "not serving yet, trying again in" in waiting[0]
            assert f"127.0.0.1:{proxy.port}" in waiting[0]  # which database, said plainly
            time.sleep(2.0)
            assert len(server.said(r"does not answer")) >= 2  # it keeps trying, and says so
            assert server.proc.poll() is None  # it did not exit
            assert not server.said(r"http://127\.0\.0\.1:\d+/")  # not serving yet
            proxy.restore()  # PostgreSQL is up
            began = time.time()
            line = server.wait_said(r"http://127\.0\.0\.1:\d+/", 30)[0]
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            assert found is not None
            base = f"http://127.0.0.1:{found.group(1)}"
            deadline = time.time() + 30
            while True:
                try:
                    health = httpx.get(f"{base}/api/health", timeout=5)
                    break
                except httpx.HTTPError:
                    assert time.time() < deadline, "".join(server.lines)
                    time.sleep(0.05)
            assert health.status_code == 200 and health.json()["storage"] == "ok"
            assert time.time() - began < 15  # within the longest interval between attempts
            assert server.said(r"answers after \d+ failed attempts")
            created = create_game(base, [{"kind": "human"}] * 2)
            assert httpx.get(f"{base}/api/games/{created['game']['id']}").status_code == 200
        finally:
            server.stop()
            proxy.cut()


def test_waiting_is_bounded_and_only_for_an_outage(monkeypatch: pytest.MonkeyPatch) -> None:
    """The intervals double up to the most; an error that is not an outage is raised."""
    with socket.socket() as sock:  # a port nobody listens on: refused at once
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    from alea.server.tables import make_engine

    engine = make_engine(f"postgresql+psycopg://postgres@127.0.0.1:{port}/none")
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) == 7:
            raise KeyboardInterrupt  # the operator's Ctrl-C ends the wait

    with pytest.raises(KeyboardInterrupt):
        outage.wait_until_reachable(engine, "test", first=0.5, most=4.0, sleep=sleep)
    assert slept == [0.5, 1.0, 2.0, 4.0, 4.0, 4.0, 4.0]
    engine.dispose()

    broken = make_engine("sqlite:///:memory:")

    def wrong(_engine: object) -> None:
        raise ValueError("not an outage")

    monkeypatch.setattr(outage, "_select_one", wrong)
    with pytest.raises(ValueError):
        outage.wait_until_reachable(broken, "test", sleep=lambda _s: None)
    broken.dispose()
