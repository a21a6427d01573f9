"""Dado Romano at the terminal: a group of players around one screen.

The software rolls the die (with a seeded ``random.Random``, so a game can be
replayed), shows each roll, the figure and its effect, the scores and each
player's ceiling state, and asks the players for their decisions. The referee
is either the software (riddles and questions drawn from the bank, answered by
typing 1-4) or a person (who poses their own and types right or wrong).

With a time limit, the clock is read before every step; when it has run out,
the game applies ``last-round`` to the engine, which never reads a clock
itself. Every input is validated here and a bad one gets a message and the
same question again, so the engine only ever receives legal moves.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from rich.console import Console
from rich.table import Table

from alea.game import CHANCE, REFEREE
from alea.play.romano_texts import TEXTS
from alea.romano.bank import Bank, default_bank
from alea.romano.ceiling import TARGET, distance, is_above
from alea.romano.combinations import FIGURES, face
from alea.romano.events import Event
from alea.romano.info import DEFAULT_TIME_LIMIT
from alea.romano.notation import (
    DECLINE,
    LAST_ROUND,
    RIGHT,
    WRONG,
    Action,
    IllegalActionError,
    Outcome,
    answer,
    challenge,
    declare,
    return_number,
)
from alea.romano.records import new_game
from alea.romano.state import DECLARATION_TURN, RefereeMode, State
from alea.romano.texts import EFFECTS

QUIT_WORDS: Final = frozenset({"q", "quit", "exit", "esci", "fine"})
YES_WORDS: Final = frozenset({"y", "yes", "s", "si", "sì", "r", "right", "giusta", "giusto", "1"})
NO_WORDS: Final = frozenset({"n", "no", "w", "wrong", "sbagliata", "sbagliato", "0"})
_NUMBERS: Final = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6}
_ROMAN: Final = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6}


class Stop(Exception):
    """The players quit, or the input ended: stop the game cleanly."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


@dataclass
class Options:
    """What ``alea romano`` was asked to play."""

    players: int = 3
    referee: RefereeMode = "software"
    #: Minutes of play, the rules' default (RULES.md B1) as at the server; None: no limit.
    time_limit: float | None = float(DEFAULT_TIME_LIMIT)
    seed: int | None = None
    lang: str = "en"
    names: list[str] = field(default_factory=list)
    record: Path | None = None


def parse_die(text: str) -> int | None:
    """A die value typed as a digit or a roman numeral (``5``, ``V``); None if neither."""
    t = text.strip().upper()
    return _NUMBERS.get(t) or _ROMAN.get(t)


def parse_declaration(text: str) -> tuple[int, int] | None:
    """Two die values in order: ``53``, ``5 3``, ``5-3``, ``V III``; None if not that."""
    t = text.strip()
    if re.fullmatch(r"[1-6]{2}", t):
        return int(t[0]), int(t[1])
    parts = [p for p in re.split(r"[\s,;/\-]+", t) if p]
    if len(parts) != 2:
        return None
    a, b = parse_die(parts[0]), parse_die(parts[1])
    return (a, b) if a is not None and b is not None else None


def clock_text(seconds: float) -> str:
    """``mm:ss`` (or ``h:mm:ss``) for the time left."""
    s = max(0, int(seconds))
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m:02d}:{sec:02d}"


