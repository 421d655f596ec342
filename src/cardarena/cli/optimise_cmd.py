"""``cardarena optimise laplaplace|dicebattle``: search builds or decks for the highest win rate against a field.

A registered command module (``COMMAND``, found by ``cli/main.py`` like the others): the search, the fresh
measurement and the files are :mod:`cardarena.arena.optimise`; this module reads the arguments, draws the
progress bar and prints the finalists' table.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from ..arena.optimise import DEFAULT_AGENT, DEFAULT_BATCH, ENCODINGS, Settings, describe, optimise
from ..engine import RulesError
from ..engine.options import parse_option_pairs
from .common import agent_specs, agents_option, fail, runner_options
from .progress import GameProgress

console = Console(highlight=False)


@click.command("optimise")
@click.argument("game_id", metavar="laplaplace|dicebattle")
@click.option(
    "--budget",
    default=20_000,
    show_default=True,
    help="games the search may play; each candidate plays every field member, --deals deals, both seat orders",
)
@click.option(
    "--field",
    "field_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="folder of build/deck files (*.toml) to beat [the shipped example builds / the starter decks]",
)
@agents_option(
    "the agent of both seats, one spec (Dice Battle; Laplaplace battles need no decisions). heuristic by default: "
    "it plays any deck sensibly at ~200 games/s, so the budget buys thousands of candidates where a searching agent "
    "(ismcts) would afford a few dozen.",
    default=DEFAULT_AGENT,
)
@click.option("--agent", "old_agent", default=None, hidden=True)  # the old form, still accepted with a note
@click.option("--seed", default=0, show_default=True, help="seed of the whole run (the search and the fresh deals)")
@click.option("--keep", default=3, show_default=True, help="best candidates to measure afresh and write")
@click.option(
    "--deals",
    default=None,
    type=int,
    help="search deals per field member and candidate, each in both seat orders [laplaplace 1, dicebattle 8]",
)
@click.option(
    "--fresh-deals",
    default=200,
    show_default=True,
    help="new deals per field member (both seat orders) for each kept candidate's reported win rate",
)
@click.option("--batch", default=DEFAULT_BATCH, show_default=True, help="candidates asked of the sampler at once")
@click.option("--option", "-o", "options", multiple=True, help="game option name=value (e.g. cards=PATH)")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="folder for the best files and summary.json [optimised-GAME]",
)
@runner_options(jobs_default=None)
@click.option("--json", "as_json", is_flag=True, help="print summary.json's object instead of the table")
def optimise_cmd(
    game_id: str,
    budget: int,
    field_dir: Path | None,
    agents: tuple[str, ...],
    old_agent: str | None,
    seed: int,
    keep: int,
    deals: int | None,
    fresh_deals: int,
    batch: int,
    options: tuple[str, ...],
    out: Path | None,
    jobs: int | None,
    backend: str,
    address: str | None,
    as_json: bool,
) -> None:
    """Search builds (laplaplace) or decks (dicebattle) that beat a field; write the best with fresh win rates.

    Every candidate plays the same deals against every field member in both seat orders (paired seeds). The
    search is Optuna's TPE; the KEEP best are then measured on fresh deals, never seen by the search, so the
    reported win rates are not inflated by the selection.
    """
    if jobs is not None and jobs < 1:
        fail("--jobs must be ≥ 1")
    if game_id not in ENCODINGS:
        fail(f"the optimiser searches builds or decks of {', '.join(sorted(ENCODINGS))}, not {game_id!r}")
    specs = agent_specs(agents, old=[old_agent] if old_agent is not None else [], old_form="--agent SPEC")
    if len(specs) > 1:
        fail(f"the optimiser plays one agent in both seats; --agents names {len(specs)}: {', '.join(specs)}")
    agent = specs[0] if specs else DEFAULT_AGENT
    try:
        option_pairs = parse_option_pairs(options)
    except RulesError as e:
        fail(str(e))
    settings = Settings(
        game_id=game_id,
        budget=budget,
        field_dir=str(field_dir) if field_dir is not None else None,
        agent=agent,
        seed=seed,
        keep=keep,
        deals=deals,
        fresh_deals=fresh_deals,
        batch=batch,
        options=tuple(sorted(option_pairs.items())),
    )
    target = out if out is not None else Path(f"optimised-{game_id}")
    bar = GameProgress(f"{game_id} optimise")
    try:
        with bar:
            result = optimise(settings, out=target, backend=backend, jobs=jobs, address=address, progress=bar)
    except KeyboardInterrupt:
        click.echo("\ninterrupted: nothing written", err=True)
        sys.exit(130)
    except RulesError as e:
        fail(str(e))
    summary = result.to_json()
    if as_json:
        click.echo(json.dumps(summary, ensure_ascii=False, sort_keys=True))
        return
    _print(summary, ordered=game_id == "laplaplace")
    click.echo(
        f"written: {target}/ ({len(summary['best'])} files, summary.json); {result.games_played} games "
        f"({result.search_games} searching {result.candidates_measured} candidates, {result.fresh_games} fresh) "
        f"in {result.seconds:.0f} s"
    )


def _print(summary: dict[str, Any], *, ordered: bool) -> None:
    members = summary["field"]
    title = (
        f"{summary['game']}: best of {summary['candidates_measured']} candidates, measured on "
        f"{summary['fresh_deals_per_member']} fresh deals x 2 seat orders per member (score, 95% interval)"
    )
    table = Table(title=title)  # one row per field member, one column per kept candidate: fits any field
    table.add_column("vs")
    for best in summary["best"]:
        table.add_column(f"#{best['rank']} {best['file']}", justify="right")
    for name in members:
        cells = []
        for best in summary["best"]:
            v = best["vs"][name]
            cells.append(f"{v['score']:.3f} [{v['ci95'][0]:.3f}, {v['ci95'][1]:.3f}]")
        table.add_row(name, *cells)
    table.add_row("mean", *(f"{best['fresh_score']:.3f}" for best in summary["best"]), end_section=False)
    table.add_row("beats every member", *("yes" if b["beats_every_member"] else "no" for b in summary["best"]))
    console.print(table)
    for best in summary["best"]:
        console.print(f"#{best['rank']}: {describe(tuple(best['cards']), ordered=ordered)}")
    if summary["errors"]:
        console.print(f"[red]{summary['errors']} games raised an error[/red] (not scored); the first:")
        for sample in summary["error_samples"]:
            console.print(f"  {sample}")


COMMAND = optimise_cmd
