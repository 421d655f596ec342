"""The balance report's sweeps (``cardarena report GAME --sweep CARD.FIELD=a:b[:step]``): one number of one card
played at several values, to answer "at what cost is this card fair?".

**Editing.** :func:`plan_sweep` reads the game's card file (:meth:`Game.card_file
<cardarena.engine.game.Game.card_file>`) with :mod:`tomllib`, finds the card's table (:meth:`Game.card_entries
<cardarena.engine.game.Game.card_entries>`), checks that the field is a number and that every value is of its
type, and for each value writes a copy of the file with that number set (:mod:`tomli_w`) and loads the game with
it through its ``cards`` option, so that the game's own loader refuses a value it cannot play, with its message,
before any game is played. The value the file already has is the report's own variant, played once.

**Playing.** Every value is one more variant of the report's one run (:func:`cardarena.arena.report.report`):
the same seeds, agents and per-game setups in every variant (common random numbers), so what differs between
two values is the number, not the deals.

**Summary** (:func:`summarise_sweep`, the SWEEP block of report.json): per value, each seat's score, the card's
strength and the mean length with their intervals, and ``fair_at``, the value at which the chosen outcome
crosses its fair line.
"""

from __future__ import annotations

import difflib
import itertools
import math
import re
import statistics
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine import OptionError, RulesError, load
from ..engine.carddata import CARDS_OPTION, field_value, number_fields, set_field

MAX_VALUES = 12  # a sweep's values: each is a full variant of n games
OUTCOMES = ("strength", "seats", "length")  # what the sweep follows and where it looks for fairness
OUTCOME_TEXT = {
    "strength": "the card's strength",
    "seats": "a seat's score",
    "length": "the mean game length (turns)",
}
_NUMBER = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")
_INT = re.compile(r"[+-]?[0-9]+")
USAGE = "--sweep takes CARD.FIELD=a:b[:step] (a number of one card from a to b), e.g. J.attack=3:7"

METHOD = (
    "Each value of the swept number was played as its own variant: a copy of the card file with only that number "
    "changed, the same number of games as the report's, with the same seeds, the same agents in the same seats "
    "and the same per-game decks or builds in every variant (common random numbers), so that what differs "
    "between two values is the number, not the deals. Per value: each seat's score with its Wilson interval, the "
    "card's strength with its interval (as in the card tables), the mean number of turns with a Student t "
    "interval. fair_at: the first value, in the order swept, at which the followed outcome crosses its fair line "
    "(0 for a card's strength, 1/N for a seat's score with N seats), interpolated linearly between the two values "
    "around the crossing; null when it stays on one side over the whole range. fair_values: the values whose "
    "interval contains the fair line (the ones these games cannot tell from fair)."
)


@dataclass(frozen=True)
class Sweep:
    """A checked sweep: which number of which entry, its values, and each value's game options."""

    target: str  # as the designer wrote it, "J.attack"
    kind: str
    name: str
    field: str  # a dotted path inside the entry's table: "attack", "grant.level", "effect.0.times"
    values: tuple[int | float, ...]
    current: int | float  # the value in the card file as given
    outcome: str  # one of OUTCOMES
    options: tuple[dict[str, Any], ...]  # per value: the variant's options (the report's own for ``current``)
    measured: bool  # whether the report measures the entry (it is in the game's involvement catalogue)


def parse_values(text: str) -> tuple[int | float, ...]:
    """The values of ``a:b[:step]``, from ``a`` up to ``b`` (included when a step lands on it); whole numbers
    when all three are, otherwise decimals. Raises :class:`OptionError` for anything else, fewer than 2 or more
    than :data:`MAX_VALUES` values.

    >>> parse_values("3:7"), parse_values("1:2:0.25"), parse_values("10:30:10")
    ((3, 4, 5, 6, 7), (1.0, 1.25, 1.5, 1.75, 2.0), (10, 20, 30))
    """
    parts = text.split(":")
    if len(parts) not in (2, 3) or not all(_NUMBER.fullmatch(p.strip()) for p in parts):
        raise OptionError(f"{USAGE}; got {text!r}")
    whole = all(_INT.fullmatch(p.strip()) for p in parts)
    a, b, step = (int(p) if whole else float(p) for p in [*parts, "1"][:3])
    if not a < b or step <= 0:
        raise OptionError(f"the range {text!r} must go up: a < b and a step above 0 (a:b[:step])")
    count = math.floor((b - a) / step + 1e-9) + 1
    if count > MAX_VALUES:
        raise OptionError(
            f"the range {text!r} has {count} values; a sweep plays at most {MAX_VALUES} "
            f"(give a larger step, e.g. {a}:{b}:{_nice((b - a) / (MAX_VALUES - 1), whole)})"
        )
    if count < 2:
        raise OptionError(f"the range {text!r} holds only {a}: a sweep needs at least two values")
    if whole:
        return tuple(int(a + i * step) for i in range(count))
    return tuple(round(float(a + i * step), 10) for i in range(count))


