"""What hostile requests cost ``alea serve``: a huge body, and unknown games beside bots.

Starts ``alea serve`` on 127.0.0.1 (a child process, SQLite in a temporary
directory) and measures, from outside:

* **a huge body**: ``--body-mb`` MB POSTed to ``/api/games`` (with a
  ``Content-Length``, then chunked without one) while ``/api/health`` is polled:
  the answer, the server's peak resident set size and the slowest health check;
* **bots and the request path**: ``--bot-tables`` tables of four ``hard`` bots
  playing while unknown-game 404s are timed (p50 and max).

    python bench/hostile_load.py --body-mb 500 --bot-tables 32

Only loopback traffic; every loop is bounded.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

from serving import start_alea_server


def start(data_dir: Path, *extra: str) -> tuple[subprocess.Popen[str], str]:
    return start_alea_server("--data-dir", str(data_dir), "--log-level", "warning", *extra)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Watch:
    """Polls /api/health and the server's RSS in a thread while a request runs."""

    def __init__(self, base: str, pid: int) -> None:
        self.base, self.pid = base, pid
        self.peak_rss = 0.0
        self.slowest = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        with httpx.Client(base_url=self.base, timeout=30) as http:
            while not self._stop.is_set():
                self.peak_rss = max(self.peak_rss, rss_mb(self.pid))
                started = time.perf_counter()
                http.get("/api/health")
                self.slowest = max(self.slowest, time.perf_counter() - started)
                time.sleep(0.02)

    def __enter__(self) -> Watch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def huge_body(base: str, pid: int, megabytes: int) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"seats": ['
        block = b" " * 2**20
        for _ in range(megabytes):
            yield block
        yield b"]}"

    size = megabytes * 2**20 + 13
    print(f"RSS before: {rss_mb(pid):.0f} MB")
    for label, headers in (("Content-Length", {"Content-Length": str(size)}), ("chunked", {})):
        with Watch(base, pid) as watch:
            started = time.perf_counter()
            try:
                answer = httpx.post(
                    f"{base}/api/games",
                    content=chunks(),
                    headers={"Content-Type": "application/json", **headers},
                    timeout=120,
                )
                outcome = f"{answer.status_code} {answer.json()['error']['code']}"
            except httpx.HTTPError as err:  # the server closed before the body was all sent
                outcome = f"connection closed ({type(err).__name__})"
            took = time.perf_counter() - started
        print(
            f"{megabytes} MB POST ({label}): {outcome} after {took:.2f} s; server RSS peak "
            f"{watch.peak_rss:.0f} MB; slowest /api/health {watch.slowest * 1000:.0f} ms"
        )


def bots_beside_requests(base: str, tables: int, seconds: float) -> None:
    with httpx.Client(base_url=base, timeout=60) as http:
        for _ in range(tables):
            http.post("/api/games", json={"seats": [{"kind": "bot", "level": "hard"}] * 4})
        time.sleep(2.0)
        times: list[float] = []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            started = time.perf_counter()
            assert http.get("/api/games/NoSuchGame12").status_code == 404
            times.append(time.perf_counter() - started)
            time.sleep(0.05)
    print(
        f"{tables} tables of four hard bots: unknown-game 404 p50 "
        f"{statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms "
        f"({len(times)} requests)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--body-mb", type=int, default=500)
    parser.add_argument("--bot-tables", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=20.0, help="of timed 404s")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start(
            Path(tmp), "--bot-delay", "0", "--create-rate", "", "--bot-tables-per-client", "0"
        )
        try:
            huge_body(base, proc.pid, args.body_mb)
            if args.bot_tables:
                bots_beside_requests(base, args.bot_tables, args.seconds)
        finally:
            proc.terminate()
            proc.wait(timeout=30)


if __name__ == "__main__":
    main()
