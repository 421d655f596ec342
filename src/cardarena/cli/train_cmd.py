"""``cardarena train GAME``: train the expert's value network by self-play (:mod:`cardarena.arena.training`).

A registered command module (``COMMAND``, added by ``cli/main.py``). With no ``--out`` it writes the shipped model
of the game's configuration (``src/cardarena/agents/models/KEY.npz``), the file ``expert`` plays with.
"""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console

from ..arena.training import TrainConfig, plot_curves, train
from ..engine import OptionError, RulesError
from ..engine.options import parse_option_pairs
from .common import fail
from .progress import GameProgress

console = Console(highlight=False)


@click.command("train")
@click.argument("game_id", metavar="GAME")
@click.option("--option", "-o", "options", multiple=True, help="game option name=value (repeatable)")
@click.option("--seed", default=0, show_default=True, help="seed of the whole run: the same seed, the same weights")
@click.option("--games", default=TrainConfig.games, show_default=True, help="round 0: heuristic self-play games")
@click.option("--rounds", default=TrainConfig.rounds, show_default=True, help="expert-iteration rounds after round 0")
@click.option(
    "--selfplay-games", default=TrainConfig.selfplay_games, show_default=True, help="games per expert-iteration round"
)
@click.option(
    "--iterations", default=TrainConfig.iterations, show_default=True, help="the expert's iterations in self-play"
)
@click.option("--positions", default=TrainConfig.positions, show_default=True, help="decisions sampled per game")
@click.option("--epochs", default=TrainConfig.epochs, show_default=True, help="passes over the data per round")
@click.option("--hidden", default="64,32", show_default=True, help="hidden layer sizes")
@click.option("--jobs", "-j", default=1, show_default=True, help="worker processes for the games (same weights)")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="where to write the model (default: the shipped model of this configuration)",
)
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path), default=None, help="learning curve PNG")
@click.option("--json", "as_json", is_flag=True, help="print the run's record as one JSON object")
def train_cmd(
    game_id: str,
    options: tuple[str, ...],
    seed: int,
    games: int,
    rounds: int,
    selfplay_games: int,
    iterations: int,
    positions: int,
    epochs: int,
    hidden: str,
    jobs: int,
    out: Path | None,
    plot: Path | None,
    as_json: bool,
) -> None:
    """Train GAME's value network: heuristic self-play, then rounds of the expert's own games (expert iteration)."""
    if min(games, positions, epochs, jobs) < 1 or rounds < 0 or selfplay_games < 1 or iterations < 1:
        fail("--games, --positions, --epochs, --jobs, --selfplay-games and --iterations must be ≥ 1, --rounds ≥ 0")
    try:
        sizes = tuple(int(h) for h in hidden.split(",") if h.strip())
    except ValueError:
        fail(f"--hidden takes layer sizes such as 128,64, not {hidden!r}")
    if not sizes or min(sizes) < 1:
        fail("--hidden needs at least one layer of at least one unit")
    config = TrainConfig(
        game=game_id,
        options=parse_option_pairs(options),
        seed=seed,
        games=games,
        rounds=rounds,
        selfplay_games=selfplay_games,
        iterations=iterations,
        positions=positions,
        epochs=epochs,
        hidden=sizes,
    )
    try:
        with GameProgress(f"{game_id} training") as bar:
            result = train(config, out, jobs=jobs, progress=lambda stage, done, total: bar(done, total, stage))
    except (RulesError, OptionError) as e:
        fail(str(e))
    meta = result.net.meta
    if plot is not None:
        plot_curves(meta, plot)
    if as_json:
        click.echo(json.dumps({"path": str(result.path), **meta}))
        return
    console.print(f"[bold]{meta['key']}[/]: {result.net.parameters:,} parameters, written to {result.path}")
    for r in result.rounds:
        best = min(p["validation"] for p in r["curve"])
        console.print(
            f"  round {r['round']} ({r['agent']}): {r['games']} games, {r['samples']:,} positions, "
            f"best validation error {best:.4f}; play {r['play_seconds']} s, fit {r['fit_seconds']} s"
        )
    console.print(f"  {result.seconds:.0f} s in all")


COMMAND = train_cmd
