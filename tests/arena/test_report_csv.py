"""The report's tables as CSV (arena/report_csv.py): every table of report.json present becomes a file that parses
back with the same numbers, quoted as RFC 4180 says; the command writes them beside report.json."""

from __future__ import annotations

import copy
import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardarena.arena.report_csv import NAMES, csv_tables, write_csv
from cardarena.cli.main import cli

from .report_games import registered

DATA = Path(__file__).parent / "data"


def sample() -> dict[str, Any]:
    return json.loads((DATA / "report-sample.json").read_text(encoding="utf-8"))


def parsed(folder: Path, name: str) -> list[dict[str, str]]:
    """A written file read back as a spreadsheet would: UTF-8 (its byte-order mark dropped), the csv module."""
    with (folder / name).open(encoding="utf-8-sig", newline="") as f:
        return list(csv.DictReader(f))


def number(text: str) -> float | None:
    return None if text == "" else float(text)


def test_every_table_of_a_schema_1_report_parses_back_with_the_same_numbers(tmp_path: Path) -> None:
    data = sample()
    written = write_csv(data, tmp_path)
    assert set(written) == {
        "seats.csv", "first_player.csv", "length.csv", "length_histogram.csv", "ends.csv", "cards.csv",
        "coverage.csv", "comparison.csv", "comparison_cards.csv",
    }  # fmt: skip
    assert all((tmp_path / name).read_bytes().startswith(b"\xef\xbb\xbf") for name in written)  # UTF-8, with BOM
    cards = parsed(tmp_path, "cards.csv")
    expected = [(v["label"], c) for v in data["variants"] for c in v["cards"]]
    assert len(cards) == len(expected)
    for row, (variant, card) in zip(cards, expected):
        assert row["variant"] == variant and (row["kind"], row["name"], row["label"]) == (
            card["kind"],
            card["name"],
            card["label"],
        )
        assert int(row["games_used"]) == card["games_used"] and number(row["score_used"]) == card["score_used"]
        assert number(row["strength"]) == card["strength"]
        assert [number(row["strength_ci_low"]), number(row["strength_ci_high"])] == (card["strength_ci"] or [None] * 2)
        assert [number(row["ci_used_low"]), number(row["ci_used_high"])] == (card["ci_used"] or [None, None])
        assert row["rank"] == ("" if card["rank"] is None else str(card["rank"]))
    seats = parsed(tmp_path, "seats.csv")
    assert [(r["variant"], int(r["seat"]), float(r["score"]), float(r["ci_low"])) for r in seats] == [
        (v["label"], s["seat"], s["score"], s["ci"][0]) for v in data["variants"] for s in v["seats"]
    ]
    comparison = parsed(tmp_path, "comparison_cards.csv")
    first = data["comparison"]["cards"][0]
    assert comparison[0]["name"] == first["name"] and float(comparison[0]["change"]) == first["change"]
    assert comparison[0]["significant"] == ("true" if first["significant"] else "false")
    summary = parsed(tmp_path, "comparison.csv")
    assert (
        summary[0]["what"] == "seat 0 score"
        and float(summary[0]["a (as given)"]) == data["comparison"]["seats"][0]["a"]
    )
    assert summary[-1]["what"] == "mean turns"
    length = parsed(tmp_path, "length.csv")
    turns = data["variants"][0]["length"]["turns"]
    assert (length[0]["measure"], float(length[0]["mean"]), float(length[0]["p90"])) == (
        "turns",
        turns["mean"],
        turns["p90"],
    )
    bins = [
        r for r in parsed(tmp_path, "length_histogram.csv") if r["variant"] == "as given" and r["measure"] == "turns"
    ]
    assert [[int(r["from"]), int(r["to_before"]), int(r["games"])] for r in bins] == turns["histogram"]


def test_text_with_commas_quotes_and_line_breaks_is_quoted_and_reads_back(tmp_path: Path) -> None:
    data = sample()
    card = data["variants"][0]["cards"][0]
    card["label"] = 'Raider, "the fast" 雷\nsecond line'
    write_csv(data, tmp_path)
    assert parsed(tmp_path, "cards.csv")[0]["label"] == card["label"]
    raw = (tmp_path / "cards.csv").read_bytes().decode("utf-8-sig")
    assert '"Raider, ""the fast"" 雷\nsecond line"' in raw and "\r\n" in raw  # RFC 4180: doubled quotes, CRLF


