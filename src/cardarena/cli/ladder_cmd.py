"""``cardarena ladder GAME``: every strength offered (random, easy, normal, hard, expert) rated on one Elo scale.

A registered command module (``COMMAND``, added by ``cli/main.py``): the round robin, the fit and the ladder file
are :mod:`cardarena.arena.ladder`; this module reads the arguments, draws the progress bar and the table, and with
``--write`` merges the game's entry into ``agents/models/ladder.json`` (what the browser's lobby shows).
``cardarena ladder --markdown`` prints the whole ladder file as the markdown table of docs/agents.md.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from ..arena.ladder import STRENGTHS, default_file, ladder, markdown, seconds_text, write_entry
from ..engine import RulesError
from ..engine.options import parse_option_pairs
from .common import fail
from .progress import GameProgress

console = Console(highlight=False)


@click.command("ladder")
@click.argument("game_id", metavar="[GAME]", required=False)
@click.option("--option", "-o", "options", multiple=True, help="game option name=value (repeatable): -o mode=highform")
@click.option("-n", "pairs", default=20, show_default=True, help="deals per pairing, each played in every seat order")
@click.option("--seed", default=0, show_default=True, help="seed of the whole run")
@click.option("--jobs", "-j", default=1, show_default=True, help="worker processes (the ratings are the same)")
@click.option(
    "--strength",
    "strengths",
    multiple=True,
    metavar="LABEL|NAME=SPEC",
    help=f"the strengths rated (repeatable) [{', '.join(STRENGTHS)}]; NAME=SPEC rates a spec under a name",
)
@click.option(
    "--store",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="result store (SQLite, or NAME.jsonl): an interrupted run resumes from it, a larger -n adds deals",
)
@click.option("--json", "as_json", is_flag=True, help="print the game's ladder entry as one JSON object")
@click.option("--write", is_flag=True, help="merge the game's entry into the ladder file (what the lobby shows)")
@click.option(
    "--file",
    "ladder_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="the ladder file --write and --markdown use [the shipped agents/models/ladder.json]",
)
@click.option("--markdown", "as_markdown", is_flag=True, help="print the ladder file as a markdown table (no GAME)")
def ladder_cmd(
    game_id: str | None,
    options: tuple[str, ...],
    pairs: int,
    seed: int,
    jobs: int,
    strengths: tuple[str, ...],
    store: Path | None,
    as_json: bool,
    write: bool,
    ladder_file: Path | None,
    as_markdown: bool,
) -> None:
    """Rate every strength of GAME (random = 0) by a round robin on paired deals; --write keeps it for the lobby."""
    if as_markdown and game_id is None:
        path = ladder_file or default_file()
        if not path.exists():
            fail(f"no ladder file at {path}: run `cardarena ladder GAME --write` first")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as e:
            fail(f"{path} is not JSON: {e}")
        click.echo(markdown(data), nl=False)
        return
    if game_id is None:
        fail("name a game: cardarena ladder GAME (or --markdown alone to print the ladder file)")
    if pairs < 1 or jobs < 1:
        fail("-n and --jobs must be ≥ 1")
    command = " ".join(
        ["cardarena", "ladder", game_id]
        + [w for o in options for w in ("-o", o)]
        + [w for s in strengths for w in ("--strength", shlex.quote(s))]
        + ["-n", str(pairs), "--seed", str(seed)]
    )
    try:
        with GameProgress(f"{game_id} ladder") as bar:
            key, entry = ladder(
                game_id,
                options=parse_option_pairs(options),
                strengths=list(strengths) or None,
                pairs=pairs,
                seed=seed,
                jobs=jobs,
                store=store,
                progress=bar,
                command=command,
            )
    except RulesError as e:
        fail(str(e))
    except KeyboardInterrupt:
        if store is None:
            raise
        click.echo(f"\ninterrupted: the finished games are stored in {store}; run the same command to resume", err=True)
        sys.exit(130)
    written = None
    if write:
        try:
            written = write_entry(key, entry, ladder_file)
        except RulesError as e:
            fail(str(e))
    if as_json:
        click.echo(json.dumps({"key": key, **entry}, ensure_ascii=False, sort_keys=True))
    else:
        _print(key, entry)
        if as_markdown:
            click.echo(markdown({key: entry}), nl=False)
    if written is not None:
        click.echo(f"wrote {key} into {written}", err=as_json)


def _print(key: str, entry: dict[str, Any]) -> None:
    title = f"{key}: {entry['games']} games, {entry['pairs']} deals a pairing, seed {entry['seed']} (random = 0)"
    table = Table(title=title)
    for head in ("rank", "strength", "agent spec", "Elo", "95%", "s / decision"):
        table.add_column(head, justify="left" if head in ("strength", "agent spec") else "right")
    rows = sorted(entry["strengths"].items(), key=lambda kv: -(kv[1]["elo"] or 0))
    for rank, (name, row) in enumerate(rows, start=1):
        seconds = row["seconds_per_decision"]
        table.add_row(
            str(rank),
            name,
            row["spec"],
            "-" if row["elo"] is None else f"{row['elo']:+d}",
            "-" if row["low"] is None else f"[{row['low']:+d}, {row['high']:+d}]",
            "-" if seconds is None else seconds_text(seconds),
        )
    console.print(table)
    pt = Table(title="pairings (A's score, paired 95% interval)")
    for head in ("A", "B", "games", "A's score", "95%"):
        pt.add_column(head, justify="left" if head in ("A", "B") else "right")
    for p in entry["pairings"]:
        pt.add_row(p["a"], p["b"], str(p["games"]), f"{p['score']:.3f}", f"{p['ci95'][0]:.3f}–{p['ci95'][1]:.3f}")
    console.print(pt)
    for sample in entry.get("error_samples", []):
        console.print(f"[red]error[/red] in game {sample['game']} (seed {sample['seed']}): {sample['error']}")
    console.print(f"command: {entry['command']}")


COMMAND = ladder_cmd
