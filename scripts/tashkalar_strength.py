"""Tash-Kalar: the heuristic (``Game.heuristic_action`` from the seat's observation) against the random agent.

Paired seeds, both seat orders: for each seed the heuristic plays every seat once against random opponents on the
same deal. Prints the heuristic's win rate (a tie for first counts half) with its 95% Wilson interval.

    .venv/bin/python scripts/tashkalar_strength.py --pairs 100 -o mode=deathmatch
    .venv/bin/python scripts/tashkalar_strength.py --pairs 100 -o mode=highform
    .venv/bin/python scripts/tashkalar_strength.py --pairs 50 -o mode=melee -o players=4
"""

from __future__ import annotations

import argparse
import math
import time

import cardarena
from cardarena.engine import Rng, derive_seed


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def play(game: cardarena.engine.Game, seed: int, hero: int) -> float:
    """One game: ``hero`` plays the heuristic, every other seat random; the hero's score (1 win, 0.5 shared first
    place, 0 otherwise). Teams: the hero's teammate plays random too, and a team win counts 1."""
    state = game.new_initial_state(seed)
    rng = Rng(derive_seed(seed, 77, hero))
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        legal = state.playout_actions()
        if seat == hero:
            action = game.heuristic_action(state.observation(seat), legal, seat, rng)
            assert action is not None and action in legal
        else:
            action = legal[rng.randbelow(len(legal))]
        state.apply(action)
    r = state.returns()
    best = max(r)
    if r[hero] < best or best == min(r):
        return 0.0 if r[hero] < best else 0.5
    if getattr(game, "teams", False):
        return 1.0  # the hero's team won (both teammates have the best value)
    return 1.0 / sum(1 for v in r if v == best)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("-o", "--option", action="append", default=[])
    args = parser.parse_args()
    options = dict(o.split("=", 1) for o in args.option)
    game = cardarena.load("tashkalar", **options)
    score = 0.0
    n = 0
    began = time.perf_counter()
    for seed in range(args.start, args.start + args.pairs):
        for hero in range(game.num_players):
            score += play(game, seed, hero)
            n += 1
    lo, hi = wilson(score, n)
    seconds = time.perf_counter() - began
    print(
        f"tashkalar {options or 'duel'}: heuristic vs random, {args.pairs} seeds x {game.num_players} seats = {n} "
        f"games: heuristic score {score:g}/{n} = {score / n:.1%} (95% Wilson {lo:.1%}-{hi:.1%}); {seconds:.0f} s"
    )


if __name__ == "__main__":
    main()
