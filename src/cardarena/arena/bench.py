"""Random-playout speed on one core: games/s, decisions/s and the cost of a mid-game ``clone()``."""

from __future__ import annotations

import time
from typing import Any

from ..engine import Game, Rng, State


def _playout(state: State, rng: Rng) -> int:
    """A random playout through the validating ``apply``; returns the number of decisions."""
    n = 0
    while not state.is_terminal():
        legal = state.playout_actions()
        state.apply(legal[rng.randbelow(len(legal))])
        n += 1
    return n


def bench_game(game: Game, *, seconds: float = 3.0, seed: int = 1) -> dict[str, Any]:
    """Play random games for about ``seconds``, then time ``clone()`` on states taken halfway through games."""
    rng = Rng(seed)
    games = decisions = 0
    lengths: list[int] = []
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_initial_state(seed + games)
        n = _playout(state, rng)
        games += 1
        decisions += n
        lengths.append(n)
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    clone_us = _clone_cost(game, rng, sorted(lengths)[len(lengths) // 2])
    return {
        "game": game.id,
        "games": games,
        "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 1),
        "decisions_per_s": round(decisions / elapsed, 1),
        "clone_us": round(clone_us, 2),
    }


def _clone_cost(game: Game, rng: Rng, median_length: int) -> float:
    """Mean µs of ``clone()`` over states taken at the median game's halfway point."""
    samples: list[State] = []
    for k in range(20):
        state = game.new_initial_state(10_000 + k)
        for _ in range(median_length // 2):
            if state.is_terminal():
                break
            legal = state.playout_actions()
            state.apply(legal[rng.randbelow(len(legal))])
        samples.append(state)
    reps = 500
    start = time.perf_counter()
    for state in samples:
        for _ in range(reps):
            state.clone()
    return (time.perf_counter() - start) / (reps * len(samples)) * 1e6
