"""A tiny expect-style driver for ``python -m alea.play`` in a pseudo-terminal (stdlib only)."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


class PtyGame:
    """Runs the game with its stdin/stdout on a pty and reads what a user would see."""

    def __init__(self, args: list[str], env: dict[str, str], cwd: Path, timeout: float = 60):
        self.args = args
        self.env = env
        self.cwd = cwd
        self.timeout = timeout
        self.buffer = ""
        self.pos = 0
        self.returncode: int | None = None

    def __enter__(self) -> PtyGame:
        master, slave = pty.openpty()
        self.master = master
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "alea.play", *self.args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=self.env,
            cwd=self.cwd,
            close_fds=True,
        )
        os.close(slave)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)

    def _read(self, deadline: float) -> None:
        ready, _, _ = select.select([self.master], [], [], max(0.0, deadline - time.monotonic()))
        if ready:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                data = b""
            self.buffer += ANSI.sub("", data.decode("utf-8", "replace"))

    def expect_any(self, patterns: list[str]) -> str:
        """Wait until one of ``patterns`` appears after the last match; return it."""
        deadline = time.monotonic() + self.timeout
        while True:
            hits = [(self.buffer.find(p, self.pos), p) for p in patterns]
            hits = [(i, p) for i, p in hits if i >= 0]
            if hits:
                index, pattern = min(hits)
                self.pos = index + len(pattern)
                return pattern
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self._read(time.monotonic() + 0.2)
                if not any(self.buffer.find(p, self.pos) >= 0 for p in patterns):
                    tail = self.buffer[-2000:]
                    raise AssertionError(f"none of {patterns} appeared; screen ends with:\n{tail}")
            self._read(deadline)

    def expect(self, pattern: str) -> None:
        self.expect_any([pattern])

    def seen(self, pattern: str) -> bool:
        return pattern in self.buffer

    def send(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def wait_exit(self) -> None:
        deadline = time.monotonic() + self.timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            self._read(time.monotonic() + 0.1)
        self.returncode = self.proc.wait(timeout=5)
