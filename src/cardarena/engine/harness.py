"""The conformance harness: the checks every game must pass, run by each game's tests.

``check_game(game, seeds)`` plays one random playout per seed and, along the way, checks the state protocol:
legal actions exist until the end and all apply, texts and indices round-trip, observations are JSON-ready and
unchanged by ``resample`` (the hidden-information leak test), ``why_not`` agrees with the legal actions, states
pickle and stay small, clones are independent, illegal input leaves the state unchanged, and records replay to
the identical final state.
"""

from __future__ import annotations

import json
import math
import pickle
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalActionError, InvalidActionError, RulesError
from .game import Game, State
from .records import replay
from .rng import Rng, derive_seed

#: The most a pickled state may take besides its history. A state holds its position; tables belong to the game.
MAX_STATE_BYTES = 16 * 1024


class ConformanceError(AssertionError):
    """A game broke the state protocol; the message names the seed and the decision."""


@dataclass
class ConformanceReport:
    games: int = 0
    decisions: int = 0
    longest: int = 0
    results: dict[str, int] = field(default_factory=dict)


def _fail(seed: int, step: int, message: str) -> ConformanceError:
    return ConformanceError(f"seed {seed}, decision {step}: {message}")


def _json_ready(obj: Any) -> bool:
    try:
        return bool(json.loads(json.dumps(obj)) == obj)
    except (TypeError, ValueError):
        return False


def check_state(state: State, rng: Rng, *, seed: int = 0, step: int = 0, deep: bool = True) -> None:
    """Check one non-final or final state. ``deep`` adds the per-action and leak checks."""
    game = state.game
    terminal = state.is_terminal()
    legal = state.legal_actions()
    if terminal:
        if state.current_player is not None or legal:
            raise _fail(seed, step, "a terminal state has a current player or legal actions")
        return
    player = state.current_player
    if player is None or not 0 <= player < game.num_players:
        raise _fail(seed, step, f"current_player {player!r} is not a seat")
    if not legal:
        raise _fail(seed, step, "a non-terminal state has no legal actions")
    if not deep:
        return
    if len(set(legal)) != len(legal):
        raise _fail(seed, step, "legal_actions lists an action twice")
    before = state.snapshot()
    if not _json_ready(before):
        raise _fail(seed, step, "snapshot() is not JSON-ready")
    indices = set()
    for action in legal:
        text = str(action)
        back = game.parse_action(state, text)
        if back != action:
            raise _fail(seed, step, f"action text {text!r} does not round-trip (read back as {back!r})")
        index = game.action_index(action)
        if not 0 <= index < game.num_distinct_actions:
            raise _fail(seed, step, f"action_index({text!r}) = {index} is out of range")
        if game.action_from_index(index) != action:
            raise _fail(seed, step, f"action_from_index does not invert action_index for {text!r}")
        indices.add(index)
        if state.why_not(action) is not None:
            raise _fail(seed, step, f"why_not({text!r}) refuses a listed action: {state.why_not(action)}")
        trial = state.clone()
        try:
            trial.apply(action)
        except RulesError as e:
            raise _fail(seed, step, f"listed action {text!r} does not apply: {e}") from e
    if len(indices) != len(legal):
        raise _fail(seed, step, "two legal actions share one action_index")
    # An illegal action is refused and changes nothing.
    for _ in range(8):
        index = rng.randbelow(game.num_distinct_actions)
        if index in indices:
            continue
        illegal = game.action_from_index(index)
        if not state.why_not(illegal):
            raise _fail(seed, step, f"why_not({str(illegal)!r}) gives no reason for an action that is not listed")
        try:
            state.apply(illegal)
        except IllegalActionError:
            pass
        else:
            raise _fail(seed, step, f"illegal action {str(illegal)!r} was accepted")
        if state.snapshot() != before:
            raise _fail(seed, step, f"refusing {str(illegal)!r} changed the state")
        break
    try:
        game.parse_action(state, "%% not an action %%")
    except InvalidActionError:
        pass
    else:
        raise _fail(seed, step, "malformed action text was accepted")
    # Observations are JSON-ready, and resample cannot reveal anything the seat does not already know.
    for seat in [None, *range(game.num_players)]:
        obs = state.observation(seat)
        if not _json_ready(obs):
            raise _fail(seed, step, f"observation({seat}) is not JSON-ready")
    for seat in range(game.num_players):
        obs = state.observation(seat)
        other = state.resample(seat, rng.fork())
        if other.observation(seat) != obs:
            raise _fail(seed, step, f"observation({seat}) changed after resample({seat}): hidden information leaks")
        if other.history:
            raise _fail(seed, step, f"resample({seat}) kept the action history, which may hold hidden choices")
        if other.current_player != player:
            raise _fail(seed, step, f"resample({seat}) changed who is to act: the turn order leaks hidden information")
        if seat == player and other.legal_actions() != legal:
            raise _fail(seed, step, f"resample({seat}) changed the acting seat's legal actions")
        if state.snapshot() != before:
            raise _fail(seed, step, f"resample({seat}) changed the original state")
    # A state pickles (parallel runners send states between processes) and carries only its position: the game
    # is pickled by reference, so card tables are not sent with every state.
    data = pickle.dumps(state)
    carried = len(data) - len(pickle.dumps(state.history))
    if carried > MAX_STATE_BYTES:
        raise _fail(seed, step, f"a pickled state takes {carried:,} bytes besides its history: it carries tables")
    if pickle.loads(data).snapshot() != before:
        raise _fail(seed, step, "a state differs from itself after a pickle round-trip")
    # Clones are equal and independent.
    twin = state.clone()
    if twin.snapshot() != before:
        raise _fail(seed, step, "clone() differs from the original")
    twin.apply(legal[-1])
    if state.snapshot() != before:
        raise _fail(seed, step, "applying an action to a clone changed the original")


