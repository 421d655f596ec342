"""The balance report's page: ``DIR/index.html``, one self-contained file built from ``report.json``'s dict.

``cardarena report`` writes the statistics as ``report.json`` (schema 1, :mod:`cardarena.arena.report`) and this
module turns that dict, and nothing else, into the page a game designer reads: the header (game, agents, games,
errors, command, date, time taken), the strongest and weakest cards called out at the top, seat and first-player
advantage, game length, how games end, every card's numbers grouped by kind, coverage (what never occurred first),
the comparison of two variants, and "How to read this" with the report's own method texts. docs/report.md explains
every number on it.

The page needs nothing but itself: the CSS is inline, the plots are matplotlib figures drawn in memory as SVG and
embedded as ``data:`` images (an image cannot run script, and each figure keeps its own ids), the only script is
an inline table sorter the page works without. It reads on a phone: one column, tables scroll sideways. Every text
that comes from the report (card names and labels come from a user's card file) is escaped, in the HTML and in the
figures (matplotlib reads ``$`` as the start of mathematics).

Figures are drawn with :class:`matplotlib.figure.Figure` directly, never ``pyplot``: no GUI backend is selected and
no global state is touched, so rendering is safe in any process. matplotlib comes with the ``arena`` extra.
"""

from __future__ import annotations

import base64
import html
import io
import math
import warnings
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

SCHEMA = 2  # the report.json schema this page reads (and schema 1, the same without the newer sections)
PLOT_TOP = 15  # the card plot shows every ranked card up to 2 * PLOT_TOP, else the PLOT_TOP strongest and weakest
CALLOUT = 3  # strongest and weakest cards named at the top
LABEL_CHARS = 34  # a card's label in a plot is cut to this many characters
COLOURS = ("#1f5fa8", "#c8553d")  # variant a, variant b (colour-blind safe against each other)
KIND_TITLES = {  # the headings of the card tables, in the order the page shows them
    "card": "Cards",
    "ability": "Abilities",
    "item": "Items",
    "task": "Tasks",
    "flare": "Flares",
    "effect": "Effect kinds",
    "rule": "Rules",
    "build": "Build cards",
    "deck": "Deck cards",
}
METHOD_TITLES = {
    "score": "Score",
    "intervals": "Intervals",
    "strength": "Strength",
    "comparison": "Comparing two variants",
    "length": "Game length",
    "coverage": "Coverage",
    "involvement": "Stages of a card",
}


class ReportFormatError(ValueError):
    """The dict given to :func:`render_page` is not a schema-1 report (see docs/report.md)."""


def render_page(report: dict[str, Any]) -> str:
    """The whole page for ``report`` (the dict written as report.json) as HTML text.

    Raises :class:`ReportFormatError` when ``report`` is not a schema-1 report with at least one variant.
    """
    if not isinstance(report, dict) or report.get("schema") not in (1, SCHEMA):
        found = report.get("schema") if isinstance(report, dict) else type(report).__name__
        raise ReportFormatError(f"the report page reads report.json schema {SCHEMA}; got schema {found!r}")
    variants = report.get("variants")
    if not isinstance(variants, list) or not variants or not all(isinstance(v, dict) for v in variants):
        raise ReportFormatError("a report needs 'variants': a list of one or two variant objects")
    game = str(report.get("game_name") or report.get("game") or "?")
    sections = [
        ("glance", "At a glance", _glance(report)),
        ("seats", "Seat and first-player advantage", _seats(report)),
        ("length", "Game length", _length(report)),
        ("ends", "How games end", _ends(report)),
        ("cards", "Cards, abilities and rules", _cards(report)),
        ("coverage", "Coverage", _coverage(report)),
    ]
    if len(variants) > 1:
        sections.append(("comparison", "Comparison of the variants", _comparison(report)))
    sections.append(("method", "How to read this", _method(report)))
    nav = "".join(f'<a href="#{sid}">{_e(title)}</a>' for sid, title, _ in sections)
    body = "".join(f'<section id="{sid}"><h2>{_e(title)}</h2>{content}</section>' for sid, title, content in sections)
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Balance report: {_e(game)}</title><style>{CSS}</style></head><body><main>"
        f"<header><h1>Balance report: {_e(game)}</h1>{_header(report)}</header>"
        f'<nav aria-label="sections">{nav}</nav>{body}'
        f"<footer>Written by cardarena's report page from report.json (schema {SCHEMA}); "
        f"docs/report.md explains every number.</footer></main><script>{SORT_JS}</script></body></html>\n"
    )


# -- formatting -------------------------------------------------------------------------------------------------


def _e(value: Any) -> str:
    """``value`` as escaped HTML text (quotes too, so it is safe in attributes)."""
    return html.escape(str(value), quote=True)