class TerminalGame:
    """One game at the terminal. ``ask`` and ``clock`` are injectable for tests."""

    def __init__(
        self,
        options: Options,
        console: Console,
        ask: Callable[[str], str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        bank: Bank | None = None,
    ) -> None:
        self.options = options
        self.console = console
        self.ask_fn = ask if ask is not None else self._console_input
        self.clock = clock
        self.bank = bank if bank is not None else default_bank()
        self.t = TEXTS[options.lang]
        self.effects = EFFECTS[options.lang]
        self.seed = (
            options.seed if options.seed is not None else random.SystemRandom().randrange(2**32)
        )
        self.rng = random.Random(self.seed)
        self.names = [
            options.names[i]
            if i < len(options.names) and options.names[i].strip()
            else self.t["player"].format(n=i + 1)
            for i in range(options.players)
        ]
        self.state: State = new_game(options.players, referee=options.referee, bank=self.bank)
        self.shown = 0
        self.deadline: float | None = None

    # ------------------------------------------------------------------ io

    def _console_input(self, prompt: str) -> str:
        return self.console.input(prompt, markup=False, emoji=False)

    def say(self, text: str, style: str = "") -> None:
        """Print one line as plain text (names may contain anything), optionally styled."""
        self.console.print(text, style=style or None, markup=False, highlight=False, emoji=False)

    def ask(self, prompt: str) -> str:
        """Ask for one line; quit words and the end of input stop the game."""
        try:
            line = self.ask_fn(prompt)
        except EOFError as e:
            raise Stop("eof") from e
        except KeyboardInterrupt as e:
            raise Stop("quit") from e
        if line.strip().lower() in QUIT_WORDS:
            raise Stop("quit")
        return line

    # ------------------------------------------------------------------ main loop

    def run(self) -> int:
        """Play until the game ends or the players stop; the exit code (0 normal, 1 no input)."""
        t, o = self.t, self.options
        self.console.rule(t["title"])
        referee = t["referee_human"] if o.referee == "human" else t["referee_software"]
        self.say(t["intro"].format(players=o.players, referee=referee, seed=self.seed))
        if o.time_limit is not None:
            self.deadline = self.clock() + o.time_limit * 60
            self.say(t["time_limit"].format(minutes=f"{o.time_limit:g}"))
        code = 0
        try:
            while not self.state.is_terminal():
                self.check_clock()
                self.narrate()
                self.step()
            self.narrate()
        except Stop as stop:
            self.narrate()
            self.say(t[stop.key], style="bold yellow")
            code = 1 if stop.key == "eof" else 0
        self.scoreboard(title=t["final"])
        self.announce_winners()
        self.save_record()
        return code

    def check_clock(self) -> None:
        """Declare the last round once the time is up (the engine never reads the clock)."""
        if (
            self.deadline is not None
            and self.clock() >= self.deadline
            and self.state.can_declare_last_round()
        ):
            self.state.apply(LAST_ROUND)

    def step(self) -> None:
        """Ask for (or roll) whatever the game waits for, and apply it."""
        s = self.state
        cp = s.current_player()
        if cp == CHANCE:
            if s.phase == "roll" and s.purpose == "pair" and s.pairs == 0 and not s.rolls:
                self.ask(self.t["ask_roll"].format(name=self.names[s.seat]))
            self.apply(s.sample_chance(self.rng))
        elif cp == REFEREE:
            self.apply(self.ask_mark())
        elif s.phase == "declare":
            self.apply(self.ask_declaration())
        elif s.phase == "challenge":
            self.apply(self.ask_challenge())
        elif s.phase == "return":
            self.apply(self.ask_return())
        else:
            self.apply(self.ask_answer())

    def apply(self, move: Action | Outcome) -> None:
        """Apply a move chosen from validated input (an engine refusal is shown, not raised)."""
        try:
            self.state.apply(move)
        except IllegalActionError as e:  # pragma: no cover - input is validated first
            self.say(self.t["engine_error"].format(error=e), style="red")

    # ------------------------------------------------------------------ questions

    def ask_declaration(self) -> Action:
        """The third-turn declaration: two numbers 1-6 in order."""
        name = self.names[self.state.seat]
        while True:
            got = parse_declaration(self.ask(self.t["ask_declare"].format(name=name)))
            if got is not None:
                return declare(*got)
            self.say(self.t["bad_declare"], style="red")

    def ask_return(self) -> Action:
        """Nero's return: one number 1-6."""
        name = self.names[self.state.seat]
        while True:
            n = parse_die(self.ask(self.t["ask_return"].format(name=name)))
            if n is not None:
                return return_number(n)
            self.say(self.t["bad_number"], style="red")

    def ask_challenge(self) -> Action:
        """Messalina: a player number (as shown, from 1) or 0 for nobody."""
        s = self.state
        me = s.seat
        allowed = {t.values[0] for t in s.legal_actions() if t.kind == "challenge"}
        options = ", ".join(f"{i + 1} {self.names[i]}" for i in sorted(allowed)) or "-"
        self.say(self.t["challenge_options"].format(options=options))
        while True:
            text = self.ask(self.t["ask_challenge"].format(name=self.names[me])).strip()
            if text and text.lower() in NO_WORDS:
                return DECLINE
            if not text.isdigit() or not 1 <= int(text) <= s.players:
                self.say(self.t["bad_challenge"], style="red")
                continue
            seat = int(text) - 1
            if seat == me:
                self.say(self.t["bad_challenge_self"], style="red")
            elif seat not in allowed:
                self.say(self.t["bad_challenge_out"].format(name=self.names[seat]), style="red")
            else:
                return challenge(seat)

    def ask_answer(self) -> Action:
        """The player's answer to the riddle or question shown: 1-4."""
        name = self.names[self.state.seat]
        while True:
            text = self.ask(self.t["ask_answer"].format(name=name)).strip()
            if text in ("1", "2", "3", "4"):
                return answer(int(text))
            self.say(self.t["bad_answer"], style="red")

    def ask_mark(self) -> Action:
        """Human referee: pose a riddle or question, then mark the answer."""
        s = self.state
        key = "ask_mark_riddle" if s.item_kind == "riddle" else "ask_mark_question"
        self.say(self.t[key].format(name=self.names[s.seat]), style="bold")
        while True:
            text = self.ask(self.t["ask_mark"]).strip().lower()
            if text in YES_WORDS:
                return RIGHT
            if text in NO_WORDS:
                return WRONG
            self.say(self.t["bad_mark"], style="red")

    # ------------------------------------------------------------------ output

    def narrate(self) -> None:
        """Print every event the engine recorded since the last call."""
        events = self.state.events
        while self.shown < len(events):
            e = events[self.shown]
            self.shown += 1
            self.describe(e)

    def describe(self, e: Event) -> None:
        """One event, as a line (or a block for riddles, questions and the scores)."""
        t, n, k = self.t, self.names, e.kind
        name = n[e.seat] if 0 <= e.seat < len(n) else ""
        other = n[e.other] if 0 <= e.other < len(n) else ""
        if k == "round":
            last = self.state.last_round is not None and e.value >= self.state.last_round
            self.console.rule(t["round_last" if last else "round"].format(n=e.value))
        elif k == "last-round":
            self.say(t["last_round"].format(n=e.value), style="bold magenta")
        elif k == "turn":
            self.scoreboard()
            key = {"declaration": "turn_declaration", "return": "turn_return"}.get(e.text, "turn")
            self.say(t[key].format(name=name), style="bold cyan")
        elif k == "skip":
            self.say(t["skip"].format(name=name), style="yellow")
        elif k == "declare":
            self.say(t["declare"].format(name=name, a=e.text[0], b=e.text[1]))
        elif k == "roll":
            self.say("  " + t["roll"].format(name=name, face=face(e.value), n=e.value))
        elif k == "figure":
            fig = FIGURES[e.cause]
            text = t["figure"].format(pair=fig.pair, figure=fig.name, effect=self.effects[e.cause])
            self.say(text, style="bold")
        elif k == "marcus-applied":
            self.say(t["marcus_applied"].format(name=name, other=other, n=e.value))
        elif k == "declaration":
            self.say(t[f"declaration_{e.value}"].format(a=e.text[0], b=e.text[1]), style="bold")
        elif k == "score":
            self.describe_score(e, name)
        elif k == "eliminated":
            self.say(t["eliminated"].format(name=name), style="bold red")
        elif k == "return":
            key = "return_back" if e.text == "back" else "return_out"
            self.say(t[key].format(name=name, n=e.value))
        elif k == "skip-next":
            self.say(t["skip_next"].format(name=name))
        elif k == "marcus":
            self.say(t["marcus"].format(name=name))
        elif k == "draw":
            self.show_item(e.item, name)
        elif k == "answer":
            self.describe_answer(e)
        elif k == "mark":
            self.say(t["mark_right" if e.text == "right" else "mark_wrong"])
        elif k == "challenge":
            self.say(t["challenge"].format(name=name, other=other), style="bold")
        elif k == "decline":
            self.say(t["decline"].format(name=name))
        elif k == "challenge-result":
            self.say(t[f"challenge_{e.text}"].format(name=name, other=other), style="bold")
        elif k == "end":
            self.say(t["end_150" if e.text == "150" else "end_time"], style="bold magenta")
        elif k == "win":
            self.say(t["win"].format(name=name), style="bold green")

    def describe_score(self, e: Event, name: str) -> None:
        """A score change, saying when it was a *set to*, a swap or inverted by the ceiling."""
        t = self.t
        if e.text == "set":
            line = t["score_set"].format(name=name, old=e.old, new=e.new)
        elif e.text == "swap":
            line = t["score_swap"].format(name=name, old=e.old, new=e.new)
        elif e.inverted:
            line = t["score_inverted"].format(name=name, old=e.old, new=e.new, delta=e.delta)
        else:
            line = t["score"].format(name=name, old=e.old, new=e.new, change=e.new - e.old)
        style = "green" if e.new == TARGET else ("magenta" if e.inverted else "")
        self.say("  " + line, style=style)

    def show_item(self, item_id: str, name: str) -> None:
        """The riddle or question drawn, with its four numbered answers."""
        item = self.bank.get(item_id)
        lang = self.options.lang
        key = "draw_riddle" if item.kind == "riddle" else "draw_question"
        self.say(self.t[key].format(name=name), style="bold")
        self.say(item.text[lang])
        for i, choice in enumerate(item.choices[lang], 1):
            self.say(f"  {i}. {choice}")

    def describe_answer(self, e: Event) -> None:
        """Right or wrong, with the right answer and, for questions, the source."""
        item = self.bank.get(e.item)
        lang = self.options.lang
        if e.text == "right":
            self.say(self.t["answer_right"], style="bold green")
        else:
            right = item.choices[lang][item.answer]
            self.say(self.t["answer_wrong"].format(n=item.answer + 1, choice=right), style="red")
        if item.source:
            self.say(self.t["source"].format(source=item.source), style="dim")

    def scoreboard(self, title: str | None = None) -> None:
        """The scores, distances from 150, turns played and each player's state."""
        s, t = self.state, self.t
        caption = None
        if self.deadline is not None and not s.is_terminal():
            if s.is_last_round():
                caption = t["clock_last"]
            else:
                left = clock_text(self.deadline - self.clock())
                caption = t["clock"].format(clock=left)
        table = Table(title=title, caption=caption)
        table.add_column(t["col_player"])
        for col in ("col_score", "col_to150", "col_turns"):
            table.add_column(t[col], justify="right")
        table.add_column(t["col_status"])
        for i in range(s.players):
            status = []
            if is_above(s.scores[i]):
                status.append(t["status_above"])
            if s.eliminated[i]:
                status.append(t["status_out"])
            if s.skip_next[i]:
                status.append(t["status_skip"])
            if i in s.pending_marcus:
                status.append(t["status_marcus"])
            if s.played[i] == DECLARATION_TURN - 1 and not s.eliminated[i]:
                status.append(t["status_declare"])
            marker = "> " if i == s.seat and not s.is_terminal() else "  "
            table.add_row(
                marker + self.names[i],
                str(s.scores[i]),
                str(distance(s.scores[i])),
                str(s.played[i]),
                "; ".join(status),
            )
        self.console.print(table)

    def announce_winners(self) -> None:
        """The winner, or the winners of a shared victory."""
        w = self.state.winners()
        if len(w) > 1:
            names = ", ".join(self.names[i] for i in w)
            self.say(self.t["winners"].format(names=names), style="bold green")

    def save_record(self) -> None:
        """Write the game record (options and every move) if ``--record`` was given."""
        path = self.options.record
        if path is None:
            return
        data = self.state.record()
        data["seed"] = self.seed
        data["names"] = self.names
        try:
            path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", "utf-8")
        except OSError as e:
            self.say(self.t["save_failed"].format(error=e), style="red")
            return
        self.say(self.t["saved"].format(path=path))


def play(options: Options, console: Console) -> int:
    """Play one game at the terminal; the exit code."""
    return TerminalGame(options, console).run()
