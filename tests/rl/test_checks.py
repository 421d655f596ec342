"""The libraries' own checks: PettingZoo's ``api_test`` and ``seed_test`` for the AEC environment of every game
and mode, Gymnasium's ``check_env`` for the single-agent environments (issue 19, part 4)."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from cardarena.rl import aec_env


def test_pettingzoo_api_test(config: tuple[str, str, dict[str, Any]]) -> None:
    _, game_id, options = config
    with warnings.catch_warnings():
        # api_test suggests a Box or Discrete observation space: ours is the Dict with the action mask that
        # PettingZoo's own card games use (a suggestion, not a failure)
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(aec_env(game_id, **options), num_cycles=60)


def test_pettingzoo_seed_test(config: tuple[str, str, dict[str, Any]]) -> None:
    _, game_id, options = config
    seed_test(lambda: aec_env(game_id, **options), num_cycles=40)


def test_gymnasium_check_env(config: tuple[str, str, dict[str, Any]]) -> None:
    env_id, _, _ = config
    env = gymnasium.make(env_id, opponents="random")
    check_env(env.unwrapped, skip_render_check=True)


def test_gymnasium_check_env_renders() -> None:
    env = gymnasium.make("cardarena/dicebattle-v0", opponents="random", render_mode="ansi")
    check_env(env.unwrapped)
    env.reset(seed=3)
    text = env.render()
    assert isinstance(text, str) and text.strip()


@pytest.mark.parametrize("seat", [0, 1])
def test_gym_env_plays_either_seat_to_the_end(seat: int) -> None:
    env = gymnasium.make("cardarena/torabato-v0", seat=seat, opponents="heuristic", illegal="raise")
    obs, _ = env.reset(seed=5)
    done, total = False, 0.0
    while not done:
        legal = obs["action_mask"].nonzero()[0]
        obs, reward, done, _truncated, _info = env.step(int(legal[0]))
        total += float(reward)
    assert total in (-1.0, 0.0, 1.0)