def _num(value: Any) -> float | None:
    """A finite number from the report, else None (null, a string, NaN all count as missing)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


NONE = '<span class="na" title="no data">–</span>'


def _fmt(value: Any, spec: str = ".3f") -> str:
    x = _num(value)
    return NONE if x is None else _e(format(x, spec))


def _count(value: Any) -> str:
    x = _num(value)
    return NONE if x is None else _e(f"{x:,.0f}")


def _share(value: Any) -> str:
    x = _num(value)
    return NONE if x is None else _e(f"{100 * x:.1f}%")


def _p(value: Any) -> str:
    x = _num(value)
    if x is None:
        return NONE
    return "&lt;0.0001" if x < 0.0001 else _e(f"{x:.4f}" if x < 0.01 else f"{x:.3f}")


def _ci(ci: Any, spec: str = ".3f") -> str:
    """A 95% interval as ``[lo, hi]`` (empty when missing)."""
    if not isinstance(ci, list | tuple) or len(ci) != 2:
        return ""
    lo, hi = _num(ci[0]), _num(ci[1])
    if lo is None or hi is None:
        return ""
    return f'<span class="ci">[{_e(format(lo, spec))}, {_e(format(hi, spec))}]</span>'


def _with_ci(value: Any, ci: Any, spec: str = ".3f", *, apart_from: float | None = None) -> str:
    """A table cell: the value, its interval under it; ``data-sort`` carries the value for the sorter. With
    ``apart_from``, an interval wholly above it is marked ``up``, wholly below ``down`` (a clear difference)."""
    x = _num(value)
    side = ""
    if apart_from is not None and isinstance(ci, list | tuple) and len(ci) == 2:
        lo, hi = _num(ci[0]), _num(ci[1])
        side = " up" if lo is not None and lo > apart_from else " down" if hi is not None and hi < apart_from else ""
    return f'<td class="num{side}" data-sort="{"" if x is None else x}">{_fmt(value, spec)}{_ci(ci, spec)}</td>'


def _num_cell(value: Any, text: str) -> str:
    x = _num(value)
    return f'<td class="num" data-sort="{"" if x is None else x}">{text}</td>'


def _duration(seconds: Any) -> str:
    s = _num(seconds)
    if s is None:
        return NONE
    if s < 60:
        return _e(f"{s:.1f} s")
    minutes, sec = divmod(round(s), 60)
    hours, minutes = divmod(minutes, 60)
    return _e(f"{hours} h {minutes} min" if hours else f"{minutes} min {sec} s")


def _date(created: Any) -> str:
    try:
        when = datetime.fromisoformat(str(created).replace("Z", "+00:00"))
    except ValueError:
        return _e(created) if created else NONE
    return _e(when.strftime("%Y-%m-%d %H:%M %Z").strip())


def _table(
    head: Sequence[str], rows: Iterable[str], *, cls: str = "", caption: str = "", sortable: bool = False
) -> str:
    """A table (header cells given as HTML) in a sideways-scrolling wrapper; ``rows`` are ``<tr>`` strings."""
    classes = " ".join(c for c in (cls, "sortable" if sortable else "") if c)
    ths = "".join(f'<th scope="col">{h}</th>' for h in head)
    cap = f"<caption>{caption}</caption>" if caption else ""
    return (
        f'<div class="scroll"><table class="{classes}">{cap}<thead><tr>{ths}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _variants(report: dict[str, Any]) -> list[dict[str, Any]]:
    return list(report["variants"])


def _dict(value: Any) -> dict[str, Any]:
    """``value`` when it is an object of the report, else an empty one (a null section reads as empty)."""
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    """``value`` when it is a list of the report, else an empty one."""
    return value if isinstance(value, list) else []


def _vlabel(variant: dict[str, Any], index: int) -> str:
    return str(variant.get("label") or ("as given" if index == 0 else "baseline"))


def _seat_count(report: dict[str, Any]) -> int:
    counts = [len(_list(v.get("seats"))) for v in _variants(report)]
    return max([len(_list(report.get("agents"))), *counts, 1])


def _fair(report: dict[str, Any]) -> float:
    """A fair seat's score: 1/N with N seats."""
    return 1 / max(_seat_count(report), 1)


def _card_name(card: dict[str, Any]) -> str:
    """A card's label, its name after it when they differ (the name is what the card file and the options use)."""
    label, name = str(card.get("label") or card.get("name") or "?"), str(card.get("name") or "")
    extra = f' <code class="name">{_e(name)}</code>' if name and name != label else ""
    return f"{_e(label)}{extra}"


def _kind_title(kind: str) -> str:
    return KIND_TITLES.get(kind, kind.capitalize() + "s" if kind else "Other")


def _ranked(variant: dict[str, Any]) -> list[dict[str, Any]]:
    """The variant's ranked cards, strongest first."""
    cards = [c for c in _list(variant.get("cards")) if isinstance(c, dict) and _num(c.get("rank")) is not None]
    return sorted(cards, key=lambda c: _num(c.get("rank")) or 0)


# -- sections ---------------------------------------------------------------------------------------------------