def _nice(step: float, whole: bool) -> int | float:
    return math.ceil(step) if whole else float(f"{step:.2g}")


def parse_target(text: str) -> tuple[str | None, str, str, str]:
    """``[KIND:]CARD.FIELD=RANGE`` -> (kind or None, card, field, range text).

    >>> parse_target("J.attack=3:7"), parse_target("circle:blue5.cost=1:3")
    ((None, 'J', 'attack', '3:7'), ('circle', 'blue5', 'cost', '1:3'))
    """
    left, sep, values = text.partition("=")
    kind, colon, rest = left.partition(":")
    if not colon:
        kind, rest = "", left
    name, dot, field = rest.strip().partition(".")
    if not sep or not dot or not name or not field or not values.strip() or (colon and not kind.strip()):
        raise OptionError(f"{USAGE}; got {text!r}")
    return kind.strip() or None, name, field.strip(), values.strip()


def _field_type_is_float(document: dict[str, Any], table: dict[str, Any], field: str) -> bool:
    """Whether ``field`` takes decimals: it is a decimal in ``table`` or in any table of the same array of tables
    (Lyabi's ``times`` is 1 for blue3 but 1.5 for blue5: a decimal field)."""
    siblings: list[dict[str, Any]] = [table]

    def walk(node: Any) -> None:
        if isinstance(node, list):
            if any(item is table for item in node):
                siblings.extend(t for t in node if isinstance(t, dict))
            for item in node:
                walk(item)
        elif isinstance(node, dict):
            for item in node.values():
                walk(item)

    walk(document)
    for sibling in siblings:
        try:
            value = field_value(sibling, field)
        except KeyError:
            continue
        if isinstance(value, float):
            return True
    return False


