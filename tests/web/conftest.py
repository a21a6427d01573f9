"""Fixtures of the browser tests: one headless Chromium per module, and where screenshots go
(``ALEA_UPDATE_SCREENSHOTS=1``: docs/screenshots/, else a temporary directory)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.support import ARGS, CHROMIUM, ROOT


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where a module's screenshots go: docs/screenshots/ when asked to update them."""
    if os.environ.get("ALEA_UPDATE_SCREENSHOTS") == "1":
        target = ROOT / "docs" / "screenshots"
        target.mkdir(parents=True, exist_ok=True)
        return target
    return tmp_path_factory.mktemp("screenshots")
