"""Dice Battle Monsters: the game's heuristic (``Game.heuristic_action``) against the random agent, paired seeds.

Each pair plays the same seed twice, the heuristic at seat 0 then at seat 1; the win rate counts a draw as half a
win, with its 95% Wilson interval over games. Usage::

    python scripts/dicebattle_strength.py --pairs 200 [--seed 0] [--option deck0=vanguard ...]
"""

from __future__ import annotations

import argparse
import math
import random

import cardarena
from cardarena.engine import Rng, derive_seed


def play(game: cardarena.Game, seed: int, heuristic_seat: int) -> float:
    """The heuristic's score in one game: 1 win, 0.5 draw, 0 loss."""
    state = game.new_initial_state(seed)
    rng = Rng(derive_seed(seed, 1))
    pick = random.Random(derive_seed(seed, 2))
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        if seat == heuristic_seat:
            action = game.heuristic_action(state.observation(seat), legal, seat, rng)
            assert action is not None and action in legal
        else:
            action = pick.choice(state.playout_actions())
        state.apply(action)
    value = state.returns()[heuristic_seat]
    return 1.0 if value > 0 else 0.5 if value == 0 else 0.0


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--option", action="append", default=[], help="k=v game option")
    args = parser.parse_args()
    options = dict(o.split("=", 1) for o in args.option)
    game = cardarena.load("dicebattle", **options)
    by_seat = [0.0, 0.0]
    for k in range(args.pairs):
        seed = derive_seed(args.seed, k)
        for seat in (0, 1):
            by_seat[seat] += play(game, seed, seat)
    n = 2 * args.pairs
    score = sum(by_seat)
    low, high = wilson(score, n)
    print(
        f"heuristic vs random, dicebattle {options or 'default options'}: {args.pairs} pairs, {n} games; "
        f"heuristic scores {score:.1f} = {100 * score / n:.1f}% (95% Wilson {100 * low:.1f}-{100 * high:.1f}%); "
        f"as seat 0 {100 * by_seat[0] / args.pairs:.1f}%, as seat 1 {100 * by_seat[1] / args.pairs:.1f}%"
    )


if __name__ == "__main__":
    main()
