"""Laplaplace: the game's heuristic (``heuristic_action``) against the random agent, paired seeds, both seat orders.

Usage: ``.venv/bin/python scripts/laplaplace_strength.py [PAIRS] [SCENE]`` (SCENE: blind, the default, or open).
For each seed the heuristic plays seat 0 and then seat 1 against the random agent; prints the win rate with its
95% Wilson interval. Draws count as half a win.
"""

from __future__ import annotations

import math
import sys
import time

import cardarena
from cardarena.agents import SeatView, make_agent
from cardarena.engine import Rng, derive_seed


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def play(game: cardarena.Game, seed: int, hero: int) -> float:
    state = game.new_initial_state(seed)
    rng = Rng(derive_seed(seed, 0xA1, hero))
    other = make_agent("random", derive_seed(seed, 0xB2, hero))
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        if seat == hero:
            legal = state.legal_actions()
            action = game.heuristic_action(state.observation(seat), legal, seat, rng)
            assert action in legal
        else:
            action = other.act(SeatView(state, seat))
        state.apply(action)
    r = state.returns()[hero]
    return 1.0 if r > 0 else 0.5 if r == 0 else 0.0


def main() -> None:
    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    scene = sys.argv[2] if len(sys.argv) > 2 else "blind"
    game = cardarena.load("laplaplace", build=scene)
    start = time.perf_counter()
    score = 0.0
    by_seat = [0.0, 0.0]
    for seed in range(pairs):
        for hero in (0, 1):
            r = play(game, seed, hero)
            score += r
            by_seat[hero] += r
    n = 2 * pairs
    lo, hi = wilson(score, n)
    print(
        f"laplaplace ({scene}) heuristic vs random: {score:g}/{n} = {score / n:.1%} (95% Wilson {lo:.1%}-{hi:.1%});"
        f" as seat 0 {by_seat[0]:g}/{pairs}, as seat 1 {by_seat[1]:g}/{pairs}; {time.perf_counter() - start:.0f}s"
    )


if __name__ == "__main__":
    main()
