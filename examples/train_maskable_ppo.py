"""Train a masked PPO policy for one seat of a cardarena game, then evaluate it with paired seeds.

    python examples/train_maskable_ppo.py dicebattle --steps 200000 --opponent heuristic --out runs/dicebattle
    python examples/train_maskable_ppo.py laplaplace --steps 512 --eval-games 4          # a smoke run

The environment is ``cardarena.rl.gym_env(game_id, seat=..., opponents=SPEC, **options)``: a Gymnasium env whose
observation is ``{"observation": Box, "action_mask": ...}`` (built from ``observation(seat)`` only) and whose
action space is ``Discrete(num_distinct_actions)`` (Dice Battle, Laplaplace; ToraBato too, with a larger output
layer). Games with a factored action space (Lyabi, Tash-Kalar) are not handled by this script.

The stack is JAX on CPU with optax (docs/interop.md, "Training stack": about 140 MB from PyPI, where torch pulls
about 3 GB of CUDA libraries). The algorithm is PPO with invalid-action masking (Huang and Ontañón, "A Closer Look at
Invalid Action Masking in Policy Gradient Algorithms", 2020): illegal actions get a logit of -1e9, so they are
never sampled and get no gradient; the entropy bonus counts legal actions only. Everything flows from ``--seed``:
the network's initialisation, the episodes' seeds (and so the opponents' choices) and the sampled actions.

Evaluation uses paired seeds: each deal is played twice, once from each seat, so the luck of the deal cancels out
of the comparison; ``--reference`` plays the same deals with a cardarena agent (say ``heuristic``) in the
policy's place, which gives the bar the trained policy is held to.
"""

from __future__ import annotations

import argparse
import csv
import functools
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax

Params = dict[str, list[dict[str, jax.Array]]]
EnvFactory = Callable[[int], Any]  # seat -> a Gymnasium env with the observation dict above


@dataclass(frozen=True)
class Config:
    """PPO's settings (the defaults of CleanRL's PPO, scaled to one CPU core)."""

    steps: int = 100_000
    num_envs: int = 4
    rollout: int = 128  # steps per env between two updates
    epochs: int = 4
    minibatches: int = 4
    learning_rate: float = 2.5e-4
    anneal_lr: bool = False  # decay the learning rate linearly to 0 over the run (CleanRL's default)
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip: float = 0.2
    value_coef: float = 0.5
    entropy_coef: float = 0.01
    max_grad_norm: float = 0.5
    hidden: tuple[int, ...] = (128, 128)
    seed: int = 0


# -- the network ------------------------------------------------------------------------------------------------
def init_params(key: jax.Array, obs_dim: int, num_actions: int, hidden: Sequence[int]) -> Params:
    """Two MLPs (policy and value), orthogonal initialisation; the policy's last layer starts near uniform."""

    def layer(k: jax.Array, n_in: int, n_out: int, scale: float) -> dict[str, jax.Array]:
        w = jax.nn.initializers.orthogonal(scale)(k, (n_in, n_out), jnp.float32)
        return {"w": w, "b": jnp.zeros((n_out,), jnp.float32)}

    sizes = (obs_dim, *hidden)
    keys = iter(jax.random.split(key, 2 * len(sizes)))
    torso = [(sizes[i], sizes[i + 1]) for i in range(len(hidden))]
    pi = [layer(next(keys), a, b, float(np.sqrt(2))) for a, b in torso] + [
        layer(next(keys), sizes[-1], num_actions, 0.01)
    ]
    vf = [layer(next(keys), a, b, float(np.sqrt(2))) for a, b in torso] + [layer(next(keys), sizes[-1], 1, 1.0)]
    return {"pi": pi, "vf": vf}


def _mlp(layers: list[dict[str, jax.Array]], x: jax.Array) -> jax.Array:
    for lay in layers[:-1]:
        x = jnp.tanh(x @ lay["w"] + lay["b"])
    return x @ layers[-1]["w"] + layers[-1]["b"]


