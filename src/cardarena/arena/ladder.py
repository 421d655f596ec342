"""The rated ladder: every strength offered to people, rated per game on one Elo scale (``cardarena ladder``).

The strengths are ``random`` and the labels of :data:`cardarena.agents.levels.LEVELS` (``easy`` = the heuristic,
``normal``, ``hard``, ``expert``), each standing for its agent spec in the game (:func:`~cardarena.agents.levels.
level_spec`). They play a round robin (:mod:`cardarena.arena.tournament`): every pairing plays the same ``pairs``
deals, each deal in every seating (a duel: both seat orders), so the games of a deal differ only in who sits where.
The pairings' scores are fitted by Bradley–Terry (:func:`~cardarena.arena.stats.bradley_terry`) on the Elo scale,
**anchored at random = 0**: each other strength's rating is its difference from ``random``, with the 95% interval
of that difference (``random`` itself is 0 exactly). Each strength's seconds per decision is its mean thinking time
over its decisions with a choice (two or more legal actions) in the run (wall clock in the worker: a run with more
jobs than free cores reads slower).

The entry of a game's configuration (:func:`~cardarena.agents.levels.model_key`: ``torabato``,
``tashkalar-highform``...) is what ``cardarena ladder --write`` merges into ``agents/models/ladder.json``, which
the browser's lobby and :func:`~cardarena.agents.levels.ladder` read::

    {"torabato": {"anchor": "random = 0", "seed": 0, "pairs": 20, "command": "cardarena ladder torabato ...",
      "strengths": {"random": {"spec": "random", "elo": 0, "low": 0, "high": 0, "seconds_per_decision": 1e-05},
                    "easy": {"spec": "heuristic", "elo": 650, "low": 590, "high": 710, ...}, ...}}}
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from ..agents import levels, make_agent, parse_spec
from ..agents.expert import model_for, model_path
from ..engine import Game, OptionError, load
from . import runner
from .stats import bradley_terry
from .tournament import ProgressCallback, plan, tournament

#: The strengths a ladder rates by default, weakest first: ``random`` (the anchor) and every offered label.
STRENGTHS: tuple[str, ...] = ("random", *levels.LEVELS)
ANCHOR = "random"


def strength_entrants(game_id: str, strengths: list[str] | None = None) -> list[tuple[str, str]]:
    """``(name, spec)`` of each strength rated: a label of :data:`STRENGTHS` stands for its spec in ``game_id``;
    ``NAME=SPEC`` rates SPEC under that name (a cheaper expert in a test: ``expert=expert:iterations=8``).

    >>> strength_entrants("lyabi", ["random", "hard", "expert=expert:iterations=8"])[1:]
    [('hard', 'ismcts:iterations=2000'), ('expert', 'expert:iterations=8')]
    """
    out: list[tuple[str, str]] = []
    for text in strengths or list(STRENGTHS):
        name, eq, spec = (part.strip() for part in text.partition("="))
        if not eq:
            if name == ANCHOR:
                spec = "random"
            elif name in levels.LEVELS:
                spec = levels.level_spec(name, game_id)
            else:
                offered = ", ".join(STRENGTHS)
                raise OptionError(f"unknown strength {name!r}: the strengths are {offered}, or NAME=SPEC")
        if not name or not spec or any(c in name for c in ":@,="):
            raise OptionError(f"strength {text!r}: write a label ({', '.join(STRENGTHS)}) or NAME=SPEC")
        if any(name == n for n, _ in out):
            raise OptionError(f"strength {name!r} is named twice")
        make_agent(spec, 0)  # an unknown agent or parameter fails here, naming the valid ones
        out.append((name, spec))
    if not any(name == ANCHOR for name, _ in out):
        raise OptionError(f"the ladder is anchored at {ANCHOR} = 0: rate {ANCHOR!r} among the strengths")
    if len(out) < 2:
        raise OptionError("a ladder needs at least two strengths")
    return out


def ladder(
    game_id: str,
    *,
    options: dict[str, Any] | None = None,
    strengths: list[str] | None = None,
    pairs: int = 20,
    seed: int = 0,
    jobs: int | None = None,
    store: str | Path | None = None,
    progress: ProgressCallback | None = None,
    command: str | None = None,
) -> tuple[str, dict[str, Any]]:
    """Rate the strengths of ``game_id`` (with ``options``): its model key and its ladder entry (see the module's
    docstring; ``pairings`` holds every pairing's score with its paired 95% interval). ``store``: the tournament's
    result store, so an interrupted run resumes and a larger ``pairs`` plays only the new deals."""
    if pairs < 1:
        raise OptionError(f"pairs must be at least 1, got {pairs}")
    options = dict(options or {})
    game = load(game_id, **options)
    key = levels.model_key(game)
    entrants = strength_entrants(game_id, strengths)
    the_plan = plan(game_id, [f"{name}={spec}" for name, spec in entrants], seed=seed, options=options)
    for name, spec in entrants:
        agent, params = parse_spec(spec)
        if agent == "expert" and params.get("model"):
            try:
                model_for(game, params["model"])
            except (OSError, ValueError) as error:
                message = f"strength {name!r}: its model {params['model']!r} cannot be read ({error})"
                raise OptionError(message) from error
    digests = {name: d for name, spec in entrants if (d := model_digest(game, spec)) is not None}
    if digests:  # a store of games against another model of the expert is not resumed (its identity differs)
        the_plan = replace(the_plan, extra=tuple((f"model:{name}", d) for name, d in sorted(digests.items())))
    rows: dict[int, dict[str, Any]] = {}
    summary = tournament(
        the_plan,
        games_per_pairing=pairs * len(the_plan.seatings),
        out=store,
        backend=runner.Backend.PROCESS,
        jobs=jobs,
        progress=progress,
        on_rows=rows.update,
    )
    names = [name for name, _ in entrants]
    btl = []
    for p, (a, b) in enumerate(the_plan.pairings):
        result = summary["pairings"][p]
        n = result["wins"] + result["draws"] + result["losses"]
        btl.append((a, b, result["wins"] + result["draws"] / 2, n))
    ratings = bradley_terry(len(entrants), btl, anchor=names.index(ANCHOR))
    seconds, decisions = _timings(the_plan, rows, summary["deals"])
    out: dict[str, dict[str, Any]] = {}
    for e, (name, spec) in enumerate(entrants):
        row: dict[str, Any] = {"spec": spec}
        if ratings is not None:
            lo, hi = ratings[e].ci95
            row.update(elo=round(ratings[e].elo), low=round(lo), high=round(hi))
        else:
            row.update(elo=None, low=None, high=None)
        row["seconds_per_decision"] = float(f"{seconds[e] / decisions[e]:.2g}") if decisions[e] else None
        row["decisions"] = decisions[e]
        if name in digests:
            row["model"] = digests[name]
        out[name] = row
    entry: dict[str, Any] = {
        "game": game_id,
        "options": {k: str(v) for k, v in sorted(options.items())},
        "anchor": f"{ANCHOR} = 0",
        "seed": seed,
        "pairs": summary["deals"],
        "seatings": summary["seatings"],
        "games": summary["games"],
        "errors": summary["errors"],
        "jobs": jobs,
        "command": command or _command(game_id, options, strengths, pairs, seed),
        "strengths": out,
        "pairings": [
            {"a": p["a"], "b": p["b"], "games": p["games"], "score": p["score"], "ci95": p["ci95"]}
            for p in summary["pairings"]
        ],
    }
    if "error_samples" in summary:
        entry["error_samples"] = summary["error_samples"]
    return key, entry


def model_digest(game: Game, spec: str) -> str | None:
    """For an ``expert`` spec, the first 12 hex digits of the SHA-256 of the model file it plays with in ``game``
    (``None``: another agent, or an expert without a model): a rating is that of the model it was measured with."""
    name, params = parse_spec(spec)
    if name != "expert":
        return None
    path = params.get("model") or str(model_path(game))
    if not Path(path).is_file() or model_for(game, params.get("model")) is None:
        return None
    stat = Path(path).stat()
    return _digest(str(Path(path).resolve()), stat.st_mtime_ns, stat.st_size)


@cache
def _digest(path: str, mtime_ns: int, size: int) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


def _timings(the_plan: Any, rows: dict[int, dict[str, Any]], deals: int) -> tuple[list[float], list[int]]:
    """Each entrant's thinking seconds and decisions over the counted games (rows stored before the tournament kept
    seat timings have none)."""
    count = len(the_plan.entrants)
    seconds, decisions = [0.0] * count, [0] * count
    for row in rows.values():
        if row["deal"] >= deals or row.get("returns") is None or "seat_seconds" not in row:
            continue
        who = the_plan.seat_entrants(row["pairing"], row["seating"])
        for seat, e in enumerate(who):
            seconds[e] += float(row["seat_seconds"][seat])
            decisions[e] += int(row["seat_decisions"][seat])
    return seconds, decisions


def _command(game_id: str, options: dict[str, Any], strengths: list[str] | None, pairs: int, seed: int) -> str:
    words = ["cardarena", "ladder", game_id]
    for k, v in sorted(options.items()):
        words += ["-o", f"{k}={v}"]
    for s in strengths or []:
        words += ["--strength", s]
    words += ["-n", str(pairs), "--seed", str(seed)]
    return " ".join(words)


def default_file() -> Path:
    """The shipped ladder: ``agents/models/ladder.json``."""
    return levels.MODELS / "ladder.json"


def write_entry(key: str, entry: dict[str, Any], path: str | Path | None = None) -> Path:
    """Merge ``entry`` into the ladder file (the shipped one by default) under ``key``, keeping the other games'."""
    target = Path(path) if path is not None else default_file()
    data: dict[str, Any] = {}
    if target.exists():
        try:
            data = json.loads(target.read_text(encoding="utf-8"))
        except ValueError as e:
            raise OptionError(f"{target} is not a ladder file (not JSON: {e}); move it away first") from e
        if not isinstance(data, dict):
            raise OptionError(f"{target} is not a ladder file (not an object); move it away first")
    data[key] = entry
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    levels.reload()
    return target


