"""Training the expert's value networks: self-play games, their outcomes as targets, a small MLP fitted with Adam.

``cardarena train GAME`` (:func:`train`) runs expert iteration (Anthony et al. 2017; the value half of AlphaZero's
loop) on this machine's cores:

1. **Round 0**: games between copies of the game's rule of thumb (``heuristic``), each move replaced by a random
   legal one with probability ``epsilon`` so that the positions vary. From each game ``positions`` decisions are
   sampled; at each, *every* seat's encoded observation is a training input and that seat's final return its
   target (+1 a win, -1 a loss, 0 a draw).
2. **Rounds 1..R**: games between copies of the expert searching with the previous round's network (``iterations``
   a decision), the same sampling; the network is trained again on the rounds' data together (the newest
   ``window`` rounds), starting from the previous weights.

Inputs are what ``observation(seat)`` holds (the encoder reads nothing else), so the network never learns from a
hidden card. Everything is seeded: the same command on the same machine writes the same weights (the games and
their order do not depend on ``jobs``; the fit runs on one BLAS thread).

The fit is plain numpy: minibatch Adam on the squared error of a tanh output, weight decay, a held-out tenth of
the *games* (not positions: positions of one game are alike) for the validation loss; the weights of the epoch
with the best validation loss are kept. The learning curve (each epoch's train and validation loss, per round)
goes into the model's metadata and, with ``plot``, a PNG.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .. import __version__
from ..agents import SeatView, make_agent
from ..agents.levels import model_key
from ..agents.valuenet import ValueNet
from ..engine import Rng, load, playout_choices
from ..engine.rng import derive_seed


@dataclass(frozen=True)
class TrainConfig:
    """Everything a training run depends on (written into the model's metadata)."""

    game: str
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    games: int = 20000  # round 0: heuristic self-play games
    rounds: int = 1  # expert-iteration rounds after round 0
    selfplay_games: int = 200  # games per expert-iteration round
    iterations: int = 32  # the expert's iterations per decision in its self-play games
    positions: int = 6  # decisions sampled per game (every seat's view at each)
    epsilon: float = 0.05  # chance that a self-play move is a random legal one
    hidden: tuple[int, ...] = (64, 32)
    epochs: int = 8
    batch: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-5
    window: int = 3  # rounds of data kept for training (the newest)
    search: dict[str, Any] = field(default_factory=dict)  # the expert's search settings to ship with the model


Progress = Callable[[str, int, int], None]  # (stage, done, total)


# -- self-play ---------------------------------------------------------------------------------------------------
def _play_games(job: tuple[str, dict[str, Any], list[int], str, int, float, str | None]) -> tuple[Any, Any, Any]:
    """Worker: play the games of ``seeds`` (each agent seeded from the game's seed) and return the sampled inputs,
    targets and game numbers."""
    game_id, options, seeds, spec, positions, epsilon, model = job
    _one_thread()
    game = load(game_id, **options)
    encoder = game.observation_encoder()
    n_seats = game.num_players
    rows: list[np.ndarray] = []
    targets: list[float] = []
    owners: list[int] = []
    for seed in seeds:
        state = game.new_initial_state(seed)
        rng = Rng(derive_seed(seed, 1))
        agent_spec = spec if model is None else f"{spec},model={model}"
        agents = [make_agent(agent_spec, derive_seed(seed, 2, seat)) for seat in range(n_seats)]
        decisions = 0
        # sample ``positions`` decisions of the game: reservoir sampling, since its length is unknown beforehand
        chosen: list[np.ndarray] = []
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            legal = state.legal_actions()
            if len(legal) > 1:
                decisions += 1
                slot = decisions - 1 if decisions <= positions else rng.randbelow(decisions)
                if slot < positions:
                    block = np.zeros((n_seats, encoder.size), np.float32)
                    for s in range(n_seats):
                        encoder.encode_into(state.observation(s), s, block[s])
                    if decisions <= positions:
                        chosen.append(block)
                    else:
                        chosen[slot] = block
                if rng.random() < epsilon:
                    choices = playout_choices(game, list(legal))
                    action = choices[rng.randbelow(len(choices))]
                else:
                    action = agents[seat].act(SeatView(state, seat))
            else:
                action = legal[0]
            state.apply(action)
        returns = state.returns()
        for block in chosen:
            rows.append(block)
            targets.extend(returns)
            owners.extend([seed] * n_seats)
    x = np.concatenate(rows) if rows else np.zeros((0, encoder.size), np.float32)
    return x, np.asarray(targets, np.float32), np.asarray(owners, np.uint64)


def _one_thread() -> None:
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")


def self_play(
    config: TrainConfig,
    seeds: Sequence[int],
    spec: str,
    model: str | None,
    jobs: int,
    progress: Progress | None = None,
    stage: str = "self-play",
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The sampled positions of the games of ``seeds`` between copies of ``spec`` (with ``model``), in seed order
    whatever ``jobs`` is: inputs ``[n, size]``, targets ``[n]``, the game seed of each row ``[n]``."""
    chunk = max(1, min(50, math.ceil(len(seeds) / max(1, jobs * 4))))
    parts = [list(seeds[i : i + chunk]) for i in range(0, len(seeds), chunk)]
    jobs_list = [(config.game, config.options, p, spec, config.positions, config.epsilon, model) for p in parts]
    results: list[tuple[Any, Any, Any]] = []
    done = 0
    if jobs <= 1:
        for job in jobs_list:
            results.append(_play_games(job))
            done += len(job[2])
            if progress:
                progress(stage, done, len(seeds))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for job, result in zip(jobs_list, pool.map(_play_games, jobs_list), strict=True):
                results.append(result)
                done += len(job[2])
                if progress:
                    progress(stage, done, len(seeds))
    xs, ys, gs = zip(*results, strict=True)
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(gs)


# -- the fit -----------------------------------------------------------------------------------------------------
def init_layers(sizes: Sequence[int], rng: np.random.Generator) -> list[tuple[np.ndarray, np.ndarray]]:
    """He-initialised weights for ReLU layers, a small last layer."""
    layers = []
    for i, (a, b) in enumerate(itertools.pairwise(sizes)):
        scale = math.sqrt(2.0 / a) if i < len(sizes) - 2 else math.sqrt(1.0 / a)
        layers.append(((rng.standard_normal((a, b)) * scale).astype(np.float32), np.zeros(b, np.float32)))
    return layers


def _loss(layers: list[tuple[np.ndarray, np.ndarray]], x: np.ndarray, y: np.ndarray) -> float:
    net = ValueNet(layers)
    total = 0.0
    for i in range(0, len(x), 4096):
        p = net.predict(x[i : i + 4096])
        total += float(np.sum((p - y[i : i + 4096]) ** 2))
    return total / max(1, len(x))


def fit(
    x: np.ndarray,
    y: np.ndarray,
    groups: np.ndarray,
    config: TrainConfig,
    *,
    start: list[tuple[np.ndarray, np.ndarray]] | None,
    seed: int,
    progress: Progress | None = None,
    stage: str = "fit",
) -> tuple[list[tuple[np.ndarray, np.ndarray]], list[dict[str, float]]]:
    """Fit the network to ``(x, y)``; a tenth of the games (``groups``) held out. Returns the layers of the best
    validation epoch and the curve ``[{epoch, train, validation}]``."""
    rng = np.random.default_rng(seed)
    game_ids = np.unique(groups)
    held = set(rng.choice(game_ids, size=max(1, len(game_ids) // 10), replace=False).tolist())
    is_val = np.fromiter((g in held for g in groups), bool, len(groups))
    xt, yt, xv, yv = x[~is_val], y[~is_val], x[is_val], y[is_val]
    sizes = [x.shape[1], *config.hidden, 1]
    layers = [(w.copy(), b.copy()) for w, b in start] if start is not None else init_layers(sizes, rng)
    params = [p for layer in layers for p in layer]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    beta1, beta2, eps, lr, wd = 0.9, 0.999, 1e-8, config.learning_rate, config.weight_decay
    step = 0
    best = (_loss(layers, xv, yv), [(w.copy(), b.copy()) for w, b in layers])
    curve: list[dict[str, float]] = [{"epoch": 0, "train": _loss(layers, xt, yt), "validation": best[0]}]
    n = len(xt)
    for epoch in range(1, config.epochs + 1):
        order = rng.permutation(n)
        train_total = 0.0
        for i in range(0, n, config.batch):
            idx = order[i : i + config.batch]
            xb, yb = xt[idx], yt[idx]
            # forward
            acts = [xb]
            h = xb
            for j, (w, b) in enumerate(layers):
                h = h @ w + b
                if j < len(layers) - 1:
                    h = np.maximum(h, 0.0)
                acts.append(h)
            out = np.tanh(acts[-1][:, 0])
            err = out - yb
            train_total += float(np.sum(err * err))
            # backward: d(mean squared error)/d(pre-tanh)
            grad = (2.0 / len(idx)) * err * (1.0 - out * out)
            g = grad[:, None].astype(np.float32)
            grads: list[np.ndarray] = []
            for j in range(len(layers) - 1, -1, -1):
                w, _ = layers[j]
                a = acts[j]
                gw = a.T @ g + wd * w
                gb = g.sum(axis=0)
                grads[:0] = [gw, gb]
                if j:
                    g = (g @ w.T) * (acts[j] > 0)
            step += 1
            c1 = 1 - beta1**step
            c2 = 1 - beta2**step
            for p, gp, mp, vp in zip(params, grads, m, v, strict=True):
                mp *= beta1
                mp += (1 - beta1) * gp
                vp *= beta2
                vp += (1 - beta2) * gp * gp
                p -= (lr / c1) * mp / (np.sqrt(vp / c2) + eps)
        val = _loss(layers, xv, yv)
        curve.append({"epoch": epoch, "train": train_total / max(1, n), "validation": val})
        if val < best[0]:
            best = (val, [(w.copy(), b.copy()) for w, b in layers])
        if progress:
            progress(stage, epoch, config.epochs)
    return best[1], curve


# -- the whole run -----------------------------------------------------------------------------------------------
@dataclass
class TrainResult:
    net: ValueNet
    path: Path
    seconds: float
    rounds: list[dict[str, Any]]


def train(
    config: TrainConfig, out: Path | None = None, *, jobs: int = 1, progress: Progress | None = None
) -> TrainResult:
    """Run the training ``config`` describes and write the model (default: the shipped model's place)."""
    started = time.perf_counter()
    _one_thread_blas()
    game = load(config.game, **config.options)
    key = model_key(game)
    if out is None:
        from ..agents.expert import model_path

        out = model_path(game)
    out.parent.mkdir(parents=True, exist_ok=True)
    data: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    layers: list[tuple[np.ndarray, np.ndarray]] | None = None
    rounds: list[dict[str, Any]] = []
    scratch = tempfile.TemporaryDirectory(prefix="cardarena-train-")
    tmp_model = Path(scratch.name) / "round.npz"  # the last round's network, which the next round's games play
    for r in range(config.rounds + 1):
        t0 = time.perf_counter()
        count = config.games if r == 0 else config.selfplay_games
        seeds = [derive_seed(config.seed, 100 + r, k) for k in range(count)]
        if r == 0:
            spec, model = "heuristic", None
        else:
            # the leaf scored by the previous network itself: cheap games (the search settings are pinned here,
            # so a change of the expert's defaults does not change the training)
            spec = f"expert:iterations={config.iterations},depth=0,rollout=random,c=1.0,prior=0.3,candidates=0"
            model = str(tmp_model)
        x, y, g = self_play(config, seeds, spec, model, jobs, progress, stage=f"round {r}: games")
        data.append((x, y, g))  # each round's seeds differ: a game's group is its seed
        data = data[-config.window :]
        xs = np.concatenate([d[0] for d in data])
        ys = np.concatenate([d[1] for d in data])
        gs = np.concatenate([d[2] for d in data])
        played = time.perf_counter() - t0
        layers, curve = fit(
            xs,
            ys,
            gs,
            config,
            start=layers,
            seed=derive_seed(config.seed, 200 + r),
            progress=progress,
            stage=f"round {r}: fit",
        )
        rounds.append(
            {
                "round": r,
                "agent": spec,
                "games": count,
                "samples": len(xs),
                "play_seconds": round(played, 1),
                "fit_seconds": round(time.perf_counter() - t0 - played, 1),
                "curve": [{k: round(float(v), 5) for k, v in point.items()} for point in curve],
            }
        )
        ValueNet(layers, {"key": key}).save(tmp_model)
    assert layers is not None
    seconds = time.perf_counter() - started
    kept: dict[str, Any] = {}
    if not config.search and out.exists():  # retraining keeps the settings tuned for the model it replaces
        try:
            old = ValueNet.load(out).meta
        except ValueError:
            old = {}
        kept = {k: old[k] for k in ("search", "tuning") if k in old}
    meta = {
        "key": key,
        "game": config.game,
        "options": config.options,
        "config": {k: v for k, v in asdict(config).items() if k != "search"},
        "search": config.search,
        **kept,
        "rounds": rounds,
        "seconds": round(seconds, 1),
        "cardarena": __version__,
        "float16": True,
    }
    net = ValueNet(layers, meta)
    net.save(out)
    scratch.cleanup()
    return TrainResult(ValueNet.load(out), out, seconds, rounds)


def _one_thread_blas() -> None:
    """The fit's matrix products on one thread: the same weights whatever the machine's core count."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - the arena extra brings it
        return
    threadpool_limits(1)


def plot_curves(meta: dict[str, Any], path: Path) -> None:
    """The learning curve of a trained model (validation loss by epoch, one line per round) as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5), dpi=100)
    offset = 0
    for r in meta["rounds"]:
        epochs = [offset + p["epoch"] for p in r["curve"]]
        agent = r["agent"].split(",")[0]
        ax.plot(epochs, [p["validation"] for p in r["curve"]], label=f"round {r['round']} ({agent}): held-out games")
        ax.plot(epochs, [p["train"] for p in r["curve"]], linestyle=":", color=ax.lines[-1].get_color())
        offset = epochs[-1]
    ax.plot([], [], linestyle=":", color="grey", label="dotted: training positions")
    ax.set_xlabel("epoch (rounds one after another)")
    ax.set_ylabel("mean squared error of the outcome")
    ax.set_title(f"{meta['key']}: value network learning curve")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def describe(meta: dict[str, Any]) -> str:
    return json.dumps({k: meta[k] for k in ("key", "config", "search", "seconds") if k in meta}, indent=1)
