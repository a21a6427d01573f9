"""Bots for Alea Iacta Est: they see only their seat's view.

>>> import random
>>> import alea.iacta as iacta
>>> from alea.bots import make, ask
>>> state = iacta.new_game(players=3)
>>> bots = [make("random"), make("medium"), make("greedy")]
>>> rng = random.Random(1)
>>> while not state.is_terminal():
...     if state.is_chance():
...         state.apply(state.sample_chance(rng))
...     else:
...         state.apply(ask(bots[state.current_player()], state, rng))
>>> len(state.winners()) >= 1
True

Bots (:func:`make` by name): ``random`` (uniform), ``greedy`` (the
hand-written heuristic, :mod:`alea.bots.greedy`), ``ismcts`` (information-set
Monte Carlo tree search, :mod:`alea.bots.ismcts`). Difficulty levels for
players: ``easy`` (mostly random), ``medium`` (greedy), ``hard`` (IS-MCTS at
well under a second a decision, reproducible: its budget is in simulated
decisions) and ``expert`` (the same search with more than three times the
budget and a wider choice of candidates, within a second a decision).

A *spec* string names a bot and options, separated by colons:
``"ismcts:iterations=500:playout=random"``, ``"greedy:die_value=1.0"``.

Bots per game: :func:`for_game` gives the bot of a game (by its
:class:`~alea.game.GameInfo` short name) at a level, so that a host of every
game (the server) never names a bot class. Alea Iacta Est's levels are the
ones above; Dado Romano's are :class:`~alea.bots.romano.RomanoBot` at each level
(answers right 40%, 60% or 80% of the time, declarations weighed by what they
would bring); a game with no bots of its own (:func:`register_game_bots`
adds them) is played by :class:`RandomBot`, which needs nothing but the legal
actions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import alea.iacta
from alea.iacta._compiled import choose as _choose

#: Whether the bots' hot paths (greedy, playouts, table, values) run compiled: only with the
#: compiled engine they were built with, chosen before any of them is imported.
COMPILED: bool = _choose(__name__, __path__[0], requires=alea.iacta.__name__).compiled

from alea.bots.base import Bot, ask  # noqa: E402 (after the choice of modules)
from alea.bots.greedy import GreedyBot, GreedyParams  # noqa: E402
from alea.bots.ismcts import ISMCTSBot  # noqa: E402
from alea.bots.random_bot import EasyBot, RandomBot  # noqa: E402

__all__ = [
    "BOTS",
    "COMPILED",
    "EXPERT_OPTIONS",
    "EXPERT_STEPS",
    "HARD_STEPS",
    "LEVELS",
    "Bot",
    "EasyBot",
    "GreedyBot",
    "GreedyParams",
    "ISMCTSBot",
    "RandomBot",
    "ask",
    "for_game",
    "make",
    "parse_spec",
    "register_game_bots",
    "unregister_game_bots",
]

#: IS-MCTS budget of the ``hard`` level, in simulated decisions per decision.
#: Measured with bench/strength.py: 0.28 s a decision on average and 0.66 s
#: at most on one unloaded core (0.81 s at most with the machine's two cores
#: overloaded five times over). Counting simulated decisions rather than
#: seconds keeps tournaments reproducible on any machine, while still giving
#: the search more playouts where they are short than where they are long.
HARD_STEPS: Final = 1500

#: IS-MCTS budget of the ``expert`` level, in simulated decisions per decision:
#: the speed of the compiled engine and playouts spent on strength. Chosen so that a
#: decision takes well under a second on average on one core (bench/strength.py
#: --only speed measures it; docs/bots.md has the figures), like ``hard``
#: reproducible on any machine because it counts simulated decisions, not seconds.
#: 5,000 won about 37% of 316 games against three ``hard`` (the target, 35%, was
#: inside its interval); 20,000 wins well above it (docs/bots.md).
EXPERT_STEPS: Final = 20000
#: The rest of the ``expert`` level's search: one more placement and one more
#: re-roll plan among the root's candidates than ``hard`` (the larger budget
#: pays for trying them on the same sampled worlds).
EXPERT_OPTIONS: Final = {"width": 4, "rerolls": 3}

#: Bot names :func:`make` accepts, with a one-line description.
BOTS: Final = {
    "random": "uniform over the legal actions",
    "greedy": "hand-written heuristic: expected points this round, cards by end-game value",
    "ismcts": "information-set Monte Carlo tree search with greedy playouts",
}
#: Difficulty levels for players.
LEVELS: Final = {
    "easy": "mostly random placements, never wastes re-rolls",
    "medium": "the greedy heuristic",
    "hard": f"IS-MCTS, {HARD_STEPS} simulated decisions a decision (under a second)",
    "expert": f"IS-MCTS, {EXPERT_STEPS} simulated decisions a decision (about a second at most)",
}


def _convert(text: str) -> Any:
    """An option value from a spec: int, float, bool, None or the string itself."""
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered == "none":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"name:key=value:..."`` into the name and its options."""
    name, *parts = spec.strip().split(":")
    options: dict[str, Any] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise ValueError(f"bot option {part!r} in {spec!r}: expected key=value")
        options[key.strip()] = _convert(value.strip())
    return name.strip().lower(), options