def _cell(row: dict[str, Any]) -> str:
    if row.get("elo") is None:
        return "not rated"
    text = f"{row['elo']:+d}" if row["elo"] else "0"
    if row.get("low") != row.get("high"):
        text += f" [{row['low']:+d}, {row['high']:+d}]"
    seconds = row.get("seconds_per_decision")
    if seconds is not None:
        text += f", {seconds_text(seconds)}"
    return text


def seconds_text(seconds: float) -> str:
    """A time per decision in a table.

    >>> seconds_text(0.0412), seconds_text(0.00041), seconds_text(0.0000025), seconds_text(1.5)
    ('0.041 s', '0.41 ms', '< 0.01 ms', '1.5 s')
    """
    if seconds < 0.00001:
        return "< 0.01 ms"
    return f"{seconds * 1000:.2g} ms" if seconds < 0.001 else f"{seconds:.2g} s"


def markdown(data: dict[str, Any]) -> str:
    """A markdown table of ladder entries by key (``ladder.json``'s object): a row per configuration, a column per
    strength, each cell ``Elo [95%], seconds per decision``; then each row's command."""
    labels = [s for s in STRENGTHS if any(s in e.get("strengths", {}) for e in data.values())]
    labels += sorted({s for e in data.values() for s in e.get("strengths", {})} - set(labels))
    lines = [
        "| configuration | pairs | " + " | ".join(labels) + " |",
        "|---|---:|" + "---:|" * len(labels),
    ]
    for key in sorted(data):
        entry = data[key]
        cells = [_cell(entry["strengths"][s]) if s in entry.get("strengths", {}) else "—" for s in labels]
        lines.append(f"| {key} | {entry.get('pairs', '?')} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(
        "Elo on one scale per configuration, anchored at random = 0, with the 95% interval of the difference "
        "from random; then the seconds per decision. Commands:"
    )
    lines.append("")
    for key in sorted(data):
        lines.append(f"- {key}: `{data[key].get('command', '?')}` (seed {data[key].get('seed', '?')})")
    return "\n".join(lines) + "\n"
