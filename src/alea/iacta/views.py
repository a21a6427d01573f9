"""The JSON view of what a seat may see (RULES.md §6), the redacted history, and replays.

This is the only door through which state leaves the engine for a player, a
bot, a spectator or a browser. What it shows is decided in one place,
:func:`alea.iacta.knowledge.knowledge`; :func:`view` only writes that
:class:`~alea.iacta.knowledge.Knowledge` as JSON-ready data, and
:func:`parse_view` reads it back, so the two forms say the same thing.

The replay of a finished game shows every hidden part, at any step of it:
:func:`replay_view` builds that open table from the seats' own knowledge, and
refuses a game that is still in play.

A view is mostly public: of a position's views, the seats' differ from the
spectator's only in the ``seat`` and in that seat's own secrets
(:func:`alea.iacta.knowledge.own_secrets`). The game server sends every seat
its view after every event, so :func:`view` writes the public part once per
position, keeps it on the state (cleared by the state's ``apply``; see
:func:`view` for why it cannot go stale) and builds each seat's view from it
and the seat's secrets. :func:`reference_view` is the straightforward path it
must always equal (the tests compare them at every step of random games).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from alea.iacta.cards import PLAYER_COLOURS
from alea.iacta.knowledge import Knowledge, knowledge, own_secrets, reveal_all
from alea.iacta.notation import FORTUNA, SENATE_DRAW
from alea.iacta.records import copy_account
from alea.iacta.state import CHANCE, PHASE_NAMES, TERMINAL, new_game

if TYPE_CHECKING:
    from alea.iacta.state import State

__all__ = [
    "HIDDEN",
    "log",
    "parse_view",
    "public_part",
    "redacted_kinds",
    "reference_view",
    "replay_view",
    "to_json",
    "view",
]

HIDDEN = "?"
_T = TypeVar("_T")


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The JSON-ready view of ``state`` for ``seat`` (``None``: a spectator).

    Always equal to :func:`reference_view`, and cheaper when several observers
    ask for the view of one position (the server asks every seat's after every
    event): the spectator's view of the position, which holds no secret, is
    written once and kept on the state (``State._public_view``); each call
    copies it and puts in the seat and that seat's own secrets
    (:func:`~alea.iacta.knowledge.own_secrets`), read from the state at every
    call, never kept.

    Why a kept public part is never stale: it is a function of the position
    alone, and only ``State.apply`` changes a position once it is built (the
    class's contract, which the legal-move cache relies on too; the records
    and :func:`~alea.iacta.determinize.determinize` build new states). The
    first statement of ``apply`` clears it, before anything can change (so an
    event that fails half-way clears it as well), and every new state, a
    :meth:`~alea.iacta.state.State.clone` included, starts without one. The
    secrets are never kept, so even a secret changed by hand is shown as it is.

    What the caller may change: the view's own dicts (the view itself; its
    ``turn``, ``buildings``, ``revealed``, ``removed``, ``decks`` with its
    ``fortuna_discards``, and ``result``; each entry of ``players_info``) and
    the lists directly in the view (``players_info``, ``senate_hand``,
    ``senate_bottom``, ``senate_takers``, ``castrum_queue``, ``evaluations``)
    are new at every call: set, replace or delete their keys, change those
    lists, freely. Everything inside them (the lists of cards and dice, the
    buildings' entries, each round's account, the arrangements) may be shared
    with the other views of the same unchanged position: read it or replace
    it, never change it in place. No caller in the project changes a view in
    place (the server encodes it, the bots and environments read it);
    :func:`reference_view` shares nothing, for one that would.
    """
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"seat {seat} does not exist in a {state.players}-player game")
    public = public_part(state)
    shown = _copy_public(public)
    if seat is None:
        nobody: list[None] = public["senate_bottom"]
        shown["senate_bottom"] = nobody[:]
        return shown
    drawn, cards, hand, bottom = own_secrets(state, seat)
    shown["seat"] = seat
    players: list[dict[str, Any]] = shown["players_info"]
    mine = players[seat]
    mine["fortuna_drawn_values"] = list(drawn)
    mine["senate"] = list(cards)
    shown["senate_hand"] = list(hand) if hand is not None else None
    shown["senate_bottom"] = list(bottom)
    return shown


