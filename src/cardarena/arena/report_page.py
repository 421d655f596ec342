"""The balance report's page: ``DIR/index.html``, one self-contained file built from ``report.json``'s dict.

``cardarena report`` writes the statistics as ``report.json`` (:mod:`cardarena.arena.report`, schema 1 or 2) and
this module turns that dict, and nothing else, into the page a game designer reads. The page is split in two:

- **this module prepares the data**: it reads the report defensively (a field null, absent or of the wrong type
  reads as missing), formats every number as the page shows it, orders the rows, and draws the plots (matplotlib
  figures as SVG in memory, embedded as ``data:`` images: an image cannot run script, each figure keeps its ids);
- **the Jinja2 templates present it** (``arena/templates/report/``: ``page.html`` lists the sections in order,
  ``sections/*.html`` hold each section's words and tables, ``macros.html`` the shared pieces, ``page.css`` and
  ``sort.js`` the style and the table sorter). A designer who wants other words, another order or another table
  edits a template; docs/report.md ("Changing the page") says how.

Autoescape is on: every text from the report (card names and labels come from a user's card file) is escaped in the
HTML, and in the figures too (matplotlib reads ``$`` as the start of mathematics). The page reads on a phone: one
column, tables scroll sideways. The schema-2 sections (what changed, out of line, decks per seat, points and pick
rates, matchups, drama, sweep, depth) are drawn only when the report holds them, so a schema-1 report.json renders.

Figures are drawn with :class:`matplotlib.figure.Figure` directly, never ``pyplot``: no GUI backend is selected and
no global state is touched, so rendering is safe in any process. Card names in Japanese are drawn with a CJK font
through matplotlib's font fallback (Debian's ``fonts-noto-cjk``, which ``make test`` installs); without one, a plot
shows such a card by its name in the card file, and the page says so once. matplotlib and Jinja2 come with the
``arena`` extra.
"""

from __future__ import annotations

import base64
import io
import math
from collections.abc import Callable
from datetime import datetime
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

SCHEMAS = (1, 2)  # the report.json schemas this page reads
PLOT_TOP = 15  # the card plot shows every ranked card up to 2 * PLOT_TOP, else the PLOT_TOP strongest and weakest
CALLOUT = 3  # strongest and weakest cards named at the top
LABEL_CHARS = 34  # a card's label in a plot is cut to this many characters
HEAT_INTERVALS = 8  # a matchup heat map writes intervals in its cells up to this many decks (beyond: numbers only)
HEAT_MAX = 24  # a matchup heat map shows at most this many decks (those that played most)
COLOURS = ("#1f5fa8", "#c8553d")  # variant a, variant b (colour-blind safe against each other)
KIND_ORDER = ("card", "ability", "item", "task", "flare", "effect", "rule", "build", "deck")  # card tables' order
#: CJK families matplotlib falls back to, after DejaVu Sans, for a glyph DejaVu lacks (Japanese card names).
CJK_FAMILIES = ("Noto Sans CJK JP", "Noto Sans JP", "IPAexGothic", "IPAGothic", "TakaoGothic", "Source Han Sans JP")
TEMPLATES = "templates/report"  # under cardarena.arena


class ReportFormatError(ValueError):
    """The dict given to :func:`render_page` is not a report of a schema this page reads (see docs/report.md)."""


def render_page(report: dict[str, Any]) -> str:
    """The whole page for ``report`` (the dict written as report.json) as HTML text.

    Raises :class:`ReportFormatError` when ``report`` is not a schema-1 or schema-2 report with at least one variant.
    """
    if not isinstance(report, dict) or report.get("schema") not in SCHEMAS:
        found = report.get("schema") if isinstance(report, dict) else type(report).__name__
        raise ReportFormatError(f"the report page reads report.json schema 1 or 2; got schema {found!r}")
    variants = report.get("variants")
    if not isinstance(variants, list) or not variants or not all(isinstance(v, dict) for v in variants):
        raise ReportFormatError("a report needs 'variants': a list of one or two variant objects")
    fonts = _Fonts()
    context = _context(report, fonts)
    context["missing_glyphs"] = sorted(fonts.missing)
    return _environment().get_template("page.html").render(context)