def _entries_text(entries: Sequence[tuple[str, str]]) -> str:
    by_kind: dict[str, list[str]] = {}
    for kind, name in entries:
        by_kind.setdefault(kind, []).append(name)
    return "; ".join(f"{kind}: {', '.join(names)}" for kind, names in by_kind.items())


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"true/false ({str(value).lower()})"
    if isinstance(value, str):
        return f"text ({value!r})"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def plan_sweep(
    game_id: str,
    options: dict[str, Any],
    text: str,
    outcome: str | None,
    folder: Path,
) -> Sweep:
    """Check the sweep ``text`` (``[KIND:]CARD.FIELD=a:b[:step]``) for ``game_id`` with ``options``, write one
    card file per value into ``folder`` and load the game with each; raise :class:`OptionError` (one line that
    names the valid cards, fields or values) before any game is played."""
    kind, name, field, values_text = parse_target(text)
    values = parse_values(values_text)
    if outcome is not None and outcome not in OUTCOMES:
        raise OptionError(f"--sweep-outcome {outcome!r} is not one of: {', '.join(OUTCOMES)}")
    game = load(game_id, **options)
    path = game.card_file()
    if path is None:
        raise OptionError(f"{game_id} has no card file (a TOML 'cards' option) that a sweep could edit")
    source = path.read_text(encoding="utf-8")
    document = tomllib.loads(source)
    entries = game.card_entries(document)
    target = f"{name}.{field}" if kind is None else f"{kind}:{name}.{field}"
    found = [k for k in entries if k[1] == name and (kind is None or k[0] == kind)]
    if not found:
        names = sorted({n for _, n in entries})
        close = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
        close += [n for n in names if n.lower() == name.lower() and n not in close]
        hint = f" (did you mean {' or '.join(close)}?)" if close else ""
        raise OptionError(
            f"--sweep {target}: {path.name} has no {kind or 'card'} {name!r}{hint}; its entries are "
            + _entries_text(list(entries))
        )
    if len(found) > 1:
        ways = " or ".join(f"{k}:{n}.{field}" for k, n in found)
        raise OptionError(f"--sweep {target}: {name!r} names {len(found)} entries; write {ways}")
    key = found[0]
    table = entries[key]
    numbers = number_fields(table)
    fields_text = ", ".join(numbers) or "none"
    try:
        current = field_value(table, field)
    except KeyError:
        raise OptionError(
            f"--sweep {target}: {name} has no field {field!r}; its number fields: {fields_text}"
        ) from None
    if isinstance(current, bool) or not isinstance(current, (int, float)):
        raise OptionError(
            f"--sweep {target}: {name}.{field} is {_describe(current)}, not a number; its number fields: {fields_text}"
        )
    decimal = _field_type_is_float(document, table, field)
    if not decimal and any(isinstance(v, float) and not v.is_integer() for v in values):
        raise OptionError(
            f"--sweep {target}: {name}.{field} is a whole number ({current}) in {path.name}; the values "
            f"{values_text} are not (give a whole-number range such as {math.floor(values[0])}:{math.ceil(values[-1])})"
        )
    measured = key in {(d.kind, d.name) for d in game.involvement_catalogue()}
    if outcome is None:
        outcome = "strength" if measured else "seats"
    elif outcome == "strength" and not measured:
        raise OptionError(
            f"--sweep {target}: the report measures no strength for {key[0]} {name!r} (it is not a card the "
            "games record); follow --sweep-outcome seats or length"
        )
    made = [d for d in (folder, *folder.parents) if not d.exists()]  # removed again if a value is refused
    folder.mkdir(parents=True, exist_ok=True)
    variants: list[dict[str, Any]] = []
    written: list[Path] = []
    for value in values:
        typed: int | float = float(value) if decimal else int(value)
        if typed == current:
            variants.append(dict(options))  # the file as given: the report's own variant, played once
            continue
        edited = tomllib.loads(source)
        set_field(game.card_entries(edited)[key], field, typed)
        file = (folder / _file_name(path, name, field, value)).resolve()
        file.write_text(_dumps(edited), encoding="utf-8")
        written.append(file)
        variant = {**options, CARDS_OPTION: str(file)}
        try:
            load(game_id, **variant)
        except RulesError as e:
            for f in written:
                f.unlink(missing_ok=True)
            for d in made:
                if d.is_dir() and not any(d.iterdir()):
                    d.rmdir()
            message = str(e).replace(str(file), f"{path.name} with {name}.{field} = {value}")
            raise OptionError(f"--sweep {target}: {game_id} refuses {name}.{field} = {value}: {message}") from None
        variants.append(variant)
    return Sweep(target, key[0], name, field, values, current, outcome, tuple(variants), measured)


def _file_name(path: Path, name: str, field: str, value: int | float) -> str:
    """``cards-J.attack=5.toml``: safe on every file system."""
    stem = re.sub(r"[^A-Za-z0-9._=-]", "_", f"{path.stem}-{name}.{field}={value}")
    return f"{stem}.toml"


def _dumps(document: dict[str, Any]) -> str:
    import tomli_w

    header = "# written by cardarena report --sweep: a copy of the card file with one number changed\n\n"
    return header + tomli_w.dumps(document, multiline_strings=True)


# -- the summary -------------------------------------------------------------------------------------------------
def _mean_ci(values: Sequence[int]) -> tuple[float | None, list[float] | None]:
    """The mean and its 95% Student t interval (``None`` without two values)."""
    from scipy import stats

    if not values:
        return None, None
    mean = statistics.fmean(values)
    if len(values) < 2:
        return round(mean, 3), None
    half = float(stats.t.ppf(0.975, len(values) - 1)) * statistics.stdev(values) / math.sqrt(len(values))
    return round(mean, 3), [round(mean - half, 3), round(mean + half, 3)]


def crossing(values: Sequence[float], ys: Sequence[float | None], line: float) -> float | None:
    """The first value at which ``ys`` reaches ``line``, interpolated linearly between two neighbouring values
    (points without a ``y`` are skipped); ``None`` when every ``y`` lies on the same side.

    >>> crossing([1, 2, 3], [-0.2, -0.1, 0.3], 0.0), crossing([1, 2], [0.6, 0.7], 0.5), crossing([1, 2], [0, 1], 0)
    (2.25, None, 1)
    """
    points = [(x, y) for x, y in zip(values, ys) if y is not None]
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        if y0 == line:
            return x0
        if (y0 - line) * (y1 - line) < 0:
            return round(x0 + (x1 - x0) * (line - y0) / (y1 - y0), 4)
    if points and points[-1][1] == line:
        return points[-1][0]
    return None


