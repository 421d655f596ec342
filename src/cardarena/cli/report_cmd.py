"""``cardarena report GAME``: the designer's balance report, DIR/report.json and DIR/index.html.

A registered command module (``COMMAND``, added by ``cli/main.py`` like the per-game ones): the games and the
statistics are :mod:`cardarena.arena.report`, the page :mod:`cardarena.arena.report_page`; this module reads the
arguments, draws the progress bar and writes the two files.
"""

from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path

import click

from ..agents import split_specs
from ..arena.depth import DEFAULT_DOUBLINGS, DEFAULT_LADDER, DEFAULT_TOP, DepthPlan, add_depth, check
from ..arena.report import BOOTSTRAP, DEFAULT_AGENT, plan, report
from ..arena.report_page import render_page
from ..arena.sweep import OUTCOMES, sweep_summary
from ..engine import RulesError, load
from ..engine.options import parse_option_pairs
from .common import fail, runner_options
from .progress import GameProgress


@click.command("report")
@click.argument("game_id", metavar="GAME")
@click.option(
    "--agents",
    default=DEFAULT_AGENT,
    show_default=True,
    help="agent per seat, comma-separated (one: every seat); the seats rotate game by game, so each agent sits "
    "in every seat equally. The default, the scripted heuristic, stands in for how people play (what a designer "
    "wants to know, rather than how random moves fare), and is fast",
)
@click.option("-n", "games", default=1000, show_default=True, help="games (per variant)")
@click.option("--seed", default=0, show_default=True, help="seed of the whole run (the baseline plays the same seeds)")
@click.option("--option", "-o", "options", multiple=True, help="game option name=value (repeatable)")
@click.option(
    "--baseline-option",
    "baseline_options",
    multiple=True,
    help="play the same games again with this option changed (repeatable), e.g. cards=old.toml, and compare",
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
    help="folder for report.json and index.html [report-GAME]",
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
    agents: str,
    games: int,
    seed: int,
    options: tuple[str, ...],
    baseline_options: tuple[str, ...],
    sweep: str | None,
    sweep_outcome: str | None,
    out: Path | None,
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
    games end, per-card statistics and strengths, coverage, and with --baseline-option a comparison."""
    if jobs is not None and jobs < 1:
        fail("--jobs must be ≥ 1")
    if bootstrap < 0:
        fail("--bootstrap must be ≥ 0")
    folder = out if out is not None else Path(f"report-{game_id}")
    if depth_cards and not depth_games:
        fail("--depth-card needs --depth N (the games per match of depth and luck)")
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
            agents=split_specs(agents),
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
    command = shlex.join(["cardarena", "report", *sys.argv[2:]]) if sys.argv[1:2] == ["report"] else ""
    start = time.perf_counter()
    try:
        with GameProgress(f"{game_id} report") as bar:
            data = report(
                the_plan,
                backend=backend,
                jobs=jobs,
                address=address,
                progress=bar,
                command=command or f"cardarena report {game_id} -n {games}",
                bootstrap=bootstrap,
            )
        if depth is not None:
            with GameProgress(f"{game_id} depth and luck") as bar:
                add_depth(data, the_plan, depth, backend=backend, jobs=jobs, address=address, progress=bar)
    except RulesError as e:
        fail(str(e))
    except KeyboardInterrupt:
        click.echo("\ninterrupted: a report keeps no partial results; run it again (a smaller -n is quicker)", err=True)
        sys.exit(130)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "report.json").write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    (folder / "index.html").write_text(render_page(data), encoding="utf-8")
    wall = time.perf_counter() - start
    variant = data["variants"][0]
    click.echo(
        f"{variant['games']} games per variant ({variant['errors']} errors), {len(data['variants'])} variant(s)"
        + (f" and {len(data['sweep']['points'])} sweep values" if data.get("sweep") else "")
        + f", {wall:.1f} s wall"
    )
    for note in variant["notes"]:
        click.echo(f"note: {note}")
    if data.get("sweep"):
        click.echo(f"sweep: {sweep_summary(data['sweep'])}")
    click.echo(f"report: {(folder / 'index.html').resolve()}")
    click.echo(f"data:   {(folder / 'report.json').resolve()}")


COMMAND = report_cmd