def check_game(
    game: Game,
    seeds: Iterable[int],
    *,
    deep_every: int = 5,
    max_decisions: int = 200_000,
) -> ConformanceReport:
    """Random seeded playouts to the end, checking the protocol; raises :class:`ConformanceError`."""
    report = ConformanceReport()
    for seed in seeds:
        rng = Rng(derive_seed(seed, 0xC0FFEE))
        state = game.new_initial_state(seed)
        if state.snapshot() != game.new_initial_state(seed).snapshot():
            raise _fail(seed, 0, "two initial states from the same seed differ")
        mid: State | None = None
        step = 0
        while not state.is_terminal():
            check_state(state, rng, seed=seed, step=step, deep=step % deep_every == 0)
            legal = state.playout_actions()
            state.apply(legal[rng.randbelow(len(legal))])
            step += 1
            if step == 40:
                mid = state.clone()
            if step > max_decisions:
                raise _fail(seed, step, f"no end after {max_decisions} decisions")
        check_state(state, rng, seed=seed, step=step)
        returns = state.returns()
        if len(returns) != game.num_players or not all(isinstance(r, float) and math.isfinite(r) for r in returns):
            raise _fail(seed, step, f"returns {returns!r} are not one finite float per seat")
        record = json.loads(json.dumps(state.to_record()))
        again = replay(record, verify=True)
        if again.snapshot() != state.snapshot():
            raise _fail(seed, step, "replaying the record does not reproduce the final state")
        if mid is not None:
            # A clone taken mid-game and driven by the rest of the history ends in the same state.
            for action in state.history[40:]:
                mid.apply(action)
            if mid.snapshot() != state.snapshot():
                raise _fail(seed, step, "a mid-game clone replayed to the end differs")
        report.games += 1
        report.decisions += step
        report.longest = max(report.longest, step)
        key = ",".join(f"{r:g}" for r in returns)
        report.results[key] = report.results.get(key, 0) + 1
    return report
