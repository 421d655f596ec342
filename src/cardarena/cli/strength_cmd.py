"""``cardarena strength GAME --agents A,B``: how strong agent A is against agent B (:mod:`cardarena.arena.strength`).

A registered command module (``COMMAND``, added by ``cli/main.py`` like the per-game ones): it reaches the games
only through the arena.
"""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from ..arena.strength import strength
from ..engine import RulesError
from ..engine.options import parse_option_pairs
from .common import agent_specs, agents_option, fail
from .progress import GameProgress

console = Console(highlight=False)


@click.command("strength")
@click.argument("game_id", metavar="GAME")
@click.argument("old_agents", nargs=-1, metavar="")  # the old form --agents A B: B arrives here
@agents_option("the agent measured (A) and its opponent (B): --agents A,B.")
@click.option("-n", "pairs", default=100, show_default=True, help="rounds: each deal once per seat A can take")
@click.option("--seed", default=0, show_default=True, help="seed of the whole run")
@click.option(
    "--option",
    "-o",
    "options",
    multiple=True,
    help="game option name=value (repeatable); `cardarena rules GAME` lists them",
)
@click.option("--jobs", "-j", default=1, show_default=True, help="worker processes (same results for any number)")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@click.option(
    "--store",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="result store (SQLite, or NAME.jsonl): each game is written as it ends; the same command resumes from it,"
    " and with a larger -n plays only the new rounds",
)
def strength_cmd(
    game_id: str,
    old_agents: tuple[str, ...],
    agents: tuple[str, ...],
    pairs: int,
    seed: int,
    options: tuple[str, ...],
    jobs: int,
    as_json: bool,
    store: Path | None,
) -> None:
    """A's win rate against B over paired seeds in every seat order, with its 95% (Wilson) interval."""
    if pairs < 1 or jobs < 1:
        fail("-n and --jobs must be ≥ 1")
    specs = agent_specs(agents, old=old_agents, old_form="--agents A B (the agents as separate words)")
    if len(specs) != 2:
        fail(f"name two agents, the one measured and its opponent: --agents A,B (got {len(specs)})")
    try:
        with GameProgress(f"{game_id} strength") as bar:
            summary = strength(
                game_id,
                (specs[0], specs[1]),
                pairs=pairs,
                seed=seed,
                options=parse_option_pairs(options),
                jobs=jobs,
                progress=bar,
                store=store,
            )
    except RulesError as e:
        fail(str(e))
    except KeyboardInterrupt:
        if store is None:
            raise
        fail(f"interrupted: the finished games are stored in {store}; run the same command again to resume")
    if as_json:
        click.echo(json.dumps(summary, ensure_ascii=False, sort_keys=True))
        return
    lo, hi = summary["ci95"]
    table = Table(title=f"{summary['game']}: {summary['agents']['a']} (A) vs {summary['agents']['b']} (B)")
    table.add_column("what")
    table.add_column("value", justify="right")
    table.add_row("games (rounds × seats)", f"{summary['games']} ({pairs} × {summary['seats']})")
    table.add_row("A wins / draws / losses", f"{summary['wins']} / {summary['draws']} / {summary['losses']}")
    table.add_row("A's score (draws half)", f"{summary['score']:.3f}  [{lo:.3f}, {hi:.3f}] 95%")
    by_seat = ", ".join("-" if v is None else f"{v:.3f}" for v in summary["score_by_a_seat"])
    table.add_row("A's score by A's seat", by_seat)
    r = summary["rounds"]
    table.add_row(
        "rounds won / split / lost (every seat)", f"{r['won_every_seat']} / {r['split']} / {r['lost_every_seat']}"
    )
    table.add_row("mean decisions per game", str(summary["mean_decisions"]))
    table.add_row("errors", str(summary["errors"]))
    t = summary["time"]
    table.add_row("time", f"{t['wall_seconds']} s wall, {t['jobs']} jobs; A {t['a_seconds_per_decision']} s/decision")
    console.print(table)
    for sample in summary.get("error_samples", []):
        console.print(f"[red]error[/red] in game {sample['game']} (seed {sample['seed']}): {sample['error']}")


COMMAND = strength_cmd
