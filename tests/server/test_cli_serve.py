"""``alea serve``: the README's first command starts the server on embedded SQLite."""

from __future__ import annotations

from pathlib import Path

import httpx
from typer.testing import CliRunner

from alea.cli import app
from tests.server.support import ServerProcess


def test_serve_help_lists_the_options() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--database-url", "--data-dir", "--bot-delay"):
        assert option in result.output


def test_serve_starts_on_sqlite_by_default_and_prints_its_url(tmp_path: Path) -> None:
    proc = ServerProcess(None, tmp_path).start()
    try:
        assert any(f"{proc.base}/" in line for line in proc.output)
        assert any("sqlite" in line for line in proc.output)
        assert httpx.get(f"{proc.base}/api/health").json()["database"] == "sqlite"
        assert (tmp_path / "alea.sqlite").exists()
        assert '<main id="app"' in httpx.get(proc.base + "/").text
    finally:
        proc.stop()
    assert proc.proc is not None and proc.proc.returncode is not None
