"""The training stack (the ``train`` extra: JAX on CPU, optax, Gymnasium) and the masked PPO learner of
``examples/train_maskable_ppo.py``.

The learner is checked on a small masked task whose answer is known (it learns it, respects masks and is
reproducible), then the script runs end to end in a cardarena environment (``cardarena.rl.gym_env``) with tiny
settings: the smoke run of ``make test`` (the real runs are ``make train``, docs/interop.md "Trained baseline").
"""

from __future__ import annotations

import csv
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_maskable_ppo.py"


def _load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while building the class
    spec.loader.exec_module(module)
    return module


ppo = _load_example()

CONTEXTS, ACTIONS, LEGAL, ROUNDS = 6, 10, 4, 3


class MaskedChoice(gym.Env):  # type: ignore[type-arg]
    """Three rounds; each shows one of six contexts and allows four of ten actions. Picking the highest allowed
    action pays 1/3, anything else allowed pays nothing, and a masked-out action is an error (it raises)."""

    def __init__(self, seat: int = 0) -> None:
        self.observation_space = gym.spaces.Dict(
            {
                "observation": gym.spaces.Box(0.0, 1.0, (CONTEXTS,), np.float32),
                "action_mask": gym.spaces.MultiBinary(ACTIONS),
            }
        )
        self.action_space = gym.spaces.Discrete(ACTIONS)
        table = np.random.default_rng(99)
        self.allowed = [np.sort(table.choice(ACTIONS, LEGAL, replace=False)) for _ in range(CONTEXTS)]
        self.illegal_picks = 0

    def _obs(self) -> dict[str, np.ndarray]:
        mask = np.zeros(ACTIONS, np.int8)
        mask[self.allowed[self.context]] = 1
        return {"observation": np.eye(CONTEXTS, dtype=np.float32)[self.context], "action_mask": mask}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self.round = 0
        self.context = int(self.np_random.integers(CONTEXTS))
        return self._obs(), {}

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        allowed = self.allowed[self.context]
        if action not in allowed:
            self.illegal_picks += 1
            raise ValueError(f"masked-out action {action} in context {self.context}")
        reward = 1 / ROUNDS if action == allowed[-1] else 0.0
        self.round += 1
        self.context = int(self.np_random.integers(CONTEXTS))
        return self._obs(), reward, self.round == ROUNDS, False, {}


def test_masked_ppo_learns_the_task_and_never_picks_a_masked_action() -> None:
    cfg = ppo.Config(steps=3072, num_envs=2, rollout=64, learning_rate=3e-3, hidden=(32,), seed=3)
    params, curve = ppo.train(MaskedChoice, cfg, log=lambda line: None)
    assert len(curve) == 3072 // (2 * 64) and curve[-1]["steps"] == 3072
    assert curve[-1]["mean_return"] > curve[0]["mean_return"]
    result = ppo.evaluate(params, MaskedChoice, seats=[0], deals=range(50))
    # an untrained or uniform policy picks the right action a quarter of the time: its mean return is about 0.25
    assert result["mean_return"] > 0.9


def test_training_is_reproducible_from_its_seed() -> None:
    cfg = ppo.Config(steps=256, num_envs=2, rollout=32, hidden=(16,), seed=5)
    runs = [ppo.train(MaskedChoice, cfg, log=lambda line: None) for _ in range(2)]
    first, second = (np.concatenate([np.ravel(v) for layer in p["pi"] for v in layer.values()]) for p, _ in runs)
    np.testing.assert_array_equal(first, second)
    assert runs[0][1][-1]["mean_return"] == runs[1][1][-1]["mean_return"]


def test_masked_logits_give_masked_actions_no_probability() -> None:
    import jax

    params = ppo.init_params(jax.random.PRNGKey(0), CONTEXTS, ACTIONS, (8,))
    obs = np.eye(CONTEXTS, dtype=np.float32)[:2]
    mask = np.zeros((2, ACTIONS), bool)
    mask[0, [1, 7]] = True
    mask[1, [4]] = True
    logp, _ = ppo.forward(params, obs, mask)
    probs = np.exp(np.asarray(logp))
    assert probs[~mask].max() == 0.0
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, rtol=1e-6)
    actions, _, _ = ppo.act(params, np.repeat(obs, 50, axis=0), np.repeat(mask, 50, axis=0), jax.random.PRNGKey(1))
    assert set(np.asarray(actions)[:50]) <= {1, 7} and set(np.asarray(actions)[50:]) == {4}


def test_the_script_says_what_it_needs_without_running(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        ppo.main(["--help"])
    assert done.value.code == 0
    assert "--eval-games" in capsys.readouterr().out


# -- the script against the real environments (cardarena.rl) ---------------------------------------------------------
def test_a_smoke_run_trains_and_evaluates_in_a_cardarena_env(tmp_path: Path) -> None:
    """The script end to end, tiny (256 steps, 2 deals): what `make train` does, on a scale `make test` affords."""
    out = tmp_path / "run"
    argv = ["laplaplace", "--steps", "256", "--num-envs", "2", "--rollout", "64", "--hidden", "16"]
    argv += ["--opponent", "random", "--eval-games", "2", "--eval-against", "random", "--reference", "heuristic"]
    assert ppo.main([*argv, "--out", str(out), "--plot", str(tmp_path / "curve.png")]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["config"]["steps"] == 256 and summary["opponent"] == "random"
    for who in ("policy", "heuristic"):
        result = summary["evaluation"]["random"][who]
        assert result["games"] == 4  # 2 deals x 2 seats
        assert result["win_low"] <= result["win_rate"] <= result["win_high"]
        assert result["win_rate"] + result["draw_rate"] + result["loss_rate"] == pytest.approx(1.0)
    with (out / "curve.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert [float(r["steps"]) for r in rows] == [128.0, 256.0]
    assert (tmp_path / "curve.png").stat().st_size > 0 and (out / "curve.png").stat().st_size > 0
    assert {"pi_0_w", "vf_1_b"} <= set(np.load(out / "params.npz").files)


@pytest.mark.parametrize("game_id", ["dicebattle", "laplaplace"])
def test_the_reference_agent_plays_exactly_the_games_the_env_deals(game_id: str) -> None:
    """The paired comparison is fair only if ``--reference`` plays the env's games: the same deal for
    ``reset(seed=deal)`` and the same opponents' seeds. An agent driven through the env and the same agent in
    :func:`reference_returns` must end every game in the same state."""
    from cardarena.agents import SeatView, make_agent
    from cardarena.engine import derive_seed
    from cardarena.rl import gym_env

    seats, deals = [0, 1], [11, 12, 13]
    finals: list[Any] = []
    expected = ppo.reference_returns(game_id, "heuristic", "random", seats, deals, {}, finals)
    got, env_finals = [], []
    for seat in seats:
        env = gym_env(game_id, seat=seat, opponents="random", text_info=False)
        factors = env.game.action_factoring().factors
        for deal in deals:
            env.reset(seed=deal)
            agent = make_agent("heuristic", derive_seed(deal, seat))
            total, done = 0.0, False
            while not done:
                action = agent.act(SeatView(env.driver.state, seat))
                _, reward, done, _, _ = env.step(factors(action)[0])
                total += reward
            got.append(total)
            env_finals.append(env.driver.state)
    assert got == expected
    assert [s.snapshot() for s in env_finals] == [s.snapshot() for s in finals]
    # the games differ from one another, so equal lists are not a coincidence of identical games
    assert len({repr(s.snapshot()) for s in finals}) == len(finals)
