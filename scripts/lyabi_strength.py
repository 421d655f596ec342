"""Lyabi's heuristic (``game.heuristic_action`` on the seat's observation) against the random agent, with paired
seeds and both seat orders: pair i plays seed i twice, the heuristic in seat 0 then in seat 1.

    .venv/bin/python scripts/lyabi_strength.py --pairs 100

Prints the heuristic's wins, draws and losses, and its win rate (draws count as half) with a 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import math
import time

import cardarena
from cardarena.agents import SeatView, make_agent
from cardarena.engine import Rng
from cardarena.engine.rng import derive_seed


def play(game: cardarena.engine.Game, seed: int, heuristic_seat: int) -> float:
    """One game; the heuristic's score: 1 win, 0.5 draw, 0 loss."""
    state = game.new_initial_state(seed)
    rng = Rng(derive_seed(seed, 0x4E, heuristic_seat))
    other = make_agent("random", derive_seed(seed, 0x5A, heuristic_seat))
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        if seat == heuristic_seat:
            legal = state.legal_actions()
            action = game.heuristic_action(state.observation(seat), legal, seat, rng)
            assert action is not None and action in legal
        else:
            action = other.act(SeatView(state, seat))
        state.apply(action)
    r = state.returns()[heuristic_seat]
    return 1.0 if r > 0 else (0.5 if r == 0 else 0.0)


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args()
    game = cardarena.load("lyabi")
    results = []
    start = time.perf_counter()
    for i in range(args.first_seed, args.first_seed + args.pairs):
        results += [play(game, i, 0), play(game, i, 1)]
    n = len(results)
    wins, draws = results.count(1.0), results.count(0.5)
    score = sum(results)
    low, high = wilson(score, n)
    print(
        f"heuristic vs random, {args.pairs} pairs ({n} games, both seat orders): {wins} wins, {draws} draws,"
        f" {n - wins - draws} losses; score {score / n:.1%} (95% Wilson {low:.1%}-{high:.1%});"
        f" {time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
