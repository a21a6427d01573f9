"""The checks of the game contract (:mod:`alea.game`), one function per promise.

Each check takes a game's :class:`~alea.game.GameInfo`, the game options, a
player count and a seed, plays seeded random games and raises AssertionError
naming the broken promise. ``test_contract.py`` runs every check on every
registered game; ``test_broken_games.py`` proves the checks can fail.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator, Mapping
from typing import Any

import alea.game as game
from alea.game import CHANCE, REFEREE, TERMINAL, AnyState, GameInfo

#: Events after which a game with a time limit has it declared (so every game ends).
TIME_UP_AFTER = 300
#: Events after which a game without a time limit is taken never to end.
MAX_EVENTS = 20_000
#: Events between two positions at which the costlier checks run (clone, JSON, resample).
STRIDE = 97
#: Events at the start of a game after each of which the costlier checks run.
OPENING = 24
#: Most moves tried at one position by the check that illegal moves are refused.
TRIED = 200

Options = Mapping[str, Any]


def snapshot(state: AnyState) -> str:
    """The whole state as canonical JSON text (to see that nothing changed)."""
    return json.dumps(state.to_json(), sort_keys=True)


def random_play(
    info: GameInfo, options: Options, players: int, seed: int
) -> Iterator[tuple[AnyState, object]]:
    """Play one seeded random game, yielding each position and the move about to be made.

    Chance outcomes are sampled; decisions (a seat's or a referee's) drawn
    uniformly from the legal ones. A game with a time limit gets its time-up
    action after :data:`TIME_UP_AFTER` events, as a clock would apply it. The
    position yielded is the live state: the caller must not change it.
    """
    rng = random.Random(f"contract:{info.name}:{players}:{seed}")
    state = info.new_game(players, **options)
    while not state.is_terminal():
        assert len(state.history) < MAX_EVENTS, f"{info.name}: no end after {MAX_EVENTS} events"
        move: object
        if (
            info.time_up_action is not None
            and len(state.history) >= TIME_UP_AFTER
            and state.can_declare_time_up()
        ):
            move = info.time_up_action
        elif state.is_chance():
            move = state.sample_chance(rng)
        else:
            move = rng.choice(list(state.legal_actions()))
        yield state, move
        state.apply(move)
    yield state, None


def is_sampled(events: int) -> bool:
    """Whether the costlier checks run after ``events`` events: every position of the
    opening (all of a small game), then after 32, 64, 128 ... and every :data:`STRIDE`."""
    return events < OPENING or events & (events - 1) == 0 or events % STRIDE == 0


def sampled(
    info: GameInfo, options: Options, players: int, seed: int
) -> Iterator[tuple[AnyState, object]]:
    """:func:`random_play` at the positions :func:`is_sampled` picks, and at the end."""
    for state, move in random_play(info, options, players, seed):
        if move is None or is_sampled(len(state.history)):
            yield state, move


# ---------------------------------------------------------------------- the facts


def check_info(info: GameInfo) -> None:
    """The fixed facts agree with each other and with the registry."""
    assert game.info(info.name) is info and game.info(info.game) is info
    assert 1 <= info.min_players <= info.max_players, "player counts"
    assert len(info.colours) >= info.max_players, "a colour for every seat"
    assert info.version >= 1
    if info.rounds is not None:
        assert set(info.rounds) == set(info.player_counts()), "rounds for every player count"
    assert (info.default_time_limit is None) or (info.time_up_action is not None), (
        "a default time limit needs a time-up action"
    )
    if info.time_up_action is not None:
        assert info.is_decision(info.parse(info.time_up_action)), "time-up is a decision"
    try:
        info.new_game(info.min_players - 1)
    except ValueError:
        pass
    else:
        raise AssertionError(f"{info.name}: a game of {info.min_players - 1} players was accepted")
    for text in ("", "not a move", "?:?"):
        try:
            info.parse(text)
        except game.NotationError:
            pass
        else:
            raise AssertionError(f"{info.name}: {text!r} parsed as a move")
    for options in info.variants:
        info.new_game(info.min_players, **options)  # every variant is a valid option set


# ---------------------------------------------------------------------- every step


def check_every_step(info: GameInfo, options: Options, players: int, seed: int) -> None:
    """Who moves, what is legal, chance, actor, views, logs and results, at every position."""
    events = 0
    for state, move in random_play(info, options, players, seed):
        assert isinstance(state, game.GameState), "the state has every member of the contract"
        assert state.players == players
        assert len(state.history) == events, "one history entry per applied move"
        player = state.current_player()
        legal = [str(a) for a in state.legal_actions()]
        outcomes = state.chance_outcomes()
        assert state.is_chance() == (player == CHANCE)
        assert state.is_terminal() == (player == TERMINAL)
        assert info.time_up_action not in legal, "the time-up action is never a legal action"
        if player == CHANCE:
            _check_chance(info, state, outcomes)
            assert not legal, "no decisions at a chance event"
        elif player == TERMINAL:
            assert not legal and not outcomes, "nothing to do once over"
        else:
            assert player == REFEREE or 0 <= player < players, f"current_player {player}"
            assert player != REFEREE or info.human_referee, "a referee node needs a referee"
            assert legal and not outcomes, "a decision has legal actions and no chance"
            assert len(set(legal)) == len(legal), "legal actions are distinct"
            for text in legal:
                assert info.is_decision(info.parse(text)), f"{text} parses as a decision"
        _check_actor(state, player)
        _check_asked(state, player)
        _check_views_and_logs(info, state)
        _check_outcome(info, state)
        if move is not None:
            text = str(move)
            assert str(info.parse(text)) == text, f"{text}: notation reads back as written"
            events += 1
    assert events > 0


def _check_chance(info: GameInfo, state: AnyState, outcomes: Any) -> None:
    assert outcomes, "a chance event lists its outcomes"
    texts = [str(o) for o, _ in outcomes]
    assert len(set(texts)) == len(texts), "chance outcomes are distinct"
    assert all(p > 0 for _, p in outcomes), "every listed outcome is possible"
    assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9), "probabilities sum to 1"
    rng = random.Random(len(state.history))
    listed = set(texts)
    for _ in range(3):
        drawn = state.sample_chance(rng)
        assert str(drawn) in listed, f"sample_chance gave {drawn}, not a listed outcome"
        assert not info.is_decision(info.parse(str(drawn))), "an outcome is not a decision"


def _check_actor(state: AnyState, player: int) -> None:
    actor = state.actor()
    assert actor is None or 0 <= actor < state.players, f"actor {actor}"
    if player >= 0:
        assert actor == player, "a decision belongs to the seat deciding"
    if player == TERMINAL:
        assert actor is None, "nothing belongs to anyone once over"


def _check_asked(state: AnyState, player: int) -> None:
    asked = state.asked()
    if player != REFEREE:
        assert asked is None, "only a referee's decision asks something"
        return
    assert asked is not None, "a referee's decision says what is asked"
    assert 0 <= asked.seat < state.players and asked.seat == state.actor()


def _check_views_and_logs(info: GameInfo, state: AnyState) -> None:
    n = len(state.history)
    for seat in [None, *range(state.players)]:
        view = state.view(seat)
        json.dumps(view)  # JSON-ready
        text = state.view_text(seat, json.dumps)
        assert json.loads(text) == json.loads(json.dumps(view)), "view_text is the view"
        assert view["game"] == info.game and view["players"] == state.players
        assert view["seat"] == seat
        full = state.log(seat)
        assert len(full) == n, "a log entry for every event"
        for start in (n // 2, n):
            assert state.log(seat, start) == full[start:], "a log from an entry is its tail"
    shown = state.view(None)["result"]
    result = state.result()
    if result is None:
        assert shown is None, "a view shows no result before the end"
    else:  # the view may say more (Alea Iacta Est: the arrangements), never otherwise
        assert shown is not None and {key: shown.get(key) for key in result} == result


def _check_outcome(info: GameInfo, state: AnyState) -> None:
    result = state.result()
    round_, rounds = state.progress()
    assert round_ >= 1 and rounds >= 0 and (rounds == 0 or round_ <= rounds), "progress"
    if info.rounds is not None:
        assert rounds == info.rounds[state.players], "rounds as the game's facts say"
    if not state.is_terminal():
        assert result is None and state.winners() == [], "no result before the end"
        assert list(state.returns()) == [0.0] * state.players, "returns are 0 before the end"
        return
    assert result is not None
    winners = state.winners()
    assert winners and all(0 <= w < state.players for w in winners), "someone wins"
    assert result["winners"] == winners and len(result["scores"]) == state.players
    assert len(state.returns()) == state.players


# ---------------------------------------------------------------------- copies and records


def check_clone(info: GameInfo, options: Options, players: int, seed: int) -> None:
    """A clone equals its original and is independent of it."""
    for state, move in sampled(info, options, players, seed):
        copy = state.clone()
        assert type(copy) is type(state) and snapshot(copy) == snapshot(state)
        if move is None:
            continue
        before = snapshot(state)
        copy.apply(move)
        assert snapshot(state) == before, "applying to a clone changed the original"
        assert len(copy.history) == len(state.history) + 1


def check_json_round_trip(info: GameInfo, options: Options, players: int, seed: int) -> None:
    """``from_json(to_json())`` gives the same state, which plays on the same way."""
    for state, move in sampled(info, options, players, seed):
        data = json.loads(json.dumps(state.to_json()))
        assert data.get("game") == info.game, "a position names its game"
        again = info.from_json(data)
        assert snapshot(again) == snapshot(state)
        assert again.current_player() == state.current_player()
        assert [str(a) for a in again.legal_actions()] == [str(a) for a in state.legal_actions()]
        assert [(str(o), p) for o, p in again.chance_outcomes()] == [
            (str(o), p) for o, p in state.chance_outcomes()
        ]
        assert again.view(None) == state.view(None)
        if move is not None:
            copy = state.clone()
            copy.apply(move)
            again.apply(str(move))
            assert snapshot(again) == snapshot(copy), "the restored state plays on the same"


def check_replay(info: GameInfo, options: Options, players: int, seed: int) -> None:
    """A record (through JSON) replays to the same state, mid-game and at the end."""
    for state, _ in sampled(info, options, players, seed):
        record = json.loads(json.dumps(state.record()))
        keys = list(game.RECORD_KEYS) + (["result"] if state.is_terminal() else [])
        assert sorted(record) == sorted(keys), f"record keys {sorted(record)}"
        assert record["game"] == info.game and record["format"] == game.RECORD_FORMAT
        assert record["players"] == players and record["events"] == list(state.history)
        assert snapshot(info.replay(record)) == snapshot(state), "replay is exact"
        fresh = info.new_game(players, **record["options"])
        for event in record["events"]:
            fresh.apply(event)
        assert snapshot(fresh) == snapshot(state), "new_game(options) + events is the game"
        if state.is_terminal():
            assert record["result"] == state.result()


def check_illegal_refused(info: GameInfo, options: Options, players: int, seed: int) -> None:
    """Every move not allowed now raises IllegalActionError and changes nothing.

    The moves tried are those seen anywhere earlier in the game (events, and a
    few of the legal actions and chance outcomes of every position), up to
    :data:`TRIED` of them at each sampled position.
    """
    rng = random.Random(seed)
    seen: set[str] = {"not a move", ""}
    for state, move in random_play(info, options, players, seed):
        legal = [str(a) for a in state.legal_actions()]
        outcomes = [str(o) for o, _ in state.chance_outcomes()]
        seen.update(rng.sample(legal, min(3, len(legal))))
        seen.update(rng.sample(outcomes, min(3, len(outcomes))))
        seen.update(state.history[-1:])
        if move is not None and not is_sampled(len(state.history)):
            continue
        allowed = set(legal) | set(outcomes)
        if info.time_up_action is not None and state.can_declare_time_up():
            allowed.add(info.time_up_action)  # the referee's, at any time
        candidates = sorted(seen - allowed)
        tried = rng.sample(candidates, min(TRIED, len(candidates)))
        before = snapshot(state)
        for text in tried:
            try:
                state.apply(text)
            except game.IllegalActionError:
                pass
            else:
                raise AssertionError(f"{info.name}: {text!r} accepted at {state.history[-2:]}")
        assert snapshot(state) == before, f"refusing one of {tried} changed the state"


# ---------------------------------------------------------------------- hidden information


def check_views_hide(info: GameInfo, options: Options, players: int, seed: int) -> None:
    """A view shows nothing its seat cannot know: resampling what it cannot see changes
    neither its view nor a spectator's (nor, with the history kept, their logs)."""
    rng = random.Random(seed)
    changed = 0
    for state, _ in sampled(info, options, players, seed):
        truth = snapshot(state)
        for seat in range(players):
            other = info.resample(state, seat, rng)
            assert snapshot(state) == truth, "resample changed the state it was given"
            assert other.view(seat) == state.view(seat), f"seat {seat}'s view leaks"
            assert other.view(None) == state.view(None), "the spectators' view leaks"
            if len(other.history) == len(state.history):
                assert other.log(seat) == state.log(seat), f"seat {seat}'s log leaks"
                assert other.log(None) == state.log(None), "the spectators' log leaks"
            mine = other.to_json()
            theirs = state.to_json()
            mine.pop("history", None)
            theirs.pop("history", None)
            changed += mine != theirs
    if info.hidden_information:
        assert changed, "resample never drew anything anew: the leak check proves nothing"