def forward(params: Params, obs: jax.Array, mask: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Masked log-probabilities of every action and the value, for a batch of observations."""
    logits = jnp.where(mask, _mlp(params["pi"], obs), -1e9)
    return jax.nn.log_softmax(logits, axis=-1), _mlp(params["vf"], obs)[..., 0]


@jax.jit
def act(params: Params, obs: jax.Array, mask: jax.Array, key: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    logp_all, value = forward(params, obs, mask)
    action = jax.random.categorical(key, logp_all, axis=-1)
    return action, jnp.take_along_axis(logp_all, action[:, None], axis=1)[:, 0], value


@jax.jit
def greedy(params: Params, obs: jax.Array, mask: jax.Array) -> jax.Array:
    return jnp.argmax(forward(params, obs, mask)[0], axis=-1)


def ppo_loss(params: Params, batch: dict[str, jax.Array], cfg: Config) -> tuple[jax.Array, dict[str, jax.Array]]:
    logp_all, value = forward(params, batch["obs"], batch["mask"])
    logp = jnp.take_along_axis(logp_all, batch["action"][:, None], axis=1)[:, 0]
    ratio = jnp.exp(logp - batch["logp"])
    adv = batch["adv"]
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    policy_loss = -jnp.minimum(ratio * adv, jnp.clip(ratio, 1 - cfg.clip, 1 + cfg.clip) * adv).mean()
    value_loss = 0.5 * ((value - batch["ret"]) ** 2).mean()
    entropy = -jnp.where(batch["mask"], jnp.exp(logp_all) * logp_all, 0.0).sum(axis=-1).mean()
    total = policy_loss + cfg.value_coef * value_loss - cfg.entropy_coef * entropy
    return total, {"policy_loss": policy_loss, "value_loss": value_loss, "entropy": entropy}


def optimizer(cfg: Config) -> optax.GradientTransformation:
    """Adam with global gradient clipping; with ``anneal_lr`` the rate falls linearly to 0 at the last update."""
    rate: float | optax.Schedule = cfg.learning_rate
    if cfg.anneal_lr:
        per_update = cfg.rollout * cfg.num_envs
        updates = -(-cfg.steps // per_update) * cfg.epochs * cfg.minibatches
        rate = optax.linear_schedule(cfg.learning_rate, 0.0, updates)
    return optax.chain(optax.clip_by_global_norm(cfg.max_grad_norm), optax.adam(rate, eps=1e-5))


@functools.partial(jax.jit, static_argnames=("cfg",))
def update(
    params: Params, opt_state: Any, batch: dict[str, jax.Array], cfg: Config
) -> tuple[Params, Any, dict[str, jax.Array]]:
    """One gradient step of PPO on a minibatch (compiled once per configuration)."""
    (_, info), grads = jax.value_and_grad(ppo_loss, has_aux=True)(params, batch, cfg)
    updates, opt_state = optimizer(cfg).update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, info


def _split(obs: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    return np.asarray(obs["observation"], np.float32).reshape(-1), np.asarray(obs["action_mask"]).astype(bool)


# -- training ---------------------------------------------------------------------------------------------------
def train(
    make_env: EnvFactory, cfg: Config, *, seats: Sequence[int] = (0,), log: Callable[[str], None] = print
) -> tuple[Params, list[dict[str, float]]]:
    """Train one policy for ``seats``; returns the parameters and the learning curve (one row per update).

    Env ``i`` plays seat ``seats[i % len(seats)]``, so with every seat given (and ``num_envs`` a multiple of the
    number of seats) the policy learns each seat equally often, as the paired evaluation plays it.
    """
    envs = [make_env(seats[i % len(seats)]) for i in range(cfg.num_envs)]
    episode_seeds = np.random.default_rng(cfg.seed)
    observations = []
    for env in envs:
        obs, _ = env.reset(seed=int(episode_seeds.integers(2**31)))
        observations.append(_split(obs))
    obs_dim, num_actions = observations[0][0].size, observations[0][1].size
    key = jax.random.PRNGKey(cfg.seed)
    key, init_key = jax.random.split(key)
    params = init_params(init_key, obs_dim, num_actions, cfg.hidden)
    opt_state = optimizer(cfg).init(params)

    n, t_len = cfg.num_envs, cfg.rollout
    buf_obs = np.zeros((t_len, n, obs_dim), np.float32)
    buf_mask = np.zeros((t_len, n, num_actions), bool)
    buf_action = np.zeros((t_len, n), np.int32)
    buf_logp = np.zeros((t_len, n), np.float32)
    buf_value = np.zeros((t_len, n), np.float32)
    buf_reward = np.zeros((t_len, n), np.float32)
    buf_done = np.zeros((t_len, n), np.float32)
    episode_return = np.zeros(n)
    finished: list[float] = []
    curve: list[dict[str, float]] = []
    steps, started = 0, time.perf_counter()
    while steps < cfg.steps:
        for t in range(t_len):
            buf_obs[t] = np.stack([o for o, _ in observations])
            buf_mask[t] = np.stack([m for _, m in observations])
            key, sub = jax.random.split(key)
            action, logp, value = act(params, buf_obs[t], buf_mask[t], sub)
            buf_action[t], buf_logp[t], buf_value[t] = np.asarray(action), np.asarray(logp), np.asarray(value)
            for i, env in enumerate(envs):
                obs, reward, terminated, truncated, _ = env.step(int(buf_action[t, i]))
                buf_reward[t, i] = reward
                episode_return[i] += reward
                done = terminated or truncated
                buf_done[t, i] = done
                if done:
                    finished.append(float(episode_return[i]))
                    episode_return[i] = 0.0
                    obs, _ = env.reset(seed=int(episode_seeds.integers(2**31)))
                observations[i] = _split(obs)
        steps += t_len * n
        last_value = np.asarray(
            forward(params, np.stack([o for o, _ in observations]), np.stack([m for _, m in observations]))[1]
        )
        adv = np.zeros((t_len, n), np.float32)
        gae = np.zeros(n, np.float32)
        for t in reversed(range(t_len)):
            next_value = last_value if t == t_len - 1 else buf_value[t + 1]
            live = 1.0 - buf_done[t]
            delta = buf_reward[t] + cfg.gamma * next_value * live - buf_value[t]
            gae = delta + cfg.gamma * cfg.gae_lambda * live * gae
            adv[t] = gae
        flat = {
            "obs": buf_obs.reshape(t_len * n, obs_dim),
            "mask": buf_mask.reshape(t_len * n, num_actions),
            "action": buf_action.reshape(-1),
            "logp": buf_logp.reshape(-1),
            "adv": adv.reshape(-1),
            "ret": (adv + buf_value).reshape(-1),
        }
        size = t_len * n // cfg.minibatches
        order = np.random.default_rng(steps + cfg.seed)
        for _ in range(cfg.epochs):
            perm = order.permutation(t_len * n)
            for k in range(cfg.minibatches):
                idx = perm[k * size : (k + 1) * size]
                minibatch = {name: jnp.asarray(v[idx]) for name, v in flat.items()}
                params, opt_state, info = update(params, opt_state, minibatch, cfg)
        recent = finished[-100:]
        row = {
            "steps": float(steps),
            "episodes": float(len(finished)),
            "mean_return": float(np.mean(recent)) if recent else float("nan"),
            "win_rate": float(np.mean([r > 0 for r in recent])) if recent else float("nan"),
            "entropy": float(info["entropy"]),
            "seconds": time.perf_counter() - started,
        }
        curve.append(row)
        log(
            f"steps {steps:>8}  episodes {len(finished):>6}  return {row['mean_return']:+.3f}  "
            f"wins {row['win_rate']:.2f}  entropy {row['entropy']:.3f}  {row['seconds']:.0f}s"
        )
    for env in envs:
        env.close()
    return params, curve


# -- evaluation ---------------------------------------------------------------------------------------------------
def evaluate(params: Params, make_env: EnvFactory, seats: Sequence[int], deals: Sequence[int]) -> dict[str, float]:
    """The greedy policy over every deal from every seat (paired seeds): win, draw and loss rates."""
    return _rates(policy_returns(params, make_env, seats, deals))


def policy_returns(params: Params, make_env: EnvFactory, seats: Sequence[int], deals: Sequence[int]) -> list[float]:
    """The greedy policy's return in each game, seat by seat, deal by deal (``reset(seed=deal)``)."""
    results = []
    for seat in seats:
        env = make_env(seat)
        for deal in deals:
            obs, _ = env.reset(seed=int(deal))
            total, done = 0.0, False
            while not done:
                o, m = _split(obs)
                action = int(greedy(params, o[None], m[None])[0])
                obs, reward, terminated, truncated, _ = env.step(action)
                total += float(reward)
                done = terminated or truncated
            results.append(total)
        env.close()
    return results


def reference(
    game_id: str, agent_spec: str, opponent: str, seats: Sequence[int], deals: Sequence[int], options: dict[str, Any]
) -> dict[str, float]:
    """A cardarena agent in the policy's seat over the same deals: the bar for the trained policy."""
    return _rates(reference_returns(game_id, agent_spec, opponent, seats, deals, options))


def reference_returns(
    game_id: str,
    agent_spec: str,
    opponent: str,
    seats: Sequence[int],
    deals: Sequence[int],
    options: dict[str, Any],
    finals: list[Any] | None = None,
) -> list[float]:
    """The return of ``agent_spec`` in each game, in the order of :func:`policy_returns`.

    The games are exactly the env's: ``reset(seed=deal)`` deals ``new_initial_state(deal)`` and seeds the agent of
    seat ``s`` with ``derive_seed(deal, s)`` (``cardarena.rl.gym_env``), as here; the agent in the policy's seat
    gets the seed its seat would have had. ``finals``, where given, gets each game's last state (the tests
    compare them with the env's).
    """
    import cardarena
    from cardarena.agents import SeatView, make_agent
    from cardarena.engine import derive_seed

    game = cardarena.load(game_id, **options)
    results = []
    for seat in seats:
        for deal in deals:
            state = game.new_initial_state(int(deal))
            agents = [
                make_agent(agent_spec if s == seat else opponent, derive_seed(int(deal), s))
                for s in range(game.num_players)
            ]
            while not state.is_terminal():
                actor = state.current_player
                assert actor is not None
                state.apply(agents[actor].act(SeatView(state, actor)))
            results.append(state.returns()[seat])
            if finals is not None:
                finals.append(state)
    return results


def _rates(results: Sequence[float]) -> dict[str, float]:
    """Win, draw and loss rates of the returns, with Wilson's 95% interval of the win rate."""
    from cardarena.arena.strength import wilson

    n = max(len(results), 1)
    wins = sum(r > 0 for r in results)
    low, high = wilson(wins / n, n)
    return {
        "games": float(len(results)),
        "win_rate": wins / n,
        "win_low": low,
        "win_high": high,
        "draw_rate": sum(r == 0 for r in results) / n,
        "loss_rate": sum(r < 0 for r in results) / n,
        "mean_return": float(np.mean(results)) if results else 0.0,
    }


def _parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--option takes NAME=VALUE, not {pair!r}")
        options[name] = value
    return options


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("game", help="a game whose env has a Discrete action space: dicebattle, laplaplace, torabato")
    parser.add_argument("--steps", type=int, default=Config.steps, help="environment steps to train for")
    parser.add_argument("--opponent", default="heuristic", help="the agent spec of the other seats while training")
    parser.add_argument("--seat", type=int, help="train this seat only (default: every seat, env i plays seat i %% n)")
    parser.add_argument("--num-envs", type=int, default=Config.num_envs)
    parser.add_argument("--rollout", type=int, default=Config.rollout, help="steps per env between updates")
    parser.add_argument("--learning-rate", type=float, default=Config.learning_rate)
    parser.add_argument("--anneal-lr", action="store_true", help="decay the learning rate linearly to 0")
    parser.add_argument("--entropy-coef", type=float, default=Config.entropy_coef)
    parser.add_argument("--epochs", type=int, default=Config.epochs, help="passes over each rollout")
    parser.add_argument("--hidden", default="128,128", help="the MLPs' hidden layer widths, comma-separated")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-games", type=int, default=200, help="deals per seat in the evaluation")
    parser.add_argument("--eval-against", default="random,heuristic", help="opponent specs to evaluate against")
    parser.add_argument("--reference", default="", help="also play the evaluation deals with this agent spec")
    parser.add_argument("--option", action="append", default=[], help="a game option NAME=VALUE (repeatable)")
    parser.add_argument("--out", type=Path, help="a folder for curve.csv, summary.json, params.npz and curve.png")
    parser.add_argument("--plot", type=Path, help="also write the learning curve's plot here (a .png)")
    args = parser.parse_args(argv)

    import cardarena

    try:
        from cardarena import rl  # the environments; imported here so that --help works without them
    except ImportError as e:
        raise SystemExit(f"this script needs the environments of cardarena.rl (docs/rl.md): {e}") from None

    options = _parse_options(args.option)
    cfg = Config(
        steps=args.steps,
        num_envs=args.num_envs,
        rollout=min(args.rollout, max(args.steps // args.num_envs, 8)),
        epochs=args.epochs,
        learning_rate=args.learning_rate,
        anneal_lr=args.anneal_lr,
        entropy_coef=args.entropy_coef,
        hidden=tuple(int(w) for w in args.hidden.split(",") if w),
        seed=args.seed,
    )
    num_players = cardarena.load(args.game, **options).num_players
    seats = list(range(num_players))
    started = time.perf_counter()

    def training_env(seat: int) -> Any:
        # no text pictures in info: nobody reads them here, and rendering every step costs more than the game
        return rl.gym_env(args.game, seat=seat, opponents=args.opponent, text_info=False, **options)

    params, curve = train(training_env, cfg, seats=seats if args.seat is None else [args.seat])
    train_seconds = time.perf_counter() - started
    deals = [
        1_000_000 + i for i in range(args.eval_games)
    ]  # deals never seen in training (those seeds are < 2**31 random)
    evaluation: dict[str, Any] = {}
    for opponent in filter(None, args.eval_against.split(",")):

        def eval_env(seat: int, opponent: str = opponent) -> Any:
            return rl.gym_env(args.game, seat=seat, opponents=opponent, text_info=False, **options)

        evaluation[opponent] = {"policy": evaluate(params, eval_env, seats, deals)}
        if args.reference:
            evaluation[opponent][args.reference] = reference(args.game, args.reference, opponent, seats, deals, options)
    summary = {
        "game": args.game,
        "options": options,
        "opponent": args.opponent,
        "config": asdict(cfg),
        "train_seconds": round(train_seconds, 1),
        "evaluation": evaluation,
        "jax": jax.__version__,
        "optax": optax.__version__,
    }
    print(json.dumps(summary, indent=1))
    if args.out:
        _write(args.out, params, curve, summary)
    if args.plot:
        plot(curve, summary, args.plot)
    return 0


def _write(out: Path, params: Params, curve: list[dict[str, float]], summary: dict[str, Any]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with (out / "curve.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(curve[0]) if curve else ["steps"])
        writer.writeheader()
        writer.writerows(curve)
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    leaves = {
        f"{head}_{i}_{name}": np.asarray(v)
        for head, layers in params.items()
        for i, lay in enumerate(layers)
        for name, v in lay.items()
    }
    np.savez(out / "params.npz", **leaves)
    plot(curve, summary, out / "curve.png")


def plot(curve: list[dict[str, float]], summary: dict[str, Any], path: Path) -> None:
    """Three panels: the training win rate and mean return (last 100 episodes, sampled policy) against steps, and
    the final evaluation's win rates with Wilson 95% intervals (the greedy policy and the reference agent)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    steps = [r["steps"] for r in curve]
    fig, (ax, ax2, ax3) = plt.subplots(1, 3, figsize=(13, 3.8), gridspec_kw={"width_ratios": [3, 3, 2]})
    ax.plot(steps, [r["win_rate"] for r in curve])
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("environment steps")
    ax.set_ylabel(f"win rate vs {summary['opponent']} (training)")
    ax.grid(alpha=0.3)
    ax2.plot(steps, [r["mean_return"] for r in curve])
    ax2.set_xlabel("environment steps")
    ax2.set_ylabel("mean return (last 100 episodes)")
    ax2.grid(alpha=0.3)
    thousands = matplotlib.ticker.FuncFormatter(lambda v, _: f"{v / 1000:g}k" if v else "0")
    for a in (ax, ax2):
        a.xaxis.set_major_formatter(thousands)
    labels, x = [], 0
    for opponent, results in summary["evaluation"].items():
        for name, res in results.items():
            # (Wilson's bounds of a rate of exactly 0 or 1 may miss it by a rounding error: clamp at 0)
            err = [[max(0.0, res["win_rate"] - res["win_low"])], [max(0.0, res["win_high"] - res["win_rate"])]]
            ax3.bar([x], [res["win_rate"]], yerr=err, capsize=4, color="C0" if name == "policy" else "C7")
            note = f"{res['win_rate']:.3f}" + (f"\n({res['draw_rate']:.0%} draws)" if res["draw_rate"] else "")
            ax3.text(x, min(res["win_high"], 1.0) + 0.02, note, ha="center", fontsize=7)
            labels.append(f"{'PPO' if name == 'policy' else name}\nvs {opponent}")
            x += 1
    ax3.set_xticks(range(len(labels)), labels, fontsize=7)
    ax3.set_ylim(0, 1.15)
    games = {int(res["games"]) for results in summary["evaluation"].values() for res in results.values()}
    ax3.set_ylabel("win rate" + (f", {games.pop()} games each" if len(games) == 1 else ""))
    ax3.grid(alpha=0.3, axis="y")
    minutes = summary["train_seconds"] / 60
    fig.suptitle(
        f"{summary['game']}: masked PPO (JAX) vs {summary['opponent']}, "
        f"{steps[-1] if steps else 0:,.0f} steps, {minutes:.1f} min training"
    )
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    raise SystemExit(main())