def make(name_or_level: str, **options: Any) -> Bot:
    """A new bot by name (``random``, ``greedy``, ``ismcts``) or level (``easy`` ...).

    ``name_or_level`` may be a spec with options (``"ismcts:iterations=100"``);
    keyword ``options`` override those. Unknown names or options raise
    ``ValueError`` with the list of what is accepted.
    """
    name, parsed = parse_spec(name_or_level)
    parsed.update(options)
    label = parsed.pop("name", None)
    try:
        bot: Bot
        if name == "random":
            bot = RandomBot()
        elif name == "easy":
            bot = EasyBot(**parsed)
        elif name in ("greedy", "medium"):
            bot = GreedyBot(GreedyParams(**parsed), name=name)
        elif name == "ismcts":
            bot = ISMCTSBot(**parsed)
        elif name == "hard":
            parsed.setdefault("steps", HARD_STEPS)
            bot = ISMCTSBot(name="hard", **parsed)
        elif name == "expert":
            parsed.setdefault("steps", EXPERT_STEPS)
            bot = ISMCTSBot(name="expert", **{**EXPERT_OPTIONS, **parsed})
        else:
            known = ", ".join([*BOTS, *LEVELS])
            raise ValueError(f"unknown bot {name!r}: choose one of {known}")
        if name == "random" and parsed:
            raise TypeError(f"unexpected options {sorted(parsed)}")
    except TypeError as err:
        raise ValueError(f"bad options for bot {name!r}: {err}") from None
    if label is not None:
        bot.name = str(label)
    return bot


def _romano(level: str) -> Bot:
    """Dado Romano's bot at ``level``: a person-like player (its answers' accuracy and how
    keenly it picks what pays grow with the level). A party game of luck has nothing for
    a deeper search to find: ``expert`` plays as ``hard``."""
    from alea.bots.romano import RomanoBot

    return RomanoBot("hard" if level == "expert" else level)


#: The bot factories of each game by its short name: ``level -> Bot``.
_GAME_BOTS: dict[str, Callable[[str], Bot]] = {"iacta": make, "romano": _romano}


def register_game_bots(game: str, factory: Callable[[str], Bot]) -> None:
    """Give the game called ``game`` its own bots: ``factory(level)`` makes one."""
    _GAME_BOTS[game] = factory


def unregister_game_bots(game: str) -> None:
    """Forget the bots of ``game`` (tests that registered some); KeyError if it has none."""
    del _GAME_BOTS[game]


def for_game(game: str, level: str) -> Bot:
    """A new bot playing the game ``game`` (its short name) at ``level`` (:data:`LEVELS`).

    A game without bots of its own gets :class:`RandomBot`, uniform over the legal
    actions, which any game's decisions allow. ValueError for an unknown level.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}: choose one of {', '.join(LEVELS)}")
    factory = _GAME_BOTS.get(game)
    return RandomBot() if factory is None else factory(level)