def _header(report: dict[str, Any]) -> str:
    variants = _variants(report)
    agents = _list(report.get("agents"))
    rows = [
        ("Game", f"{_e(report.get('game_name') or '?')} <code>{_e(report.get('game') or '?')}</code>"),
        (
            "Agents",
            ", ".join(f"<code>{_e(a)}</code>" for a in agents) or NONE,
        ),
    ]
    games, errors, options = [], [], []
    for i, v in enumerate(variants):
        tag = f" ({_e(_vlabel(v, i))})" if len(variants) > 1 else ""
        games.append(f"{_count(v.get('games'))}{tag}")
        n_err = _num(v.get("errors")) or 0
        err = f'<span class="{"bad" if n_err else ""}">{_count(v.get("errors"))}</span>{tag}'
        examples = [str(x) for x in _list(v.get("error_examples"))]
        if examples:
            items = "".join(f"<li><code>{_e(x)}</code></li>" for x in examples)
            err += f"<details><summary>examples</summary><ul>{items}</ul></details>"
        errors.append(err)
        opts = _dict(v.get("options"))
        text = ", ".join(f"<code>{_e(k)}={_e(val)}</code>" for k, val in opts.items()) if opts else "defaults"
        options.append(f"{text}{tag}")
    rows += [
        ("Games played", "".join(f"<div>{x}</div>" for x in games)),
        ("Errors", "".join(f"<div>{x}</div>" for x in errors)),
        ("Options", "".join(f"<div>{x}</div>" for x in options)),
        ("Seed", _e(report.get("seed")) if report.get("seed") is not None else NONE),
        ("Command", f"<code>{_e(report.get('command') or '')}</code>"),
        ("Date", _date(report.get("created"))),
        ("Time taken", _duration(report.get("elapsed_s"))),
    ]
    return '<dl class="meta">' + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows) + "</dl>"


