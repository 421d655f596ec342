"""The environments' own promises: reproducible episodes (opponents included), rewards at the end, agents as
opponents, masked-out actions, and vectorised use through ``gymnasium.vector.AsyncVectorEnv``."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

import cardarena.rl
from cardarena.engine import IllegalActionError, OptionError
from cardarena.rl import aec_env, gym_env


def _episode(env: gymnasium.Env[Any, Any], seed: int, steps: int = 400) -> list[Any]:
    """Observations, rewards and texts of an episode in which the learner takes its highest allowed token."""
    obs, info = env.reset(seed=seed)
    trace: list[Any] = [obs["observation"].tobytes(), info.get("legal")]
    for _ in range(steps):
        action = int(np.flatnonzero(obs["action_mask"])[-1])
        obs, reward, done, truncated, info = env.step(action)
        trace.append((obs["observation"].tobytes(), reward, done, truncated, info.get("legal")))
        if done or truncated:
            break
    return trace


@pytest.mark.parametrize(
    ("game_id", "options", "opponents"),
    [
        ("dicebattle", {}, "heuristic"),
        ("torabato", {}, "flatmc:worlds=2"),
        ("lyabi", {}, "heuristic"),
        ("tashkalar", {"mode": "melee", "players": 3}, ["random", "heuristic"]),
    ],
)
def test_reset_with_a_seed_repeats_the_episode_opponents_included(
    game_id: str, options: dict[str, Any], opponents: Any
) -> None:
    env = gym_env(game_id, opponents=opponents, **options)
    first = _episode(env, seed=11)
    other = _episode(env, seed=12)
    again = _episode(gym_env(game_id, opponents=opponents, **options), seed=11)
    assert first == again
    assert first != other


def test_unseeded_resets_follow_the_first_seed() -> None:
    a, b = gym_env("dicebattle", opponents="random"), gym_env("dicebattle", opponents="random")
    a.reset(seed=5)
    b.reset(seed=5)
    assert [_episode(a, seed=None)[0] for _ in range(3)] == [_episode(b, seed=None)[0] for _ in range(3)]  # type: ignore[arg-type]


def test_the_reward_is_the_return_at_the_end() -> None:
    env = gym_env("laplaplace", opponents="heuristic")
    trace = _episode(env, seed=2)
    *middle, last = trace[2:]
    assert all(step[1] == 0.0 and not step[2] for step in middle)
    assert last[2] and last[1] == env.driver.state.returns()[0]


def test_bad_specs_and_seats_are_refused() -> None:
    with pytest.raises(OptionError, match="unknown agent"):
        gym_env("torabato", opponents="nobody")
    with pytest.raises(OptionError, match="seat"):
        gym_env("torabato", seat=2)
    with pytest.raises(OptionError, match="one opponent spec"):
        gym_env("tashkalar", mode="melee", players=4, opponents=["random", "random"])
    with pytest.raises(OptionError, match="illegal"):
        gym_env("torabato", illegal="ignore")


def test_a_masked_out_action_loses_or_raises() -> None:
    env = gym_env("dicebattle", opponents="random")
    obs, _ = env.reset(seed=1)
    banned = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(banned)
    assert (reward, done) == (-1.0, True) and "masked out" in info["illegal"]
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)
    strict = gym_env("dicebattle", opponents="random", illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step(banned)


def test_info_has_the_text_and_the_legal_actions() -> None:
    env = gym_env("torabato", opponents="random")
    _, info = env.reset(seed=4)
    state = env.driver.state
    assert info["legal"] == [str(a) for a in state.legal_actions()]
    assert info["text"] == state.game.render(state, 0) and info["step"] == "action"
    quiet = gym_env("torabato", opponents="random", text_info=False)
    assert quiet.reset(seed=4)[1] == {}


def test_a_factored_decision_shows_its_progress() -> None:
    env = aec_env("lyabi")
    env.reset(seed=3)
    for _ in range(200):  # play until a decision takes more than one step
        agent = env.agent_selection
        obs = env.observe(agent)
        d = env.driver
        node = d.node()
        inner = [t for t, child in node.items() if isinstance(child, dict)]
        if inner:
            before = obs["observation"][d.base_size : d.size].copy()
            env.step(inner[0])
            after = env.observe(agent)["observation"][d.base_size : d.size]
            assert before[0] == 1.0 and after[1] == 1.0 and after[d.depth] > 0
            assert env.infos[agent]["step"] == "pay 1" and env.infos[agent]["taken"]
            return
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    pytest.fail("no multi-step decision in 200 steps")


def _make_vec_env(env_id: str) -> gymnasium.Env[Any, Any]:
    import cardarena.rl  # noqa: F401 - registers the ids in the worker process

    return gymnasium.make(env_id, opponents="random", text_info=False)


def test_async_vector_env_runs_episodes_in_worker_processes() -> None:
    from functools import partial

    # spawn, not fork: other tests of the same worker import JAX, whose threads a forked child may deadlock on
    envs = gymnasium.vector.AsyncVectorEnv([partial(_make_vec_env, "cardarena/dicebattle-v0")] * 2, context="spawn")
    try:
        obs, _ = envs.reset(seed=[1, 2])
        assert obs["observation"].shape == (2, envs.single_observation_space["observation"].shape[0])
        rng = np.random.default_rng(0)
        ends = 0
        for _ in range(300):
            # the step after an episode's end resets that env (Gymnasium's next-step autoreset): its action, taken
            # on the final observation whose mask is empty, is ignored
            actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in obs["action_mask"]]
            obs, rewards, done, _, _ = envs.step(actions)
            ends += int(done.sum())
            assert set(rewards.tolist()) <= {-1.0, 0.0, 1.0}
        assert ends >= 1
    finally:
        envs.close()


def test_every_environment_id_is_registered() -> None:
    for env_id, (game_id, _) in cardarena.rl.ENVIRONMENTS.items():
        spec = gymnasium.spec(env_id)
        assert spec.kwargs["game_id"] == game_id


def test_bench_rl_reports_steps_per_second() -> None:
    import json

    from click.testing import CliRunner

    from cardarena.cli.main import cli

    result = CliRunner().invoke(cli, ["bench", "--rl", "dicebattle", "lyabi", "--seconds", "0.2", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["results"]
    assert [r["game"] for r in rows] == ["dicebattle", "lyabi"]
    assert all(r["steps_per_s"] > 0 and r["episodes"] >= 1 for r in rows)
    assert rows[1]["steps_per_s"] > rows[1]["decisions_per_s"]  # Lyabi's decisions take several steps
    assert (rows[0]["action_width"], rows[0]["action_depth"]) == (336, 1)


def test_a_league_agents_play_some_seats_of_the_aec_env() -> None:
    from cardarena.agents import make_agent

    env = aec_env("tashkalar", mode="melee", players=3, text_info=False)
    env.reset(seed=4)
    agents = {"player_1": make_agent("heuristic", 1), "player_2": make_agent("random", 2)}
    actions = 0
    for name in env.agent_iter(max_iter=3000):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
        elif name in agents:
            before = len(env.driver.state.history)
            env.play_agent(agents[name])
            assert len(env.driver.state.history) == before + 1
            actions += 1
        else:
            env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert actions > 10 and not env.agents  # every seat stepped out at the end


def test_set_opponents_takes_effect_at_the_next_reset() -> None:
    env = gym_env("dicebattle", opponents="random")
    env.set_opponents("heuristic")
    env.reset(seed=1)
    assert type(env.agents[1]).__name__ == "HeuristicAgent"
    with pytest.raises(OptionError):
        env.set_opponents(["random", "random"])


def test_aec_renders_what_a_spectator_sees() -> None:
    env = aec_env("lyabi", render_mode="ansi")
    env.reset(seed=2)
    state = env.driver.state
    assert env.render() == state.game.render(state, None)
    assert aec_env("lyabi").render() is None
    with pytest.raises(ValueError, match="render_mode"):
        aec_env("lyabi", render_mode="rgb_array")