def public_part(state: State) -> dict[str, Any]:
    """The public part of ``state``'s views (the spectator's view), written at the first
    call per position and kept on the state (see :func:`view`). Shared: never change it."""
    public = state._public_view
    if public is None:
        public = to_json(knowledge(state, None), state)
        state._public_view = public
    return public


def reference_view(state: State, seat: int | None) -> dict[str, Any]:
    """:func:`view` the straightforward way: ``seat``'s knowledge written as JSON, every
    time afresh, sharing nothing with any other call. The reference the tests and
    ``bench/views.py`` hold :func:`view` to (the round accounts copied afresh too, not
    taken from :func:`shown_accounts`)."""
    shown = to_json(knowledge(state, seat), state)
    shown["evaluations"] = [copy_account(entry) for entry in state.evaluations]
    return shown


def _copy_public(public: dict[str, Any]) -> dict[str, Any]:
    """A copy of the kept public view (``to_json``'s layout) for one caller: the view's
    own dicts and its top-level lists new, everything inside them shared (see :func:`view`).

    Not a deep copy: a view holds over a hundred lists and dicts, and making them
    anew costs about as much as writing the view afresh. Written out field by field
    with typed containers, since compiled, a typed ``copy`` or slice is one C call.
    """
    shown = public.copy()
    part: dict[str, Any] = public["turn"]
    shown["turn"] = part.copy()
    part = public["buildings"]
    shown["buildings"] = part.copy()
    part = public["revealed"]
    shown["revealed"] = part.copy()
    part = public["removed"]
    shown["removed"] = part.copy()
    part = public["decks"]
    decks = part.copy()
    discards: dict[str, int] = part["fortuna_discards"]
    decks["fortuna_discards"] = discards.copy()
    shown["decks"] = decks
    items: list[Any] = public["senate_takers"]
    shown["senate_takers"] = items[:]
    items = public["castrum_queue"]
    shown["castrum_queue"] = items[:]
    items = public["evaluations"]
    shown["evaluations"] = items[:]
    players: list[dict[str, Any]] = public["players_info"]
    shown["players_info"] = [player.copy() for player in players]
    result: dict[str, Any] | None = public["result"]
    if result is not None:
        shown["result"] = result.copy()
    return shown


def replay_view(game: State, step: int | None = None) -> dict[str, Any]:
    """The table after the first ``step`` events of the finished ``game``, every secret shown.

    ``game`` is the game's final state (or any state reached by replaying its
    record: the history must be complete); ``step`` runs from 0 (the set-up)
    to ``len(game.history)``, the final position, which is also the default.
    The result has the keys of a spectator's :func:`view` (``seat`` is
    ``None``), with each seat's Senate cards and Fortuna draws, the Senate
    hand being passed and the cards under the Senate deck filled in, as the
    seats that know them see them.

    Raises ``ValueError`` if ``game`` is not over: hidden cards are shown
    only once nobody can use them any more.
    """
    if not game.is_terminal():
        raise ValueError("the game is not over: its hidden cards are not shown yet")
    events = len(game.history)
    if step is None:
        step = events
    if not 0 <= step <= events:
        raise ValueError(f"step {step} is not in this game: it has steps 0 to {events}")
    position = game
    if step < events:
        position = new_game(game.players)
        for event in game.history[:step]:
            position.apply(event)
    return to_json(reveal_all(position), position)