@lru_cache(maxsize=1)
def _environment() -> Any:
    """The Jinja2 environment of the page's templates: autoescaped, strict about names a template misspells."""
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("cardarena.arena", TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


# -- reading the report -----------------------------------------------------------------------------------------


def _num(value: Any) -> float | None:
    """A finite number from the report, else None (null, a string, NaN all count as missing)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


def _dict(value: Any) -> dict[str, Any]:
    """``value`` when it is an object of the report, else an empty one (a null section reads as empty)."""
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    """``value`` when it is a list of the report, else an empty one."""
    return value if isinstance(value, list) else []


def _dicts(value: Any) -> list[dict[str, Any]]:
    """The objects of a list of the report (anything else in it is skipped)."""
    return [x for x in _list(value) if isinstance(x, dict)]


def _pair(ci: Any) -> tuple[float, float] | None:
    """A well-formed interval ``[lo, hi]``, else None."""
    if not isinstance(ci, list | tuple) or len(ci) != 2:
        return None
    lo, hi = _num(ci[0]), _num(ci[1])
    return None if lo is None or hi is None else (lo, hi)


def _text(value: Any) -> str:
    return "" if value is None else str(value)


# -- formatting (a missing value is None; the templates print it as a dash) ----------------------------------------


def _fmt(value: Any, spec: str = ".3f") -> str | None:
    x = _num(value)
    return None if x is None else format(x, spec)


def _count(value: Any) -> str | None:
    x = _num(value)
    return None if x is None else f"{x:,.0f}"


def _share(value: Any) -> str | None:
    x = _num(value)
    return None if x is None else f"{100 * x:.1f}%"


def _p(value: Any) -> str | None:
    x = _num(value)
    if x is None:
        return None
    return "<0.0001" if x < 0.0001 else f"{x:.4f}" if x < 0.01 else f"{x:.3f}"


def _ci(ci: Any, spec: str = ".3f", scale: float = 1.0) -> str:
    """A 95% interval as ``[lo, hi]`` ("" when missing)."""
    pair = _pair(ci)
    if pair is None:
        return ""
    return f"[{format(scale * pair[0], spec)}, {format(scale * pair[1], spec)}]"


def _points(value: Any) -> str | None:
    """A change of win probability in percentage points, signed: ``+12.3``."""
    return _fmt(value, "+.1f")


def _pick(value: Any) -> str | None:
    """A share (a pick rate) as a percentage."""
    x = _num(value)
    return None if x is None else f"{100 * x:.0f}%"


def _pick_change(value: Any) -> str | None:
    """A change of a share in percentage points, signed."""
    x = _num(value)
    return None if x is None else f"{100 * x:+.0f}"


def _side(ci: Any, apart_from: float | None) -> str:
    """``up`` when the interval lies wholly above ``apart_from``, ``down`` wholly below, else ""."""
    pair = _pair(ci)
    if apart_from is None or pair is None:
        return ""
    return "up" if pair[0] > apart_from else "down" if pair[1] < apart_from else ""


def _cell(
    value: Any,
    ci: Any = None,
    spec: str = ".3f",
    *,
    text: str | None = None,
    apart_from: float | None = None,
    scale: float = 1.0,
) -> dict[str, Any]:
    """A number cell of a table: its text, its interval, its sort key, and the side of ``apart_from`` its
    interval lies on (a clear difference is coloured)."""
    x = _num(value)
    shown = text if text is not None else (None if x is None else format(scale * x, spec))
    return {
        "text": shown,
        "ci": _ci(ci, spec, scale),
        "sort": "" if x is None else repr(x),
        "side": _side(ci, apart_from),
    }


def _duration(seconds: Any) -> str | None:
    s = _num(seconds)
    if s is None:
        return None
    if s < 60:
        return f"{s:.1f} s"
    minutes, sec = divmod(round(s), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if hours else f"{minutes} min {sec} s"


def _date(created: Any) -> str | None:
    try:
        when = datetime.fromisoformat(str(created).replace("Z", "+00:00"))
    except ValueError:
        return str(created) if created else None
    return when.strftime("%Y-%m-%d %H:%M %Z").strip()


def _vlabel(variant: dict[str, Any], index: int) -> str:
    return str(variant.get("label") or ("as given" if index == 0 else "baseline"))


def _variants(report: dict[str, Any]) -> list[dict[str, Any]]:
    return list(report["variants"])


def _seat_count(report: dict[str, Any]) -> int:
    counts = [len(_list(v.get("seats"))) for v in _variants(report)]
    return max([len(_list(report.get("agents"))), *counts, 1])


def _fair(report: dict[str, Any]) -> float:
    """A fair seat's score: 1/N with N seats."""
    return 1 / max(_seat_count(report), 1)


def _entry(card: dict[str, Any]) -> dict[str, Any]:
    """A card's label, and its name when it differs (the name is what the card file and the options use)."""
    label, name = str(card.get("label") or card.get("name") or "?"), str(card.get("name") or "")
    return {"label": label, "name": name if name and name != label else None, "kind": _text(card.get("kind"))}


def _ranked(variant: dict[str, Any]) -> list[dict[str, Any]]:
    """The variant's ranked cards, strongest first."""
    cards = [c for c in _dicts(variant.get("cards")) if _num(c.get("rank")) is not None]
    return sorted(cards, key=lambda c: _num(c.get("rank")) or 0)


def _has_points(variant: dict[str, Any]) -> bool:
    """Whether the variant's cards carry schema 2's points (else schema 1's log-odds strength is shown)."""
    return any("points" in c for c in _dicts(variant.get("cards")))


def _dist(value: Any, spec: str = ".1f") -> dict[str, Any]:
    """A distribution of report.distribution(): its statistics as cells, by key."""
    d = _dict(value)
    return {
        key: _cell(d.get(key), spec=spec if key in ("mean", "median", "p10", "p90") else ".0f")
        for key in ("mean", "median", "p10", "p90", "min", "max")
    }


# -- the context the templates read ------------------------------------------------------------------------------


def _context(report: dict[str, Any], fonts: _Fonts) -> dict[str, Any]:
    variants = _variants(report)
    labels = [_vlabel(v, i) for i, v in enumerate(variants)]
    comp = report.get("comparison") if len(variants) > 1 else None
    return {
        "schema": report.get("schema"),
        "game": str(report.get("game_name") or report.get("game") or "?"),
        "game_id": str(report.get("game") or "?"),
        "two": len(variants) > 1,
        "labels": labels,
        "fair": f"{_fair(report):.3f}",
        "header": _header(report),
        "changed": _changed(comp, labels) if isinstance(comp, dict) and "changed" in comp else None,
        "glance": [_glance(report, v, i) for i, v in enumerate(variants)],
        "setups": _setups(report),
        "seats": _seats(report, fonts),
        "length": _length(report, fonts),
        "ends": _ends(report),
        "drama": _drama(report, fonts),
        "matchups": _matchups(report, fonts),
        "cards": [_cards(report, v, i, fonts) for i, v in enumerate(variants)],
        "coverage": _coverage(report),
        "comparison": (_comparison(comp, labels) if isinstance(comp, dict) else {}) if len(variants) > 1 else None,
        "sweep": _sweep(report, fonts),
        "depth": _depth(report, fonts),
        "method": _method(report),
    }


def _header(report: dict[str, Any]) -> dict[str, Any]:
    rows = []
    for i, v in enumerate(_variants(report)):
        opts = _dict(v.get("options"))
        rows.append(
            {
                "label": _vlabel(v, i),
                "games": _count(v.get("games")),
                "errors": _count(v.get("errors")),
                "bad": bool(_num(v.get("errors"))),
                "examples": [str(x) for x in _list(v.get("error_examples"))],
                "options": [(str(k), str(val)) for k, val in opts.items()],
            }
        )
    setup = _dict(report.get("setup"))
    return {
        "game_name": str(report.get("game_name") or "?"),
        "game_id": str(report.get("game") or "?"),
        "agents": [str(a) for a in _list(report.get("agents"))],
        "variants": rows,
        "seed": None if report.get("seed") is None else str(report.get("seed")),
        "command": _text(report.get("command")),
        "date": _date(report.get("created")),
        "elapsed": _duration(report.get("elapsed_s")),
        "setup": {
            "kind": _text(setup.get("kind")),
            "varied": bool(setup.get("varied")),
            "note": _text(setup.get("note")),
        }
        if setup
        else None,
    }


def _changed(comp: dict[str, Any], labels: list[str]) -> dict[str, Any]:
    """comparison.changed: every entry or option whose data differ between the variants, by evidence."""
    entries = []
    for c in _dicts(comp.get("changed")):
        entries.append(
            {
                **_entry(c),
                "change": _text(c.get("change")) or "data",
                "a": _text(c.get("a")),
                "b": _text(c.get("b")),
                "points": _cell(c.get("points_change"), c.get("points_change_ci"), "+.1f", apart_from=0.0),
                "pick": _pick_change(c.get("pick_change")),
                "dominant": c.get("dominant") is True,
                "p": _p(c.get("p")),
                "q": _p(c.get("q")),
                "verdict": _text(c.get("verdict")),
            }
        )
    return {"entries": entries, "a": labels[0], "b": labels[-1]}


def _glance_card(card: dict[str, Any]) -> dict[str, Any]:
    return {
        **_entry(card),
        "strength": _fmt(card.get("strength"), "+.2f"),
        "strength_ci": _ci(card.get("strength_ci"), "+.2f"),
        "score_used": _fmt(card.get("score_used")),
        "points": _points(card.get("points")) if "points" in card else None,
        "points_ci": _ci(card.get("points_ci"), "+.1f"),
        "pick": _pick(card.get("pick_rate")),
        "dominant": card.get("dominant") is True,
    }


def _glance(report: dict[str, Any], v: dict[str, Any], index: int) -> dict[str, Any]:
    """The strongest and weakest cards, the cards out of line, the first player's edge, errors, what never
    occurred."""
    ranked = [c for c in _ranked(v) if c.get("few_uses") is not True]
    half = min(CALLOUT, (len(ranked) + 1) // 2)  # a short list is split, never named twice
    strong, weak = ranked[:half], list(reversed(ranked[half:]))[:CALLOUT]
    fp = _dict(v.get("first_player"))
    never = [c for c in _dicts(v.get("coverage")) if _num(c.get("games")) == 0]
    out = None
    if "out_of_line" in v:
        out = [{**_entry(c), "why": _text(c.get("why"))} for c in _dicts(v.get("out_of_line"))]
    setups = _dicts(v.get("setups"))
    return {
        "label": _vlabel(v, index),
        "strong": [_glance_card(c) for c in strong],
        "weak": [_glance_card(c) for c in weak],
        "has_cards": bool(_list(v.get("cards"))),
        "first_player": {"score": _fmt(fp.get("score")), "ci": _ci(fp.get("ci"))}
        if _num(fp.get("score")) is not None
        else None,
        "never": len(never),
        "notes": [str(n) for n in _list(v.get("notes"))],
        "errors": _count(v.get("errors")) if _num(v.get("errors")) else None,
        "errors_one": _num(v.get("errors")) == 1,
        "no_games": not _num(v.get("games")),
        "out_of_line": out,
        "setups": len(setups) if "setups" in v else None,
    }


SETUPS_SHOWN = 12  # the decks listed in the open; the rest fold under "N more"


def _setups(report: dict[str, Any]) -> dict[str, Any] | None:
    """The decks/builds/schools each seat played (variant setups), or None for a report without them. The games
    of every variant deal the same decks, so one row per deck (in the order of the first variant that has it: most
    played first) carries each seat's games once and each variant's owner's score side by side."""
    variants = _variants(report)
    if not isinstance(report.get("setup"), dict) and not any(_dicts(v.get("setups")) for v in variants):
        return None  # a game whose players bring no varied decks: nothing to list
    setup = _dict(report.get("setup"))
    seats = _seat_count(report)
    order: list[str] = []
    found: dict[str, list[dict[str, Any] | None]] = {}
    for i, v in enumerate(variants):
        for s in _dicts(v.get("setups")):
            label = _text(s.get("label")) or "?"
            if label not in found:
                order.append(label)
                found[label] = [None] * len(variants)
            found[label][i] = s
    rows = []
    for label in order:
        first = next(s for s in found[label] if s is not None)
        per_seat = [_num(x) for x in _list(first.get("seats"))]
        rows.append(
            {
                "label": label,
                "seats": [_cell(per_seat[k] if k < len(per_seat) else None, spec=",.0f") for k in range(seats)],
                "pairs": _cell(first.get("pairs"), spec=",.0f"),
                "scores": [
                    _cell(s.get("score"), s.get("ci"), apart_from=_fair(report)) if s is not None else None
                    for s in found[label]
                ],
            }
        )
    return {
        "kind": _text(setup.get("kind")) or "deck",
        "varied": bool(setup.get("varied")),
        "note": _text(setup.get("note")).rstrip("."),
        "seats": seats,
        "rows": rows[:SETUPS_SHOWN],
        "more": rows[SETUPS_SHOWN:],
    }


def _seats(report: dict[str, Any], fonts: _Fonts) -> dict[str, Any]:
    variants = _variants(report)
    rows = []
    for seat in range(_seat_count(report)):
        cells = []
        for v in variants:
            s = next((x for x in _dicts(v.get("seats")) if x.get("seat") == seat), {})
            cells.append(
                {
                    "wins": _cell(s.get("wins"), text=_count(s.get("wins"))),
                    "draws": _cell(s.get("draws"), text=_count(s.get("draws"))),
                    "losses": _cell(s.get("losses"), text=_count(s.get("losses"))),
                    "score": _cell(s.get("score"), s.get("ci")),
                }
            )
        rows.append({"seat": seat, "variants": cells})
    first = []
    for v in variants:
        fp = _dict(v.get("first_player"))
        first.append({"games": _count(fp.get("games")), "score": _cell(fp.get("score"), fp.get("ci"))} if fp else None)
    plot = _plot_img(
        partial(_draw_seats, report=report),
        alt="Each seat's score and the first player's score with 95% intervals",
        size=(7.0, 1.3 + 0.45 * (_seat_count(report) + 1) * (1.4 if len(variants) > 1 else 1)),
        fonts=fonts,
    )
    return {"rows": rows, "first": first, "plot": plot}


LENGTH_KEYS = ("mean", "median", "p10", "p90", "min", "max")


def _length(report: dict[str, Any], fonts: _Fonts) -> dict[str, Any]:
    variants = _variants(report)
    rows = []
    for key in LENGTH_KEYS:
        cells = []
        for measure in ("turns", "decisions"):
            for v in variants:
                value = _dict(_dict(v.get("length")).get(measure)).get(key)
                cells.append(_cell(value, spec=".1f" if key == "mean" else ".0f"))
        rows.append({"key": key, "cells": cells})
    plots = [
        _plot_img(
            partial(_draw_histogram, report=report, measure=measure),
            alt=f"Histogram of the number of {measure} per game",
            size=(5.0, 3.0),
            fonts=fonts,
        )
        for measure in ("turns", "decisions")
    ]
    return {"rows": rows, "plots": plots}


def _ends(report: dict[str, Any]) -> dict[str, Any]:
    variants = _variants(report)
    names: list[tuple[str, str]] = []
    for v in variants:
        for declared in _dicts(v.get("ends")):
            if all(n != str(declared.get("name")) for n, _ in names):
                names.append((str(declared.get("name")), _text(declared.get("label"))))
    rows = []
    for name, label in names:
        cells: list[dict[str, Any] | None] = []
        zero = True
        for v in variants:
            end: dict[str, Any] | None = next((x for x in _dicts(v.get("ends")) if x.get("name") == name), None)
            if end is None:
                cells.append(None)
                continue
            zero = zero and not _num(end.get("count"))
            cells.append(
                {
                    "count": _cell(end.get("count"), text=_count(end.get("count"))),
                    "share": _cell(end.get("share"), text=_share(end.get("share"))),
                }
            )
        rows.append({"name": name, "label": label, "zero": zero, "variants": cells})
    return {"rows": rows}


def _card_row(card: dict[str, Any]) -> dict[str, Any]:
    rank = _num(card.get("rank"))
    return {
        **_entry(card),
        "rank": None if rank is None else f"{rank:.0f}",
        "never": rank is None,
        "unused": not _num(card.get("games_used")),
        "dominant": card.get("dominant") is True,
        "few_uses": card.get("few_uses") is True,
        "verdict": _text(card.get("verdict")),
        "counts": [
            _cell(card.get(key), text=_count(card.get(key)))
            for key in ("games_included", "games_available", "games_used", "games_affected", "used_count")
        ],
        "scores": [
            _cell(card.get("score_used"), card.get("ci_used")),
            _cell(card.get("score_available_not_used"), card.get("ci_available_not_used")),
            _cell(card.get("score_included"), card.get("ci_included")),
            _cell(card.get("score_not_included"), card.get("ci_not_included")),
        ],
        "strength": _cell(card.get("strength"), card.get("strength_ci"), "+.3f", apart_from=0.0),
        "points": _cell(card.get("points"), card.get("points_ci"), "+.1f", apart_from=0.0),
        "pick": _cell(card.get("pick_rate"), card.get("pick_rate_ci"), ".0f", scale=100.0),
    }


def _cards(report: dict[str, Any], v: dict[str, Any], index: int, fonts: _Fonts) -> dict[str, Any]:
    points = _has_points(v)
    cards = _dicts(v.get("cards"))
    kinds: list[str] = []
    for c in cards:
        if _text(c.get("kind")) not in kinds:
            kinds.append(_text(c.get("kind")))
    order = list(KIND_ORDER)  # cards first, then the known kinds, then others as they first appear (stable)
    kinds.sort(key=lambda k: order.index(k) if k in order else len(order))
    tables = []
    for kind in kinds:
        group = [c for c in cards if _text(c.get("kind")) == kind]
        group.sort(key=lambda c: (_num(c.get("rank")) is None, _num(c.get("rank")) or 0))
        rows = [_card_row(c) for c in group]
        # schema 2 sets the entries with too few uses for a strength apart (the never used among them)
        main = [r for r in rows if not (points and r["few_uses"])]
        few = [r for r in rows if points and r["few_uses"]]
        tables.append({"kind": kind, "count": len(group), "rows": main, "few": few})
    plot, what = None, ""
    if points:
        shown = [c for c in cards if _num(c.get("points")) is not None and c.get("few_uses") is not True]
        shown.sort(key=lambda c: -(_num(c.get("points")) or 0.0))
        measured = len(shown)
        if len(shown) > 2 * PLOT_TOP:
            shown = shown[:PLOT_TOP] + shown[-PLOT_TOP:]
        draw: Callable[[Figure], None] = partial(_draw_points, cards=shown, cut=len(shown) < measured, fonts=fonts)
        alt = "Strength by card: points of win rate when played, with 95% intervals"
    else:
        ranked = _ranked(v)
        measured = len(ranked)
        shown = ranked if len(ranked) <= 2 * PLOT_TOP else ranked[:PLOT_TOP] + ranked[-PLOT_TOP:]
        draw = partial(_draw_cards, report=report, cards=shown, cut=len(shown) < measured, fonts=fonts)
        alt = "Owner's score by card with 95% intervals"
    if shown:
        what = "every" if len(shown) == measured else f"the {PLOT_TOP} strongest and weakest"
        plot = _plot_img(
            draw, alt=f"{alt} ({what}), strongest at the top", size=(8.0, 1.6 + 0.27 * len(shown)), fonts=fonts
        )
    return {
        "label": _vlabel(v, index),
        "points": points,
        "plot": plot,
        "what": what,
        "tables": tables,
        "centre": {str(k): _fmt(x, "+.3f") for k, x in _dict(v.get("strength_centre")).items()},
    }


def _coverage(report: dict[str, Any]) -> dict[str, Any]:
    variants = _variants(report)
    keys: list[tuple[str, str]] = []
    entries: dict[tuple[str, str], list[dict[str, Any] | None]] = {}
    for i, v in enumerate(variants):
        for entry in _dicts(v.get("coverage")):
            key = (_text(entry.get("kind")), _text(entry.get("name")))
            if key not in entries:
                keys.append(key)
                entries[key] = [None] * len(variants)
            entries[key][i] = entry

    def fewest(key: tuple[str, str]) -> float:
        found = [_num(e.get("games")) for e in entries[key] if e is not None]
        return min((g if g is not None else 0.0) for g in found) if found else 0.0

    keys.sort(key=fewest)  # stable: the report's own order (never occurred first, then ascending) within a tie
    with_any = any(e is not None and "games_any" in e for found in entries.values() for e in found)
    rows = []
    unused = absent = 0
    for key in keys:
        found = entries[key]
        first = next(e for e in found if e is not None)
        marks = []  # (variant label, "never used" or "never occurred") where the entry was never used
        for i, (e, v) in enumerate(zip(found, variants, strict=True)):
            if e is not None and not _num(e.get("games")):
                marks.append((_vlabel(v, i), "never used" if _num(e.get("games_any")) else "never occurred"))
        unused += bool(marks)
        absent += bool(marks) and all(m == "never occurred" for _, m in marks)
        badge = None
        if marks:
            what = "never occurred" if all(m == "never occurred" for _, m in marks) else "never used"
            where = (
                f" ({', '.join(label for label, _ in marks)})"
                if len(variants) > 1 and len(marks) < len(variants)
                else ""
            )
            badge = what + where
        cells: list[dict[str, Any] | None] = []
        for e, v in zip(found, variants, strict=True):
            if e is None:
                cells.append(None)
                continue
            games, total = _num(e.get("games")), _num(v.get("games"))
            cells.append(
                {
                    "games": _cell(games, text=_count(games)),
                    "share": _cell(None, text=_share(games / total if games is not None and total else None)),
                    "any": _cell(e.get("games_any"), text=_count(e.get("games_any"))),
                }
            )
        rows.append({**_entry(first), "kind": key[0], "badge": badge, "variants": cells})
    return {"rows": rows, "with_any": with_any, "unused": unused, "absent": absent}


def _change_cells(entry: dict[str, Any], spec: str = ".3f") -> dict[str, Any]:
    return {
        "a": _cell(entry.get("a"), spec=spec),
        "b": _cell(entry.get("b"), spec=spec),
        "change": _cell(entry.get("change"), spec="+" + spec),
        "p": _cell(entry.get("p"), text=_p(entry.get("p"))),
        "significant": entry.get("significant") is True,
    }


def _comparison(comp: dict[str, Any], labels: list[str]) -> dict[str, Any]:
    names = [str(x) for x in _list(comp.get("labels"))] or labels
    a, b = [*names, "a", "b"][:2]
    summary = []
    for s in _dicts(comp.get("seats")):
        summary.append({"what": "seat", "seat": _text(s.get("seat")), **_change_cells(s)})
    if isinstance(comp.get("first_player"), dict):
        summary.append({"what": "first", "seat": "", **_change_cells(comp["first_player"])})
    if isinstance(comp.get("length_turns_mean"), dict):
        summary.append({"what": "turns", "seat": "", **_change_cells(comp["length_turns_mean"], ".2f")})
    cards = _dicts(comp.get("cards"))
    points = any("points_change" in c for c in cards)
    rows: list[dict[str, Any]] = []
    few: list[dict[str, Any]] = []
    for c in cards:
        row = {
            **_entry(c),
            **_change_cells(c),
            "used_a": _cell(c.get("games_used_a"), text=_count(c.get("games_used_a"))),
            "used_b": _cell(c.get("games_used_b"), text=_count(c.get("games_used_b"))),
            "points_a": _cell(c.get("points_a"), spec="+.1f"),
            "points_b": _cell(c.get("points_b"), spec="+.1f"),
            "points_change": _cell(c.get("points_change"), c.get("points_change_ci"), "+.1f", apart_from=0.0),
            "pick_a": _cell(c.get("pick_a"), text=_pick(c.get("pick_a"))),
            "pick_b": _cell(c.get("pick_b"), text=_pick(c.get("pick_b"))),
            "pick_change": _cell(c.get("pick_change"), text=_pick_change(c.get("pick_change"))),
            "q": _cell(c.get("q"), text=_p(c.get("q"))),
            "edited": c.get("changed") is True,
            "dominant_in": [x for x, key in ((a, "dominant_a"), (b, "dominant_b")) if c.get(key) is True],
            "verdict": _text(c.get("verdict")),
        }
        (few if points and c.get("few_uses") is True else rows).append(row)
    tests = sum(1 for c in cards if _num(c.get("p")) is not None)
    return {
        "a": a,
        "b": b,
        "summary": summary,
        "points": points,
        "cards": rows,
        "few": few,
        "significant": sum(1 for c in cards if c.get("significant") is True),
        "tests": tests,
    }


def _drama(report: dict[str, Any], fonts: _Fonts) -> dict[str, Any] | None:
    """Drama and pacing: the statistics of every variant side by side (one row per statistic, the variants' columns
    next to each other as in "Game length"), overlaid histograms, the comebacks and the length by end condition."""
    variants = _variants(report)
    dramas = [v.get("drama") if isinstance(v.get("drama"), dict) else None for v in variants]
    if not any(dramas):
        return None  # no variant measured any (the game gives no estimate: its notes say so)
    rows = []
    for key in LENGTH_KEYS:
        cells = []
        for measure in ("decided_turn", "decided_share", "lead_changes"):
            for d in dramas:
                x = _dict(_dict(d).get(measure)).get(key)
                spec = ".0f" if measure == "decided_share" or key in ("min", "max") else ".1f"
                cells.append(_cell(x, spec=spec))  # the share is a percentage of the game's turns already
        rows.append({"key": key, "cells": cells})
    out = []
    for i, (v, d) in enumerate(zip(variants, dramas, strict=True)):
        if d is None:
            out.append({"label": _vlabel(v, i), "missing": True})
            continue
        labels = {str(e.get("name")): _text(e.get("label")) for e in _dicts(v.get("ends"))}
        comebacks = _dict(d.get("comebacks"))
        out.append(
            {
                "label": _vlabel(v, i),
                "missing": False,
                "games": _count(d.get("games")),
                "decided_games": _count(d.get("decided_games")),
                "comebacks": {"share": _share(comebacks.get("share")), "ci": _ci(comebacks.get("ci"), ".1%")}
                if _num(comebacks.get("share")) is not None
                else None,
                "ends": [
                    {
                        "name": str(name),
                        "label": labels.get(str(name), ""),
                        "games": _count(sum(c for _, _, c in _bins(_dict(dist).get("histogram")))),
                        "stats": _dist(dist),
                    }
                    for name, dist in _dict(d.get("turns_by_end")).items()
                ],
                "note": _text(d.get("note")),
                "method": _text(d.get("method")),
            }
        )
    drawable = any(
        _bins(_dict(_dict(d).get(k)).get("histogram")) for d in dramas for k in ("decided_turn", "lead_changes")
    )
    return {
        "rows": rows,
        "variants": out,
        "plot": _plot_img(
            partial(_draw_drama, report=report),
            alt="Histograms of the turn the winner was decided and of the lead changes per game",
            size=(8.0, 2.8),
            fonts=fonts,
        )
        if drawable
        else None,
    }


def _matchups(report: dict[str, Any], fonts: _Fonts) -> list[dict[str, Any]] | None:
    variants = _variants(report)
    if not any(isinstance(v.get("matchups"), dict) for v in variants):
        return None  # fewer than two decks (or agents) met in every variant
    out = []
    for i, v in enumerate(variants):
        m = v.get("matchups")
        if not isinstance(m, dict) or not _list(m.get("labels")):
            out.append({"label": _vlabel(v, i), "missing": True})
            continue
        labels = [str(x) for x in _list(m.get("labels"))]
        keep = _heat_keep(m, labels)
        details = _dicts(m.get("cycle_details"))
        cycles = []
        for k, c in enumerate(x for x in _list(m.get("cycles")) if _list(x)):
            detail = next((d for d in details if _list(d.get("labels")) == c), details[k] if k < len(details) else {})
            cycles.append(
                {
                    "labels": [str(x) for x in _list(c)],
                    "strength": _fmt(detail.get("strength")),
                    "sure": detail.get("sure") is True,
                }
            )
        n = len(keep)
        out.append(
            {
                "label": _vlabel(v, i),
                "missing": False,
                "kind": _text(m.get("kind")) or "deck",
                "count": len(labels),
                "shown": n,
                "intervals": n <= HEAT_INTERVALS,
                "cycles": cycles,
                "note": _text(m.get("note")),
                "method": _text(m.get("method")),
                "plot": _plot_img(
                    partial(_draw_heat, matchups=m, keep=keep, fonts=fonts),
                    alt="Matchups: each row's score against each column, with 95% intervals",
                    size=(min(11.0, 3.2 + 0.75 * n), min(10.5, 2.2 + 0.6 * n)),
                    fonts=fonts,
                ),
            }
        )
    return out


def _heat_keep(m: dict[str, Any], labels: list[str]) -> list[int]:
    """The decks a heat map shows: all up to HEAT_MAX, else those that played most games."""
    if len(labels) <= HEAT_MAX:
        return list(range(len(labels)))
    games = _list(m.get("games"))

    def played(i: int) -> float:
        row = _list(games[i]) if i < len(games) else []
        return sum(_num(x) or 0.0 for x in row)

    return sorted(sorted(range(len(labels)), key=played, reverse=True)[:HEAT_MAX])


def _sweep(report: dict[str, Any], fonts: _Fonts) -> dict[str, Any] | None:
    s = report.get("sweep")
    if not isinstance(s, dict):
        return None
    fair_values = [_text(x) for x in _list(s.get("fair_values"))]
    rows: list[dict[str, Any]] = []
    for p in _dicts(s.get("points")):
        rows.append(
            {
                "value": _text(p.get("value")),
                "current": p.get("value") == s.get("current") and s.get("current") is not None,
                "fair": _text(p.get("value")) in fair_values,
                "games": _cell(p.get("games"), text=_count(p.get("games"))),
                "seats": [
                    _cell(x, ci) for x, ci in zip(_list(p.get("seat_scores")), [*_list(p.get("seat_ci")), *[None] * 8])
                ],
                "card": _cell(p.get("card_points"), p.get("card_points_ci"), "+.1f", apart_from=0.0),
                "turns": _cell(p.get("turns_mean"), p.get("turns_ci"), ".1f"),
            }
        )
    seats = max((len(r["seats"]) for r in rows), default=0)
    return {
        "target": _text(s.get("target")),
        "kind": _text(s.get("kind")),
        "name": _text(s.get("name")),
        "field": _text(s.get("field")),
        "outcome": _text(s.get("outcome")),
        "seat": None if _num(s.get("seat")) is None else f"{s.get('seat')}",
        "current": _text(s.get("current")),
        "fair_line": _fmt(s.get("fair_line"), ".3g"),
        "fair_at": _value(s.get("fair_at")),
        "fair_values": fair_values,
        "method": _text(s.get("method")),
        "rows": rows,
        "seats": seats,
        "plot": _plot_img(
            partial(_draw_sweep, sweep=s, fair=_fair(report), fonts=fonts),
            alt="The outcome against the swept number, with 95% interval bands",
            size=(8.0, 3.0),
            fonts=fonts,
        )
        if rows
        else None,
    }


def _value(value: Any) -> str | None:
    """A swept number as a designer writes it: a whole number as such, else to one decimal (3.628 -> 3.6)."""
    x = _num(value)
    if x is None:
        return None if value is None else str(value)
    return f"{x:.0f}" if x.is_integer() else f"{x:.1f}"


def _depth(report: dict[str, Any], fonts: _Fonts) -> dict[str, Any] | None:
    """Skill, luck and restricted play (report.json's ``depth``, with ``--depth``): the ladder, each forbidden
    entry's importance against the mirror, the luck index and the first player's advantage, with their verdicts."""
    d = report.get("depth")
    if not isinstance(d, dict):
        return None
    fair = _num(d.get("fair")) or _fair(report)
    ladder = [
        {
            "agent": _text(r.get("agent")),
            "budget": _text(r.get("budget")),
            "opponent": _text(r.get("opponent")),
            "games": _cell(r.get("games"), text=_count(r.get("games"))),
            "score": _cell(r.get("score"), r.get("ci"), apart_from=fair),
        }
        for r in _dicts(d.get("ladder"))
    ]
    restricted = [
        {
            **_entry(r),
            "agent": _text(r.get("agent")),
            "games": _cell(r.get("games"), text=_count(r.get("games"))),
            "score": _cell(r.get("score"), r.get("ci")),
            "importance": _cell(r.get("importance"), r.get("importance_ci"), "+.1f", apart_from=0.0),
            "used_anyway": _cell(r.get("used_anyway"), text=_count(r.get("used_anyway"))),
            "verdict": _text(r.get("verdict")),
        }
        for r in _dicts(d.get("restricted"))
    ]
    mirror, luck, first = _dict(d.get("mirror")), _dict(d.get("luck")), _dict(d.get("first_player"))
    return {
        "games": _count(d.get("games")),
        "fair": f"{fair:.3f}",
        "ladder": ladder,
        "ladder_verdict": _text(d.get("ladder_verdict")),
        "restricted": restricted,
        "mirror": {"agent": _text(mirror.get("agent")), "score": _fmt(mirror.get("score")), "ci": _ci(mirror.get("ci"))}
        if _num(mirror.get("score")) is not None
        else None,
        "luck": {
            "verdict": _text(luck.get("verdict")),
            "agent": _text(luck.get("agent")),
            "opponent": _text(luck.get("opponent")) or "random",
            "score": _fmt(luck.get("score")),
            "score_ci": _ci(luck.get("ci")),
            "index": _fmt(luck.get("index"), ".2f"),
            "index_ci": _ci(luck.get("index_ci"), ".2f"),
            "games": _count(luck.get("games")),
        }
        if luck
        else None,
        "first_player": {
            "verdict": _text(first.get("verdict")),
            "score": _fmt(first.get("score")),
            "ci": _ci(first.get("ci")),
            "advantage": _points(first.get("advantage")),
            "games": _count(first.get("games")),
        }
        if first
        else None,
        "method": _text(d.get("method")),
        "plot": _plot_img(
            partial(_draw_ladder, ladder=_dicts(d.get("ladder")), fair=fair),
            alt="The skill ladder: the score of an agent with a doubled budget against the same agent",
            size=(6.0, 3.0),
            fonts=fonts,
        )
        if ladder
        else None,
    }


def _method(report: dict[str, Any]) -> dict[str, Any]:
    texts = [(str(k), _text(t)) for k, t in _dict(report.get("method")).items()]
    strength = [
        {"label": _vlabel(v, i), "text": _text(v.get("strength_method")) or None}
        for i, v in enumerate(_variants(report))
    ]
    return {"texts": texts, "strength": strength}


# -- fonts: Japanese card names in the plots ----------------------------------------------------------------------


@lru_cache(maxsize=1)
def _cjk_family() -> str | None:
    """A CJK family matplotlib can draw with, or None. A font installed after matplotlib built its font cache
    (``apt-get install fonts-noto-cjk`` on a machine that ran matplotlib before) is not in that cache: it is looked
    up among the system's font files and added."""
    from matplotlib import font_manager

    def known() -> str | None:
        names = {f.name for f in font_manager.fontManager.ttflist}
        return next((family for family in CJK_FAMILIES if family in names), None)

    if known() is None:
        wanted = ("NotoSansCJK", "NotoSansJP", "ipaexg", "ipag", "TakaoGothic", "SourceHanSans")
        for path in font_manager.findSystemFonts():
            if any(w.lower() in path.lower() for w in wanted):
                try:
                    font_manager.fontManager.addfont(path)
                except (OSError, RuntimeError, ValueError):
                    continue
    return known()


@lru_cache(maxsize=4)
def _font(family: str) -> Any:
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    return FT2Font(font_manager.findfont(family, fallback_to_default=False))


class _Fonts:
    """The families the plots draw with (DejaVu Sans, then a CJK font when one is installed), and the card labels
    that none of them can draw (the page says so once)."""

    def __init__(self) -> None:
        try:
            cjk = _cjk_family()
        except ImportError:  # no matplotlib: no plot is drawn (the page says so), no font is needed
            cjk = None
        self.families = ["DejaVu Sans", *([cjk] if cjk else [])]
        self.missing: set[str] = set()

    def drawable(self, text: str) -> bool:
        try:
            fonts = [_font(f) for f in self.families]
        except (ImportError, ValueError, OSError, RuntimeError):  # no font file to ask: let matplotlib draw it
            return True
        return all(ch.isspace() or any(font.get_char_index(ord(ch)) for font in fonts) for ch in text)

    def plain(self, label: Any, name: Any = None) -> str:
        """A report text as a plot can draw it: as it is when the fonts have every character; else ``name`` (the
        card's name in the card file) when that one can be drawn, else the text with ``?`` for what cannot be.
        Such a text is remembered, and the page names the missing font once."""
        text = " ".join(str(label).split())
        if self.drawable(text):
            return text
        self.missing.add(text)
        alt = " ".join(str(name or "").split())
        if alt and self.drawable(alt):
            return alt
        return "".join(ch if self.drawable(ch) else "?" for ch in text)


# -- plots ------------------------------------------------------------------------------------------------------


def _plot_img(draw: Callable[[Figure], None], *, alt: str, size: tuple[float, float], fonts: _Fonts) -> dict[str, Any]:
    """``draw`` on a new figure of ``size`` inches, as an image for the page: the SVG as a ``data:`` URL, its alt
    text and its size in pixels (about 96 to the inch); ``error`` when matplotlib is missing."""
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError as exc:  # the arena extra is missing: say so on the page rather than fail the report
        return {"error": str(exc)}
    style = {
        "svg.hashsalt": "cardarena-report",
        "svg.fonttype": "path",
        "font.size": 9,
        "axes.titlesize": 10,
        "font.family": fonts.families,  # DejaVu Sans, then the CJK font for what DejaVu lacks
    }
    with matplotlib.rc_context(style):  # type: ignore[arg-type]
        fig = Figure(figsize=size, layout="constrained")
        draw(fig)
        buffer = io.BytesIO()
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return {
        "src": f"data:image/svg+xml;base64,{data}",
        "alt": alt,
        "width": round(size[0] * 96),
        "height": round(size[1] * 96),
    }


def _tex(text: Any, limit: int = LABEL_CHARS) -> str:
    """A report text for a matplotlib label: cut to ``limit`` characters, ``$`` not read as mathematics."""
    s = " ".join(str(text).split())
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    return s.replace("$", r"\$")  # with no unescaped $ the text is not mathematics; matplotlib shows \$ as $


def _errorbar(ax: Axes, xs: list[float | None], cis: list[Any], ys: list[float], **style: Any) -> None:
    """Points at (x, y) with horizontal 95% interval bars; missing values are skipped."""
    px, py, lo, hi = [], [], [], []
    for x, ci, y in zip(xs, cis, ys, strict=True):
        if x is None:
            continue
        px.append(x)
        py.append(y)
        c = ci if isinstance(ci, list | tuple) and len(ci) == 2 else (None, None)
        low, high = _num(c[0]), _num(c[1])
        lo.append(max(0.0, x - low) if low is not None else 0.0)
        hi.append(max(0.0, high - x) if high is not None else 0.0)
    if px:
        fmt = style.pop("fmt", "o")
        ax.errorbar(px, py, xerr=[lo, hi], fmt=fmt, capsize=3, markersize=5, **style)


def _draw_seats(fig: Figure, *, report: dict[str, Any]) -> None:
    variants = _variants(report)
    seats = _seat_count(report)
    ax = fig.add_subplot()
    rows = [f"seat {i}" for i in range(seats)] + ["first player"]
    for j, v in enumerate(variants):
        offset = (j - (len(variants) - 1) / 2) * 0.25
        xs: list[float | None] = []
        cis: list[Any] = []
        for i in range(seats):
            s = next((x for x in _dicts(v.get("seats")) if x.get("seat") == i), {})
            xs.append(_num(s.get("score")))
            cis.append(s.get("ci"))
        fp = _dict(v.get("first_player"))
        xs.append(_num(fp.get("score")))
        cis.append(fp.get("ci"))
        ys = [i + offset for i in range(len(rows))]
        _errorbar(ax, xs, cis, ys, color=COLOURS[j % 2], label=_tex(_vlabel(v, j)))
    ax.axvline(_fair(report), color="#777", linestyle="--", linewidth=1, label="fair share")
    ax.set_yticks(range(len(rows)), rows)
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlabel("score (share of the results) with 95% interval; dashed: a fair seat's score")
    ax.grid(axis="x", alpha=0.3)
    if len(variants) > 1:
        fig.legend(loc="outside lower center", ncols=3, fontsize=8, frameon=False)


def _bins(histogram: Any) -> list[tuple[float, float, float]]:
    """The well-formed ``[lo, hi, count]`` bins of a histogram."""
    out = []
    for entry in histogram if isinstance(histogram, list) else []:
        if isinstance(entry, list | tuple) and len(entry) == 3:
            lo, hi, count = (_num(x) for x in entry)
            if lo is not None and hi is not None and count is not None and hi > lo:
                out.append((lo, hi, count))
    return out


def _bars(ax: Axes, stats: dict[str, Any], j: int, label: str | None) -> bool:
    """A histogram of ``stats`` (a distribution) as shares of games: filled for the first variant, an outline for
    the second; the median dotted. False when there is nothing to draw."""
    bins = _bins(stats.get("histogram"))
    total = sum(c for _, _, c in bins)
    if not bins or not total:
        return False
    lefts = [lo for lo, _, _ in bins]
    widths = [hi - lo for lo, hi, _ in bins]
    shares = [100 * c / total for _, _, c in bins]
    if j == 0:
        ax.bar(lefts, shares, width=widths, align="edge", color=COLOURS[0], alpha=0.75, label=label)
    else:
        ax.bar(lefts, shares, width=widths, align="edge", fill=False, edgecolor=COLOURS[1], linewidth=1.5, label=label)
    median = _num(stats.get("median"))
    if median is not None:
        ax.axvline(median, color=COLOURS[j % 2], linestyle=":", linewidth=1.2)
    return True


def _draw_histogram(fig: Figure, *, report: dict[str, Any], measure: str) -> None:
    from matplotlib.ticker import MaxNLocator

    ax = fig.add_subplot()
    variants = _variants(report)
    drawn = False
    for j, v in enumerate(variants):
        stats = _dict(_dict(v.get("length")).get(measure))
        drawn |= _bars(ax, stats, j, _tex(_vlabel(v, j)) if len(variants) > 1 else None)
    if not drawn:
        ax.text(0.5, 0.5, "no games", ha="center", va="center", transform=ax.transAxes)
        ax.set_xticks([])
        ax.set_yticks([])
    else:
        ax.set_ylabel("share of games (%)")
        if len(variants) > 1:
            ax.legend(fontsize=8, frameon=False)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # lengths are whole numbers
    ax.set_xlabel(f"{measure} per game (dotted: median)")
    ax.set_title(f"Game length: {measure}")


def _card_labels(cards: list[dict[str, Any]], fonts: _Fonts, *, rank: bool) -> list[str]:
    labels = []
    for c in cards:
        kind = _text(c.get("kind"))
        r = _num(c.get("rank"))
        prefix = f"{r:.0f}. " if rank and r is not None else ""
        text = _tex(fonts.plain(c.get("label") or c.get("name") or "?", c.get("name")))
        suffix = ("" if kind == "card" else f" ({kind})") + (" (dominant)" if c.get("dominant") is True else "")
        labels.append(prefix + text + suffix)
    return labels


def _draw_cards(fig: Figure, *, report: dict[str, Any], cards: list[dict[str, Any]], cut: bool, fonts: _Fonts) -> None:
    """Schema 1's card plot: the owner's score when used and when available, not used."""
    ax = fig.add_subplot()
    rows = list(range(len(cards)))
    used = [_num(c.get("score_used")) for c in cards]
    other = [_num(c.get("score_available_not_used")) for c in cards]
    _errorbar(ax, used, [c.get("ci_used") for c in cards], [r - 0.14 for r in rows], color=COLOURS[0], label="used")
    _errorbar(
        ax,
        other,
        [c.get("ci_available_not_used") for c in cards],
        [r + 0.14 for r in rows],
        color=COLOURS[1],
        markerfacecolor="white",
        label="available, not used",
    )
    ax.axvline(_fair(report), color="#777", linestyle="--", linewidth=1, label="a fair seat")
    if cut and len(cards) > PLOT_TOP:
        ax.axhline(PLOT_TOP - 0.5, color="#999", linewidth=0.8, linestyle="-.")
    ax.set_yticks(rows, _card_labels(cards, fonts, rank=True), fontsize=8)
    ax.set_ylim(len(cards) - 0.5, -0.5)
    ax.set_xlabel("owner's score with 95% interval")
    ax.grid(axis="x", alpha=0.3)
    fig.legend(loc="outside lower center", ncols=3, fontsize=8, frameon=False)
    fig.suptitle("Win rate by card: the owner's score when the card was used, and when it could have been")


def _draw_points(fig: Figure, *, cards: list[dict[str, Any]], cut: bool, fonts: _Fonts) -> None:
    """Schema 2's card plot: each card's strength in points of win rate when played, with its interval; a
    dominant card (used in nearly every game) drawn as a red diamond."""
    ax = fig.add_subplot()
    rows = list(range(len(cards)))
    for dominant, style in ((False, {"color": COLOURS[0]}), (True, {"color": "#b3261e", "fmt": "D"})):
        xs = [_num(c.get("points")) if (c.get("dominant") is True) == dominant else None for c in cards]
        label = "dominant: used in nearly every game" if dominant else "strength"
        if any(x is not None for x in xs):
            _errorbar(ax, xs, [c.get("points_ci") for c in cards], [float(r) for r in rows], label=label, **style)
    ax.axvline(0.0, color="#777", linestyle="--", linewidth=1, label="the average card")
    if cut and len(cards) > PLOT_TOP:
        ax.axhline(PLOT_TOP - 0.5, color="#999", linewidth=0.8, linestyle="-.")
    ax.set_yticks(rows, _card_labels(cards, fonts, rank=False), fontsize=8)
    ax.set_ylim(len(cards) - 0.5, -0.5)
    ax.set_xlabel("points of win rate when played (0: the average card), with 95% interval")
    ax.grid(axis="x", alpha=0.3)
    fig.legend(loc="outside lower center", ncols=3, fontsize=8, frameon=False)
    fig.suptitle("Strength by card: how many points of win rate playing it adds")


def _draw_drama(fig: Figure, *, report: dict[str, Any]) -> None:
    """The decided turn and the lead changes per game as histograms, the baseline as an outline (as the lengths)."""
    from matplotlib.ticker import MaxNLocator

    variants = _variants(report)
    for k, (key, title) in enumerate(
        (("decided_turn", "Turn the winner was decided"), ("lead_changes", "Lead changes per game"))
    ):
        ax = fig.add_subplot(1, 2, k + 1)
        drawn = False
        for j, v in enumerate(variants):
            label = _tex(_vlabel(v, j)) if len(variants) > 1 else None
            drawn |= _bars(ax, _dict(_dict(v.get("drama")).get(key)), j, label)
        if not drawn:
            ax.text(0.5, 0.5, "no data", ha="center", va="center", transform=ax.transAxes)
        elif len(variants) > 1 and k == 0:
            ax.legend(fontsize=7, frameon=False)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_title(title)
        ax.set_ylabel("share of games (%)")
        ax.set_xlabel("dotted: median")


def _draw_heat(fig: Figure, *, matchups: dict[str, Any], keep: list[int], fonts: _Fonts) -> None:
    """The matchup matrix as a heat map: row deck's score against column deck, 0.5 white, blue above, red below;
    each cell its score and (for a few decks) its interval."""
    import numpy as np

    labels = [str(x) for x in _list(matchups.get("labels"))]
    score, ci, games = _list(matchups.get("score")), _list(matchups.get("ci")), _list(matchups.get("games"))

    def at(table: list[Any], i: int, j: int) -> Any:
        row = _list(table[i]) if i < len(table) else []
        return row[j] if j < len(row) else None

    n = len(keep)
    grid = np.full((n, n), np.nan)
    for a, i in enumerate(keep):
        for b, j in enumerate(keep):
            x = _num(at(score, i, j))
            if x is not None and i != j:  # the diagonal is the mirror, even by definition: grey
                grid[a, b] = x
    ax = fig.add_subplot()
    ax.set_facecolor("#e6e8eb")  # cells without a score (the mirror, decks that never met)
    image = ax.imshow(np.ma.masked_invalid(grid), cmap="RdBu", vmin=0.0, vmax=1.0)
    small = 7 if n <= HEAT_INTERVALS else 6
    for a, i in enumerate(keep):
        for b, j in enumerate(keep):
            x = _num(at(score, i, j))
            g = _num(at(games, i, j))
            if i == j:
                if g and n <= HEAT_INTERVALS:
                    ax.text(b, a, f"mirror\n{g:.0f} games", ha="center", va="center", fontsize=small, color="#555")
                continue
            if x is None:
                continue
            text = f"{x:.2f}"
            pair = _pair(at(ci, i, j))
            if pair is not None and n <= HEAT_INTERVALS:
                text += f"\n[{pair[0]:.2f}, {pair[1]:.2f}]"
            if g is not None and n <= HEAT_INTERVALS:
                text += f"\n{g:.0f} games"
            ax.text(
                b, a, text, ha="center", va="center", fontsize=small, color="white" if abs(x - 0.5) > 0.3 else "black"
            )
    names = [_tex(fonts.plain(labels[i]), 22) for i in keep]
    ax.set_xticks(range(n), names, rotation=35, ha="right", fontsize=8)
    ax.set_yticks(range(n), names, fontsize=8)
    ax.set_xlabel("against (column)")
    ax.set_ylabel("score of (row)")
    fig.colorbar(image, ax=ax, shrink=0.8, label="row's score (0.5: even)")


def _draw_sweep(fig: Figure, *, sweep: dict[str, Any], fair: float, fonts: _Fonts) -> None:
    """The outcomes against the swept number, each with its 95% interval as a band: the seats' scores, the card's
    strength (points) and the mean game length, side by side, the outcome the sweep follows first; the value where it
    is fair marked (dotted green)."""
    points = _dicts(sweep.get("points"))
    xs = [_num(p.get("value")) for p in points]
    if any(x is None for x in xs):  # a value that is not a number: evenly spaced, named
        xs = [float(i) for i in range(len(points))]
    panels: list[tuple[str, str, list[tuple[str, list[float | None], list[Any]]], float | None]] = []
    seats = max((len(_list(p.get("seat_scores"))) for p in points), default=0)
    lines = []
    for k in range(seats):
        ys = [_num(_list(p.get("seat_scores"))[k]) if k < len(_list(p.get("seat_scores"))) else None for p in points]
        cis = [_list(p.get("seat_ci"))[k] if k < len(_list(p.get("seat_ci"))) else None for p in points]
        lines.append((f"seat {k}", ys, cis))
    if lines:
        panels.append(("seats", "seats' scores", lines, fair))
    card = [_num(p.get("card_points")) for p in points]
    if any(y is not None for y in card):
        panels.append(
            (
                "strength",
                "the card's strength (points)",
                [("card", card, [p.get("card_points_ci") for p in points])],
                0.0,
            )
        )
    turns = [_num(p.get("turns_mean")) for p in points]
    if any(y is not None for y in turns):
        panels.append(("length", "mean turns per game", [("turns", turns, [p.get("turns_ci") for p in points])], None))
    followed = str(sweep.get("outcome") or "")
    panels.sort(key=lambda panel: panel[0] != followed)  # stable: the followed outcome first
    fair_at = _num(sweep.get("fair_at"))
    field = _tex(fonts.plain(sweep.get("target") or sweep.get("field") or "value"), 40)
    colours = ("#1f5fa8", "#c8553d", "#2e7d32", "#7b1fa2")
    for k, (key, title, series, ref) in enumerate(panels):
        ax = fig.add_subplot(1, len(panels), k + 1)
        for c, (name, ys, cis) in enumerate(series):
            pts = [(x, y, _pair(ci)) for x, y, ci in zip(xs, ys, cis, strict=True) if x is not None and y is not None]
            if not pts:
                continue
            colour = colours[c % len(colours)]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", color=colour, label=name, markersize=4)
            band = [(x, ci) for x, _, ci in pts if ci is not None]
            if band:
                xb = [x for x, _ in band]
                ax.fill_between(xb, [ci[0] for _, ci in band], [ci[1] for _, ci in band], color=colour, alpha=0.18)
        if ref is not None:
            ax.axhline(ref, color="#777", linestyle="--", linewidth=1)
        if fair_at is not None:
            ax.axvline(fair_at, color="#2e7d32", linestyle=":", linewidth=1.5)
        if all(x is not None and float(x).is_integer() for x in xs):
            from matplotlib.ticker import MaxNLocator

            ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # whole-number values: no ticks between them
        ax.set_title(title + (" (followed)" if key == followed and len(panels) > 1 else ""))
        ax.set_xlabel(field)
        ax.grid(alpha=0.3)
        if len(series) > 1:
            ax.legend(fontsize=7, frameon=False)


def _draw_ladder(fig: Figure, *, ladder: list[dict[str, Any]], fair: float) -> None:
    """The skill ladder: each rung's score against the agent with half its budget, interval bars, fair dashed."""
    ax = fig.add_subplot()
    names = [f"{_text(r.get('budget'))}" for r in ladder]
    xs = list(range(len(ladder)))
    ys = [_num(r.get("score")) for r in ladder]
    lo, hi, px, py = [], [], [], []
    for x, y, r in zip(xs, ys, ladder, strict=True):
        if y is None:
            continue
        pair = _pair(r.get("ci")) or (y, y)
        px.append(x)
        py.append(y)
        lo.append(max(0.0, y - pair[0]))
        hi.append(max(0.0, pair[1] - y))
    if px:
        ax.errorbar(px, py, yerr=[lo, hi], fmt="o-", capsize=3, color=COLOURS[0])
    ax.axhline(fair, color="#777", linestyle="--", linewidth=1)
    ax.set_xticks(xs, [_tex(n, 16) for n in names], fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_xlabel("budget of the stronger agent (each against half of it)")
    ax.set_ylabel("score with 95% interval")
    ax.set_title("Skill ladder: does a doubled budget still win more?")
    ax.grid(axis="y", alpha=0.3)
