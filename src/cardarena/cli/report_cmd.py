"""``cardarena report GAME``: the designer's balance report, DIR/report.json, DIR/index.html and DIR/*.csv.

A registered command module (``COMMAND``, added by ``cli/main.py`` like the per-game ones): the games and the
statistics are :mod:`cardarena.arena.report`, the page :mod:`cardarena.arena.report_page`, the CSV tables
:mod:`cardarena.arena.report_csv`; this module reads the arguments, checks the --out folder, opens the run's store
in it (a rerun resumes from it), draws the progress bar and writes the files.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from pathlib import Path

import click

from ..arena.depth import DEFAULT_DOUBLINGS, DEFAULT_LADDER, DEFAULT_TOP, DepthPlan, add_depth, check
from ..arena.report import BOOTSTRAP, DEFAULT_AGENT, Plan, identity, plan, report
from ..arena.report_csv import write_csv
from ..arena.report_page import render_page
from ..arena.results import ResultStore, StoreMismatchError, open_store
from ..arena.sweep import OUTCOMES, sweep_summary
from ..engine import RulesError, load
from ..engine.options import parse_option_pairs
from .common import agent_specs, agents_option, fail, runner_options
from .progress import GameProgress

STORE = "games.sqlite"  # every finished game of the run, in the --out folder: a rerun resumes from it
DEPTH = "depth and luck: playing its matches"  # the progress bar's phase of --depth
WRITING = "writing report.json, the page and the CSV tables"  # the progress bar's last phase


@click.command("report")
@click.argument("game_id", metavar="GAME")
@agents_option(
    "agent per seat (one: every seat); the seats rotate game by game, so each agent sits in every seat equally. "
    "The default, the scripted heuristic, stands in for how people play (what a designer wants to know, rather "
    "than how random moves fare), and is fast.",
    default=DEFAULT_AGENT,
)
@click.option("-n", "games", default=1000, show_default=True, help="games (per variant)")
@click.option("--seed", default=0, show_default=True, help="seed of the whole run (the baseline plays the same seeds)")
@click.option("--option", "-o", "options", multiple=True, help="game option name=value (repeatable)")
@click.option(
    "--baseline-option",
    "baseline_options",
    multiple=True,
    help="play the same games again with this option changed (repeatable), e.g. cards=builtin (the shipped "
    "data), and compare",
)
@click.option(
    "--sweep",
    default=None,
    metavar="CARD.FIELD=a:b[:step]",
    help="also play the games with one number of one card at each value from a to b (at most 12 values, same "
    "seeds in each) and plot the outcome against it, e.g. J.attack=3:7 (KIND:CARD.FIELD where a name is both a "
    "card and a circle); the edited card files are written into DIR/sweep",
)
@click.option(
    "--sweep-outcome",
    type=click.Choice(list(OUTCOMES)),
    default=None,
    help="what the sweep follows and where it looks for the fair value: the card's strength (the default for a "
    "card), the score of the seat the number helps (the default for a number of [rules]), or the game's length",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help=f"folder for report.json, index.html, the tables as CSV files and {STORE} (every finished game: the "
    "same command run again resumes from it) [report-GAME]",
)
@click.option(
    "--fresh",
    is_flag=True,
    help="start over: forget the games stored in the --out folder (another run's, or this run's) and replace its "
    "report",
)
@runner_options(jobs_default=None)
@click.option(
    "--bootstrap",
    default=BOOTSTRAP,
    show_default=True,
    help="bootstrap resamples for the card strengths' intervals (fewer than 20: no intervals)",
)
@click.option(
    "--depth",
    "depth_games",
    default=0,
    show_default=True,
    help="also measure depth and luck with this many games per match: a skill ladder, restricted play of the most "
    "used cards, luck against a random player (docs/report.md, 'Depth and luck'); 0: not measured. Costly: "
    "(doublings + top + 1) matches, the ladder's with search agents",
)
@click.option(
    "--depth-ladder",
    default=DEFAULT_LADDER,
    show_default=True,
    help="the skill ladder's first agent, whose budget (iterations, worlds) doubles rung by rung; 'none': no ladder",
)
@click.option("--depth-doublings", default=DEFAULT_DOUBLINGS, show_default=True, help="rungs of the skill ladder")
@click.option(
    "--depth-top",
    default=DEFAULT_TOP,
    show_default=True,
    help="restricted play tries this many of the most used cards (each one a match)",
)
@click.option(
    "--depth-card",
    "depth_cards",
    multiple=True,
    help="restricted play also tries this entry, KIND:NAME or NAME (repeatable), e.g. card:J: a card you changed",
)
def report_cmd(
    game_id: str,
    agents: tuple[str, ...],
    games: int,
    seed: int,
    options: tuple[str, ...],
    baseline_options: tuple[str, ...],
    sweep: str | None,
    sweep_outcome: str | None,
    out: Path | None,
    fresh: bool,
    jobs: int | None,
    backend: str,
    address: str | None,
    bootstrap: int,
    depth_games: int,
    depth_ladder: str,
    depth_doublings: int,
    depth_top: int,
    depth_cards: tuple[str, ...],
) -> None:
    """Play N games and write a designer's balance report: seat and first-player advantage, game length, how
    games end, per-card statistics and strengths, coverage, and with --baseline-option a comparison.

    Every check comes before the first game: the game, its options, the agents and the --out folder. Every
    finished game is stored in the --out folder as it ends, so after an interruption the same command plays only
    the games still missing and writes the report an uninterrupted run would have written."""
    if jobs is not None and jobs < 1:
        fail("--jobs must be ≥ 1")
    if bootstrap < 0:
        fail("--bootstrap must be ≥ 0")
    if address is not None and backend != "ray":
        fail("--address joins a Ray cluster: use it with --backend ray")
    folder = out if out is not None else Path(f"report-{game_id}")
    if depth_cards and not depth_games:
        fail("--depth-card needs --depth N (the games per match of depth and luck)")
    _check_out(folder, fresh=fresh)  # before the plan, which writes a sweep's card files into the folder
    try:
        depth = None
        if depth_games:  # checked first: nothing is written (the sweep's card files) before a bad depth option
            ladder = None if depth_ladder.strip().lower() == "none" else depth_ladder
            depth = DepthPlan(depth_games, ladder, depth_doublings, depth_top, depth_cards)
            check(depth, load(game_id, **parse_option_pairs(options)))
        the_plan = plan(
            game_id,
            n=games,
            seed=seed,
            agents=agent_specs(agents),
            options=parse_option_pairs(options),
            baseline_options=parse_option_pairs(baseline_options),
            sweep=sweep,
            sweep_outcome=sweep_outcome,
            sweep_dir=folder / "sweep",
        )
    except RulesError as e:
        fail(str(e))
    except OSError as e:  # the sweep's card files cannot be written there
        fail(f"cannot write into {folder}: {e.strerror or e}")
    store = _open_store(folder, the_plan, fresh=fresh)
    command = shlex.join(["cardarena", "report", *sys.argv[2:]]) if sys.argv[1:2] == ["report"] else ""
    start = time.perf_counter()
    try:
        with store, GameProgress(f"{game_id} report") as bar:
            data = report(
                the_plan,
                backend=backend,
                jobs=jobs,
                address=address,
                progress=bar,
                command=command or f"cardarena report {game_id} -n {games}",
                bootstrap=bootstrap,
                store=store,
            )
            if depth is not None:  # its matches on the same bar, a line of their own
                add_depth(
                    data,
                    the_plan,
                    depth,
                    backend=backend,
                    jobs=jobs,
                    address=address,
                    progress=lambda done, total: bar(done, total, DEPTH),
                )
            # the page's plots take a while too (2 s of a 5 s Dice Battle report): a last line says so
            bar(0, 3, WRITING)
            (folder / "report.json").write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", "utf-8")
            bar(1, 3, WRITING)
            (folder / "index.html").write_text(render_page(data), encoding="utf-8")
            bar(2, 3, WRITING)
            tables = write_csv(data, folder)
            bar(3, 3, WRITING)
    except RulesError as e:
        fail(str(e))
    except KeyboardInterrupt:
        click.echo(
            f"\ninterrupted: the finished games are stored in {store.path}; run the same command again to resume "
            "(it plays only the games still missing)",
            err=True,
        )
        sys.exit(130)
    wall = time.perf_counter() - start
    variant = data["variants"][0]
    click.echo(
        f"{variant['games']} games per variant ({variant['errors']} errors), {len(data['variants'])} variant(s)"
        + (f" and {len(data['sweep']['points'])} sweep values" if data.get("sweep") else "")
        + f", {wall:.1f} s wall"
        + (f"; {bar.resumed()} games were stored by an earlier run, {bar.played()} played now" if bar.resumed() else "")
    )
    for note in variant["notes"]:
        click.echo(f"note: {note}")
    if data.get("sweep"):
        click.echo(f"sweep: {sweep_summary(data['sweep'])}")
    click.echo(f"report: {(folder / 'index.html').resolve()}")
    click.echo(f"data:   {(folder / 'report.json').resolve()}")
    click.echo(f"tables: {len(tables)} CSV files in {folder.resolve()} ({', '.join(tables)})")


def _check_out(folder: Path, *, fresh: bool) -> None:
    """Check the --out folder before anything is played or written: its parent must be a folder one can write
    in, and a folder holding a report without its stored games (another run's, or an older version's) is not
    overwritten unless ``fresh`` asks to start over."""
    where = folder.resolve()
    if where.exists() and not where.is_dir():
        fail(f"--out {folder} is a file; give a folder")
    parent = where.parent
    if not parent.is_dir():
        fail(f"--out {folder}: the folder {parent} does not exist (make it first, or give another --out)")
    writable = where if where.exists() else parent
    if not os.access(writable, os.W_OK | os.X_OK):
        fail(f"--out {folder}: cannot write in {writable}")
    if not fresh and (folder / "report.json").exists() and not (folder / STORE).exists():
        fail(
            f"--out {folder} holds a report whose games are not stored (another run's, or an older version's); "
            "give another --out, or --fresh to replace it"
        )


def _open_store(folder: Path, the_plan: Plan, *, fresh: bool) -> ResultStore:
    """The run's store in the --out folder (checked by :func:`_check_out`), before any game is played: a store
    of another run (another game, options, agents, seed, data file...) is refused, naming what differs, unless
    ``fresh`` asks to start over: then the games stored there are forgotten (only now that the run is checked)."""
    folder.mkdir(exist_ok=True)
    path = folder / STORE
    if fresh:
        for stale in (path, path.with_name(STORE + "-wal"), path.with_name(STORE + "-shm")):
            stale.unlink(missing_ok=True)
    try:
        return open_store(path, identity(the_plan), grows="games")
    except StoreMismatchError as e:
        # results.py's words name the file and deleting it; a report's user gives --fresh instead
        what = str(e).split("; give another --out")[0].replace(f"{path} holds", f"--out {folder} holds", 1)
        fail(f"{what}; give another --out, or --fresh to start this run over in it")
    except RulesError as e:
        fail(str(e))


COMMAND = report_cmd