def test_the_tables_of_schema_2_are_exported_in_long_form() -> None:
    """Matchups as one row per (label, opponent), the sweep's points, the depth ladder and restricted play, the
    setups, what changed, the drama's distributions: whichever keys report.json holds."""
    data = copy.deepcopy(sample())
    v = data["variants"][0]
    v["matchups"] = {
        "kind": "deck",
        "labels": ["horde", "arcana"],
        "games": [[0, 40], [40, 0]],
        "score": [[None, 0.6], [0.4, None]],
        "ci": [[None, [0.45, 0.73]], [[0.27, 0.55], None]],
        "cycles": [],
        "method": "m",
    }
    v["setups"] = [{"label": "horde vs arcana", "seats": [["horde", 20], ["arcana", 20]], "pairs": 40, "score": 0.6,
                    "ci": [0.45, 0.73]}]  # fmt: skip
    dist = {"mean": 3.5, "median": 3.0, "p10": 1.0, "p90": 6.0, "min": 1, "max": 8, "histogram": []}
    v["drama"] = {"decided_turn": dist, "decided_share": dist, "lead_changes": dist, "turns_by_end": {"hp": dist}}
    data["comparison"]["changed"] = [
        {"kind": "card", "name": "J", "label": "J", "change": "data", "a": "6/6", "b": "2/2", "points_change": 12.5,
         "points_change_ci": [8.0, 17.0], "pick_change": 0.1, "p": 0.001, "q": 0.01, "verdict": "stronger"}
    ]  # fmt: skip
    data["sweep"] = {
        "target": "J.cost",
        "outcome": "seat balance",
        "points": [{"value": v_, "games": 100, "seat_scores": [0.5, 0.5], "seat_ci": [[0.4, 0.6], [0.4, 0.6]],
                    "card_points": 3.0, "card_points_ci": [1.0, 5.0], "turns_mean": 20.0, "turns_ci": [19.0, 21.0]}
                   for v_ in (1, 2, 3)],
    }  # fmt: skip
    data["depth"] = {
        "ladder": [{"agent": "ismcts", "budget": 100, "opponent": "ismcts:50", "games": 40, "score": 0.7,
                    "ci": [0.55, 0.82]}],
        "restricted": [{"kind": "card", "name": "J", "label": "J", "games": 40, "score": 0.3, "ci": [0.18, 0.45],
                        "importance": 0.2}],
        "luck": {"agent": "heuristic", "opponent": "random", "games": 4, "score": 0.0, "ci": [0.0, 0.49],
                 "index": 0.0, "index_ci": [0.0, 0.98], "verdict": "skill decides"},
        "first_player": {"games": 20, "score": 0.65, "ci": [0.43, 0.82], "advantage": 15.0, "verdict": "none"},
    }  # fmt: skip
    tables = csv_tables(data)
    assert set(tables) <= set(NAMES)
    head, *rows = tables["matchups.csv"]
    assert head == ["variant", "kind", "label", "opponent", "games", "score", "ci_low", "ci_high"]
    assert ["as given", "deck", "horde", "arcana", 40, 0.6, 0.45, 0.73] in rows and len(rows) == 4
    assert ["as given", "deck", "horde", "horde", 0, "", "", ""] in rows
    head, *rows = tables["sweep.csv"]
    assert head[:3] == ["target", "outcome", "value"] and [r[2] for r in rows] == [1, 2, 3]
    assert head.index("card_points_ci_low") and rows[0][head.index("card_points_ci_high")] == 5.0
    assert rows[0][head.index("seat_scores")] == "[0.5, 0.5]"  # a list that is no interval: its JSON text
    head, *rows = tables["changed.csv"]
    assert rows[0][head.index("points_change_ci_low")] == 8.0 and rows[0][head.index("change")] == "data"
    assert tables["depth_ladder.csv"][1][tables["depth_ladder.csv"][0].index("ci_high")] == 0.82
    assert tables["depth_restricted.csv"][1][-1] == 0.2
    head, *rows = tables["depth_summary.csv"]
    assert [r[0] for r in rows] == ["luck", "first player"] and rows[1][head.index("ci_high")] == 0.82
    assert rows[0][head.index("index_ci_high")] == 0.98 and rows[1][head.index("index_ci_low")] == ""
    assert tables["setups.csv"][0][:3] == ["variant", "label", "seats"]
    assert [r[1:3] for r in tables["drama.csv"][1:]][-1] == ["turns", "hp"]


def test_a_rerun_without_a_baseline_leaves_no_comparison_file_of_the_earlier_run(tmp_path: Path) -> None:
    data = sample()
    write_csv(data, tmp_path)
    assert (tmp_path / "comparison_cards.csv").exists()
    (tmp_path / "mine.csv").write_text("a designer's own file")
    data["comparison"] = None
    data["variants"] = data["variants"][:1]
    write_csv(data, tmp_path)
    assert not (tmp_path / "comparison_cards.csv").exists() and not (tmp_path / "comparison.csv").exists()
    assert (tmp_path / "mine.csv").exists() and (tmp_path / "cards.csv").exists()


def test_the_report_command_writes_the_csv_files_beside_report_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    registered(monkeypatch)
    args = ["report", "toy-planted", "-n", "8", "--agents", "random", "-o", "cards=a:1,b:2,op:50,dud:-1", "-j", "1",
            "--baseline-option", "cards=a:1,b:2,op:1,dud:-1", "--bootstrap", "0", "--out", str(tmp_path)]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert f"CSV files in {tmp_path}" in result.output
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    for name, rows in csv_tables(data).items():
        with (tmp_path / name).open(encoding="utf-8-sig", newline="") as f:
            back = list(csv.reader(f))
        text = io.StringIO()
        csv.writer(text).writerows(rows)
        assert back == list(csv.reader(io.StringIO(text.getvalue()))), name
    ends = parsed(tmp_path, "ends.csv")
    assert sum(int(r["count"]) for r in ends if r["variant"] == "as given") == 8
    rows = parsed(tmp_path, "comparison_cards.csv")
    assert [r["name"] for r in rows] == [c["name"] for c in data["comparison"]["cards"]]
    for row, card in zip(rows, data["comparison"]["cards"]):  # every number of every compared card, as in the JSON
        for key, value in card.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                assert number(row[key]) == value, (card["name"], key)
            elif isinstance(value, list) and len(value) == 2 and key.endswith("ci"):
                assert [number(row[f"{key}_low"]), number(row[f"{key}_high"])] == value, (card["name"], key)