def to_json(k: Knowledge, state: State | None = None) -> dict[str, Any]:
    """``k`` as the JSON-ready view; with ``state`` (the position ``k`` was read from),
    the final result too once the game is over.
    """
    n = k.players
    dice, tokens, provinces, patricians = k.dice, k.tokens, k.provinces, k.patricians
    kept, drawn, drawn_values = k.fortuna_kept, k.fortuna_drawn, k.fortuna_drawn_values
    counts, cards = k.senate_count, k.senate_cards
    players: list[dict[str, Any]] = []
    for s in range(n):
        values = drawn_values[s]
        own = cards[s]
        players.append(
            {
                "seat": s,
                "colour": PLAYER_COLOURS[s],
                "dice": dice[s],
                "tokens": tokens[s],
                "provinces": list(provinces[s]),
                "patricians": list(patricians[s]),
                "fortuna": list(kept[s]),
                "fortuna_drawn": drawn[s],
                "fortuna_drawn_values": list(values) if values is not None else None,
                "senate_count": counts[s],
                "senate": list(own) if own is not None else None,
            }
        )
    buildings: dict[str, Any] = {
        "senate": [list(range(st[0], st[1] + 1)) if st is not None else [] for st in k.senate],
        "castrum": [
            {"seat": owner, "value": value, "count": count} for owner, value, count in k.castrum
        ],
        "forum": [{"value": value, "seat": owner} for value, owner in k.forum],
        "forum_columns": k.forum_columns,
        "latrine": list(k.latrine),
    }
    if n >= 4:
        buildings["temple"] = [list(group) for group in k.temple]
    to_move = k.to_move
    discards = k.fortuna_discards
    result: dict[str, Any] = {
        "game": "alea-iacta-est",
        "players": n,
        "seat": k.seat,
        "round": k.round,
        "rounds": k.rounds,
        "start_player": k.start,
        "phase": PHASE_NAMES[k.phase],
        "to_move": "chance"
        if to_move == CHANCE
        else "terminal"
        if to_move == TERMINAL
        else to_move,
        "turn": {
            "seat": k.turn_seat,
            "roll": list(k.roll),
            "kept": list(k.kept),
            "rerolling": k.rerolling,
            "fortuna_pending": k.fortuna_pending,
            "ending": k.ending,
        },
        "buildings": buildings,
        "revealed": {
            "provinces": list(k.revealed_provinces),
            "patricians": list(k.revealed_patricians),
        },
        "removed": {
            "provinces": list(k.removed_provinces),
            "patricians": list(k.removed_patricians),
        },
        "decks": {
            "provinces": k.deck_provinces,
            "patricians": k.deck_patricians,
            "senate": k.deck_senate,
            "fortuna": k.fortuna_stack,
            "fortuna_discards": {"1": discards[0], "2": discards[1], "3": discards[2]},
        },
        "senate_bottom": list(k.senate_bottom),
        "senate_hand": list(k.senate_hand) if k.senate_hand is not None else None,
        "senate_hand_size": k.senate_hand_size,
        "senate_takers": list(k.senate_takers),
        "senate_turn": k.senate_turn,
        "castrum_queue": [
            {"seat": owner, "value": value, "count": count}
            for owner, value, count in k.castrum_queue
        ],
        "players_info": players,
        "result": None,
    }
    if state is not None:
        # Public accounts of each evaluated round: what the Temple and the Latrine gave,
        # the rankings, whose dice went to the Latrine (RULES.md §3.2; nothing secret).
        result["evaluations"] = shown_accounts(state)
    if state is not None and k.over:
        arrangements = state.arrangements()
        result["result"] = {
            "scores": [a.score for a in arrangements],
            "tiebreaks": [a.tiebreak for a in arrangements],
            "winners": state.winners(),
            "arrangements": [a.to_json() for a in arrangements],
        }
    return result


