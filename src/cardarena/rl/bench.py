"""Environment speed (``cardarena bench --rl``): PettingZoo steps per second with encodings and masks.

The loop is what a self-play learner runs: ``env.last()`` (the acting agent's encoded observation and its mask,
both built every step), a random token among those allowed (``env.legal_tokens``, the mask's non-zero positions
as a list: a network reads the mask as a vector, it never scans it), ``env.step(token)``; every seat is played that
way, on one core.
Texts in ``info`` are left out (``text_info=False``): they are for people, not for learners. A step is one
sub-decision; for the games with factored actions (Lyabi, Tash-Kalar) ``decisions_per_s`` counts whole actions.
"""

from __future__ import annotations

import os
import time
from typing import Any

from ..engine import Game, Rng
from .aec import CardArenaAEC


def bench_env(game: Game, *, seconds: float = 3.0, seed: int = 1) -> dict[str, Any]:
    """Play random masked games in the AEC environment for about ``seconds``; steps/s, decisions/s, episodes/s."""
    env = CardArenaAEC(game, text_info=False)
    factoring = game.action_factoring()
    # like every random playout (State.playout_actions), never resign: a game resigned at random measures nothing
    resign = -1 if game.resign_action is None else factoring.factors(game.resign_action)[0]
    rng = Rng(seed)
    steps = decisions = episodes = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        env.reset(seed=seed + episodes)
        for agent in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            allowed = env.legal_tokens(agent)
            if resign >= 0 and len(allowed) > 1 and not env.driver.prefix and resign in allowed:
                allowed.remove(resign)
            env.step(allowed[rng.randbelow(len(allowed))])
            steps += 1
        decisions += len(env.driver.state.history)  # the whole actions of the game just played
        episodes += 1
    elapsed = time.perf_counter() - start
    return {
        "game": game.id,
        "options": game.record_options(),
        "episodes": episodes,
        "seconds": round(elapsed, 3),
        "steps_per_s": round(steps / elapsed, 1),
        "decisions_per_s": round(decisions / elapsed, 1),
        "episodes_per_s": round(episodes / elapsed, 2),
        "observation_size": env.driver.size,
        "action_width": factoring.width,
        "action_depth": factoring.depth,
        "load_1min": round(os.getloadavg()[0], 2),
    }
