"""The game state of Alea Iacta Est and its round flow (RULES.md §2, §3, §7).

The state is a plain mutable object in the style of OpenSpiel: the caller asks
who is to move (:meth:`State.current_player`), what is legal
(:meth:`State.legal_actions`, :meth:`State.chance_outcomes`) and applies one
(:meth:`State.apply`). Chance is explicit: every roll, reveal and draw is an
:class:`~alea.iacta.notation.Outcome` chosen outside the engine, so the engine
holds no random generator and no hidden deck *order*: an unseen deck is the
multiset of its cards, and a draw is uniform over it. That makes the full
state free of secrets other than the cards players hold, and a record of
events replays the game exactly.

The order of events is the binding one of RULES.md §7.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

# CHANCE and TERMINAL are shared by every game (alea.game); views and determinize read them here.
from alea.game import CHANCE as CHANCE
from alea.game import TERMINAL as TERMINAL
from alea.game import Asked
from alea.iacta import castrum, forum, latrine, senate, temple
from alea.iacta.board import Board
from alea.iacta.cards import (
    PLAYER_COLOURS,
    fortuna_stack,
    patrician_deck,
    province_deck,
    senate_deck,
)
from alea.iacta.dice import (
    Roll,
    draw,
    remove_dice,
    roll_distribution,
    roll_info,
    roll_sampler,
    rolled,
    submultisets,
)
from alea.iacta.errors import IllegalActionError, NotationError
from alea.iacta.notation import (
    _ACTION_PARTS,
    _OUTCOME_PARTS,
    _OUTCOMES,
    CASTRUM,
    CHOOSE_PATRICIAN,
    CHOOSE_PROVINCE,
    CHOOSE_SENATE,
    FORTUNA,
    FORUM,
    PATRICIAN,
    PROVINCE,
    REROLL,
    ROLL,
    SENATE,
    SENATE_DRAW,
    TEMPLE,
    Action,
    Outcome,
    card_action,
    card_outcome,
    dice_action,
    fortuna_outcome,
    parse,
)

if TYPE_CHECKING:
    from alea.iacta.view_text import Encode, TextParts

DICE_PER_PLAYER: Final = 8
#: Senate cards the first-ranked player draws at an evaluation (RULES.md §4.2).
SENATE_HAND: Final = 3

# Phases. Chance phases are below DECIDE's neighbours; see CHANCE_PHASES.
REVEAL_PROVINCE: Final = 0
REVEAL_PATRICIAN: Final = 1
ROLL_DICE: Final = 2
REROLL_DICE: Final = 3
DRAW_FORTUNA: Final = 4
TEMPLE_BONUS: Final = 5
DRAW_SENATE: Final = 6
DECIDE: Final = 7
CHOOSE_SENATE_CARD: Final = 8
CHOOSE_PROVINCE_CARD: Final = 9
CHOOSE_PATRICIAN_TILE: Final = 10
GAME_OVER: Final = 11

PHASE_NAMES: Final = (
    "reveal-province",
    "reveal-patrician",
    "roll",
    "reroll",
    "fortuna-draw",
    "temple-bonus",
    "senate-draw",
    "placement",
    "senate-choice",
    "castrum-choice",
    "forum-choice",
    "game-over",
)
CHANCE_PHASES: Final = frozenset(range(DECIDE))
#: Chance phases whose event belongs to the player whose turn it is (see State.actor).
_OWN_CHANCE: Final = frozenset({ROLL_DICE, REROLL_DICE, DRAW_FORTUNA, TEMPLE_BONUS})

ROUNDS: Final = {2: 6, 3: 6, 4: 5, 5: 5}

_EXPECTED_KIND: Final = {
    REVEAL_PROVINCE: PROVINCE,
    REVEAL_PATRICIAN: PATRICIAN,
    DRAW_FORTUNA: FORTUNA,
    TEMPLE_BONUS: FORTUNA,
    DRAW_SENATE: SENATE_DRAW,
}


def _reroll_options(info: Roll) -> tuple[Action, ...]:
    """Every re-roll of the roll ``info`` describes (kept on its record, like the buildings')."""
    found = info.rerolls
    if found is None:
        found = tuple(dice_action(REROLL, dice) for dice in submultisets(info.dice))
        info.rerolls = found
    return found


class State(Board):
    """A game of Alea Iacta Est in progress. Create one with :func:`new_game`.

    Attributes are public for the building modules, views and records, but
    only the methods below are the API; change the state only with
    :meth:`apply` (the legal moves and the public part of the view are kept
    per position and dropped by it). The placed dice (``players``,
    ``temple``, ``senate``, ``castrum``, ``forum``) are the
    :class:`~alea.iacta.board.Board` part.
    """

    __slots__ = (
        "_drawn",
        "_drawn_card",
        "_keys",
        "_legal",
        "_public_view",
        "_result",
        "_rolled",
        "_shown_accounts",
        "_view_text",
        "castrum_queue",
        "dice_left",
        "ending",
        "evaluations",
        "fortuna_discards",
        "fortuna_drawn",
        "fortuna_kept",
        "fortuna_pending",
        "fortuna_stack",
        "history",
        "kept_dice",
        "latrine",
        "patrician_pool",
        "patricians",
        "phase",
        "player",
        "private",
        "province_pool",
        "provinces",
        "removed_patricians",
        "removed_provinces",
        "reroll_count",
        "revealed_patricians",
        "revealed_provinces",
        "roll",
        "round",
        "rounds",
        "senate_bottom",
        "senate_cards",
        "senate_hand",
        "senate_pool",
        "senate_takers",
        "senate_turn",
        "start",
        "tokens",
    )

    rounds: int
    round: int
    start: int
    phase: int
    player: int
    ending: bool
    dice_left: list[int]
    roll: tuple[int, ...]
    kept_dice: tuple[int, ...]
    reroll_count: int
    tokens: list[int]
    latrine: list[int]
    fortuna_stack: list[int]
    fortuna_discards: list[int]
    fortuna_drawn: list[list[int]]
    fortuna_kept: list[list[int]]
    fortuna_pending: int
    senate_pool: list[str]
    senate_bottom: list[tuple[str, int]]
    senate_hand: list[str]
    senate_takers: list[int]
    senate_turn: int
    province_pool: list[str]
    patrician_pool: list[str]
    revealed_provinces: list[str]
    revealed_patricians: list[str]
    removed_provinces: list[str]
    removed_patricians: list[str]
    provinces: list[list[str]]
    patricians: list[list[str]]
    senate_cards: list[list[str]]
    castrum_queue: list[tuple[int, int, int]]
    #: One public account per evaluated round (see :meth:`_open_evaluation`); an entry is
    #: replaced, never changed in place, so a clone may share the entries.
    evaluations: list[dict[str, Any]]
    history: list[str]
    private: dict[int, int]
    _legal: list[Action] | None
    _result: Any
    _keys: list[tuple[int, int]] | None
    #: The :class:`~alea.iacta.dice.Roll` record of ``roll`` once it was rolled here, or of
    #: the roll :meth:`sample_chance` just drew (None otherwise): the legal list uses it
    #: only when ``_rolled.dice is roll``, and :meth:`apply` only when handed its outcome,
    #: so a roll set any other way (a test, a record) is looked up as before.
    _rolled: Roll | None
    #: The card or tile outcome :meth:`sample_chance` drew at this position (None once
    #: anything is applied, and in a clone), and its card: :meth:`apply` handed that very
    #: object skips checking it. Only ``apply`` changes a state, and it clears this.
    _drawn: Outcome | None
    _drawn_card: str
    #: The public part of this position's view, built by the first :meth:`view` asked of
    #: it and shared by the views of every seat (:func:`alea.iacta.views.view`), or None.
    #: Only :meth:`apply` changes a built state, and its first statement clears this; a
    #: new state (:meth:`_new`, :meth:`clone`, the records) starts without one.
    _public_view: dict[str, Any] | None
    #: The views' copies of the round accounts (:func:`alea.iacta.views.shown_accounts`),
    #: each beside the account it copies. Accounts are replaced, never changed in place
    #: (:meth:`_note_evaluation`), so a copy stands while its account is the same object:
    #: clones share the list, which is replaced, never changed.
    _shown_accounts: list[tuple[dict[str, Any], dict[str, Any]]] | None
    #: The public part encoded as JSON text for :func:`alea.iacta.view_text.view_text`,
    #: kept and cleared with ``_public_view``, or None.
    _view_text: TextParts | None

    # ------------------------------------------------------------------ set-up

    def __init__(self) -> None:
        """An empty shell: :meth:`_new`, :meth:`clone` and the records fill every field.

        Every way of making a state comes through here, so none starts with another
        position's view.
        """
        self._public_view = None
        self._shown_accounts = None
        self._view_text = None

    @classmethod
    def _new(cls, players: int) -> State:
        if players not in ROUNDS:
            raise ValueError(f"Alea Iacta Est is played by 2 to 5 players, not {players}")
        s = cls()
        n = players
        s.players = n
        s.rounds = ROUNDS[n]
        s.round = 0
        s.start = 0
        s.phase = REVEAL_PROVINCE
        s.player = 0
        s.ending = False
        s.dice_left = [DICE_PER_PLAYER] * n
        s.roll = ()
        s.kept_dice = ()
        s.reroll_count = 0
        s.tokens = [0] * n
        s.temple = [()] * n
        s.senate = [None] * n
        s.castrum = {}
        s.forum = []
        s.latrine = [0] * n
        stack = fortuna_stack() if n >= 4 else {1: 0, 2: 0, 3: 0}
        s.fortuna_stack = [0, stack[1], stack[2], stack[3]]
        s.fortuna_discards = [0, 0, 0, 0]
        s.fortuna_drawn = [[] for _ in range(n)]
        s.fortuna_kept = [[] for _ in range(n)]
        s.fortuna_pending = 0
        s.senate_pool = senate_deck(n)
        s.senate_bottom = []
        s.senate_hand = []
        s.senate_takers = []
        s.senate_turn = 0
        s.province_pool = province_deck()
        s.patrician_pool = patrician_deck()
        s.revealed_provinces = []
        s.revealed_patricians = []
        s.removed_provinces = []
        s.removed_patricians = []
        s.provinces = [[] for _ in range(n)]
        s.patricians = [[] for _ in range(n)]
        s.senate_cards = [[] for _ in range(n)]
        s.castrum_queue = []
        s.evaluations = []
        s.history = []
        s.private = {}
        s._legal = None
        s._result = None
        s._keys = None
        s._rolled = None
        s._drawn = None
        s._drawn_card = ""
        return s

    def clone(self) -> State:
        """An independent copy (cheap: flat lists and tuples, no deep copy)."""
        c = State()
        c.players = self.players
        c.rounds = self.rounds
        c.round = self.round
        c.start = self.start
        c.phase = self.phase
        c.player = self.player
        c.ending = self.ending
        c.dice_left = self.dice_left[:]
        c.roll = self.roll
        c.kept_dice = self.kept_dice
        c.reroll_count = self.reroll_count
        c.tokens = self.tokens[:]
        c.temple = self.temple[:]
        c.senate = self.senate[:]
        c.castrum = self.castrum.copy()
        c.forum = self.forum[:]
        c.latrine = self.latrine[:]
        c.fortuna_stack = self.fortuna_stack[:]
        c.fortuna_discards = self.fortuna_discards[:]
        c.fortuna_drawn = [d[:] for d in self.fortuna_drawn]
        c.fortuna_kept = [k[:] for k in self.fortuna_kept]
        c.fortuna_pending = self.fortuna_pending
        c.senate_pool = self.senate_pool[:]
        c.senate_bottom = self.senate_bottom[:]
        c.senate_hand = self.senate_hand[:]
        c.senate_takers = self.senate_takers[:]
        c.senate_turn = self.senate_turn
        c.province_pool = self.province_pool[:]
        c.patrician_pool = self.patrician_pool[:]
        c.revealed_provinces = self.revealed_provinces[:]
        c.revealed_patricians = self.revealed_patricians[:]
        c.removed_provinces = self.removed_provinces[:]
        c.removed_patricians = self.removed_patricians[:]
        c.provinces = [p[:] for p in self.provinces]
        c.patricians = [p[:] for p in self.patricians]
        c.senate_cards = [k[:] for k in self.senate_cards]
        c.castrum_queue = self.castrum_queue[:]
        c.evaluations = self.evaluations[:]
        c._shown_accounts = self._shown_accounts
        c.history = self.history[:]
        c.private = self.private.copy()
        c._legal = self._legal
        c._result = self._result
        c._keys = self._keys
        c._rolled = self._rolled
        c._drawn = None  # a clone is checked in full (it may be changed before it is applied)
        c._drawn_card = ""
        return c

    # ------------------------------------------------------------- who moves

    def current_player(self) -> int:
        """The seat to decide (0..n-1), or :data:`CHANCE`, or :data:`TERMINAL`."""
        phase = self.phase
        if phase == GAME_OVER:
            return TERMINAL
        if phase < DECIDE:
            return CHANCE
        return self.player

    def is_chance(self) -> bool:
        """Whether the next event is a chance outcome."""
        return self.phase < DECIDE

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.phase == GAME_OVER

    def actor(self) -> int | None:
        """The seat the next event belongs to (None: a public reveal, or the end).

        A decision is its player's; a chance event is the player's whose turn
        or draw it is: their roll and re-roll, their Fortuna draw and the
        Temple's bonus tile (RULES.md §3, §4.1), and the Senate draw of the
        first taker, who looks at the cards first (§4.2). Province and
        patrician reveals belong to nobody.
        """
        phase = self.phase
        if phase >= DECIDE:
            return None if phase == GAME_OVER else self.player
        if phase in _OWN_CHANCE:
            return self.player
        if phase == DRAW_SENATE and self.senate_takers:
            return self.senate_takers[0]
        return None

    @property
    def phase_name(self) -> str:
        """The phase as a word, for views and messages."""
        return PHASE_NAMES[self.phase]

    # ------------------------------------------------------------ legal moves

    def legal_actions(self) -> list[Action]:
        """The legal actions of the player to move (empty at chance and terminal nodes).

        Placements come first (Temple, Senate, Castrum, Forum, or the forced
        Latrine), then re-rolls when the player has a token.
        """
        legal = self._legal
        if legal is None:
            legal = self._compute_legal()
            self._legal = legal
        return legal

    def _compute_legal(self) -> list[Action]:
        phase = self.phase
        if phase == DECIDE:
            seat = self.player
            # The roll's record, once per list: the buildings and re-rolls share it.
            info = self._rolled
            if info is None or info.dice is not self.roll:
                info = roll_info(self.roll)
            found = self._placements(seat, info)
            if not found:
                found = list(latrine.options_for(info))
            if self.tokens[seat]:
                found.extend(_reroll_options(info))
            return found
        if phase == CHOOSE_SENATE_CARD:
            return _card_choices(CHOOSE_SENATE, self.senate_hand)
        if phase == CHOOSE_PROVINCE_CARD:
            return _card_choices(CHOOSE_PROVINCE, self.revealed_provinces)
        if phase == CHOOSE_PATRICIAN_TILE:
            return _card_choices(CHOOSE_PATRICIAN, self.revealed_patricians)
        return []

    def placements(self, seat: int, roll: tuple[int, ...]) -> list[Action]:
        """Legal placements in the Temple, Senate, Castrum and Forum (not the Latrine)."""
        return self._placements(seat, roll_info(roll))

    def _placements(self, seat: int, info: Roll) -> list[Action]:
        """:meth:`placements` for the roll ``info`` describes (looked up once, by the caller)."""
        found = temple.options_for(self, seat, info) if self.players >= 4 else []
        found.extend(senate.options_for(self, seat, info))
        found.extend(castrum.options_for(self, seat, info))
        found.extend(forum.options_for(self, seat, info))
        return found

    def chance_outcomes(self) -> list[tuple[Outcome, float]]:
        """Every possible chance outcome with its probability (empty unless at chance)."""
        phase = self.phase
        if phase == ROLL_DICE:
            return list(roll_distribution(self.dice_left[self.player]))
        if phase == REROLL_DICE:
            return list(roll_distribution(self.reroll_count))
        if phase == REVEAL_PROVINCE:
            return _uniform(PROVINCE, self.province_pool)
        if phase == REVEAL_PATRICIAN:
            return _uniform(PATRICIAN, self.patrician_pool)
        if phase in (DRAW_FORTUNA, TEMPLE_BONUS):
            stack = self._fortuna_source()
            total = sum(stack)
            return [(fortuna_outcome(v), stack[v] / total) for v in (1, 2, 3) if stack[v]]
        if phase == DRAW_SENATE:
            if self.senate_pool:
                return _uniform(SENATE_DRAW, self.senate_pool)
            return [(card_outcome(SENATE_DRAW, self.senate_bottom[0][0]), 1.0)]
        return []

    def sample_chance(self, rng: random.Random) -> Outcome:
        """Draw one outcome of :meth:`chance_outcomes` with the generator ``rng``.

        Dice are rolled one by one and cards drawn uniformly from the unseen
        ones, which is the same distribution, without listing every outcome.
        """
        phase = self.phase
        if ROLL_DICE <= phase <= REROLL_DICE:  # adjacent phases: two int comparisons
            count = self.dice_left[self.player] if phase == ROLL_DICE else self.reroll_count
            info = draw(roll_sampler(count), rng.random())
            self._rolled = info  # apply() is most likely handed its outcome next
            return info.outcome
        # A card or tile drawn here is possible here: apply() skips checking it if handed
        # it before anything else is applied (see _drawn).
        if phase == REVEAL_PROVINCE:
            pool = self.province_pool
            return self._drawn_now(PROVINCE, pool[int(rng.random() * len(pool))])
        if phase == REVEAL_PATRICIAN:
            pool = self.patrician_pool
            return self._drawn_now(PATRICIAN, pool[int(rng.random() * len(pool))])
        if phase == DRAW_SENATE and self.senate_pool:
            pool = self.senate_pool
            return self._drawn_now(SENATE_DRAW, pool[int(rng.random() * len(pool))])
        if phase in (DRAW_FORTUNA, TEMPLE_BONUS):
            stack = self._fortuna_source()
            pick = int(rng.random() * sum(stack))
            for value in (1, 2, 3):
                if pick < stack[value]:
                    self._drawn = outcome = fortuna_outcome(value)
                    self._drawn_card = _OUTCOME_PARTS[outcome][2]
                    return outcome
                pick -= stack[value]
        pending = self.chance_outcomes()
        if not pending:
            raise IllegalActionError("no chance event is pending")
        return pending[0][0]

    def _drawn_now(self, kind: str, card: str) -> Outcome:
        """The outcome drawing ``card``, remembered as drawn here (see ``_drawn``)."""
        outcome = card_outcome(kind, card)
        self._drawn = outcome
        self._drawn_card = card
        return outcome

    def _fortuna_source(self) -> list[int]:
        """The tiles a draw comes from: the stack, or the discards to be reshuffled."""
        return self.fortuna_stack if sum(self.fortuna_stack) else self.fortuna_discards

    # ----------------------------------------------------------------- apply

    def apply(self, x: Action | Outcome | str) -> None:
        """Apply an action or a chance outcome (or its notation), in place.

        Raises :class:`~alea.iacta.errors.IllegalActionError` (a
        ``ValueError``) and leaves the state unchanged if ``x`` is not legal.
        """
        # Before anything is changed: no view built before this event outlives it.
        self._public_view = None
        self._view_text = None
        phase = self.phase
        if phase == GAME_OVER:
            raise IllegalActionError(f"{x}: the game is over")
        if ROLL_DICE <= phase <= REROLL_DICE:  # adjacent phases: two int comparisons
            # A roll: its record is the one sample_chance just drew, or found by the outcome's
            # text in one look-up; anything else (a roll no sampler made yet, a wrong count,
            # not a roll) is checked in full. A roll's only condition is its number of dice.
            info = self._rolled
            if info is None or info.outcome is not x:
                info = rolled(x)
            count = self.dice_left[self.player] if phase == ROLL_DICE else self.reroll_count
            if info is None or len(info.dice) != count:
                info = roll_info(_OUTCOME_PARTS[self._check_outcome(x)][1])
            self._apply_roll(info)
        elif phase < DECIDE:
            drawn = self._drawn
            if drawn is not None and x is drawn:
                # Drawn by sample_chance from this very position (anything applied since
                # would have cleared it): possible by construction.
                self._drawn = None
                self._apply_outcome(drawn, self._drawn_card)
            else:
                outcome = self._check_outcome(x)
                self._drawn = None
                self._apply_outcome(outcome, _OUTCOME_PARTS[outcome][2])
        else:
            legal = self.legal_actions()
            # The caller almost always passes one of the shared Action objects of the list.
            # list.index compares by identity first (a pointer comparison each, in C), and
            # by text only otherwise; legal actions are distinct texts, so the first match
            # is the action. One C call: the pure build no longer loops in Python.
            index = _index_of(legal, x)
            if index < 0:
                raise IllegalActionError(self.explain(x))
            self._apply_action(legal[index])
        self._legal = None

    def explain(self, x: str) -> str:
        """A player-readable reason why ``x`` is not legal now ('' if it is)."""
        if self.phase == GAME_OVER:
            return f"{x}: the game is over"
        if self.phase < DECIDE:
            try:
                self._check_outcome(x)
            except IllegalActionError as err:
                return str(err)
            return ""
        try:
            token = parse(x)
        except NotationError as err:
            return str(err)
        if not isinstance(token, Action):
            return f"{x}: it is seat {self.player}'s decision, not a chance event"
        if token in self.legal_actions():
            return ""
        return self._explain_action(token)

    def _explain_action(self, action: Action) -> str:
        phase = self.phase
        kind = action.kind
        seat = self.player
        if phase == CHOOSE_SENATE_CARD:
            if kind != CHOOSE_SENATE:
                return f"{action}: seat {seat} must now choose a Senate card (K:…)"
            return f"{action}: that card is not among the Senate cards you hold"
        if phase == CHOOSE_PROVINCE_CARD:
            if kind != CHOOSE_PROVINCE:
                return f"{action}: seat {seat} must now choose a province (P:…)"
            return f"{action}: that province is not revealed next to the Castrum"
        if phase == CHOOSE_PATRICIAN_TILE:
            if kind != CHOOSE_PATRICIAN:
                return f"{action}: seat {seat} must now choose a patrician (N:…)"
            return f"{action}: that patrician is not revealed below the Forum"
        # placement phase
        if kind in (CHOOSE_SENATE, CHOOSE_PROVINCE, CHOOSE_PATRICIAN):
            return f"{action}: seat {seat} must now re-roll or place dice, not choose a card"
        dice = action.dice
        if not _contains(self.roll, dice):
            shown = "".join(map(str, self.roll))
            return f"{action}: you did not roll those dice (your dice: {shown})"
        if kind == REROLL:
            return f"{action}: you have no re-roll tokens"
        if kind == TEMPLE:
            return temple.explain(self, seat, dice)
        if kind == SENATE:
            return senate.explain(self, seat, dice)
        if kind == CASTRUM:
            return castrum.explain(self, seat, dice)
        if kind == FORUM:
            return forum.explain(self, seat, dice)
        return latrine.explain(dice, bool(self.placements(seat, self.roll)))

    def _check_outcome(self, x: Action | Outcome | str) -> Outcome:
        """The outcome ``x`` names if it is possible now, else IllegalActionError."""
        found = _OUTCOMES.get(x)
        if found is None:
            try:
                token = parse(x)
            except NotationError as err:
                raise IllegalActionError(str(err)) from None
            if not isinstance(token, Outcome):
                raise IllegalActionError(
                    f"{x}: a chance event is next ({self.phase_name}), not a decision"
                )
            found = token
        kind, dice, card = _OUTCOME_PARTS[found]
        phase = self.phase
        if phase <= REROLL_DICE and phase >= ROLL_DICE:
            count = self.dice_left[self.player] if phase == ROLL_DICE else self.reroll_count
            if kind != ROLL:
                raise IllegalActionError(f"{x}: a roll of {count} dice is next")
            if len(dice) != count:
                raise IllegalActionError(f"{x}: {count} dice are rolled, not {len(dice)}")
            return found
        expected = _EXPECTED_KIND[phase]
        if kind != expected:
            raise IllegalActionError(
                f"{x}: the next chance event is a {expected} ({self.phase_name})"
            )
        if phase == REVEAL_PROVINCE:
            possible = card in self.province_pool
        elif phase == REVEAL_PATRICIAN:
            possible = card in self.patrician_pool
        elif phase == DRAW_SENATE:
            possible = (
                card in self.senate_pool
                if self.senate_pool
                else bool(self.senate_bottom) and card == self.senate_bottom[0][0]
            )
        else:
            possible = self._fortuna_source()[int(card)] > 0
        if possible:
            return found
        raise IllegalActionError(f"{x}: that {expected} is not among the unseen ones")

    def _record(self, token: str, seat: int = -1) -> None:
        """Append ``token`` to the history; ``seat`` >= 0 marks it private to that seat."""
        if seat >= 0:
            self.private[len(self.history)] = seat
        self.history.append(token)

    def _apply_roll(self, info: Roll) -> None:
        """Apply the (checked) roll or re-roll whose record is ``info``."""
        self.history.append(info.outcome)
        if self.phase == REROLL_DICE:
            info = roll_info(tuple(sorted(self.kept_dice + info.dice)))
            self.kept_dice = ()
        self.roll = info.dice
        self._rolled = info
        self.phase = DECIDE

    def _apply_outcome(self, outcome: Outcome, card: str) -> None:
        """Apply the checked card or tile ``outcome``; ``card`` is its card (its parts'
        third, not ``outcome.card``: ``Outcome`` is a plain class, slow to read)."""
        phase = self.phase
        if phase == REVEAL_PROVINCE:
            self._record(outcome)
            self.province_pool.remove(card)
            self.revealed_provinces.append(card)
            if len(self.revealed_provinces) == self.players:
                self.phase = REVEAL_PATRICIAN
        elif phase == REVEAL_PATRICIAN:
            self._record(outcome)
            self.patrician_pool.remove(card)
            self.revealed_patricians.append(card)
            if len(self.revealed_patricians) == forum.columns(self.players):
                self.player = self.start
                self.phase = ROLL_DICE
        elif phase == DRAW_FORTUNA:
            seat = self.player
            self._record(outcome, seat)
            self.fortuna_drawn[seat].append(self._take_fortuna(int(card)))
            self.fortuna_pending -= 1
            if self.fortuna_pending == 0 or not self._fortuna_available():
                self.fortuna_pending = 0
                self._end_turn()
        elif phase == TEMPLE_BONUS:
            self._record(outcome)
            self.fortuna_kept[self.player].append(self._take_fortuna(int(card)))
            self._start_senate()
        elif phase == DRAW_SENATE:
            self._record(outcome, self.senate_takers[0])
            if self.senate_pool:
                self.senate_pool.remove(card)
            else:
                self.senate_bottom.pop(0)
            self.senate_hand.append(card)
            if len(self.senate_hand) == SENATE_HAND or not (self.senate_pool or self.senate_bottom):
                self.senate_turn = 0
                self.player = self.senate_takers[0]
                self.phase = CHOOSE_SENATE_CARD

    def _fortuna_available(self) -> bool:
        return bool(sum(self.fortuna_stack) or sum(self.fortuna_discards))

    def _take_fortuna(self, value: int) -> int:
        """Remove one tile of ``value`` from the stack, reshuffling the discards if empty."""
        if not sum(self.fortuna_stack):
            self.fortuna_stack = self.fortuna_discards
            self.fortuna_discards = [0, 0, 0, 0]
        self.fortuna_stack[value] -= 1
        return value

    def _apply_action(self, action: Action) -> None:
        seat = self.player
        phase = self.phase
        if phase == DECIDE:
            self.history.append(action)
            kind, dice, _ = _ACTION_PARTS[action]
            if kind == REROLL:
                self.tokens[seat] -= 1
                self.kept_dice = remove_dice(self.roll, dice)
                self.reroll_count = len(dice)
                self.roll = ()
                self.phase = REROLL_DICE
                return
            self.roll = ()
            self.dice_left[seat] -= len(dice)
            if kind == TEMPLE:
                temple.place(self, seat, dice)
                if self._fortuna_available():
                    self.fortuna_pending = len(dice)
                    self.phase = DRAW_FORTUNA
                    return
            elif kind == SENATE:
                senate.place(self, seat, dice)
            elif kind == CASTRUM:
                castrum.place(self, seat, dice)
            elif kind == FORUM:
                for owner in forum.place(self, seat, dice):
                    self.latrine[owner] += 1
            else:
                self.latrine[seat] += 1
            self._end_turn()
        elif phase == CHOOSE_SENATE_CARD:
            self._record(action, seat)
            card = _ACTION_PARTS[action][2]  # not action.card: Action is a plain class
            self.senate_hand.remove(card)
            self.senate_cards[seat].append(card)
            self._clear_straight(seat, self.dice_left)
            self.senate_turn += 1
            if self.senate_turn < len(self.senate_takers) and self.senate_hand:
                self.player = self.senate_takers[self.senate_turn]
                return
            self.senate_bottom.extend((card, seat) for card in self.senate_hand)
            self.senate_hand = []
            self._start_castrum()
        elif phase == CHOOSE_PROVINCE_CARD:
            self._record(action)
            card = _ACTION_PARTS[action][2]
            self.revealed_provinces.remove(card)
            self.provinces[seat].append(card)
            owner, value, count = self.castrum_queue.pop(0)
            del self.castrum[(owner, value)]
            self.dice_left[owner] += count
            self._next_castrum()
        elif phase == CHOOSE_PATRICIAN_TILE:
            self._record(action)
            card = _ACTION_PARTS[action][2]
            self.revealed_patricians.remove(card)
            self.patricians[seat].append(card)
            self.forum.pop(0)
            self.dice_left[seat] += 1
            self._next_forum()

    # ------------------------------------------------------------ round flow

    def _end_turn(self) -> None:
        """Pass the turn clockwise, or end placement after the go-round (RULES.md §3.1)."""
        n = self.players
        seat = self.player
        dice_left = self.dice_left
        if not dice_left[seat]:
            self.ending = True
        last = (self.start - 1) % n
        for _ in range(n):
            if self.ending and seat == last:
                break
            seat = (seat + 1) % n
            if dice_left[seat]:
                self.player = seat
                self.phase = ROLL_DICE
                return
        self._end_placement()

    def _end_placement(self) -> None:
        self._open_evaluation()
        for seat in range(self.players):
            self.latrine[seat] += self.dice_left[seat]
            self.dice_left[seat] = 0
        self.ending = False
        self._evaluate_temple()

    def _open_evaluation(self) -> None:
        """Start this round's public account of its evaluation, from the board as placement
        left it: what each building is about to give, in the order it is evaluated.

        Nothing in it is secret (RULES.md §6): the board is public, and the Temple's tiles
        are added only as the Temple turns them face up. The choices themselves (``K:``,
        ``P:``, ``N:``) are events of the history from ``start`` on, so the account holds
        only what the history does not say: who ranks where, whose dice earn nothing and
        go to the Latrine, the tiles kept and discarded, the tokens taken.
        """
        ranked = senate.ranking(self.senate)
        takers = senate.takers(self.players)
        straights: list[dict[str, Any]] = []
        for rank, seat in enumerate(ranked):
            straight = self.senate[seat]
            low, high = straight if straight is not None else (0, -1)
            straights.append(
                {"seat": seat, "dice": list(range(low, high + 1)), "takes": rank < takers}
            )
        winners = len(self.revealed_provinces)
        sets = [
            {"seat": owner, "value": value, "count": count, "wins": rank < winners}
            for rank, (owner, value, count) in enumerate(castrum.ranking(self.castrum))
        ]
        self.evaluations.append(
            {
                "round": self.round + 1,
                "start": len(self.history),
                "end": None,
                "unplaced": self.dice_left[:],
                "temple": [],
                "senate": straights,
                "castrum": sets,
                "forum": [{"seat": owner, "value": value} for value, owner in self.forum],
                "latrine": [],
            }
        )

    def _note_evaluation(self, key: str, value: Any) -> None:
        """Set ``key`` of this round's account, replacing the entry (clones share entries)."""
        entry = dict(self.evaluations[-1])
        entry[key] = value
        self.evaluations[-1] = entry

    def _evaluate_temple(self) -> None:
        """Temple evaluation (RULES.md §4.1): keep the best tiles, discard the rest."""
        groups = self.temple
        if self.players >= 4:
            leader = -1
            size = 0
            for seat, group in enumerate(groups):
                if len(group) > size:
                    leader, size = seat, len(group)
            lone = sum(len(g) for g in groups) == 1
            bonus = lone and self._fortuna_available()
            account: list[dict[str, Any]] = []
            for seat, drawn in enumerate(self.fortuna_drawn):
                if not drawn and not groups[seat]:
                    continue
                drawn.sort(reverse=True)
                keep = 2 if seat == leader else 1
                self.fortuna_kept[seat].extend(drawn[:keep])
                for value in drawn[keep:]:
                    self.fortuna_discards[value] += 1
                account.append(
                    {
                        "seat": seat,
                        "dice": list(groups[seat]),
                        "lead": seat == leader,
                        "kept": drawn[:keep],
                        "discarded": drawn[keep:],
                        "bonus": bonus and seat == leader,
                    }
                )
            self._note_evaluation("temple", account)
            self.fortuna_drawn = [[] for _ in range(self.players)]
            for seat, group in enumerate(groups):
                self.dice_left[seat] += len(group)
            self.temple = [()] * self.players
            if lone and self._fortuna_available():
                self.player = leader
                self.phase = TEMPLE_BONUS
                return
        self._start_senate()

    def _start_senate(self) -> None:
        ranked = senate.ranking(self.senate)
        if not ranked:
            self._start_castrum()
            return
        count = senate.takers(self.players)
        self.senate_takers = ranked[:count]
        for seat in ranked[count:]:
            self._clear_straight(seat, self.latrine)
        self.senate_hand = []
        self.phase = DRAW_SENATE

    def _clear_straight(self, seat: int, into: list[int]) -> None:
        """Take ``seat``'s Senate straight off the board, its dice going to ``into[seat]``.

        ``into`` is ``self.dice_left`` for a player who took a card (the dice
        come back, RULES.md §4.2) or ``self.latrine`` for one who did not.
        """
        straight = self.senate[seat]
        if straight is not None:
            into[seat] += straight[1] - straight[0] + 1
            self.senate[seat] = None

    def _start_castrum(self) -> None:
        # Takers who were never handed a card (the hand ran out) lose their straights.
        for seat in range(self.players):
            self._clear_straight(seat, self.latrine)
        self.senate_takers = []
        ranked = castrum.ranking(self.castrum)
        winners = len(self.revealed_provinces)
        for owner, value, count in ranked[winners:]:
            self.latrine[owner] += count
            del self.castrum[(owner, value)]
        self.castrum_queue = ranked[:winners]
        self._next_castrum()

    def _next_castrum(self) -> None:
        if self.castrum_queue:
            self.player = self.castrum_queue[0][0]
            self.phase = CHOOSE_PROVINCE_CARD
            return
        self.removed_provinces.extend(self.revealed_provinces)
        self.revealed_provinces = []
        self._next_forum()

    def _next_forum(self) -> None:
        if self.forum:
            self.player = self.forum[0][1]
            self.phase = CHOOSE_PATRICIAN_TILE
            return
        self.removed_patricians.extend(self.revealed_patricians)
        self.revealed_patricians = []
        self._evaluate_latrine()

    def _evaluate_latrine(self) -> None:
        self._note_evaluation("latrine", self.latrine[:])
        self._note_evaluation("end", len(self.history))
        for seat in range(self.players):
            self.tokens[seat] += self.latrine[seat]
            self.dice_left[seat] += self.latrine[seat]
            self.latrine[seat] = 0
        self._end_round()

    def _end_round(self) -> None:
        self.round += 1
        self.start = (self.start + 1) % self.players
        if self.round == self.rounds:
            self.phase = GAME_OVER
            self.player = TERMINAL
            return
        self.phase = REVEAL_PROVINCE

    # ---------------------------------------------------------------- result

    def holdings(self, seat: int) -> Any:
        """What ``seat`` owns for end-game scoring, as a :class:`scoring.Holdings`."""
        from alea.iacta.scoring import Holdings

        return Holdings(
            provinces=tuple(self.provinces[seat]),
            patricians=tuple(self.patricians[seat]),
            senate=tuple(self.senate_cards[seat]),
            fortuna=tuple(self.fortuna_kept[seat]),
            tokens=self.tokens[seat],
        )

    def arrangements(self) -> list[Any]:
        """Each seat's optimal end-game arrangement (RULES.md §5), computed once."""
        if not self.is_terminal():
            raise IllegalActionError("the game is not over: there is no final arrangement yet")
        if self._result is None:
            from alea.iacta.scoring import best_arrangement

            self._result = [best_arrangement(self.holdings(s)) for s in range(self.players)]
        return list(self._result)

    def _final_keys(self) -> list[tuple[int, int]]:
        """(score, tie-break) per seat: the numbers only, cheaper than full arrangements."""
        if self._keys is None:
            from alea.iacta.scoring import final_score

            self._keys = [
                final_score(
                    self.provinces[seat],
                    self.patricians[seat],
                    self.senate_cards[seat],
                    self.fortuna_kept[seat],
                    self.tokens[seat],
                )
                for seat in range(self.players)
            ]
        return self._keys

    def returns(self) -> list[float]:
        """Final scores, one per seat (all zero before the end, as in OpenSpiel)."""
        if not self.is_terminal():
            return [0.0] * self.players
        return [float(score) for score, _ in self._final_keys()]

    def winners(self) -> list[int]:
        """The winning seats (RULES.md §5.3): best score, then best unplaced patricians."""
        if not self.is_terminal():
            return []
        keys = self._final_keys()
        best = max(keys)
        return [seat for seat, key in enumerate(keys) if key == best]

    def result(self) -> dict[str, Any] | None:
        """Scores, tie-breaks (best unplaced patricians, §5.3) and winners; None before the end."""
        if not self.is_terminal():
            return None
        keys = self._final_keys()
        return {
            "scores": [score for score, _ in keys],
            "tiebreaks": [tiebreak for _, tiebreak in keys],
            "winners": self.winners(),
        }

    def progress(self) -> tuple[int, int]:
        """``(round, rounds)``: the round under way, from 1 (the last once over), and rounds."""
        return min(self.round + 1, self.rounds), self.rounds

    # The time limit and the human referee of the game contract: Alea Iacta Est has neither.

    def can_declare_time_up(self) -> bool:
        """Never: Alea Iacta Est has no time limit."""
        return False

    def time_up_declared(self) -> bool:
        """Never: Alea Iacta Est has no time limit."""
        return False

    def asked(self) -> Asked | None:
        """Nothing: Alea Iacta Est has no referee."""
        return None

    # ------------------------------------------------------------- interfaces

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (RULES.md §6), JSON-ready; ``None`` is a spectator.

        The public part is written once per position and kept until :meth:`apply`
        (every seat's view shares it); what a caller may change of the result is
        said by :func:`alea.iacta.views.view`.
        """
        from alea.iacta.views import view

        return view(self, seat)

    def view_text(self, seat: int | None, encode: Encode) -> str:
        """:meth:`view` as JSON text written by ``encode`` (the same value), the public
        part encoded once per position: see :mod:`alea.iacta.view_text`."""
        from alea.iacta.view_text import view_text

        return view_text(self, seat, encode)

    def log(self, seat: int | None, start: int = 0) -> list[str]:
        """The history from ``start`` on as ``seat`` may see it: others' hidden draws and
        choices as ``?``."""
        from alea.iacta.views import log

        return log(self, seat, start)

    def replay_view(self, step: int | None = None) -> dict[str, Any]:
        """The table after ``step`` events of this finished game, every hand shown."""
        from alea.iacta.views import replay_view

        return replay_view(self, step)

    def to_json(self) -> dict[str, Any]:
        """The full state (hidden parts included) as JSON-ready data; see :meth:`from_json`."""
        from alea.iacta.records import state_to_json

        return state_to_json(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> State:
        """Rebuild a state saved with :meth:`to_json`, exactly."""
        from alea.iacta.records import state_from_json

        return state_from_json(data)

    def record(self) -> dict[str, Any]:
        """The game record: player count and every event so far, in notation."""
        from alea.iacta.records import record

        return record(self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<alea.iacta.State {self.players} players, round {self.round + 1}/{self.rounds}, "
            f"{self.phase_name}, {len(self.history)} events>"
        )

    @property
    def colours(self) -> tuple[str, ...]:
        """Dice colour of each seat."""
        return PLAYER_COLOURS[: self.players]


def _index_of(legal: list[Action], x: object) -> int:
    """Where ``x`` is in ``legal``, or -1.

    The caller almost always passes one of the shared ``Action`` objects of the list, so
    the list is searched by identity first: ``list.index`` compares the text of every
    entry before the match (``Action`` is a ``str``). Legal actions are distinct texts,
    so a plain string naming one is found by text after that.
    """
    for i, action in enumerate(legal):
        if action is x:
            return i
    try:
        return legal.index(x)  # type: ignore[arg-type]
    except ValueError:
        return -1


def _card_choices(kind: str, cards: list[str]) -> list[Action]:
    """The card actions of ``kind`` for ``cards``, without repeats, in first-seen order
    (XIII can appear twice in a hand)."""
    found: list[Action] = []
    for card in cards:
        action = card_action(kind, card)
        if action not in found:
            found.append(action)
    return found


def _uniform(kind: str, pool: list[str]) -> list[tuple[Outcome, float]]:
    total = len(pool)
    counts: dict[str, int] = {}
    for card in pool:
        counts[card] = counts.get(card, 0) + 1
    return [(card_outcome(kind, card), c / total) for card, c in counts.items()]


def _contains(roll: tuple[int, ...], dice: tuple[int, ...]) -> bool:
    rest = list(roll)
    for v in dice:
        if v not in rest:
            return False
        rest.remove(v)
    return True


def new_game(players: int = 4) -> State:
    """A new game for 2–5 players; the first events are the set-up reveals (chance)."""
    return State._new(players)
