"""``cardarena replay FILE --analyse [--seat K] [--agent SPEC] [--seed S] [--json]``: every decision of a seat (of
each seat without ``--seat``), the win probability of the move played and of the best move the analysing search
finds, from that seat's information only (:mod:`cardarena.agents.analysis`), a table per seat and a summary."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..agents.analysis import BIGGEST, MISTAKE, Decision, GameAnalysis, analyse_record, analyst
from ..engine import OptionError, RulesError, State
from .common import fail

TEXT_WIDTH = 48  # an action's words in the table, cut beyond


def run_analysis(
    file: Path, final: State, seat: int | None, spec: str, seed: int, *, as_json: bool, console: Console
) -> None:
    """Analyse the record ``file`` (already replayed to ``final``) and print it: JSON, or a table per seat."""
    try:
        analyst(spec)
    except OptionError as e:
        fail(str(e))
    seats = None if seat is None else [seat]
    err = Console(stderr=True, highlight=False)
    show = err.is_terminal
    with Progress(
        TextColumn("analysing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("decisions"),
        TimeRemainingColumn(),
        console=err,
        disable=not show,
        transient=True,
    ) as bar:
        task = bar.add_task("analysing", total=None)
        try:
            analysis = analyse_record(
                file,
                seats=seats,
                agent=spec,
                seed=seed,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
            )
        except (RulesError, ValueError) as e:
            fail(str(e))
    if as_json:
        click.echo(json.dumps(analysis.to_json(), ensure_ascii=False))
        return
    print_analysis(analysis, final, console)


def _percent(p: float | None) -> str:
    return "" if p is None else f"{100 * p:.0f}%"


def _cut(text: str) -> str:
    return text if len(text) <= TEXT_WIDTH else text[: TEXT_WIDTH - 1] + "…"


def decision_row(d: Decision) -> list[str]:
    flag = ("mistake" if d.mistake else "") + (" ★" if d.biggest else "")
    best = "=" if d.best == d.played else _cut(d.best_text)
    swing = (f"{100 * d.swing:.0f}" if d.swing >= 0.005 else "<1") if d.swing else ""
    return [
        str(d.ply + 1),
        str(d.turn),
        _cut(d.played_text),
        _percent(d.p_played),
        best,
        _percent(d.p_best),
        swing,
        flag,
    ]


def print_analysis(analysis: GameAnalysis, final: State, console: Console) -> None:
    """A table of each analysed seat's decisions (forced ones left out) and a summary of each seat."""
    game = final.game
    model = analysis.model or "the game's own evaluation (no trained model)"
    click.echo(
        f"{game.name}, seed {final.seed}: analysed by {analysis.agent} ({model}), from each seat's information "
        f"only; result {analysis.result}"
    )
    for seat in analysis.seats:
        table = Table(
            "action",
            "turn",
            "played",
            "p(win)",
            "best",
            "p(win)",
            "swing",
            "",
            title=f"seat {seat}",
            title_justify="left",
        )
        for d in analysis.of(seat):
            if d.forced:
                continue
            style = "bold red" if d.mistake else ("yellow" if d.biggest else None)
            table.add_row(*decision_row(d), style=style)
        console.print(table)
        s = analysis.summary(seat)
        estimated = s["decisions"] - s["forced"]
        click.echo(
            f"seat {seat}: {s['decisions']} decisions ({s['forced']} forced, not rated), {estimated} rated; "
            f"{s['mistakes']} mistake(s) (swing >= {100 * MISTAKE:.0f} points of win probability); "
            f"mean swing {100 * s['mean_swing']:.1f} points"
        )
        worst = sorted((d for d in analysis.of(seat) if d.biggest), key=lambda d: -d.swing)
        if worst:
            click.echo(f"  the {min(BIGGEST, len(worst))} biggest:")
            for d in worst:
                click.echo(
                    f"  #{d.ply + 1} (turn {d.turn}): played {d.played_text!r} ({_percent(d.p_played)}), "
                    f"best {d.best_text!r} ({_percent(d.p_best)}): {100 * d.swing:.0f} points"
                )
