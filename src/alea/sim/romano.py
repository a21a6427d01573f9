"""Random games of Dado Romano and their statistics (``alea simulate --game romano``).

Every decision is drawn uniformly from the legal ones (so a riddle or question
is answered right one time in four), every chance outcome with its
probability. A game without a time limit can in principle go on for ever
(nobody is obliged ever to land on exactly 150), so each simulated game has a
time limit of :data:`ROUND_CAP` rounds: that round is the last one and then
the closest to 150 wins, exactly as when the referee's clock runs out.

The *deciding figure* of a game is, for each winner, the cause of that
winner's last score change: the combination whose effect changed the score
(``3-4`` when it was a Marcus Aurelius subtraction rolled by someone else,
``1-4`` for a Messalina swap or transfer, also when the winner was the one
challenged), or ``declaration`` for the third-turn bonus. A winner whose score
never changed counts as ``(none)``. A shared victory splits the game's one
count equally among its winners, as it does for the win share per seat.
"""

from __future__ import annotations

import json
import random
import statistics
from dataclasses import dataclass, field
from typing import Any, Final

from rich.console import Console
from rich.table import Table

from alea.romano.combinations import FIGURES
from alea.romano.records import new_game
from alea.romano.state import State

#: Rounds after which a simulated game ends as if the referee's hour were up:
#: about an hour at the table for three players at some 40 seconds a turn.
ROUND_CAP: Final = 30


@dataclass
class GameResult:
    """The summary of one simulated game."""

    seed: int
    winners: list[int]
    end: str  # "150" or "time"
    scores: list[int]
    turns: int
    rounds: int
    deciding: list[str]
    record: dict[str, Any]


@dataclass
class Summary:
    """The statistics of many simulated games."""

    players: int
    games: int
    seed: int | None
    round_cap: int
    results: list[GameResult] = field(default_factory=list)

    def ended(self, reason: str) -> int:
        """How many games ended by ``"150"`` or by ``"time"``."""
        return sum(1 for r in self.results if r.end == reason)

    def win_share(self) -> list[float]:
        """Wins per seat, a shared victory split equally."""
        share = [0.0] * self.players
        for r in self.results:
            for w in r.winners:
                share[w] += 1 / len(r.winners)
        return share

    def deciding_figures(self) -> list[tuple[str, float]]:
        """How often each cause decided a game (shared victories split), most often first."""
        out: dict[str, float] = {}
        for r in self.results:
            for cause in r.deciding:
                out[cause] = out.get(cause, 0.0) + 1 / len(r.deciding)
        return sorted(out.items(), key=lambda kv: (-kv[1], kv[0]))


def deciding_causes(state: State) -> list[str]:
    """For each winner, the cause of their last score change (see the module docstring)."""
    causes = []
    for w in state.winners():
        last = "(none)"
        for e in reversed(state.events):
            if e.kind == "score" and e.seat == w:
                last = e.cause
                break
        causes.append(last)
    return causes


def play_random_game(players: int, seed: int, round_cap: int = ROUND_CAP) -> State:
    """One game with uniformly random decisions, ended by ``round_cap`` at the latest."""
    rng = random.Random(seed)
    state = new_game(players, time_limit_rounds=round_cap)
    while not state.is_terminal():
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state


def simulate(players: int, games: int, seed: int | None, round_cap: int = ROUND_CAP) -> Summary:
    """Play ``games`` random games; each game's own seed comes from ``seed``."""
    master = random.Random(seed)
    summary = Summary(players, games, seed, round_cap)
    for _ in range(games):
        game_seed = master.randrange(2**63)
        s = play_random_game(players, game_seed, round_cap)
        summary.results.append(
            GameResult(
                seed=game_seed,
                winners=s.winners(),
                end=s.end_reason,
                scores=list(s.scores),
                turns=s.turns,
                rounds=s.round,
                deciding=deciding_causes(s),
                record=s.record(),
            )
        )
    return summary


def _spread(values: list[int]) -> tuple[str, str, str, str]:
    if not values:
        return "-", "-", "-", "-"
    return (
        f"{statistics.fmean(values):.1f}",
        f"{statistics.median(values):g}",
        str(min(values)),
        str(max(values)),
    )


def _cause_label(cause: str) -> str:
    if cause in FIGURES:
        return f"{cause} {FIGURES[cause].name}"
    return "third-turn declaration" if cause == "declaration" else cause


def print_summary(summary: Summary, console: Console) -> None:
    """The tables: game length, how games end, win share per seat, deciding figures."""
    n = len(summary.results)

    def pct(x: float) -> str:
        return f"{100 * x / n:.1f}%" if n else "-"

    head = Table(title=f"Dado Romano: {n} random games, {summary.players} players")
    head.add_column("")
    for col in ("mean", "median", "min", "max"):
        head.add_column(col, justify="right")
    head.add_row("turns", *_spread([r.turns for r in summary.results]))
    head.add_row("rounds", *_spread([r.rounds for r in summary.results]))
    console.print(head)

    ends = Table(title=f"How games end (time limit: {summary.round_cap} rounds)")
    ends.add_column("end")
    ends.add_column("games", justify="right")
    ends.add_column("share", justify="right")
    for label, key in (("exactly 150", "150"), ("time limit", "time")):
        ends.add_row(label, str(summary.ended(key)), pct(summary.ended(key)))
    console.print(ends)

    seats = Table(title="Win share per seat (shared wins split)")
    seats.add_column("seat", justify="right")
    seats.add_column("wins", justify="right")
    seats.add_column("share", justify="right")
    for seat, wins in enumerate(summary.win_share()):
        seats.add_row(str(seat), f"{wins:.1f}", pct(wins))
    console.print(seats)

    figs = Table(title="Deciding figure (cause of the winner's last score change)")
    figs.add_column("figure")
    figs.add_column("games", justify="right")
    figs.add_column("share", justify="right")
    for cause, count in summary.deciding_figures():
        figs.add_row(_cause_label(cause), f"{count:.1f}", pct(count))
    console.print(figs)
    if summary.seed is not None:
        console.print(f"seed {summary.seed}", highlight=False)


def write_jsonl(summary: Summary, path: str) -> None:
    """One line per game: its seed, result and full record (replayable)."""
    with open(path, "w", encoding="utf-8") as f:
        for i, r in enumerate(summary.results):
            line = {
                "game": i,
                "seed": r.seed,
                "winners": r.winners,
                "end": r.end,
                "scores": r.scores,
                "turns": r.turns,
                "rounds": r.rounds,
                "deciding": r.deciding,
                "record": r.record,
            }
            f.write(json.dumps(line) + "\n")


def run_simulation(
    players: int,
    games: int,
    seed: int | None,
    jsonl: str | None,
    console: Console,
) -> None:
    """Play ``games`` random games of ``players`` and print the summary tables.

    Called by ``alea simulate --game romano``; ``jsonl`` (a path) also writes
    one JSON line per game with its replayable record.
    """
    if players < 2:
        raise ValueError("Dado Romano needs at least 2 players")
    if games < 0:
        raise ValueError("the number of games cannot be negative")
    summary = simulate(players, games, seed)
    print_summary(summary, console)
    if jsonl:
        write_jsonl(summary, jsonl)
        console.print(f"wrote {len(summary.results)} games to {jsonl}", highlight=False)