def _glance(report: dict[str, Any]) -> str:
    """The strongest and weakest cards, the first player's edge, errors and what never occurred."""
    boxes = []
    for i, v in enumerate(_variants(report)):
        ranked = _ranked(v)
        half = min(CALLOUT, (len(ranked) + 1) // 2)  # a short list is split, never named twice
        strong, weak = ranked[:half], list(reversed(ranked[half:]))[:CALLOUT]

        def items(cards: list[dict[str, Any]]) -> str:
            return "".join(
                f'<li>{_card_name(c)} <span class="kind">{_e(c.get("kind") or "")}</span>: strength '
                f"{_fmt(c.get('strength'), '+.2f')} {_ci(c.get('strength_ci'), '+.2f')}, owner's score when used "
                f"{_fmt(c.get('score_used'))}</li>"
                for c in cards
            )

        parts = [f"<h3>{_e(_vlabel(v, i))}</h3>"] if len(_variants(report)) > 1 else []
        if strong:
            parts.append(f'<p class="strong">Strongest</p><ol>{items(strong)}</ol>')
            parts.append(f'<p class="weak">Weakest</p><ol>{items(weak)}</ol>' if weak else "")
        elif v.get("cards"):
            parts.append("<p>No card was ranked: none was used in these games.</p>")
        else:
            parts.append("<p>This game declares no cards, abilities or rules to follow.</p>")
        fp = v.get("first_player")
        if isinstance(fp, dict) and _num(fp.get("score")) is not None:
            parts.append(
                f"<p>The first player scores {_fmt(fp.get('score'))} {_ci(fp.get('ci'))} "
                f"(a fair seat scores {_e(f'{_fair(report):.3f}')}).</p>"
            )
        never = [c for c in _list(v.get("coverage")) if isinstance(c, dict) and _num(c.get("games")) == 0]
        if never:
            parts.append(f'<p><a href="#coverage">{len(never)} never used</a> (listed first under Coverage).</p>')
        notes = [str(n) for n in _list(v.get("notes"))]
        if notes:
            parts.append('<ul class="notes">' + "".join(f"<li>{_e(n)}</li>" for n in notes) + "</ul>")
        if _num(v.get("errors")):
            plural = "" if v.get("errors") == 1 else "s"
            parts.append(
                f'<p class="bad">{_count(v.get("errors"))} game{plural} ended in an error (see the header).</p>'
            )
        if not _num(v.get("games")):
            parts.append('<p class="bad">No game was played.</p>')
        boxes.append(f'<div class="box">{"".join(parts)}</div>')
    return f'<div class="boxes">{"".join(boxes)}</div>'


def _seats(report: dict[str, Any]) -> str:
    variants = _variants(report)
    two = len(variants) > 1
    head = ["Seat"]
    for i, v in enumerate(variants):
        tag = f"<br><small>{_e(_vlabel(v, i))}</small>" if two else ""
        head += [f"Wins{tag}", f"Draws{tag}", f"Losses{tag}", f"Score [95%]{tag}"]
    rows = []
    for seat in range(_seat_count(report)):
        cells = [f"<th scope=row>seat {seat}</th>"]
        for v in variants:
            s = next((x for x in _list(v.get("seats")) if isinstance(x, dict) and x.get("seat") == seat), {})
            cells += [
                _num_cell(s.get("wins"), _count(s.get("wins"))),
                _num_cell(s.get("draws"), _count(s.get("draws"))),
                _num_cell(s.get("losses"), _count(s.get("losses"))),
                _with_ci(s.get("score"), s.get("ci")),
            ]
        rows.append(f"<tr>{''.join(cells)}</tr>")
    cells = ["<th scope=row>first player <small>(whoever took the first turn)</small></th>"]
    for v in variants:
        fp = _dict(v.get("first_player"))
        cells += [f'<td colspan="3" class="num">{_count(fp.get("games"))} games</td>' if fp else "<td colspan=3></td>"]
        cells += [_with_ci(fp.get("score"), fp.get("ci"))]
    rows.append(f"<tr>{''.join(cells)}</tr>")
    plot = _plot_img(
        partial(_draw_seats, report=report),
        alt="Each seat's score and the first player's score with 95% intervals",
        size=(7.0, 1.3 + 0.45 * (_seat_count(report) + 1) * (1.4 if two else 1)),
    )
    return (
        f"<p>A seat's score is its share of the results (win 1, draw ½, loss 0); a fair seat scores "
        f"{_e(f'{_fair(report):.3f}')}. An interval that does not contain it is an advantage, not luck.</p>"
        f"{_table(head, rows)}{plot}"
    )


def _length(report: dict[str, Any]) -> str:
    variants = _variants(report)
    keys = (
        ("mean", "mean"),
        ("median", "median"),
        ("p10", "10th percentile"),
        ("p90", "90th percentile"),
        ("min", "shortest"),
        ("max", "longest"),
    )
    head = ["Statistic"]
    for measure in ("turns", "decisions"):
        for i, v in enumerate(variants):
            head.append(
                _e(measure.capitalize()) + (f"<br><small>{_e(_vlabel(v, i))}</small>" if len(variants) > 1 else "")
            )
    rows = []
    for key, title in keys:
        cells = [f"<th scope=row>{_e(title)}</th>"]
        for measure in ("turns", "decisions"):
            for v in variants:
                stats = _dict(_dict(v.get("length")).get(measure))
                value = stats.get(key)
                cells.append(_num_cell(value, _fmt(value, ".1f" if key == "mean" else ".0f")))
        rows.append(f"<tr>{''.join(cells)}</tr>")
    plots = "".join(
        _plot_img(
            partial(_draw_histogram, report=report, measure=measure),
            alt=f"Histogram of the number of {measure} per game",
            size=(5.0, 3.0),
        )
        for measure in ("turns", "decisions")
    )
    return (
        "<p>A turn is a player's turn as the game counts it; a decision is one action a seat chose "
        "(one each time an agent was asked).</p>"
        f'{_table(head, rows)}<div class="plots">{plots}</div>'
    )


def _ends(report: dict[str, Any]) -> str:
    variants = _variants(report)
    two = len(variants) > 1
    names: list[tuple[str, str]] = []
    for v in variants:
        for end in _list(v.get("ends")):
            if isinstance(end, dict) and all(n != str(end.get("name")) for n, _ in names):
                names.append((str(end.get("name")), str(end.get("label") or "")))
    head = ["End condition", "Rule"]
    for i, v in enumerate(variants):
        tag = f"<br><small>{_e(_vlabel(v, i))}</small>" if two else ""
        head += [f"Games{tag}", f"Share{tag}"]
    rows = []
    for name, label in names:
        cells = [f"<th scope=row><code>{_e(name)}</code></th><td>{_e(label)}</td>"]
        zero = True
        for v in variants:
            end = next((x for x in _list(v.get("ends")) if isinstance(x, dict) and x.get("name") == name), None)
            if end is None:
                cells.append('<td colspan="2" class="na">not declared</td>')
                continue
            zero = zero and not _num(end.get("count"))
            cells += [
                _num_cell(end.get("count"), _count(end.get("count"))),
                _num_cell(end.get("share"), _share(end.get("share"))),
            ]
        rows.append(f'<tr class="{"never" if zero else ""}">{"".join(cells)}</tr>')
    if not rows:
        return "<p>The game declares no end conditions.</p>"
    return (
        "<p>Every way the rulebook ends a game, and the turn cap, with the games that ended that way; "
        "a condition that never happened is shown with 0 (dimmed).</p>" + _table(head, rows)
    )


CARD_HEAD = (
    "Rank",
    "Name",
    "In deck/ build",
    "Avail&shy;able",
    "Used",
    "Affect&shy;ed",
    "Uses",
    "Score when used",
    "Score when available, not used",
    "Score in deck/ build",
    "Score not in deck/ build",
    "Strength (log-odds)",
)


def _card_row(card: dict[str, Any]) -> str:
    rank = _num(card.get("rank"))
    never = rank is None
    rank_cell = (
        f'<td class="num" data-sort="{rank:.0f}">{rank:.0f}</td>'
        if rank is not None
        else '<td class="num" data-sort=""><span class="badge">never used</span></td>'
    )
    cells = [
        rank_cell,
        f"<th scope=row>{_card_name(card)}</th>",
        _num_cell(card.get("games_included"), _count(card.get("games_included"))),
        _num_cell(card.get("games_available"), _count(card.get("games_available"))),
        _num_cell(card.get("games_used"), _count(card.get("games_used"))),
        _num_cell(card.get("games_affected"), _count(card.get("games_affected"))),
        _num_cell(card.get("used_count"), _count(card.get("used_count"))),
        _with_ci(card.get("score_used"), card.get("ci_used")),
        _with_ci(card.get("score_available_not_used"), card.get("ci_available_not_used")),
        _with_ci(card.get("score_included"), card.get("ci_included")),
        _with_ci(card.get("score_not_included"), card.get("ci_not_included")),
        _with_ci(card.get("strength"), card.get("strength_ci"), "+.3f", apart_from=0.0),
    ]
    return f'<tr class="{"never" if never else ""}" data-kind="{_e(card.get("kind") or "")}">{"".join(cells)}</tr>'


def _card_tables(variant: dict[str, Any]) -> str:
    cards = [c for c in _list(variant.get("cards")) if isinstance(c, dict)]
    if not cards:
        return "<p>This game declares no cards, abilities or rules to follow (its involvement catalogue is empty).</p>"
    kinds: list[str] = []
    for c in cards:
        if str(c.get("kind") or "") not in kinds:
            kinds.append(str(c.get("kind") or ""))
    order = list(KIND_TITLES)  # cards first, then the known kinds, then others as they first appear (stable)
    kinds = sorted(kinds, key=lambda k: order.index(k) if k in order else len(order))
    out = []
    for kind in kinds:
        group = [c for c in cards if str(c.get("kind") or "") == kind]
        group.sort(key=lambda c: (_num(c.get("rank")) is None, _num(c.get("rank")) or 0))
        out.append(
            f'<h4 id="kind-{_e(kind)}">{_e(_kind_title(kind))} <small>({len(group)})</small></h4>'
            + _table([h for h in CARD_HEAD], (_card_row(c) for c in group), cls="cards", sortable=True)
        )
    return "".join(out)


def _cards(report: dict[str, Any]) -> str:
    variants = _variants(report)
    parts = [
        "<p>One row per card, ability, effect kind or rule the game declares, grouped by kind, strongest first. "
        "The counts are (game, seat) pairs: a card in both players' decks in 100 games counts 200. "
        "Scores are the owner's, with 95% intervals; strength controls for the seat and the other cards "
        '(see <a href="#method">How to read this</a>). Click a column heading to sort.</p>'
    ]
    for i, v in enumerate(variants):
        if len(variants) > 1:
            parts.append(f"<h3>{_e(_vlabel(v, i))}</h3>")
        ranked = _ranked(v)
        if ranked:
            shown = ranked if len(ranked) <= 2 * PLOT_TOP else ranked[:PLOT_TOP] + ranked[-PLOT_TOP:]
            what = "every ranked entry" if len(shown) == len(ranked) else f"the {PLOT_TOP} strongest and weakest"
            parts.append(
                _plot_img(
                    partial(_draw_cards, report=report, cards=shown, cut=len(shown) < len(ranked)),
                    alt=f"Owner's score by card with 95% intervals ({what}), strongest at the top",
                    size=(8.0, 1.6 + 0.27 * len(shown)),
                )
            )
            parts.append(f'<p class="note">The plot shows {what}, strongest at the top.</p>')
        parts.append(_card_tables(v))
    return "".join(parts)


def _coverage(report: dict[str, Any]) -> str:
    variants = _variants(report)
    keys: list[tuple[str, str]] = []
    entries: dict[tuple[str, str], list[dict[str, Any] | None]] = {}
    for i, v in enumerate(variants):
        for entry in _list(v.get("coverage")):
            if not isinstance(entry, dict):
                continue
            key = (str(entry.get("kind") or ""), str(entry.get("name") or ""))
            if key not in entries:
                keys.append(key)
                entries[key] = [None] * len(variants)
            entries[key][i] = entry

    def fewest(key: tuple[str, str]) -> float:
        found = [_num(e.get("games")) for e in entries[key] if e is not None]
        return min((g if g is not None else 0.0) for g in found) if found else 0.0

    keys.sort(key=fewest)  # stable: the report's own order (never occurred first, then ascending) within a tie
    if not keys:
        return "<p>The game declares nothing to follow (its involvement catalogue is empty).</p>"
    two = len(variants) > 1
    with_any = any(e is not None and "games_any" in e for found in entries.values() for e in found)
    head = ["", "Kind", "Name"]
    for i, v in enumerate(variants):
        tag = f"<br><small>{_e(_vlabel(v, i))}</small>" if two else ""
        head += [f"Used in games{tag}", f"Share of games{tag}"]
        head += [f"Occurred in games<br><small>at any stage</small>{tag}"] if with_any else []
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
        badge = ""
        if marks:
            what = "never occurred" if all(m == "never occurred" for _, m in marks) else "never used"
            where = f" ({', '.join(label for label, _ in marks)})" if two and len(marks) < len(variants) else ""
            badge = f'<span class="badge">{_e(what + where)}</span>'
        cells = [f"<td>{badge}</td><td>{_e(key[0])}</td><th scope=row>{_card_name(first)}</th>"]
        for e, v in zip(found, variants, strict=True):
            if e is None:
                cells.append(f'<td colspan="{3 if with_any else 2}" class="na">not declared</td>')
                continue
            games, total = _num(e.get("games")), _num(v.get("games"))
            cells.append(_num_cell(games, _count(games)))
            cells.append(_num_cell(None, _share(games / total if games is not None and total else None)))
            if with_any:
                cells.append(_num_cell(e.get("games_any"), _count(e.get("games_any"))))
        rows.append(f'<tr class="{"never" if marks else ""}">{"".join(cells)}</tr>')
    return (
        "<p>Everything the game declares, with the number of games in which it was used (played, bought, set, "
        "summoned, fired; for a rule: applied)"
        + (" and in which it occurred at any stage (in a deck, drawn, offered, used or affected)" if with_any else "")
        + f". <strong>{unused} never used</strong>"
        + (f", {absent} of them never occurred at all" if with_any else "")
        + ": they are listed first, the ones most often dealt first among them. A card dealt often and never "
        "played is the likeliest to be unusable; a rule that never applies may be unreachable, or need other "
        "agents or many more games to come up.</p>" + _table(head, rows, cls="coverage")
    )


def _change_cells(entry: dict[str, Any], spec: str = ".3f") -> list[str]:
    sig = entry.get("significant") is True
    return [
        _num_cell(entry.get("a"), _fmt(entry.get("a"), spec)),
        _num_cell(entry.get("b"), _fmt(entry.get("b"), spec)),
        _num_cell(entry.get("change"), _fmt(entry.get("change"), "+" + spec)),
        _num_cell(entry.get("p"), _p(entry.get("p"))),
        f'<td class="{"sig" if sig else ""}">{"<strong>yes</strong>" if sig else "no"}</td>',
    ]


def _comparison(report: dict[str, Any]) -> str:
    comp = report.get("comparison")
    if not isinstance(comp, dict):
        return "<p>The report holds two variants but no comparison.</p>"
    variants = _variants(report)
    labels = [str(x) for x in _list(comp.get("labels"))] or [_vlabel(v, i) for i, v in enumerate(variants)]
    a, b = [*labels, "a", "b"][:2]
    cols = [_e(a), _e(b), f"Change<br><small>{_e(a)} − {_e(b)}</small>", "p", "Signif&shy;icant"]
    rows = []
    for s in _list(comp.get("seats")):
        if isinstance(s, dict):
            rows.append(f"<tr><th scope=row>seat {_e(s.get('seat'))}: score</th>{''.join(_change_cells(s))}</tr>")
    if isinstance(comp.get("first_player"), dict):
        cells = "".join(_change_cells(comp["first_player"]))
        rows.append(f"<tr><th scope=row>first player: score</th>{cells}</tr>")
    if isinstance(comp.get("length_turns_mean"), dict):
        cells = "".join(_change_cells(comp["length_turns_mean"], ".2f"))
        rows.append(f"<tr><th scope=row>mean turns per game</th>{cells}</tr>")
    card_rows = []
    for c in _list(comp.get("cards")):
        if not isinstance(c, dict):
            continue
        sig = c.get("significant") is True
        card_rows.append(
            f'<tr class="{"sig" if sig else ""}"><th scope=row>{_card_name(c)}</th><td>{_e(c.get("kind") or "")}</td>'
            f"{''.join(_change_cells(c))}"
            f"{_num_cell(c.get('games_used_a'), _count(c.get('games_used_a')))}"
            f"{_num_cell(c.get('games_used_b'), _count(c.get('games_used_b')))}</tr>"
        )
    n_sig = sum(1 for c in _list(comp.get("cards")) if isinstance(c, dict) and c.get("significant") is True)
    card_head = ["Name", "Kind", *[f"Score when used<br><small>{x}</small>" for x in cols[:2]], *cols[2:]]
    card_head += [f"Used in<br><small>{_e(a)}</small>", f"Used in<br><small>{_e(b)}</small>"]
    return (
        f"<p>The same agents played <strong>{_e(a)}</strong> and <strong>{_e(b)}</strong>. A change is "
        f"{_e(a)} minus {_e(b)}; significant means p &lt; 0.05 (see How to read this).</p>"
        + _table(["", *cols], rows, cls="comparison")
        + f"<h3>Per card <small>({n_sig} significant)</small></h3>"
        "<p>The owner's score when the card was used, in each variant; biggest change first. A card of only one "
        "variant has no change.</p>" + _table(card_head, card_rows, cls="comparison-cards", sortable=True)
    )


READING = (
    (
        "Counts",
        "Card counts are (game, seat) pairs. <em>In deck/build</em>: the card was in the seat's deck, build, school "
        "or supply at the start. <em>Available</em>: the seat could have used it (drawn, in hand, on offer). "
        "<em>Used</em>: the seat played, bought, set, summoned, fired or completed it (for a rule: it applied). "
        "<em>Affected</em>: something happened to it (destroyed, discarded, countered). <em>Uses</em> counts every "
        "use, several per game included.",
    ),
    (
        "Owner's scores",
        "<em>Score when used</em> against <em>score when available, not used</em> says whether playing the card "
        "helped its owner when there was a choice; <em>in deck/build</em> against <em>not in deck/build</em> whether "
        "having it at all helped (only for games where decks or builds differ). These are plain averages: a card "
        "played mostly by the player who is already winning looks strong here, which the strength corrects.",
    ),
    (
        "Rank",
        "Entries that were used are ranked by strength, 1 the strongest. An entry never used has no strength and "
        "no rank; it is listed last in its table and first under Coverage.",
    ),
    (
        "Length statistics",
        "Mean, median (half the games were shorter), 10th and 90th percentiles (one game in ten was shorter, "
        "one in ten longer), shortest and longest game; the histograms show the share of games in each bin.",
    ),
)


def _method(report: dict[str, Any]) -> str:
    method = _dict(report.get("method"))
    parts = ['<dl class="reading">']
    for key, text in method.items():
        parts.append(f"<dt>{_e(METHOD_TITLES.get(str(key), str(key).capitalize()))}</dt><dd>{_e(text)}</dd>")
    for title, text in READING:
        parts.append(f"<dt>{_e(title)}</dt><dd>{text}</dd>")
    for i, v in enumerate(_variants(report)):
        tag = f" ({_vlabel(v, i)})" if len(_variants(report)) > 1 else ""
        parts.append(f"<dt>How strength was computed{_e(tag)}</dt><dd>{_e(v.get('strength_method') or '–')}</dd>")
    parts.append("</dl>")
    return "".join(parts)


# -- plots ------------------------------------------------------------------------------------------------------


def _plot_img(draw: Callable[[Figure], None], *, alt: str, size: tuple[float, float]) -> str:
    """``draw`` on a new figure of ``size`` inches, as an ``<img>`` holding the SVG (about 96 px to the inch)."""
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError as exc:  # the arena extra is missing: say so on the page rather than fail the report
        return f'<p class="bad">No plot: matplotlib is not installed ({_e(exc)}); pip install "cardarena[arena]".</p>'
    style = {"svg.hashsalt": "cardarena-report", "svg.fonttype": "path", "font.size": 9, "axes.titlesize": 10}
    with matplotlib.rc_context(style), warnings.catch_warnings():  # type: ignore[arg-type]
        warnings.filterwarnings("ignore", message="Glyph .* missing from")  # a card name in another script
        fig = Figure(figsize=size, layout="constrained")
        draw(fig)
        buffer = io.BytesIO()
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    width, height = round(size[0] * 96), round(size[1] * 96)
    return (
        f'<img class="plot" alt="{_e(alt)}" width="{width}" height="{height}" src="data:image/svg+xml;base64,{data}">'
    )


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
        ax.errorbar(px, py, xerr=[lo, hi], fmt="o", capsize=3, markersize=5, **style)


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
            s = next((x for x in _list(v.get("seats")) if isinstance(x, dict) and x.get("seat") == i), {})
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
    """The well-formed ``[lo, hi, count]`` bins of a length histogram."""
    out = []
    for entry in histogram if isinstance(histogram, list) else []:
        if isinstance(entry, list | tuple) and len(entry) == 3:
            lo, hi, count = (_num(x) for x in entry)
            if lo is not None and hi is not None and count is not None and hi > lo:
                out.append((lo, hi, count))
    return out


def _draw_histogram(fig: Figure, *, report: dict[str, Any], measure: str) -> None:
    from matplotlib.ticker import MaxNLocator

    ax = fig.add_subplot()
    drawn = False
    variants = _variants(report)
    for j, v in enumerate(variants):
        stats = _dict(_dict(v.get("length")).get(measure))
        bins = _bins(stats.get("histogram"))
        total = sum(c for _, _, c in bins)
        if not bins or not total:
            continue
        drawn = True
        lefts = [lo for lo, _, _ in bins]
        widths = [hi - lo for lo, hi, _ in bins]
        shares = [100 * c / total for _, _, c in bins]
        label = _tex(_vlabel(v, j)) if len(variants) > 1 else None
        if j == 0:
            ax.bar(lefts, shares, width=widths, align="edge", color=COLOURS[0], alpha=0.75, label=label)
        else:
            ax.bar(
                lefts, shares, width=widths, align="edge", fill=False, edgecolor=COLOURS[1], linewidth=1.5, label=label
            )
        median = _num(stats.get("median"))
        if median is not None:
            ax.axvline(median, color=COLOURS[j % 2], linestyle=":", linewidth=1.2)
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


def _draw_cards(fig: Figure, *, report: dict[str, Any], cards: list[dict[str, Any]], cut: bool) -> None:
    ax = fig.add_subplot()
    labels = []
    for c in cards:
        kind = str(c.get("kind") or "")
        rank = _num(c.get("rank"))
        prefix = f"{rank:.0f}. " if rank is not None else ""
        labels.append(prefix + _tex(c.get("label") or c.get("name") or "?") + ("" if kind == "card" else f" ({kind})"))
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
    ax.set_yticks(rows, [_tex(x, LABEL_CHARS + 14) for x in labels], fontsize=8)
    ax.set_ylim(len(cards) - 0.5, -0.5)
    ax.set_xlabel("owner's score with 95% interval")
    ax.grid(axis="x", alpha=0.3)
    fig.legend(loc="outside lower center", ncols=3, fontsize=8, frameon=False)
    fig.suptitle("Win rate by card: the owner's score when the card was used, and when it could have been")


# -- page assets ------------------------------------------------------------------------------------------------

CSS = """
:root{--fg:#1b1f24;--muted:#5b6470;--line:#d8dde3;--bg:#fff;--band:#f4f6f8;--a:#1f5fa8;--b:#c8553d;--bad:#b3261e}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1180px;margin:0 auto;padding:12px 16px 40px}
h1{font-size:1.6em;margin:.3em 0}h2{font-size:1.3em;margin:1.6em 0 .4em;border-bottom:2px solid var(--line)}
h3{font-size:1.1em;margin:1.2em 0 .3em}h4{margin:1em 0 .3em}
code{font:0.9em ui-monospace,SFMono-Regular,Menlo,monospace;overflow-wrap:anywhere}
small,.ci,.note,.kind{color:var(--muted)}.ci{font-size:.85em;white-space:nowrap}td .ci{display:block;font-size:.8em}
.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:0}
.meta dt{font-weight:600}.meta dd{margin:0;min-width:0}
nav{position:sticky;top:0;background:var(--bg);border-bottom:1px solid var(--line);padding:6px 0;z-index:1;
 display:flex;gap:4px 14px;flex-wrap:wrap;font-size:.9em}
nav a{color:var(--a);text-decoration:none}
.boxes{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:12px}
.box{border:1px solid var(--line);border-radius:6px;padding:4px 14px;background:var(--band)}
.box ol{margin:0 0 .4em;padding-left:1.4em}.strong,.weak{font-weight:600;margin:.5em 0 .1em}
.strong{color:#2e7d32}.weak{color:var(--bad)}.bad{color:var(--bad);font-weight:600}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;margin:.4em 0 1em;max-width:100%}
table{border-collapse:collapse;font-size:.9em;min-width:100%}
caption{text-align:left;color:var(--muted)}
th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
thead th{position:sticky;top:0;background:var(--band);font-weight:600;vertical-align:bottom}
tbody th{font-weight:500;min-width:9em}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tbody tr:nth-child(even){background:#fafbfc}
tr.never{color:var(--muted)}tr.never th{font-style:italic}
tr.sig,td.sig{background:#fff4d6!important}
.badge{display:inline-block;font-size:.75em;font-weight:600;color:#fff;background:var(--bad);border-radius:3px;
 padding:0 5px;white-space:nowrap}
.na{color:var(--muted)}td.up{color:#2e7d32;font-weight:600}td.down{color:var(--bad);font-weight:600}
table.sortable thead th{cursor:pointer}table.sortable thead th[aria-sort]::after{content:" ▾"}
table.sortable thead th[aria-sort=ascending]::after{content:" ▴"}
.plots{display:flex;flex-wrap:wrap;gap:12px}.plots img{flex:1 1 320px;min-width:0}
img.plot{display:block;max-width:100%;height:auto;margin:.5em 0}
ul.notes{color:#8a5300;padding-left:1.2em}
.reading dt{font-weight:600;margin-top:.6em}.reading dd{margin:0 0 0 1em}
footer{margin-top:2em;color:var(--muted);font-size:.85em}
@media (max-width:600px){body{font-size:14px}main{padding:8px}.meta{gap:2px 8px;font-size:.92em}
 nav{position:static}}
"""

#: Click a heading of a sortable table to sort by that column (numbers by their data-sort value; blanks last).
SORT_JS = """
document.querySelectorAll('table.sortable').forEach(function (table) {
  table.querySelectorAll('thead th').forEach(function (th, col) {
    th.addEventListener('click', function () {
      var body = table.tBodies[0];
      var down = th.getAttribute('aria-sort') !== 'descending';
      table.querySelectorAll('thead th').forEach(function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', down ? 'descending' : 'ascending');
      var key = function (row) {
        var cell = row.children[col];
        var v = cell.getAttribute('data-sort');
        if (v === null) { return cell.textContent.trim().toLowerCase(); }
        return v === '' ? null : parseFloat(v);
      };
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (r, s) {
        var a = key(r), b = key(s);
        if (a === null || b === null) { return a === b ? 0 : (a === null ? 1 : -1); }
        var c = a < b ? -1 : (a > b ? 1 : 0);
        return down ? -c : c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
"""
