"""The balance report's done tests on real games (issue 29): ``cardarena report GAME`` run through the command line
with the game's default options and agents, on a copy of the shipped card file with one card planted (made
clearly overpowered, or useless) and ``--baseline-option`` the unchanged shipped file; then what a designer reads:
report.json and the page (index.html).

The planted files are in ``tests/arena/data`` (``GAME_planted.toml``: one card overpowered; ``GAME_useless.toml``:
one card that can never be used or does nothing); :func:`changed_entries` checks that each differs from the
shipped file in its planted card alone, so a change to the shipped file cannot leave them silently stale.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from cardarena import engine
from cardarena.cli.main import cli

DATA = Path(__file__).parent / "data"


def changed_entries(game_id: str, cards: Path, shipped: Path) -> set[tuple[str, str]]:
    """The catalogue entries whose data differ between the two card files (``Game.entry_data``)."""
    a = engine.load(game_id, cards=str(cards)).entry_data()
    b = engine.load(game_id, cards=str(shipped)).entry_data()
    return {key for key in a.keys() | b.keys() if a.get(key) != b.get(key)}


def run_report(
    tmp_path: Path, game_id: str, cards: Path, *, n: int, seed: int = 0, baseline: Path | None = None
) -> tuple[dict[str, Any], str]:
    """``cardarena report GAME -n N --seed S -o cards=CARDS [--baseline-option cards=BASELINE]``, one job (the
    suite runs two test workers on two cores): report.json's object and the page's text."""
    out = tmp_path / f"report-{game_id}"
    args = ["report", game_id, "-n", str(n), "--seed", str(seed), "-o", f"cards={cards}", "-j", "1"]
    if baseline is not None:
        args += ["--baseline-option", f"cards={baseline}"]
    result = CliRunner().invoke(cli, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return report, (out / "index.html").read_text(encoding="utf-8")


def key(entry: dict[str, Any]) -> tuple[str, str]:
    return entry["kind"], entry["name"]


def table(rows: list[dict[str, Any]], *fields: str) -> str:
    """The first rows of a report table, for an assertion's message: what ranked where, and why."""
    return "\n".join(str({f: row.get(f) for f in ("kind", "name", *fields)}) for row in rows[:6])


def assert_planted_card_found(
    report: dict[str, Any], page: str, planted: tuple[str, str], *, at_a_glance: bool = True
) -> None:
    """The designer's question, "which card is out of line?", answered with the planted card: first in "what
    changed" (the only entry whose data differ), first in the comparison (sorted by evidence) and significant, and
    named out of line in words on the page: "what changed" says its change's interval excludes 0 (or that the game
    collapses onto it), and, ``at_a_glance``, the first variant's own "out of line" list names it too (its
    strength interval excludes 0, or it is dominant)."""
    comparison = report["comparison"]
    changed = comparison["changed"]
    assert [key(c) for c in changed if c["change"] == "data"][:1] == [planted], table(changed, "change", "p")
    assert key(changed[0]) == planted, table(changed, "change", "p")
    cards = comparison["cards"]
    assert key(cards[0]) == planted, table(cards, "points_change", "pick_change", "p", "q", "few_uses")
    assert cards[0]["significant"], table(cards, "points_change", "pick_change", "p", "q")
    text = html.unescape(page)  # the words as a reader sees them (the page escapes every text of the report)
    verdict = changed[0]["verdict"]
    assert verdict.startswith("out of line") and verdict in text, verdict
    if at_a_glance:
        out_of_line = {key(c): c for c in report["variants"][0]["out_of_line"]}
        assert planted in out_of_line, report["variants"][0]["out_of_line"]
        why = out_of_line[planted]["why"]
        assert why.startswith(("out of line", "dominant")), why
        assert why in text and out_of_line[planted]["label"] in text, why


def assert_useless_card_found(report: dict[str, Any], useless: tuple[str, str]) -> None:
    """The planted useless card is the first entry of "never used" (the coverage: never used first, the ones that
    occurred most often first among them), or has the lowest strength of the cards that have one."""
    variant = report["variants"][0]
    coverage = variant["coverage"]
    if key(coverage[0]) == useless:
        assert coverage[0]["games"] == 0 and coverage[0]["games_any"] > 0, coverage[0]
        return
    ranked = [c for c in variant["cards"] if c.get("points") is not None and not c.get("few_uses")]
    weakest = min(ranked, key=lambda c: c["points"])
    assert key(weakest) == useless, (table(coverage, "games", "games_any"), table(ranked[-6:], "points"))
