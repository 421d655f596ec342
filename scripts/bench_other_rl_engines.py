"""The environments people use today, stepped the way ``cardarena bench --rl`` steps ours: PettingZoo's classic
card games (AEC, random masked play) and RLCard's own environments (random legal play), one core, steps/s.

Not part of cardarena (it needs ``pettingzoo[classic]``, which pulls RLCard); run it in a separate environment:

    python3 -m venv /tmp/pz && /tmp/pz/bin/pip install "pettingzoo[classic]"
    /tmp/pz/bin/python scripts/bench_other_rl_engines.py --seconds 3

The loops match ours step for step: PettingZoo's ``env.last()`` (observation and mask, built every step), a random
allowed action (the mask's non-zero positions: these environments hand out no list of them), ``env.step``;
RLCard's ``env.step`` returns the next player's encoded state with its legal actions, which are sampled the same way.
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import time
from typing import Any


def bench_pettingzoo(module: str, seconds: float) -> tuple[float, float]:
    """Steps/s and episodes/s of random masked play in one PettingZoo AEC environment."""
    import numpy as np

    env: Any = importlib.import_module(module).env()
    rng = random.Random(0)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=episodes)
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            allowed = np.flatnonzero(observation["action_mask"])
            env.step(int(allowed[rng.randrange(len(allowed))]))
            steps += 1
        episodes += 1
    elapsed = time.perf_counter() - start
    return steps / elapsed, episodes / elapsed


def bench_rlcard(name: str, seconds: float) -> tuple[float, float]:
    """Steps/s and episodes/s of random legal play in one RLCard environment."""
    import rlcard

    env: Any = rlcard.make(name, config={"seed": 0})
    rng = random.Random(0)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            steps += 1
        episodes += 1
    elapsed = time.perf_counter() - start
    return steps / elapsed, episodes / elapsed


PETTINGZOO = ("leduc_holdem_v4", "texas_holdem_v4", "texas_holdem_no_limit_v6")
RLCARD = ("uno", "leduc-holdem", "limit-holdem", "doudizhu")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    print(f"{'environment':40s} {'steps/s':>10s} {'episodes/s':>11s}  load")
    for module in PETTINGZOO:
        steps, episodes = bench_pettingzoo(f"pettingzoo.classic.{module}", args.seconds)
        print(f"{'pettingzoo ' + module:40s} {steps:10,.0f} {episodes:11,.1f}  {os.getloadavg()[0]:.1f}")
    for name in RLCARD:
        steps, episodes = bench_rlcard(name, args.seconds)
        print(f"{'rlcard ' + name:40s} {steps:10,.0f} {episodes:11,.1f}  {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
