"""The game contract, tested on every registered game (and the toy game of ``toy.py``).

Like pgx's ``api_test``: nothing here names a game's rules. A game registered
with :func:`alea.game.register` (or shipped in ``alea.game``'s list of
built-in engines) is tested for every player count and every variant it
declares, and passes or fails without anyone writing a test for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

import alea.game as game
from tests.contract import checks, toy

#: Seeds per (game, variant, player count): enough to reach the rarer phases.
SEEDS = (0, 1)


def _games() -> list[game.GameInfo]:
    """Every registered game, and the toy game (registered only while its tests run)."""
    found = list(game.games())
    return found if any(i.name == toy.INFO.name for i in found) else [*found, toy.INFO]


def _cases() -> list[Any]:
    cases = []
    for info in _games():
        for number, options in enumerate(info.variants):
            for players in info.player_counts():
                for seed in SEEDS:
                    tag = f"{info.name}-v{number}-{players}p-s{seed}"
                    cases.append(pytest.param(info.name, options, players, seed, id=tag))
    return cases


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    """The toy game is in the registry during each test, and only then."""
    if any(i is toy.INFO for i in game.games()):
        yield
        return
    game.register(toy.INFO)
    try:
        yield
    finally:
        game.unregister(toy.INFO.name)


Check = Callable[[game.GameInfo, Mapping[str, Any], int, int], None]
CHECKS: dict[str, Check] = {
    "every_step": checks.check_every_step,
    "clone": checks.check_clone,
    "json": checks.check_json_round_trip,
    "replay": checks.check_replay,
    "illegal": checks.check_illegal_refused,
    "views_hide": checks.check_views_hide,
    "replay_view": checks.check_replay_view,
}


@pytest.mark.parametrize("name", [i.name for i in _games()])
def test_facts(name: str) -> None:
    checks.check_info(game.info(name))


@pytest.mark.parametrize("check", list(CHECKS))
@pytest.mark.parametrize(("name", "options", "players", "seed"), _cases())
def test_contract(
    check: str, name: str, options: Mapping[str, Any], players: int, seed: int
) -> None:
    CHECKS[check](game.info(name), options, players, seed)
