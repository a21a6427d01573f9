"""The "moved on" message a player reads quotes no internal version numbers."""

from __future__ import annotations

import pytest

from alea.server import i18n


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_stale_message_has_no_version_numbers(lang: str) -> None:
    said = i18n.message("stale_version", lang, sent=417, version=421)
    assert "417" not in said and "421" not in said
    assert "version" not in said.lower()
