"""Rich renderings of a game for the terminal, built from *views* only.

Everything here takes the dict of :meth:`alea.iacta.State.view`, never the
state, so a terminal screen can show no more than the seat (or spectator) it
is drawn for may see. This is the one terminal renderer: ``alea demo``,
``alea replay``, ``alea legal --board``, ``alea simulate`` and terminal play
(``alea play``) all draw with it.

Functions that show seats take optional player ``names``; without them a seat
reads ``seat 2 (blue)``, with them ``Anna (blue)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from alea.iacta.cards import PATRICIANS, PLAYER_COLOURS, PROVINCES, SENATE_CARDS
from alea.iacta.notation import BUILDING_NAMES, Action

#: Rich styles for the dice of each seat (gray, brown, blue, green, yellow).
SEAT_STYLES = (
    "bold white on grey35",
    "bold white on dark_orange3",
    "bold white on blue",
    "bold white on green4",
    "bold black on yellow3",
)
#: Rich colours for the card colours of RULES.md §1.
CARD_STYLES = {
    "red": "bold red",
    "orange": "bold dark_orange",
    "yellow": "bold yellow",
    "green": "bold green",
    "blue": "bold blue",
    "purple": "bold magenta",
    "grey": "bold grey70",
}
#: Style of Senate cards, which have no colour of their own.
SENATE_STYLE = "bold cyan"
#: The dice colour of each seat, as the views name them.
SEAT_NAMES = PLAYER_COLOURS


def die(value: int, seat: int) -> Text:
    """One die, in its owner's colour."""
    return Text(f" {value} ", style=SEAT_STYLES[seat % len(SEAT_STYLES)])


def dice(values: Sequence[int], seat: int) -> Text:
    """Several dice of one seat, separated by spaces."""
    text = Text()
    for i, value in enumerate(values):
        if i:
            text.append(" ")
        text.append_text(die(value, seat))
    return text


def card(name: str) -> Text:
    """A province, patrician or Senate card, coloured by its colour.

    Senate cards are cyan; an XI extra written ``+redm2`` takes its patrician's
    colour; anything else is just bold.
    """
    bare = name.removeprefix("+")
    info = PROVINCES.get(bare) or PATRICIANS.get(bare)
    if info is not None:
        return Text(name, style=CARD_STYLES[info.colour])
    if bare in SENATE_CARDS:
        return Text(name, style=SENATE_STYLE)
    return Text(name, style="bold")


def cards(names: Sequence[str]) -> Text:
    """Several cards separated by spaces, or a dash for none."""
    if not names:
        return Text("—", style="dim")
    return Text(" ").join(card(n) for n in names)


def seat_label(seat: int, viewer: int | None = None, names: Sequence[str] | None = None) -> Text:
    """``seat 2 (blue)`` (or ``Anna (blue)`` with ``names``), marked ``(you)`` for ``viewer``."""
    who = names[seat] if names is not None and seat < len(names) else f"seat {seat}"
    label = Text(f"{who} ", style="bold")
    colour = SEAT_NAMES[seat % len(SEAT_NAMES)]
    label.append(f"({colour})", style=SEAT_STYLES[seat % len(SEAT_STYLES)].split()[-1])
    if viewer is not None and viewer == seat:
        label.append(" (you)", style="bold cyan")
    return label


def _owned(seat: int, values: Sequence[int], names: Sequence[str] | None) -> Text:
    """``seat 1 (brown)  3  4 `` -- dice with their owner named, for colourless terminals."""
    return seat_label(seat, names=names).append(" ").append_text(dice(values, seat))


def buildings(view: dict[str, Any], names: Sequence[str] | None = None) -> RenderableType:
    """The five buildings with the dice in them, each group named by its owner."""
    b = view["buildings"]
    table = Table(box=box.ROUNDED, show_header=True, expand=True, title="Buildings")
    table.add_column("Building", style="bold", no_wrap=True)
    table.add_column("Dice")
    gap = Text("   ")
    if "temple" in b:
        parts = [
            _owned(seat, group, names).append(f" ={sum(group)}")
            for seat, group in enumerate(b["temple"])
            if group
        ]
        table.add_row("Templum", gap.join(parts) if parts else Text("empty", style="dim"))
    parts = [_owned(seat, straight, names) for seat, straight in enumerate(b["senate"]) if straight]
    table.add_row("Senatus", gap.join(parts) if parts else Text("empty", style="dim"))
    parts = [
        _owned(entry["seat"], [entry["value"]] * entry["count"], names) for entry in b["castrum"]
    ]
    table.add_row("Castrum", gap.join(parts) if parts else Text("empty", style="dim"))
    row = Text()
    for column in range(b["forum_columns"]):
        if column < len(b["forum"]):
            entry = b["forum"][column]
            row.append_text(die(entry["value"], entry["seat"]))
        else:
            row.append(" · ", style="dim")
        row.append(" ")
    table.add_row("Forum", row)
    parts = [
        seat_label(seat, names=names).append(" ").append(f" {count}× ", style=SEAT_STYLES[seat])
        for seat, count in enumerate(b["latrine"][: view["players"]])
        if count
    ]
    table.add_row("Latrina", gap.join(parts) if parts else Text("empty", style="dim"))
    return table


