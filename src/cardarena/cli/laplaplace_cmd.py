"""``cardarena laplaplace league DIR``: the mail-in tournament of Laplaplace builds.

A registered per-game command (``COMMAND``, added by ``cli/main.py``): it reaches the game only through the
arena's league of build files, which uses the game's public API and the state protocol.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..arena.league import run_league, standings_text
from ..engine import RulesError

GAME_ID = "laplaplace"


@click.group(GAME_ID)
def laplaplace_group() -> None:
    """Laplaplace tools: run a league of build files."""


COMMAND = laplaplace_group


@laplaplace_group.command("league")
@click.argument("directory", metavar="DIR", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "--csv",
    "csv_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="write the standings here (default: DIR/standings.csv)",
)
@click.option(
    "--cards",
    "cards",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="card list file replacing the built-in one",
)
@click.option("--seed", default=0, show_default=True, help="seed of the first-player coin tosses")
@click.option("--matches", "show_matches", is_flag=True, help="also list every battle")
def league_cmd(directory: Path, csv_path: Path | None, cards: Path | None, seed: int, show_matches: bool) -> None:
    """Battle every build file (*.toml) in DIR against every other, in both seat orders."""
    target = csv_path if csv_path is not None else directory / "standings.csv"
    options = {} if cards is None else {"cards": str(cards)}
    try:
        result = run_league(GAME_ID, directory, options=options, seed=seed, csv_path=target)
    except (RulesError, OSError) as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    n = len(result.standings)
    click.echo(f"{result.game} league: {n} builds, {len(result.matches)} battles (win 3, draw 1)")
    click.echo(standings_text(result.standings))
    if show_matches:
        click.echo("")
        for m in result.matches:
            who = "draw" if m.winner is None else (m.seat0 if m.winner == 0 else m.seat1)
            click.echo(f"{m.seat0} vs {m.seat1}: {who} ({m.turns} turns)")
    click.echo(f"standings written to {target}")
