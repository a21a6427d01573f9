"""Information-set Monte Carlo tree search (single-observer IS-MCTS).

The bot never sees the state, so every playout starts from a state sampled
from its view (:func:`alea.iacta.determinize.determinize`: other players'
Senate cards and Fortuna draws, the deck contents), and then plays it out.

* **Tree over its own information sets.** A node is one of the bot's own
  decisions, identified by what the bot has *observed* since the root: its own
  actions and every event as its log shows it (others' hidden draws and
  Senate choices stay ``?``). Determinisations that look the same to the bot
  share nodes, which is what makes the search sound under hidden information
  (Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo Tree
  Search"). Below the root, actions are selected with UCB1 using availability
  counts (an action's exploration term counts the playouts in which it was
  *available*) and one node is added per playout.
* **Candidates.** A roll of eight dice offers dozens of placements and up to
  255 re-rolls, far more than a one-second budget can try even once. So each
  node considers the evaluation choices (``K:``, ``P:``, ``N:``), or else the
  ``width`` best placements by the greedy heuristic and the ``rerolls`` most
  promising re-roll plans (:func:`alea.bots.greedy.reroll_plans`).
* **Other players and chance** are not branched on: rivals are played by the
  playout policy (greedy by default: the search models its rivals as decent
  players, knowing only their public holdings), chance by sampling.
* **Playouts** run to the end of the current round (``horizon="round"``, the
  default) or of the game, with ``greedy`` (no re-rolls, for speed) or
  ``random``. The end position is valued with
  :func:`alea.bots.values.projected` for every player; the reward is the bot's
  margin over its rivals (half the best, half the mean), squashed into [0, 1].
* **The root** (``root="halving"``, the default) compares its candidates
  with *common random numbers* and *sequential halving*: each sampled world is
  played out once for every surviving candidate, with the same dice, so that
  candidates are compared on identical luck; after each stage the worse half
  is dropped (Karnin, Koren & Somekh 2013). A one-second budget buys only a
  few dozen playouts of a round, and the differences between good moves are
  a fraction of a point against a playout noise of several points: paired
  comparisons are what make so few playouts informative (the same reason
  Tesauro & Galperin's rollouts worked for backgammon). ``root="ucb"`` treats
  the root like any other node instead. Either way the greedy bot's own choice
  gets a small head start (``prior``), so the search departs from it only on
  evidence.
* **Budget**: ``iterations`` playouts per decision (reproducible, the
  default) and/or ``seconds`` of wall clock (not reproducible), whichever
  runs out first.

A lone legal action is played without searching.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from math import ceil, log2, sqrt
from typing import Any

from alea.bots.base import Bot
from alea.bots.greedy import Assessor, GreedyBot, GreedyParams, reroll_plans
from alea.bots.playouts import (
    GreedyPolicy,
    Key,
    Node,
    Policy,
    evaluate,
    greedy_policy,
    playout,
    random_policy,
)
from alea.bots.table import Table
from alea.bots.values import card_values_of
from alea.iacta.determinize import determinize
from alea.iacta.notation import REROLL, Action
from alea.iacta.state import State

__all__ = ["ISMCTSBot", "Key", "Node", "Policy", "evaluate", "greedy_policy", "random_policy"]


class ISMCTSBot(Bot):
    """Single-observer IS-MCTS with greedy (or random) playouts; see the module doc."""

    def __init__(
        self,
        iterations: int | None = None,
        steps: int | None = 1500,
        seconds: float | None = None,
        playout: str = "greedy",
        horizon: str = "round",
        root: str = "halving",
        exploration: float = 0.5,
        widening: float = 0.5,
        width: int = 3,
        rerolls: int = 2,
        z: float = 1.0,
        scale: float = 8.0,
        name: str = "ismcts",
    ) -> None:
        if iterations is None and steps is None and seconds is None:
            raise ValueError("IS-MCTS needs a budget: iterations, steps or seconds")
        for label, value in (("iterations", iterations), ("steps", steps)):
            if value is not None and value < 1:
                raise ValueError(f"{label} must be at least 1")
        if playout not in ("greedy", "random"):
            raise ValueError(f"unknown playout policy {playout!r} (greedy or random)")
        if horizon not in ("round", "game"):
            raise ValueError(f"unknown horizon {horizon!r} (round or game)")
        if root not in ("halving", "ucb"):
            raise ValueError(f"unknown root strategy {root!r} (halving or ucb)")
        self.iterations = iterations
        self.steps = steps
        self.seconds = seconds
        self.playout_name = playout
        self.horizon = horizon
        self.root = root
        self.exploration = exploration
        self.widening = widening
        self.width = width
        self.rerolls = rerolls
        self.z = z
        self.scale = scale
        self.name = name
        self._greedy = GreedyBot()
        self._cheap = GreedyParams(reroll_samples=0)
        #: The greedy playout policy of the current search (None: random playouts).
        self._policy: GreedyPolicy | None = None
        self._steps = 0
        #: Playouts, simulated decisions and seconds of the last decision (for benchmarks).
        self.last_iterations = 0
        self.last_steps = 0
        self.last_seconds = 0.0

    # ------------------------------------------------------------ decisions

    def act(
        self, view: dict[str, Any], legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Search from ``view`` within the budget and return the chosen candidate."""
        started = time.perf_counter()
        self.last_iterations = self.last_steps = self._steps = 0
        self.last_seconds = 0.0
        if len(legal_actions) == 1:
            return legal_actions[0]
        seat = int(view["seat"])
        self._policy = greedy_policy(seat) if self.playout_name == "greedy" else None
        table = Table.from_view(view)
        favourite = self._greedy.decide(table, legal_actions, rng)
        candidates = self.candidates(table, legal_actions, rng)
        if favourite in candidates:
            candidates.remove(favourite)
        candidates.insert(0, favourite)
        if len(candidates) == 1:
            return favourite
        deadline = None if self.seconds is None else started + self.seconds
        if self.root == "ucb":
            choice = self._search_ucb(view, seat, candidates, rng, deadline)
        else:
            choice = self._search_halving(view, seat, candidates, rng, deadline)
        self.last_steps = self._steps
        self.last_seconds = time.perf_counter() - started
        return choice

    def candidates(
        self, t: Table, legal: Sequence[Action], rng: random.Random | None = None
    ) -> list[Action]:
        """The actions a node considers, best first by the greedy heuristic.

        With ``rng`` (at the root) re-roll plans are ranked by the greedy bot's
        sampled estimate of their gain; inside the tree, where this must be
        cheap, the first plans of :func:`reroll_plans` are taken.
        """
        if legal[0].kind in ("K", "P", "N"):
            cards = tuple(a.card for a in legal)
            worth = card_values_of(
                t.my_provinces,
                t.my_patricians,
                t.my_senate,
                t.my_fortuna,
                legal[0].kind,
                cards,
                t.rounds_after,
                t.rounds,
            )
            return sorted(legal, key=lambda a: -worth[a.card])
        assessor = Assessor(t, self._cheap)
        places = [a for a in legal if a.kind != REROLL]
        places.sort(key=assessor.utility, reverse=True)
        chosen = places[: self.width]
        if self.rerolls <= 0 or len(places) == len(legal):
            return chosen
        if rng is not None:
            current = assessor.utility(chosen[0]) if chosen else 0.0
            gains = self._greedy.reroll_gains(t, assessor, legal, current, rng, 4)
            gains.sort(key=lambda item: -item[1])
            chosen.extend(action for action, _ in gains[: self.rerolls])
        else:
            allowed = {a.dice: a for a in legal if a.kind == REROLL}
            plans = [allowed[p] for p in reroll_plans(t.roll) if p in allowed]
            chosen.extend(plans[: self.rerolls])
        return chosen

    def _spent(self, playouts: int, deadline: float | None) -> bool:
        """Whether the budget is used up (never before the first playout)."""
        if playouts == 0:
            return False
        if self.iterations is not None and playouts >= self.iterations:
            return True
        if self.steps is not None and self._steps >= self.steps:
            return True
        return deadline is not None and time.perf_counter() >= deadline

    def _search_ucb(
        self,
        view: dict[str, Any],
        seat: int,
        candidates: list[Action],
        rng: random.Random,
        deadline: float | None,
    ) -> Action:
        """Plain IS-MCTS: the root is a UCB1 node like the others (all candidates open)."""
        root = Node(candidates)
        done = 0
        while not self._spent(done, deadline):
            state = determinize(view, rng)
            action = root.select(state.legal_actions(), self.exploration, float(len(candidates)))
            reward = self._playout(state, seat, action, root.after(action), rng)
            root.update(action, reward)
            done += 1
        self.last_iterations = done
        return max(candidates, key=lambda a: (root.visits[a], root.mean(a)))

    def _search_halving(
        self,
        view: dict[str, Any],
        seat: int,
        candidates: list[Action],
        rng: random.Random,
        deadline: float | None,
    ) -> Action:
        """Sequential halving on common random numbers, against the greedy choice.

        ``candidates[0]`` is the greedy bot's own choice. It is never
        eliminated, so every other candidate's rewards are paired with its
        rewards on the same sampled worlds and dice; at the end the best
        candidate is chosen only if its mean paired advantage exceeds ``z``
        standard errors, and otherwise the greedy choice stands.
        """
        favourite = candidates[0]
        root = Node(candidates)
        diffs: dict[Action, list[float]] = {a: [] for a in candidates[1:]}
        survivors = list(candidates)
        stages = max(1, ceil(log2(len(survivors))))
        done = 0
        for stage in range(stages):
            last = stage == stages - 1
            stage_deadline = None
            if deadline is not None:
                now = time.perf_counter()
                stage_deadline = now + (deadline - now) / (stages - stage)
            steps_goal = None
            if self.steps is not None:
                steps_goal = self._steps + (self.steps - self._steps) // (stages - stage)
            runs_goal = None
            if self.iterations is not None:
                runs_goal = done + (self.iterations - done) // (stages - stage)
            worlds = 0
            while True:
                if worlds and (
                    (steps_goal is not None and self._steps >= steps_goal)
                    or (runs_goal is not None and done + len(survivors) > runs_goal)
                    or (stage_deadline is not None and time.perf_counter() >= stage_deadline)
                ):
                    break
                world = determinize(view, rng)
                luck = rng.getrandbits(64)
                rewards: dict[Action, float] = {}
                for action in survivors:
                    state = world.clone()
                    rewards[action] = self._playout(
                        state, seat, action, root.after(action), random.Random(luck)
                    )
                    root.update(action, rewards[action])
                    done += 1
                for action in survivors[1:]:
                    diffs[action].append(rewards[action] - rewards[favourite])
                worlds += 1
                if self._spent(done, deadline) and not last:
                    break
            if not last and len(survivors) > 2:
                rest = sorted(survivors[1:], key=lambda a: -_mean(diffs[a]))
                survivors = [favourite, *rest[: max(1, ceil(len(survivors) / 2) - 1)]]
        self.last_iterations = done
        best = favourite
        best_edge = 0.0
        for action in survivors[1:]:
            sample = diffs[action]
            if len(sample) < 2:
                continue
            mean = _mean(sample)
            spread = sqrt(sum((d - mean) ** 2 for d in sample) / (len(sample) - 1))
            if mean > best_edge and mean > self.z * spread / sqrt(len(sample)):
                best, best_edge = action, mean
        return best

    # ------------------------------------------------------------- playouts

    def _playout(
        self,
        state: State,
        seat: int,
        first: Action,
        following: dict[Key, Node],
        rng: random.Random,
    ) -> float:
        """Apply ``first``, play on (tree, then policy) to the horizon; the reward.

        ``following`` holds the information sets that can come after
        ``first``; the tree below it grows by one node per playout. The loop
        itself is :func:`alea.bots.playouts.playout` (compiled with the engine).
        """
        value, steps = playout(
            state,
            seat,
            first,
            following,
            rng,
            self._policy,
            self.candidates,
            self.exploration,
            self.widening,
            self.horizon == "game",
            self.scale,
        )
        self._steps += steps
        return value


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("-inf")