def displays(view: dict[str, Any]) -> RenderableType:
    """The revealed provinces and patricians, and the deck sizes."""
    decks = view["decks"]
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold")
    table.add_column()
    table.add_row("Provinces", cards(view["revealed"]["provinces"]))
    table.add_row("Patricians", cards(view["revealed"]["patricians"]))
    deck_text = (
        f"provinces {decks['provinces']}, patricians {decks['patricians']}, "
        f"Senate {decks['senate']}"
    )
    if "temple" in view["buildings"]:
        discards = decks["fortuna_discards"]
        deck_text += (
            f", Fortuna {decks['fortuna']} (discards 1×{discards['1']} 2×{discards['2']} "
            f"3×{discards['3']})"
        )
    table.add_row("Decks", Text(deck_text, style="dim"))
    return table


def holdings(view: dict[str, Any], names: Sequence[str] | None = None) -> RenderableType:
    """Each player's holdings, hidden parts only for the viewing seat."""
    viewer = view["seat"]
    table = Table(box=box.SIMPLE_HEAD, expand=True, title="Players")
    table.add_column("Player", no_wrap=True)
    table.add_column("Dice", justify="right")
    table.add_column("Tokens", justify="right")
    table.add_column("Provinces")
    table.add_column("Patricians")
    table.add_column("Senate")
    if "temple" in view["buildings"]:
        table.add_column("Fortuna")
    for info in view["players_info"]:
        seat = info["seat"]
        label = seat_label(seat, viewer, names)
        if seat == view["start_player"]:
            label.append(" ★", style="bold yellow")
        senate = (
            cards(info["senate"])
            if info["senate"] is not None
            else Text(f"{info['senate_count']} hidden", style="dim")
        )
        row: list[RenderableType] = [
            label,
            str(info["dice"]),
            str(info["tokens"]),
            cards(info["provinces"]),
            cards(info["patricians"]),
            senate,
        ]
        if "temple" in view["buildings"]:
            fortuna = Text(" ".join(map(str, info["fortuna"])) or "—")
            if info["fortuna_drawn"]:
                shown = info["fortuna_drawn_values"]
                drawn = (
                    " ".join(map(str, shown)) if shown is not None else "?" * info["fortuna_drawn"]
                )
                fortuna.append(f" +[{drawn}]", style="dim")
            row.append(fortuna)
        table.add_row(*row)
    return table


def header(view: dict[str, Any], names: Sequence[str] | None = None) -> Text:
    """Round and phase, who is to move, and the roll on the table."""
    turn = view["turn"]
    text = Text(f"Round {view['round']}/{view['rounds']} · {view['phase']}", style="bold")
    mover = view["to_move"]
    if isinstance(mover, int):
        text.append("   to move: ").append_text(seat_label(mover, view["seat"], names))
    if turn["seat"] is not None and turn["roll"]:
        if turn["seat"] == mover:
            text.append("   roll: ")
        else:
            text.append("   roll of ").append_text(seat_label(turn["seat"], names=names))
            text.append(": ")
        text.append_text(dice(turn["roll"], turn["seat"]))
    return text


def board(
    view: dict[str, Any], names: Sequence[str] | None = None, title: str | None = None
) -> RenderableType:
    """The whole table as seen from ``view``.

    When it is the viewing seat's decision, ends with ``Your roll:`` and the
    Senate cards it chooses from.
    """
    parts: list[RenderableType] = [
        header(view, names),
        buildings(view, names),
        displays(view),
        holdings(view, names),
    ]
    me = view["seat"]
    if me is not None and view["to_move"] == me:
        roll = view["turn"]["roll"]
        if roll and view["turn"]["seat"] == me:
            parts.append(Text.assemble(("Your roll: ", "bold"), dice(roll, me)))
        if view["senate_hand"]:
            parts.append(
                Text.assemble(("Senate cards to choose from: ", "bold"), cards(view["senate_hand"]))
            )
    return Panel(Group(*parts), title=title or "Alea Iacta Est", border_style="grey50")


def describe_action(action: Action) -> str:
    """A player's action in words, e.g. ``Castrum: 3 × 4``."""
    kind = action.kind
    values = action.dice
    if kind == "R":
        return f"re-roll {'-'.join(map(str, values))} (costs a token)"
    if kind in BUILDING_NAMES:
        word = BUILDING_NAMES[kind]
        if kind == "C":
            return f"{word}: {len(values)} × {values[0]}"
        return f"{word}: {'-'.join(map(str, values))}"
    what = {"K": "keep Senate card", "P": "take province", "N": "take patrician"}[kind]
    return f"{what} {action.card}"