def _card(variant: dict[str, Any], kind: str, name: str) -> dict[str, Any] | None:
    return next((c for c in variant["cards"] if c["kind"] == kind and c["name"] == name), None)


def card_strength(card: dict[str, Any] | None) -> tuple[float | None, list[float] | None]:
    """The card's strength and its interval as the report gives it: ``points`` (percentage points of win rate,
    0 the average card), or the log-odds ``strength`` of a report without points."""
    if card is None:
        return None, None
    if "points" in card:
        return card["points"], card.get("points_ci")
    return card.get("strength"), card.get("strength_ci")


def summarise_sweep(sweep: Sweep, variants: Sequence[dict[str, Any]], turns: Sequence[Sequence[int]]) -> dict[str, Any]:
    """report.json's SWEEP block from each value's VARIANT (as :func:`~cardarena.arena.report.summarise_variant`
    makes it) and the turns of its finished games, in the order of ``sweep.values``."""
    points = []
    for value, variant, lengths in zip(sweep.values, variants, turns, strict=True):
        card = _card(variant, sweep.kind, sweep.name) if sweep.measured else None
        strength, strength_ci = card_strength(card)
        mean, mean_ci = _mean_ci(lengths)
        points.append(
            {
                "value": value,
                "games": variant["games"] - variant["errors"],
                "seat_scores": [s["score"] for s in variant["seats"]],
                "seat_ci": [s["ci"] for s in variant["seats"]],
                "card_points": strength,
                "card_points_ci": strength_ci,
                "turns_mean": mean,
                "turns_ci": mean_ci,
            }
        )
    seat = None
    line: float | None = None
    ys: list[float | None]
    cis: list[list[float] | None]
    if sweep.outcome == "strength":
        line = 0.0
        ys = [p["card_points"] for p in points]
        cis = [p["card_points_ci"] for p in points]
    elif sweep.outcome == "seats":
        seats = len(points[0]["seat_scores"]) if points else 0
        line = 1 / seats if seats else None

        def gain(s: int) -> float:  # how much the seat's score rises over the range
            scores = [p["seat_scores"][s] for p in points if p["seat_scores"][s] is not None]
            return scores[-1] - scores[0] if scores else 0.0

        seat = max(range(seats), key=lambda s: (gain(s), -s)) if seats else None  # the seat the number helps most
        ys = [p["seat_scores"][seat] for p in points] if seat is not None else []
        cis = [p["seat_ci"][seat] for p in points] if seat is not None else []
    else:
        ys = [p["turns_mean"] for p in points]
        cis = [p["turns_ci"] for p in points]
    fair_at = None if line is None else crossing(sweep.values, ys, line)
    fair_values = (
        [] if line is None else [p["value"] for p, ci in zip(points, cis) if ci is not None and ci[0] <= line <= ci[1]]
    )
    return {
        "target": sweep.target,
        "kind": sweep.kind,
        "name": sweep.name,
        "field": sweep.field,
        "outcome": sweep.outcome,
        "current": sweep.current,
        "seat": seat,
        "fair_line": None if line is None else round(line, 4),
        "points": points,
        "fair_at": fair_at,
        "fair_values": fair_values,
        "method": METHOD,
    }


def sweep_summary(block: dict[str, Any]) -> str:
    """One line on a SWEEP block for the terminal: where the followed outcome crosses its fair line.

    >>> sweep_summary({"target": "J.attack", "outcome": "strength", "seat": None, "fair_line": 0.0,
    ...     "points": [{"value": 3}, {"value": 7}], "fair_at": 4.5, "fair_values": [4, 5]})
    "J.attack from 3 to 7: the card's strength crosses 0 at 4.5 (not told apart from 0 at 4, 5)"
    """
    points = block["points"]
    span = f"{block['target']} from {points[0]['value']} to {points[-1]['value']}" if points else block["target"]
    what = OUTCOME_TEXT.get(block["outcome"], block["outcome"])
    if block["outcome"] == "seats" and block.get("seat") is not None:
        what = f"seat {block['seat']}'s score"
    line = block.get("fair_line")
    if line is None:
        return f"{span}: follows {what} (no fair line)"
    level = f"{line:g}"
    told = ", ".join(str(v) for v in block.get("fair_values") or [])
    apart = f" (not told apart from {level} at {told})" if told else ""
    if block["fair_at"] is None:
        return f"{span}: {what} does not cross {level} in this range{apart}"
    return f"{span}: {what} crosses {level} at {block['fair_at']}{apart}"
