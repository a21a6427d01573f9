"""The interactive terminal game: prompts, commands, hot-seat hand-over.

At each human decision the player sees the table from their seat, the
numbered legal choices, and a prompt that accepts:

* a number from the list, or any legal action in notation (``C:444``,
  ``R:116``, ``p:blue3`` -- the letter's case does not matter);
* ``help``, ``rules <building>``, ``log``, ``undo``, ``save [file]``,
  ``load [file]``, ``board``, ``quit``.

Bad input gets a message saying why and a new prompt, never a traceback.
With several humans at one keyboard (hot seat), a "pass the keyboard" screen
clears everything before a different human's private view is shown.
All I/O goes through a Rich console and an input function, so tests can
drive it, and a pseudo-terminal test drives the real thing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.text import Text

import alea.iacta as iacta
from alea import render
from alea.iacta.notation import CARD_KINDS, DICE_KINDS
from alea.play.session import Session

DEFAULT_SAVE = "alea-save.json"

RULES = {
    "temple": (
        "Temple (4-5 players). Each player has at most one group. Your group must end up "
        "with exactly one die more than the leading (largest) group, and a higher pip sum. "
        "Draw a Fortuna tile per die placed (kept secret). At evaluation the largest group "
        "keeps 2 tiles, everyone else who drew keeps 1; a lone Temple die draws one more."
    ),
    "senate": (
        "Senate. One straight per player (consecutive different values), extended at either "
        "end; no two straights identical. Ranked by length, then highest value. The first "
        "draws 3 Senate cards, keeps 1 and passes 2 to the second, who keeps 1 (2 players: "
        "only the first; 5 players: the third gets the last). Other straights go to the "
        "Latrine."
    ),
    "castrum": (
        "Castrum. Sets of equal dice; one new set or additions to one of yours per turn; no "
        "two sets with the same value and size. Ranked by size, then value; in rank order "
        "each set's owner takes a revealed province. Sets that win nothing go to the Latrine."
    ),
    "forum": (
        "Forum. One die, or two dice summing to 5 (1+4, 2+3). The row stays sorted; a new "
        "die goes left of equal or higher dice, pushing them right; dice pushed past the "
        "last column go to the Latrine. Left to right, each die's owner takes a patrician."
    ),
    "latrine": (
        "Latrine. Only when no other placement is legal: one die. Each die in the Latrine at "
        "the end of the round (also pushed-off and losing dice) earns a re-roll token."
    ),
    "scoring": (
        "Scoring. Patricians go into provinces of their colour (one man and one woman per "
        "place): a province scores its value plus its patricians, one less than its value "
        "when empty. Plus Senate cards, Fortuna tiles, and one point per two tokens. The "
        "best arrangement is computed for you."
    ),
    "turn": (
        "A turn: roll your unplaced dice, re-roll any of them for a token each as often as "
        "you like, then place at least one die in exactly one building. The round ends when "
        "someone has placed their last die and the go-round is finished."
    ),
}

HELP = """\
Type the number of a choice, or an action in notation:
  T:56 S:345 C:444 F:14 L:2   place dice (Temple, Senate, Castrum, Forum, Latrine)
  R:116                       re-roll those dice (one token)
  K:VII P:blue3 N:greenw2     choose a Senate card, province or patrician
