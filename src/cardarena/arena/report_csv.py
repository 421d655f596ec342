"""The balance report's tables as CSV files beside report.json (``cardarena report`` writes them; docs/report.md).

:func:`csv_tables` is a pure function of report.json's object: ``{file name: rows}``, the first row the column
names. Every table of the report that is present becomes one file, the variants one below the other with a
``variant`` column ("as given", "baseline"), so a file reads into a spreadsheet or a data frame as it is:

- ``seats.csv``, ``first_player.csv``, ``length.csv`` (mean, median, percentiles of turns and decisions),
  ``length_histogram.csv``, ``ends.csv``, ``cards.csv``, ``coverage.csv``, ``out_of_line.csv``, ``setups.csv``;
- ``matchups.csv`` (long form: one row per label and opponent), ``drama.csv`` (its distributions);
- with a baseline: ``comparison.csv`` (seats, first player, mean turns), ``comparison_cards.csv``,
  ``changed.csv``;
- ``sweep.csv`` (one row per swept value), ``depth_ladder.csv``, ``depth_restricted.csv``, ``depth_summary.csv``
  (luck, first player, mirror: one row each).

The columns of a table of records (cards, setups, changed...) are the records' own keys, in report.json's order
and names, so a field added to report.json comes out too. A 95% interval ``[lo, hi]`` (a key ``ci`` or ``*_ci``,
or schema 1's ``ci_*``) becomes two columns, ``KEY_low`` and ``KEY_high``; another list or an object is written
as its JSON text. ``null`` is an empty cell, booleans are ``true``/``false``; numbers are written as report.json
holds them. The files are UTF-8 with a byte-order mark (so that a spreadsheet reads Japanese card names
correctly), quoted as RFC 4180 says (Python's ``csv`` module, lines ending in CRLF).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

Row = list[Any]

#: Every file :func:`csv_tables` can make: :func:`write_csv` removes those of an earlier run into the same folder
#: that this run does not make (a comparison's files when the rerun has no baseline).
NAMES = (
    "seats.csv",
    "first_player.csv",
    "length.csv",
    "length_histogram.csv",
    "ends.csv",
    "cards.csv",
    "coverage.csv",
    "out_of_line.csv",
    "setups.csv",
    "matchups.csv",
    "drama.csv",
    "comparison.csv",
    "comparison_cards.csv",
    "changed.csv",
    "sweep.csv",
    "depth_ladder.csv",
    "depth_restricted.csv",
    "depth_summary.csv",
)
_DISTRIBUTION = ("mean", "median", "p10", "p90", "min", "max")


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return value


def _is_interval(key: str, value: Any) -> bool:
    named = key == "ci" or key.endswith("_ci") or key.startswith("ci_")
    return named and (value is None or (isinstance(value, list) and len(value) == 2))


def records(rows: Iterable[dict[str, Any]], *, first: dict[str, Any] | None = None) -> list[Row]:
    """A table of records (dicts): a header of every key met, in order of first appearance (the ``first``
    columns before them, the same in every row), then one row per record; intervals split in two columns."""
    rows = list(rows)
    keys: list[str] = []
    for row in rows:
        for key in row:
            if key not in keys:
                keys.append(key)
    intervals = {k for k in keys if all(_is_interval(k, r.get(k)) for r in rows)}
    head: list[str] = list(first or {})
    for key in keys:
        head += [f"{key}_low", f"{key}_high"] if key in intervals else [key]
    out: list[Row] = [head]
    for row in rows:
        line = [_cell(v) for v in (first or {}).values()]
        for key in keys:
            value = row.get(key)
            if key in intervals:
                line += ["", ""] if value is None else [_cell(value[0]), _cell(value[1])]
            else:
                line.append(_cell(value))
        out.append(line)
    return out


def _stack(parts: Sequence[list[Row]]) -> list[Row]:
    """Tables of the same records one below the other (one per variant): one header, the union of the columns."""
    head: list[str] = []
    for part in parts:
        for name in part[0] if part else []:
            if name not in head:
                head.append(name)
    out: list[Row] = [head]
    for part in parts:
        if not part:
            continue
        where = [head.index(name) for name in part[0]]
        for row in part[1:]:
            line: Row = [""] * len(head)
            for i, value in zip(where, row):
                line[i] = value
            out.append(line)
    return out


def _per_variant(data: dict[str, Any], key: str) -> list[Row] | None:
    """A record list of every variant (``variants[i][key]``), stacked with a ``variant`` column; ``None`` when no
    variant has the key."""
    parts = [records(v[key], first={"variant": v["label"]}) for v in data["variants"] if isinstance(v.get(key), list)]
    parts = [p for p in parts if len(p) > 1 or p[0][1:]]
    return _stack(parts) if parts else None


def _distribution_row(first: list[Any], dist: dict[str, Any]) -> Row:
    return [*first, *(_cell(dist.get(k)) for k in _DISTRIBUTION)]


def csv_tables(data: dict[str, Any]) -> dict[str, list[Row]]:
    """Every table of report.json's object ``data`` present in it: ``{file name: rows}``, a header row first."""
    variants = data.get("variants") or []
    out: dict[str, list[Row]] = {}
    for name, key in (
        ("seats.csv", "seats"),
        ("ends.csv", "ends"),
        ("cards.csv", "cards"),
        ("coverage.csv", "coverage"),
        ("out_of_line.csv", "out_of_line"),
        ("setups.csv", "setups"),
    ):
        table = _per_variant(data, key)
        if table is not None:
            out[name] = table
    firsts = [records([v["first_player"]], first={"variant": v["label"]}) for v in variants if v.get("first_player")]
    if firsts:
        out["first_player.csv"] = _stack(firsts)
    length: list[Row] = [["variant", "measure", *_DISTRIBUTION]]
    histogram: list[Row] = [["variant", "measure", "from", "to_before", "games"]]
    for v in variants:
        for measure, dist in (v.get("length") or {}).items():
            length.append(_distribution_row([v["label"], measure], dist))
            histogram += [[v["label"], measure, *bin_] for bin_ in dist.get("histogram") or []]
    if len(length) > 1:
        out["length.csv"] = length
        out["length_histogram.csv"] = histogram
    matchups: list[Row] = [["variant", "kind", "label", "opponent", "games", "score", "ci_low", "ci_high"]]
    drama: list[Row] = [["variant", "measure", "end", *_DISTRIBUTION]]
    for v in variants:
        m = v.get("matchups")
        if m:
            for i, label in enumerate(m["labels"]):
                for j, opponent in enumerate(m["labels"]):
                    ci = m["ci"][i][j]
                    matchups.append(
                        [
                            v["label"],
                            m.get("kind", ""),
                            label,
                            opponent,
                            _cell(m["games"][i][j]),
                            _cell(m["score"][i][j]),
                            *(["", ""] if ci is None else [_cell(ci[0]), _cell(ci[1])]),
                        ]
                    )
        d = v.get("drama")
        if d:
            for measure in ("decided_turn", "decided_share", "lead_changes"):
                if isinstance(d.get(measure), dict):
                    drama.append(_distribution_row([v["label"], measure, ""], d[measure]))
            for end, dist in (d.get("turns_by_end") or {}).items():
                drama.append(_distribution_row([v["label"], "turns", end], dist))
    if len(matchups) > 1:
        out["matchups.csv"] = matchups
    if len(drama) > 1:
        out["drama.csv"] = drama
    comparison = data.get("comparison")
    if comparison:
        lines = [{"what": f"seat {s['seat']} score", **s} for s in comparison.get("seats") or []]
        if comparison.get("first_player"):
            lines.append({"what": "first player's score", "seat": None, **comparison["first_player"]})
        if comparison.get("length_turns_mean"):
            lines.append({"what": "mean turns", "seat": None, **comparison["length_turns_mean"]})
        a, b = (comparison.get("labels") or ["a", "b"])[:2]
        out["comparison.csv"] = [
            ["what", f"a ({a})", f"b ({b})", "change", "p", "significant"],
            *[
                [line["what"], *(_cell(line.get(k)) for k in ("a", "b", "change", "p", "significant"))]
                for line in lines
            ],
        ]
        if comparison.get("cards"):
            out["comparison_cards.csv"] = records(comparison["cards"])
        if comparison.get("changed"):
            out["changed.csv"] = records(comparison["changed"])
    sweep = data.get("sweep")
    if sweep and sweep.get("points"):
        out["sweep.csv"] = records(
            sweep["points"], first={"target": sweep.get("target"), "outcome": sweep.get("outcome")}
        )
    depth = data.get("depth")
    if depth:
        if depth.get("ladder"):
            out["depth_ladder.csv"] = records(depth["ladder"])
        if depth.get("restricted"):
            out["depth_restricted.csv"] = records(depth["restricted"])
        summary = [{"what": key.replace("_", " "), **depth[key]} for key in ("luck", "first_player", "mirror")
                   if isinstance(depth.get(key), dict)]  # fmt: skip
        if summary:
            out["depth_summary.csv"] = records(summary)
    return out


def write_csv(data: dict[str, Any], folder: Path) -> list[str]:
    """Write :func:`csv_tables` into ``folder``; remove the files of :data:`NAMES` an earlier run left there that
    this report has no table for. Returns the names written."""
    tables = csv_tables(data)
    for name in NAMES:
        if name not in tables:
            (folder / name).unlink(missing_ok=True)
    for name, rows in tables.items():
        with (folder / name).open("w", encoding="utf-8-sig", newline="") as f:
            csv.writer(f).writerows(rows)
    return list(tables)
