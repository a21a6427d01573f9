"""The inner loop of IS-MCTS: its tree nodes, the playout policies and one playout.

:mod:`alea.bots.ismcts` chooses what to search and how to spend the budget;
everything it repeats for every simulated decision of every playout lives here,
so that it is compiled with the engine and the greedy heuristic (``setup.py``'s
``BOT_SOURCES``): the loop then calls the engine's state, the table and the
heuristic natively instead of through the interpreter. :class:`Node` and
:class:`GreedyPolicy` are plain classes with fixed attributes, which mypyc makes
native types; nothing here subclasses the abstract :class:`~alea.bots.base.Bot`.

The pure-Python build runs this same source.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from math import log, sqrt, tanh

from alea.bots.greedy import GreedyParams, choose
from alea.bots.table import Table
from alea.bots.values import projected_of
from alea.iacta.notation import REROLL, Action
from alea.iacta.state import State

#: A playout policy: the decision of ``player`` in a (determinised) state.
Policy = Callable[[State, int, random.Random], Action]

#: Observation since a node: the searcher's log entries, others' secrets as ``?``.
Key = tuple[str, ...]

#: What a new node considers, best first: ``ISMCTSBot.candidates`` for a table and legal list.
Expand = Callable[[Table, list[Action]], list[Action]]


class GreedyPolicy:
    """The greedy bot as a playout policy for a search run by ``seat``.

    The searcher plays itself with its own cards; rivals are modelled from
    what everyone sees of them (:meth:`Table.from_state` with ``public``).
    """

    def __init__(self, seat: int, params: GreedyParams | None = None) -> None:
        self.seat = seat
        self.params = params or GreedyParams(reroll_samples=0)

    def __call__(self, state: State, player: int, rng: random.Random) -> Action:
        return self.decide(state, player, rng)

    def decide(self, state: State, player: int, rng: random.Random) -> Action:
        """The greedy decision of ``player`` (a method: the compiled loop calls it natively)."""
        table = Table.from_state(state, player, public=player != self.seat)
        return choose(table, state.legal_actions(), self.params, rng)


def greedy_policy(seat: int, params: GreedyParams | None = None) -> GreedyPolicy:
    """The greedy bot as a playout policy for a search run by ``seat`` (a callable)."""
    return GreedyPolicy(seat, params)


def random_policy(state: State, player: int, rng: random.Random) -> Action:
    """Uniform over the placements and card choices (re-rolls only when nothing else)."""
    legal = state.legal_actions()
    places = [a for a in legal if a.kind != REROLL] or legal
    return places[int(rng.random() * len(places))]


class Node:
    """One of the searching player's information sets, with UCB1 statistics."""

    def __init__(self, candidates: list[Action]) -> None:
        self.candidates = candidates
        self.visits: dict[Action, int] = dict.fromkeys(candidates, 0)
        self.totals: dict[Action, float] = dict.fromkeys(candidates, 0.0)
        self.avail: dict[Action, int] = dict.fromkeys(candidates, 0)
        #: For each action, the information sets that can follow it, by observation.
        self.children: dict[Action, dict[Key, Node]] = {}

    def select(self, legal: Sequence[Action], exploration: float, widening: float) -> Action:
        """UCB1 with availability counts, over a progressively widening candidate list.

        Candidates are ordered best first by the greedy heuristic. A node
        visited ``n`` times considers the first ``1 + floor(widening * sqrt(n))``
        of them, so a rarely visited node plays like the greedy policy (a
        playout is only as informative as the moves in it) and alternatives
        enter as evidence accumulates (progressive widening).
        """
        total = sum(self.visits.values())
        width = 1 + int(widening * sqrt(total))
        present = [a for a in self.candidates[:width] if a in legal] or [legal[0]]
        for a in present:
            self.avail[a] = self.avail.get(a, 0) + 1
        for a in present:
            if self.visits.get(a, 0) == 0:
                self.visits.setdefault(a, 0)
                self.totals.setdefault(a, 0.0)
                return a
        best = present[0]
        best_score = float("-inf")
        for a in present:
            n = self.visits[a]
            score = self.totals[a] / n + exploration * sqrt(log(self.avail[a]) / n)
            if score > best_score:
                best, best_score = a, score
        return best

    def update(self, action: Action, reward: float) -> None:
        self.visits[action] += 1
        self.totals[action] += reward

    def after(self, action: Action) -> dict[Key, Node]:
        """The table of information sets following ``action`` (created on first use)."""
        found = self.children.get(action)
        if found is None:
            found = self.children[action] = {}
        return found

    def mean(self, action: Action) -> float:
        n = self.visits.get(action, 0)
        return self.totals[action] / n if n else 0.0


def playout(
    state: State,
    seat: int,
    first: Action,
    following: dict[Key, Node],
    rng: random.Random,
    greedy: GreedyPolicy | None,
    expand: Expand,
    exploration: float,
    widening: float,
    game_horizon: bool,
    scale: float,
) -> tuple[float, int]:
    """Apply ``first``, play on (tree, then policy) to the horizon; (reward, decisions).

    ``following`` holds the information sets that can come after ``first``;
    the tree below it grows by one node per playout, its candidates given by
    ``expand``. Players are played by ``greedy``, or by :func:`random_policy`
    when it is None; the horizon is the end of the round unless
    ``game_horizon``. The reward is :func:`reward` of the end position, and
    the decisions counted are ``first`` and every simulated one after it.
    """
    start_round = state.round
    state.apply(first)
    mark = len(state.history)
    path: list[tuple[Node, Action]] = []
    expanded = False
    in_tree = True
    steps = 1
    while not state.is_terminal():
        if not game_horizon and state.round != start_round:
            break
        if state.is_chance():
            state.apply(state.sample_chance(rng))
            continue
        steps += 1
        player = state.current_player()
        if player != seat or not in_tree:
            if greedy is not None:
                state.apply(greedy.decide(state, player, rng))
            else:
                state.apply(random_policy(state, player, rng))
            continue
        legal = state.legal_actions()
        key = tuple(state.log(seat)[mark:])
        node = following.get(key)
        if node is None:
            if expanded:
                in_tree = False
                if greedy is not None:
                    state.apply(greedy.decide(state, player, rng))
                else:
                    state.apply(random_policy(state, player, rng))
                continue
            node = Node(expand(Table.from_state(state, seat), legal))
            following[key] = node
            expanded = True
        action = node.select(legal, exploration, widening)
        path.append((node, action))
        state.apply(action)
        mark = len(state.history)
        following = node.after(action)
    value = reward(evaluate(state), seat, scale)
    for node, action in path:
        node.update(action, value)
    return value, steps


def reward(values: list[float], seat: int, scale: float) -> float:
    """``seat``'s margin over its rivals (half the best, half the mean), squashed into [0, 1]."""
    mine = values[seat]
    others = [v for s, v in enumerate(values) if s != seat]
    margin = mine - 0.5 * max(others) - 0.5 * sum(others) / len(others)
    return 0.5 + 0.5 * tanh(margin / scale)


def evaluate(state: State) -> list[float]:
    """Every player's projected final score (the exact score once the game is over)."""
    over = state.is_terminal()
    after = state.rounds - state.round
    values: list[float] = []
    for s in range(state.players):
        projection = projected_of(
            tuple(state.provinces[s]),
            tuple(state.patricians[s]),
            tuple(state.senate_cards[s]),
            tuple(state.fortuna_kept[s]),
            0 if over else after,
            state.rounds,
        )
        tokens = state.tokens[s]
        bonus = tokens // 2 if over else tokens * 0.5
        values.append(projection + bonus)
    return values