Commands:
  board             show the table again
  log               the events so far (others' secrets hidden)
  rules <topic>     temple, senate, castrum, forum, latrine, scoring, turn
  undo              take back your last decision (if nothing random happened since)
  save [file]       save the game (default alea-save.json)
  load [file]       load a saved game
  quit              leave the game"""

InputFn = Callable[[str], str]


class Quit(Exception):
    """The player asked to leave."""


def normalise(text: str) -> str:
    """``c:444`` → ``C:444``; ``p:Blue3`` → ``P:blue3`` (notation letters are capitals)."""
    head, sep, rest = text.partition(":")
    if not sep:
        return text
    kind = head.strip().upper()
    rest = rest.strip()
    if kind in ("P", "N"):
        rest = rest.lower()
    elif kind == "K":
        rest = rest.upper() if not rest.upper().startswith("XII-") else "XII-" + rest[4:].lower()
    return f"{kind}:{rest}"


class TerminalGame:
    """Runs a :class:`Session` at a terminal."""

    def __init__(
        self,
        session: Session,
        console: Console | None = None,
        read: InputFn | None = None,
        bot_delay: float = 0.0,
    ) -> None:
        self.session = session
        self.console = console or Console()
        self.read: InputFn = read or self.console.input
        self.bot_delay = bot_delay
        self.viewer: int | None = None  # the human whose private view is on screen
        self.seen: dict[int, int] = {}  # log length each human has seen

    # ---------------------------------------------------------------- loop

    def run(self) -> None:
        """Play until the game ends or the player quits."""
        try:
            while not self.session.state.is_terminal():
                seat = self.session.to_move()
                if seat == iacta.CHANCE:
                    self.session.step_chance()
                elif not self.session.is_human(seat):
                    self._bot_turn(seat)
                else:
                    self._human_turn(seat)
            self._final()
        except Quit:
            self.console.print("Goodbye. (Type 'save' before 'quit' next time to keep a game.)")
        except (EOFError, KeyboardInterrupt):
            self.console.print("\nInput closed: leaving the game.")

    def _bot_turn(self, seat: int) -> None:
        name = self.session.names[seat]
        with self.console.status(f"{name} is thinking…", spinner="dots"):
            self.session.step_bot()
        if self.bot_delay:
            import time

            time.sleep(self.bot_delay)

    def _hand_over(self, seat: int) -> None:
        """In hot seat, hide the previous human's screen before showing ``seat``'s."""
        humans = self.session.humans
        if len(humans) > 1 and self.viewer != seat:
            self.console.clear()
            self.console.rule("Pass the keyboard")
            self.console.print(
                f"Pass the keyboard to {self.session.names[seat]}. "
                "Everyone else, look away. Press Enter when ready."
            )
            self.read("")
            self.console.clear()
        self.viewer = seat

    def _human_turn(self, seat: int) -> None:
        self._hand_over(seat)
        self._show_news(seat)
        self._show(seat)
        while self.session.to_move() == seat and not self.session.state.is_terminal():
            line = self.read(f"{self.session.names[seat]}> ").strip()
            if not line:
                continue
            if self._command(seat, line):
                if self.session.to_move() != seat:
                    return
                continue
            action = self._parse_choice(line)
            if action is None:
                continue
            try:
                done = self.session.human_move(action)
            except iacta.IllegalActionError as err:
                self.console.print(f"[red]Not allowed:[/] {err}")
                continue
            self.console.print(f"You: {done} ({render.describe_action(done)})")
            self.seen[seat] = len(self.session.state.history)
            return

    def _parse_choice(self, line: str) -> str | None:
        """A number or notation → notation; None (after a message) if it is neither."""
        legal = self.session.state.legal_actions()
        numbered = [a for a in legal if a.kind != "R"]
        if line.isdigit():
            k = int(line)
            if 1 <= k <= len(numbered):
                return str(numbered[k - 1])
            self.console.print(f"[red]No choice {k}:[/] pick 1 to {len(numbered)}.")
            return None
        text = normalise(line)
        kind = text.partition(":")[0]
        if ":" not in text or kind not in DICE_KINDS | CARD_KINDS:
            self.console.print(
                f"[red]Unknown input[/] {line!r}: type a number, an action such as C:444, "
                "or 'help'."
            )
            return None
        return text

    # ------------------------------------------------------------ commands

    def _command(self, seat: int, line: str) -> bool:
        """Handle a command; False if ``line`` is not one."""
        word, _, arg = line.partition(" ")
        word = word.lower()
        arg = arg.strip()
        if word in ("help", "?", "h"):
            self.console.print(HELP, markup=False, highlight=False)
        elif word == "rules":
            topic = arg.lower()
            if topic not in RULES:
                self.console.print(f"Rules of: {', '.join(RULES)} (e.g. 'rules forum').")
            else:
                self.console.print(RULES[topic])
        elif word == "log":
            events = self.session.state.log(seat)
            self.console.print(" ".join(events[-120:]) or "(nothing yet)", highlight=False)
        elif word in ("board", "show"):
            self._show(seat)
        elif word == "undo":
            try:
                self.session.undo(seat)
            except iacta.IllegalActionError as err:
                self.console.print(f"[red]Cannot undo:[/] {err}")
            else:
                self.console.print("Taken back.")
                self._show(self.session.to_move() if self.session.to_move() >= 0 else seat)
        elif word == "save":
            path = Path(arg or DEFAULT_SAVE)
            try:
                self.session.save(path)
            except OSError as err:
                self.console.print(f"[red]Could not save:[/] {err}")
            else:
                self.console.print(f"Saved to {path}.")
        elif word == "load":
            path = Path(arg or DEFAULT_SAVE)
            try:
                self.session = Session.load(path)
            except (OSError, ValueError) as err:
                self.console.print(f"[red]Could not load:[/] {err}")
            else:
                self.console.print(f"Loaded {path}.")
                self.viewer = None
                mover = self.session.to_move()
                if mover >= 0 and self.session.is_human(mover):
                    self._hand_over(mover)
                    self._show(mover)
        elif word in ("quit", "exit"):
            raise Quit
        else:
            return False
        return True

    # ------------------------------------------------------------- display

    def _show(self, seat: int) -> None:
        view = self.session.state.view(seat)
        names = self.session.names
        self.console.print(render.board(view, names))
        if view["to_move"] == seat:
            legal = self.session.state.legal_actions()
            tokens = view["players_info"][seat]["tokens"]
            self.console.print(render.choices(legal, tokens))
            self.console.print(Text("Number or notation; 'help' for commands.", style="dim"))

    def _show_news(self, seat: int) -> None:
        """The events since this human last decided, as their log shows them."""
        log = self.session.state.log(seat)
        start = self.seen.get(seat, 0)
        if start > len(log):  # after an undo or a load
            start = 0
        news = [e for e in log[start:] if not e.startswith(("province:", "patrician:"))]
        if news:
            self.console.print(Text("Since your last move: " + " ".join(news[-40:]), style="dim"))
        self.seen[seat] = len(log)

    def _final(self) -> None:
        if len(self.session.humans) > 1:
            self.console.clear()
        view = self.session.state.view(None)
        self.console.print(render.board(view, self.session.names))
        self.console.print(render.score_table(view, self.session.names))
