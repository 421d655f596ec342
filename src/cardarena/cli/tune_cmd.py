"""``cardarena tune GAME``: tune the expert's search settings against a fixed opponent (:mod:`cardarena.arena.tuning`).

A registered command module (``COMMAND``, found by ``cli/main.py`` like the others): the search, the confirmation and
the writing are the arena's; this module reads the arguments, draws the progress bar, prints each trial as it ends
and the confirmation's table.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.table import Table

from ..agents.levels import level_spec
from ..engine import RulesError
from ..engine.options import parse_option_pairs
from .common import fail
from .progress import GameProgress

if TYPE_CHECKING:  # the tuning (numpy, Optuna) is imported when the command runs: `cardarena --help` needs neither
    from ..arena.tuning import Trial, TuneConfig, TuneResult

TUNABLE = ("c", "depth", "rollout", "prior", "candidates")  # arena.tuning.TUNABLE (a test checks they agree)

console = Console(highlight=False)


@click.command("tune")
@click.argument("game_id", metavar="GAME")
@click.option(
    "--option", "-o", "options", multiple=True, help="game option name=value (repeatable): mode=melee, players=4..."
)
@click.option(
    "--agent",
    default="expert",
    show_default=True,
    help="the expert to tune, with what stays fixed: its iterations (the time per decision), model=PATH, and any "
    "setting given here (not tuned)",
)
@click.option("--against", default=None, help="the fixed opponent [the game's `hard` strength]")
@click.option("--trials", default=30, show_default=True, help="settings tried (the first: the untuned ones)")
@click.option(
    "--pairs",
    default=20,
    show_default=True,
    help="rounds per trial, each deal in every seat order (the same deals every trial)",
)
@click.option(
    "--confirm-pairs",
    default=50,
    show_default=True,
    help="fresh rounds on which the best settings and the untuned ones are measured again",
)
@click.option("--seed", default=0, show_default=True, help="seed of the whole run (deals, agents, sampler)")
@click.option(
    "--params",
    default=None,
    help=f"the settings to tune, comma-separated [{','.join(TUNABLE)}, less those --agent gives]",
)
@click.option(
    "--range",
    "ranges",
    multiple=True,
    metavar="NAME=LOW:HIGH",
    help="a setting's range (repeatable): c=0.2:2, c=0.1:3:log, depth=0:10, rollout=random|heuristic "
    "[c=0.1:3:log, depth=0:60, rollout=random|heuristic, prior=0:1, candidates=0:12]",
)
@click.option(
    "--max-slowdown",
    default=1.5,
    show_default=True,
    help="a trial whose time per decision is over this many times the untuned settings' is infeasible (0: no limit)",
)
@click.option(
    "--store",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Optuna's SQLite storage: every trial is kept as it ends; the same command goes on from them (after "
    "Ctrl-C, or with more --trials)",
)
@click.option("--jobs", "-j", default=1, show_default=True, help="worker processes (the same trials for any number)")
@click.option(
    "--write",
    is_flag=True,
    help="store the best settings in the model's metadata (its search settings; the weights are kept) when they "
    "clearly beat the untuned ones on the fresh rounds (the gain's 95% interval above 0)",
)
@click.option("--force", is_flag=True, help="with --write: write the best settings whatever their gain")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
def tune_cmd(
    game_id: str,
    options: tuple[str, ...],
    agent: str,
    against: str | None,
    trials: int,
    pairs: int,
    confirm_pairs: int,
    seed: int,
    params: str | None,
    ranges: tuple[str, ...],
    max_slowdown: float,
    store: Path | None,
    jobs: int,
    write: bool,
    force: bool,
    as_json: bool,
) -> None:
    """Tune the expert's search settings (c, depth, rollout, prior, candidates) for GAME by Optuna's TPE.

    Every trial plays the same --pairs deals, in every seat order, against the fixed opponent (common random
    numbers); the iterations stay as --agent gives them. The best trial and the untuned settings then play
    --confirm-pairs fresh deals: the gain (tuned - untuned) is reported with its 95% interval.
    """
    from ..agents.expert import NET_SETTINGS
    from ..agents.valuenet import ValueNet
    from ..arena.tuning import TuneConfig, tune, write_settings

    if jobs < 1:
        fail("--jobs must be ≥ 1")
    if force and not write:
        fail("--force goes with --write")
    opponent = against if against is not None else level_spec("hard", game_id)
    try:
        config = TuneConfig(
            game=game_id,
            options=parse_option_pairs(options),
            agent=agent,
            against=opponent,
            trials=trials,
            pairs=pairs,
            confirm_pairs=confirm_pairs,
            seed=seed,
            params=tuple(p.strip() for p in params.split(",") if p.strip()) if params is not None else None,
            ranges=ranges,
            max_slowdown=max_slowdown or None,
        )
        err = Console(stderr=True, highlight=False)
        with GameProgress(f"{game_id} tune") as bar:

            def on_trial(trial: Trial, best: Trial) -> None:
                line = f"trial {trial.number + 1}/{trials}: {_settings(trial.settings)}: score {trial.score:.3f}"
                line += f", {trial.seconds_per_decision:.3g} s/decision"
                line += "" if trial.feasible else " (too slow: stopped early)" if trial.stopped else " (too slow)"
                line += " (measured before)" if trial.repeated else ""
                line += f" ({trial.errors} games raised an error: not scored)" if trial.errors else ""
                line += f"; best #{best.number + 1} {best.score:.3f}"
                (bar.console if bar.enabled else err).print(line, soft_wrap=True, highlight=False)

            result = tune(config, jobs=jobs, store=store, progress=bar, on_trial=on_trial, require_model=write)
        note = None
        if write:
            gain, low, high = result.gain()
            if low > 0 or force:
                path = write_settings(result, command=_command(config, store, jobs))
                plays = ValueNet.load(path).meta["search"].get("iterations", NET_SETTINGS["iterations"])
                tuned_at = result.untuned_settings["iterations"]
                if plays != tuned_at:
                    note = (
                        f"note: the settings were tuned at {tuned_at} iterations a decision; the model's expert "
                        f"plays {plays} (its iterations are kept)"
                    )
            else:
                note = (
                    f"not written: the best settings scored {gain:+.3f} [{low:+.3f}, {high:+.3f}] against the "
                    "untuned ones on the fresh rounds, not clearly better (--force writes them anyway)"
                )
    except RulesError as e:
        fail(str(e))
    except KeyboardInterrupt:
        if store is None:
            click.echo("\ninterrupted: nothing kept (--store FILE keeps every finished trial)", err=True)
        else:
            click.echo(f"\ninterrupted: the finished trials are kept in {store}; the same command goes on", err=True)
        sys.exit(130)
    if as_json:
        click.echo(json.dumps({**result.to_json(), "note": note}, ensure_ascii=False, sort_keys=True))
        return
    _print(result)
    if result.written:
        click.echo(f"written: {result.written} (search settings {_settings(result.best.settings)})")
    if note:
        click.echo(note)


def _settings(settings: dict[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in settings.items())


def _command(config: TuneConfig, store: Path | None, jobs: int) -> str:
    """The command line of the run, as the model's tuning record keeps it."""
    words = ["cardarena", "tune", config.game]
    for k, v in config.options.items():
        words += ["-o", f"{k}={v}"]
    words += ["--agent", config.agent, "--against", config.against, "--trials", str(config.trials)]
    words += ["--pairs", str(config.pairs), "--confirm-pairs", str(config.confirm_pairs), "--seed", str(config.seed)]
    if config.params is not None:
        words += ["--params", ",".join(config.params)]
    for r in config.ranges:
        words += ["--range", r]
    words += ["--max-slowdown", str(config.max_slowdown or 0), "--jobs", str(jobs), "--write"]
    if store is not None:
        words += ["--store", str(store)]
    return shlex.join(words)


