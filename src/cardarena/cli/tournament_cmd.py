"""``cardarena tournament GAME --agents A,B[,C...]``: a round robin (or a gauntlet) with honest statistics.

A registered command module (``COMMAND``, added by ``cli/main.py`` like the per-game ones): the schedule, the
statistics and the result store are :mod:`cardarena.arena.tournament`; this module reads the arguments, draws
the progress bar and the tables, and says how to resume after Ctrl-C.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from ..arena.tournament import DEFAULT_DELTA, default_out, plan, tournament
from ..engine import RulesError
from ..engine.options import parse_option_pairs
from .common import agent_specs, agents_option, fail, runner_options
from .progress import GameProgress

console = Console(highlight=False)


@click.command("tournament")
@click.argument("game_id", metavar="GAME")
@click.argument("old_specs", metavar="", nargs=-1)  # the old form --agents A B C: B and C arrive here
@agents_option(
    "the entrants, each [NAME=]SPEC[@seatoption=value,...], e.g. --agents random,heuristic,ismcts:iterations=200 "
    "or --agents mine=heuristic@deck=my_deck.toml --agents heuristic@deck=horde."
)
@click.option("-n", "games", default=100, show_default=True, help="games per pairing (rounded up to whole deals)")
@click.option("--seed", default=0, show_default=True, help="seed of the whole run")
@click.option("--option", "-o", "options", multiple=True, help="game option name=value for every game (repeatable)")
@click.option("--gauntlet", default=None, metavar="SPEC", help="this entrant against each of the others only")
@runner_options(jobs_default=None)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="result store, SQLite (or NAME.jsonl): a run resumes from it [$CARDARENA_DATA/tournaments/GAME-HASH.sqlite]",
)
@click.option("--until-significant", is_flag=True, help="stop a pairing once an SPRT says which entrant is stronger")
@click.option(
    "--delta",
    default=DEFAULT_DELTA,
    show_default=True,
    help="--until-significant: the score difference from 0.5 it looks for",
)
@click.option("--json", "as_json", is_flag=True, help="print one JSON object (no timings: identical on every backend)")
def tournament_cmd(
    game_id: str,
    old_specs: tuple[str, ...],
    agents: tuple[str, ...],
    games: int,
    seed: int,
    options: tuple[str, ...],
    gauntlet: str | None,
    jobs: int | None,
    backend: str,
    address: str | None,
    out: Path | None,
    until_significant: bool,
    delta: float,
    as_json: bool,
) -> None:
    """Play every entrant against every other on the same deals in every seat order; W/D/L, intervals, ratings."""
    if games < 1 or (jobs is not None and jobs < 1):
        fail("-n and --jobs must be ≥ 1")
    entrant_specs = agent_specs(agents, old=old_specs, old_form="--agents A B (the entrants as separate words)")
    if not entrant_specs:
        fail("name the entrants: --agents SPEC,SPEC[,SPEC...]")
    try:
        the_plan = plan(game_id, entrant_specs, seed=seed, options=parse_option_pairs(options), gauntlet=gauntlet)
    except RulesError as e:
        fail(str(e))
    store = out if out is not None else default_out(the_plan, os.environ.get("CARDARENA_DATA") or "data")
    start = time.perf_counter()
    bar = GameProgress(f"{game_id} tournament")
    try:
        with bar:
            summary = tournament(
                the_plan,
                games_per_pairing=games,
                until_significant=until_significant,
                delta=delta,
                out=store,
                backend=backend,
                jobs=jobs,
                address=address,
                progress=bar,
            )
    except KeyboardInterrupt:
        click.echo(
            f"\ninterrupted: the finished games are stored in {store}; run the same command again to resume",
            err=True,
        )
        sys.exit(130)
    except RulesError as e:
        fail(str(e))
    wall = time.perf_counter() - start
    if as_json:
        click.echo(json.dumps(summary, ensure_ascii=False, sort_keys=True))
        return
    _print_tables(summary)
    played = bar.played()
    rate = f", {played / wall:.2f} games/s" if played and wall > 0 else ""
    click.echo(f"results: {store} ({played} games played now, {summary['games']} counted); {wall:.1f} s wall{rate}")


def _interval(pair: list[float], digits: int = 3) -> str:
    return f"{pair[0]:.{digits}f}–{pair[1]:.{digits}f}"


def _print_tables(summary: dict[str, Any]) -> None:
    title = (
        f"{summary['game']}: {summary['games']} games, seed {summary['seed']}, seatings {' '.join(summary['seatings'])}"
    )
    heads = ["A", "B", "games", "A: W-D-L", "A's score", "95% (paired)", "turns", "decisions"]
    sprt = summary["until_significant"] is not None
    if sprt:
        heads.append("SPRT")
    rows = []
    for p in summary["pairings"]:
        row = [
            p["a"],
            p["b"],
            str(p["games"]) + (f" ({p['errors']} errors)" if p["errors"] else ""),
            f"{p['wins']}-{p['draws']}-{p['losses']}",
            f"{p['score']:.3f}",
            _interval(p["ci95"]),
            f"{p['mean_turns']:.1f}",
            f"{p['mean_decisions']:.1f}",
        ]
        if sprt:
            s = p["sprt"]
            row.append("-" if s["stronger"] is None else f"{s['stronger']} after {s['stopped_after_deals']} deals")
        rows.append(row)
    table = Table(title=title)
    for c, head in enumerate(heads):
        if head in ("A", "B"):  # names give way first in a narrow terminal (the ratings below show them whole)
            table.add_column(head, no_wrap=True, min_width=9)
        else:
            width = max(len(head), *(len(r[c]) for r in rows)) if rows else len(head)
            table.add_column(head, justify="right", no_wrap=True, min_width=width)
    for row in rows:
        table.add_row(*row)
    console.print(table)
    ratings = summary["ratings"]
    if ratings is not None:
        rt = Table(title="ratings (Bradley–Terry, Elo scale, mean 0)")
        for head in ("rank", "entrant", "Elo", "± se", "95%"):
            rt.add_column(head, justify="left" if head == "entrant" else "right")
        for rank, r in enumerate(sorted(ratings, key=lambda r: -r["elo"]), start=1):
            rt.add_row(
                str(rank),
                r["name"],
                f"{r['elo']:+.0f}",
                f"{r['se']:.0f}",
                f"[{r['ci95'][0]:+.0f}, {r['ci95'][1]:+.0f}]",
            )
        console.print(rt)
    fs = summary["first_seat"]
    seats = ", ".join("-" if s is None else f"{s:.3f}" for s in summary["seat_scores"])
    console.print(
        f"first seat's score {fs['score']:.3f}, 95% {_interval(fs['ci95'])} (Wilson, {fs['games']} games); "
        f"by seat: {seats}"
    )
    console.print(f"mean turns {summary['mean_turns']}, mean decisions {summary['mean_decisions']}")
    for sample in summary.get("error_samples", []):
        console.print(f"[red]error[/red] in game {sample['game']} (seed {sample['seed']}): {sample['error']}")


COMMAND = tournament_cmd