def parse_view(view: dict[str, Any]) -> Knowledge:
    """Read a :func:`view` back into the :class:`Knowledge` it was written from.

    ``parse_view(state.view(seat)) == knowledge(state, seat)`` for every
    position and observer (the tests check it), so code handed a view, such
    as a bot, works on the same plain fields as code handed a state.
    """
    n = int(view["players"])
    info = view["players_info"]
    turn = view["turn"]
    b = view["buildings"]
    decks = view["decks"]
    to_move = view["to_move"]
    discards = decks["fortuna_discards"]
    return Knowledge(
        seat=view["seat"],
        players=n,
        rounds=int(view["rounds"]),
        round=int(view["round"]),
        start=int(view["start_player"]),
        phase=PHASE_NAMES.index(view["phase"]),
        to_move=CHANCE if to_move == "chance" else TERMINAL if to_move == "terminal" else to_move,
        turn_seat=turn["seat"],
        ending=bool(turn["ending"]),
        roll=tuple(turn["roll"]),
        kept=tuple(turn["kept"]),
        rerolling=int(turn["rerolling"]),
        fortuna_pending=int(turn["fortuna_pending"]),
        dice=tuple([int(p["dice"]) for p in info]),
        tokens=tuple([int(p["tokens"]) for p in info]),
        latrine=tuple(b["latrine"]),
        temple=tuple([tuple(g) for g in b["temple"]]) if "temple" in b else ((),) * n,
        senate=tuple([(s[0], s[-1]) if s else None for s in b["senate"]]),
        provinces=tuple([tuple(p["provinces"]) for p in info]),
        patricians=tuple([tuple(p["patricians"]) for p in info]),
        fortuna_kept=tuple([tuple(p["fortuna"]) for p in info]),
        fortuna_drawn=tuple([int(p["fortuna_drawn"]) for p in info]),
        senate_count=tuple([int(p["senate_count"]) for p in info]),
        castrum=tuple([(c["seat"], c["value"], c["count"]) for c in b["castrum"]]),
        forum=tuple([(f["value"], f["seat"]) for f in b["forum"]]),
        forum_columns=int(b["forum_columns"]),
        revealed_provinces=tuple(view["revealed"]["provinces"]),
        revealed_patricians=tuple(view["revealed"]["patricians"]),
        removed_provinces=tuple(view["removed"]["provinces"]),
        removed_patricians=tuple(view["removed"]["patricians"]),
        deck_provinces=int(decks["provinces"]),
        deck_patricians=int(decks["patricians"]),
        deck_senate=int(decks["senate"]),
        fortuna_stack=int(decks["fortuna"]),
        fortuna_discards=(int(discards["1"]), int(discards["2"]), int(discards["3"])),
        senate_hand_size=int(view["senate_hand_size"]),
        senate_takers=tuple(view["senate_takers"]),
        senate_turn=int(view["senate_turn"]),
        castrum_queue=tuple([(c["seat"], c["value"], c["count"]) for c in view["castrum_queue"]]),
        fortuna_drawn_values=tuple([_maybe(p["fortuna_drawn_values"]) for p in info]),
        senate_cards=tuple([_maybe(p["senate"]) for p in info]),
        senate_hand=_maybe(view["senate_hand"]),
        senate_bottom=tuple(view["senate_bottom"]),
    )


def _maybe(values: list[_T] | None) -> tuple[_T, ...] | None:
    """A shown list as a tuple; a hidden one (``None``) stays hidden."""
    return None if values is None else tuple(values)


def shown_accounts(state: State) -> list[dict[str, Any]]:
    """The views' copies of ``state``'s round accounts, each made once per account.

    Why: every position's view showed a fresh deep copy of every evaluated round's
    account, and by the last rounds that copy was most of a view's cost (about 180
    of 200 µs compiled). An account is never changed in place, only replaced
    (:meth:`State._note_evaluation`), and clones share them; so a copy stays right
    for as long as its account is the same object, and is kept beside it
    (``State._shown_accounts``, shared by clones, replaced whenever an account is
    new). The copies are shared read-only by every view that shows them, like the
    other parts inside a view (see :func:`view`); the list is each call's own.
    """
    kept = state._shown_accounts
    accounts = state.evaluations
    if kept is not None and len(kept) == len(accounts):
        same = True
        for i in range(len(kept)):
            if kept[i][0] is not accounts[i]:
                same = False
                break
        if same:
            return [shown for _, shown in kept]
    fresh: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for i, account in enumerate(accounts):
        if kept is not None and i < len(kept) and kept[i][0] is account:
            fresh.append(kept[i])
        else:
            fresh.append((account, copy_account(account)))
    state._shown_accounts = fresh
    return [shown for _, shown in fresh]


def log(state: State, seat: int | None, start: int = 0) -> list[str]:
    """The event history from entry ``start`` on, with every event private to another seat
    shown as ``kind:?``."""
    private = state.private
    shown = state.history[start:]
    if not private:
        return shown
    if start >= 0 and len(shown) < len(private):
        # A few entries (the server sends each connection the events since its last
        # update): look each one up rather than walk every private event of the game.
        for offset in range(len(shown)):
            owner = private.get(start + offset)
            if owner is not None and owner != seat:
                kind = shown[offset].partition(":")[0]
                shown[offset] = f"{kind}:{HIDDEN}"
        return shown
    for index, owner in private.items():
        if owner != seat and index >= start:
            kind = shown[index - start].partition(":")[0]
            shown[index - start] = f"{kind}:{HIDDEN}"
    return shown


def redacted_kinds() -> tuple[str, ...]:
    """The event kinds that can be private: Fortuna draws, Senate draws and choices."""
    return (FORTUNA, SENATE_DRAW, "K")