def _print(result: TuneResult) -> None:
    c = result.config
    top = sorted(result.trials, key=lambda t: (-t.objective, t.number))[:5]
    table = Table(
        title=f"{c.game} ({result.key}): the best of {len(result.trials)} trials against {c.against}, "
        f"{c.pairs} rounds each (the search's own scores: inflated by the selection)"
    )
    table.add_column("trial", justify="right")
    for p in result.space:
        table.add_column(p.name, justify="right")
    table.add_column("score", justify="right")
    table.add_column("s/decision", justify="right")
    for t in top:
        cells = [str(t.settings[p.name]) for p in result.space]
        slow = "" if t.feasible else " (too slow)"
        table.add_row(f"#{t.number + 1}", *cells, f"{t.score:.3f}", f"{t.seconds_per_decision:.3g}{slow}")
    console.print(table)
    gain, lo, hi = result.gain()
    confirm = Table(
        title=f"confirmation: {c.confirm_pairs} fresh rounds, every seat order, against {c.against} "
        "(score, 95% interval over rounds)"
    )
    confirm.add_column("")
    confirm.add_column("settings")
    confirm.add_column("score", justify="right")
    confirm.add_column("s/decision", justify="right")
    untuned = {p.name: result.untuned_settings[p.name] for p in result.space}
    rows = (
        ("untuned", untuned, result.untuned),
        (f"tuned (#{result.best.number + 1})", result.best.settings, result.tuned),
    )
    for label, settings, m in rows:
        f = m.figures()
        score = f"{f['score']:.3f} [{f['ci95'][0]:.3f}, {f['ci95'][1]:.3f}]"
        confirm.add_row(label, _settings(settings), score, f"{m.seconds_per_decision:.3g}")
    confirm.add_row("gain", "tuned - untuned, per round", f"{gain:+.3f} [{lo:+.3f}, {hi:+.3f}]", "")
    console.print(confirm)
    errors = result.untuned.errors + result.tuned.errors + sum(t.errors for t in result.trials)
    if errors:
        console.print(f"[red]{errors} games raised an error[/red] (not scored); the first:")
        for sample in (result.untuned.error_samples + result.tuned.error_samples)[:3]:
            console.print(f"  {sample}")
    click.echo(f"{result.games} games in {result.seconds:.0f} s")
    sys.stdout.flush()


COMMAND = tune_cmd