#: Most steps of a finished game whose replay view :func:`check_replay_view` looks at.
REPLAY_STEPS = 16


def check_replay_view(info: GameInfo, options: Options, players: int, seed: int) -> None:
    """A finished game shows the table after any step with nothing hidden; a game in play
    refuses (its secrets still matter), and so does a step the game does not have."""
    public: dict[int, dict[str, Any]] = {}
    final: AnyState | None = None
    for state, move in sampled(info, options, players, seed):
        if move is None:
            final = state
            break
        public[len(state.history)] = state.view(None)
        if len(public) == 1:
            try:
                state.replay_view()
            except ValueError:
                pass
            else:
                raise AssertionError("a game in play showed its replay view")
    assert final is not None
    n = len(final.history)
    for bad in (-1, n + 1):
        try:
            final.replay_view(bad)
        except ValueError:
            pass
        else:
            raise AssertionError(f"step {bad} of a game of {n} events was shown")
    last = final.replay_view()
    assert last == final.replay_view(n), "the default step is the last"
    assert last["result"] == final.view(None)["result"], "the replay ends on the result"
    steps = sorted(public)
    picked = steps[:: max(1, len(steps) // REPLAY_STEPS)]
    more = 0
    for step in picked:
        shown = final.replay_view(step)
        json.dumps(shown)  # JSON-ready
        assert shown["game"] == info.game and shown["players"] == players
        assert shown["seat"] is None, "a replay view is shaped like a spectator's"
        assert set(public[step]) <= set(shown), "a replay view has every key of a view"
        more += shown != public[step]
    if info.hidden_information:
        assert more, "the replay view never showed more than a spectator sees"
