"""Random-playout speed on one core: games/s, decisions/s and the cost of a mid-game ``clone()``."""

from __future__ import annotations

import time
from typing import Any

from ..agents import SearchReport, SeatView, make_agent
from ..engine import Game, Rng, State, derive_seed


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


def bench_agent(game: Game, spec: str, *, positions: int = 6, seed: int = 1) -> dict[str, Any]:
    """Search speed of agent ``spec`` at fixed mid-game positions: iterations/s and its rollouts' decisions/s.

    The positions are taken halfway through seeded random games (decisions with a single legal action skipped).
    Search agents report what each decision used (``agent.last``, a ``SearchReport``); other agents give
    seconds per decision only. Under a time budget (``seconds=S``) the overshoot is measured as well: the
    longest decision's time over ``S``, in percent (the guarantee is under 10%).
    """
    states = _mid_game_positions(game, positions, seed)
    iterations = rollout_decisions = 0
    elapsed = 0.0
    longest = 0.0
    budget: float | None = None
    for i, state in enumerate(states):
        agent = make_agent(spec, derive_seed(seed, i))
        seat = state.current_player
        assert seat is not None
        start = time.perf_counter()
        agent.act(SeatView(state, seat))
        took = time.perf_counter() - start
        elapsed += took
        longest = max(longest, took)
        report = getattr(agent, "last", None)
        if isinstance(report, SearchReport):
            iterations += report.iterations
            rollout_decisions += report.rollout_decisions
        budget = getattr(agent, "seconds", None)
    out: dict[str, Any] = {
        "game": game.id,
        "agent": spec,
        "positions": len(states),
        "seconds_per_decision": round(elapsed / max(1, len(states)), 4),
        "iterations_per_s": round(iterations / elapsed, 1) if elapsed and iterations else None,
        "rollout_decisions_per_s": round(rollout_decisions / elapsed, 1) if elapsed and rollout_decisions else None,
    }
    if budget is not None:
        out["overshoot_pct"] = round(100 * (longest - budget) / budget, 1)
    return out


def _mid_game_positions(game: Game, count: int, seed: int) -> list[State]:
    """``count`` positions halfway through seeded random games, each with more than one legal action."""
    rng = Rng(seed)
    states: list[State] = []
    k = 0
    while len(states) < count and k < 50 * count:
        state = game.new_initial_state(20_000 + k)
        k += 1
        length = _playout(state.clone(), Rng(seed + k))
        for _ in range(length // 2):
            if state.is_terminal():
                break
            legal = state.playout_actions()
            state.apply(legal[rng.randbelow(len(legal))])
        if not state.is_terminal() and len(state.legal_actions()) > 1:
            states.append(state)
    return states
