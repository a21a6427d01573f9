"""Starting `alea serve` for a benchmark: the one helper the server benchmarks share.

Each benchmark measures a real server process from outside (its CPU time, resident set,
latency), so it starts ``python -m alea serve`` on a free loopback port, reads the URL the
server prints, keeps draining its output so that it can never block on a full pipe, and
returns once ``/api/health`` answers.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import httpx

from alea.deploy import UPSTREAM_OPTIONS, nginx_conf


def start_alea_server(
    *args: str,
    env: Mapping[str, str] | None = None,
    timeout: float = 60,
    profile: str | None = None,
    lines: list[str] | None = None,
) -> tuple[subprocess.Popen[str], str]:
    """``alea serve --port 0 ARGS`` started and answering: its process and base URL.

    ``profile``: a file where ``cProfile`` writes the server's profile when it stops
    (the CPU of its event loop thread; see ``profiled_serve.py``). ``lines``: a list
    that collects every line the server prints.
    """
    if profile:
        runner = [sys.executable, str(Path(__file__).with_name("profiled_serve.py")), profile]
    else:
        runner = [sys.executable, "-m", "alea"]
    cmd = [*runner, "serve", "--port", "0", *args]
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=None if env is None else dict(env),
    )
    assert proc.stdout is not None
    deadline = time.time() + timeout
    while time.time() < deadline:
        line = proc.stdout.readline()
        if lines is not None and line:
            lines.append(line)
        found = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
        if found:
            base = found.group(1)
            threading.Thread(target=_drain, args=(proc, lines), daemon=True).start()
            while time.time() < deadline:  # the URL is printed before it answers
                if proc.poll() is not None:
                    break  # it failed to start (e.g. its database was not there)
                try:
                    if httpx.get(f"{base}/api/health", timeout=2).status_code == 200:
                        return proc, base
                except httpx.HTTPError:
                    time.sleep(0.05)
            break
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise SystemExit("the server did not start")


def start_nginx(
    tmp: str, upstreams: list[str], options: str = UPSTREAM_OPTIONS, affinity: bool = True
) -> tuple[subprocess.Popen[bytes], str]:
    """Debian's nginx in the foreground in front of ``upstreams`` (the configuration of
    docs/deploy.md, :mod:`alea.deploy`), its pid, config and logs in ``tmp``: its process
    and base URL. ``options``: the parameters of each ``server`` line (docs/deploy.md's by
    default: no failure accounting, which long-lived WebSockets defeat). ``affinity``: a
    game's sockets to one process (docs/deploy.md's); False spreads them round robin.
    """
    import os
    import shutil
    import socket
    from pathlib import Path

    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(binary).exists():
        raise SystemExit("--via-nginx needs nginx (apt-get install nginx)")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    conf = Path(tmp) / "nginx.conf"
    conf.write_text(
        nginx_conf(
            upstreams,
            port=port,
            prefix=tmp,
            as_root=os.geteuid() == 0,
            options=options,
            affinity=affinity,
        )
    )
    proc = subprocess.Popen(
        [binary, "-p", tmp, "-c", str(conf), "-e", f"{tmp}/error.log"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 20
    while time.time() < deadline and proc.poll() is None:
        try:
            if httpx.get(f"{base}/api/health", timeout=2).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("nginx did not start")


def stop_all(
    lb: subprocess.Popen[Any] | None, procs: Sequence[tuple[subprocess.Popen[Any], str]]
) -> None:
    """Stop what :func:`start_nginx` and :func:`start_alea_server` started: nginx (if any)
    first, so no new request reaches a stopping server, then every server at once with
    SIGINT (their clean shutdown, all in parallel), each killed if not gone in 30 s."""
    if lb is not None:
        lb.terminate()
        lb.wait(timeout=10)
    for proc, _ in procs:
        proc.send_signal(signal.SIGINT)
    for proc, _ in procs:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


def add_load_options(
    parser: argparse.ArgumentParser,
    *,
    games: int,
    duration: float,
    duration_help: str,
    think: float,
    think_help: str,
) -> None:
    """The options of a run of ``server_load.py``'s scripted clients, which the fault
    campaign drives too: how many games, how long (after a warm-up), the mean think time
    and the seed. Each benchmark gives its own defaults and says what its duration is."""
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--duration", type=float, default=duration, help=duration_help)
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--think", type=float, default=think, help=think_help)
    parser.add_argument("--seed", type=int, default=1)


async def finish_clients(
    tasks: Sequence[asyncio.Task[Any]], errors: list[str], timeout: float
) -> None:
    """Let the scripted clients' actions in flight be answered (at most ``timeout`` seconds),
    cancel the rest, and record in ``errors`` every client that ended with an exception."""
    done, pending = await asyncio.wait(tasks, timeout=timeout)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    for task in done:
        if task.exception() is not None:
            errors.append(f"client: {task.exception()!r}")


def _drain(proc: subprocess.Popen[str], lines: list[str] | None) -> None:
    """Read the server's output to its end (kept in ``lines`` if given)."""
    assert proc.stdout is not None
    for line in proc.stdout:
        if lines is not None:
            lines.append(line)