def choices(actions: Sequence[Action], tokens: int) -> RenderableType:
    """The numbered choices (placements and cards); re-rolls summarised in one hint."""
    numbered = [a for a in actions if a.kind != "R"]
    rerolls = [a for a in actions if a.kind == "R"]
    cells = [
        Text.assemble((f"{i:>3}. ", "bold"), (str(a), "cyan"), f"  {describe_action(a)}")
        for i, a in enumerate(numbered, start=1)
    ]
    parts: list[RenderableType] = [Columns(cells, equal=True, column_first=True)]
    if rerolls:
        every = max(rerolls, key=lambda a: len(a.dice))
        parts.append(
            Text(
                f"  Re-roll: type R: and the dice to re-roll, e.g. {every} for all "
                f"({tokens} token{'s' if tokens != 1 else ''} left).",
                style="dim",
            )
        )
    return Group(*parts)


def arrangement_table(
    seat: int, arrangement: dict[str, Any], names: Sequence[str] | None = None
) -> RenderableType:
    """Where each of a player's patricians goes, and why each place scores what it does."""
    title = seat_label(seat, names=names).append(": optimal arrangement")
    table = Table(box=box.SIMPLE, title=title, title_justify="left")
    table.add_column("Place")
    table.add_column("Patricians")
    table.add_column("Points", justify="right")
    table.add_column("Why", style="dim")
    for place in arrangement["places"]:
        pats = list(place["patricians"]) + ([f"+{place['extra']}"] if place.get("extra") else [])
        table.add_row(card(place["card"]), cards(pats), str(place["points"]), place["reason"])
    for senate in arrangement["breakdown"]["senate"]:
        table.add_row(card(senate["card"]), "", str(senate["points"]), senate["reason"])
    if arrangement["unplaced"]:
        table.add_row("unplaced", cards(arrangement["unplaced"]), "0", "tie-break value")
    return table


def score_table(
    view: dict[str, Any], names: Sequence[str] | None = None, arrangements: bool = True
) -> RenderableType:
    """The final scores with each player's breakdown (needs a terminal view).

    With ``arrangements`` (the default) each player's optimal arrangement
    (RULES.md §5) comes first, then the totals, tie-breaks and winners.
    """
    result = view["result"]
    winners = set(result["winners"])
    table = Table(box=box.ROUNDED, title="Final scores (optimal arrangements)")
    table.add_column("Player", no_wrap=True)
    for column in ("Provinces", "Patricians", "Senate", "Fortuna", "Tokens", "Total", "Tie-break"):
        table.add_column(column, justify="right")
    table.add_column("")
    win = "winner" if len(winners) == 1 else "joint winner"
    for seat, arrangement in enumerate(result["arrangements"]):
        parts = arrangement["breakdown"]
        table.add_row(
            seat_label(seat, names=names),
            str(parts["province_cards"]),
            str(parts["patricians"]),
            str(parts["senate_total"]),
            str(parts["fortuna"]),
            str(parts["tokens"]),
            Text(str(result["scores"][seat]), style="bold"),
            str(result["tiebreaks"][seat]),
            Text(win, style="bold green") if seat in winners else Text(""),
        )
    if not arrangements:
        return table
    tables = [
        arrangement_table(seat, arrangement, names)
        for seat, arrangement in enumerate(result["arrangements"])
    ]
    return Group(*tables, table)


BUILDING_WORDS = {
    "T": "the Temple",
    "S": "the Senate",
    "C": "the Castrum",
    "F": "the Forum",
    "L": "the Latrine",
}


def describe(token: str, seat: int | str | None, names: Sequence[str] | None = None) -> Text:
    """One event of a record as a line a person reads, e.g. ``seat 1 places 4 4 in the Castrum``.

    ``seat`` is who was to move before the event (a seat, or ``"chance"``);
    for chance events it is the seat whose roll or draw it was, if any.
    """
    kind, _, rest = token.partition(":")
    who = seat_label(seat, names=names) if isinstance(seat, int) else Text("chance", style="dim")
    line = Text()
    if kind in BUILDING_WORDS:
        values = [int(ch) for ch in rest]
        line.append_text(who).append(" places ").append_text(dice(values, int(seat or 0)))
        line.append(f" in {BUILDING_WORDS[kind]}")
    elif kind == "R":
        line.append_text(who).append(" spends a token to re-roll ")
        line.append_text(dice([int(ch) for ch in rest], int(seat or 0)))
    elif kind == "K":
        line.append_text(who).append(" keeps a Senate card ").append_text(card(rest))
    elif kind == "P":
        line.append_text(who).append(" takes the province ").append_text(card(rest))
    elif kind == "N":
        line.append_text(who).append(" takes the patrician ").append_text(card(rest))
    elif kind == "roll":
        line.append("  rolls ", style="dim").append_text(
            dice([int(ch) for ch in rest], int(seat)) if isinstance(seat, int) else Text(rest)
        )
    elif kind == "province":
        line.append("  province revealed: ", style="dim").append_text(card(rest))
    elif kind == "patrician":
        line.append("  patrician revealed: ", style="dim").append_text(card(rest))
    elif kind == "fortuna":
        line.append(f"  Fortuna tile drawn: {rest}", style="dim")
    elif kind == "senate":
        line.append(f"  Senate card drawn: {rest}", style="dim")
    else:
        line.append(token)
    return line
