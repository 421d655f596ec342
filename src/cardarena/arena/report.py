"""The designer's balance report (``cardarena report GAME``): many games, then every statistic of report.json.

**Playing.** ``n`` seeded games are handed to the one runner (:mod:`cardarena.arena.runner`); game ``i`` is
seeded ``derive_seed(seed, i)``, its agent in seat ``k`` ``derive_seed(seed, i, k + 1)``, and the agents given
(one spec per seat) are rotated by ``i mod seats`` so that each sits in every seat equally often. Before every
action the runner's worker clones the state and afterwards asks the game what the action involved
(:meth:`~cardarena.engine.game.Game.involvement`, see :mod:`cardarena.engine.involvement`); a worker sends back a
compact summary of each game (:func:`play_one`), keyed by its index, so the report is the same for every backend
and number of jobs. With ``baseline`` options the same games (same seeds, same agents) are played a second time
with those options changed, and the two variants are compared.

**Statistics** (:func:`summarise_variant`, :func:`compare`) are pure functions of the summaries, so they are
tested on hand-made ones. A *pair* is one seat of one finished game; a card's statistics are over the pairs whose
seat it belongs to (an involvement that belongs to no seat, a rule, counts once per game and has no owner's score).
Its *score* there is the seat's share of the result (win 1, a win shared by ``k`` seats ``1/k``, loss 0).
The report's JSON layout (schema 1) is the contract with its page, :mod:`cardarena.arena.report_page`.
"""

from __future__ import annotations

import math
import statistics
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..agents import Agent, SeatView, make_agent
from ..engine import Declared, Game, Involvement, OptionError, Setup, derive_seed, load
from ..engine.involvement import VERBS, Stage, apply_involving
from . import runner
from .matchups import drama, matchups
from .results import ResultStore
from .strength import result_for, wilson
from .sweep import Sweep, plan_sweep, summarise_sweep

SCHEMA = 2
DEFAULT_AGENT = "heuristic"  # a designer wants to know how people play, so the scripted heuristic plays by default
STAGES: tuple[Stage, ...] = (Stage.INCLUDED, Stage.AVAILABLE, Stage.USED, Stage.AFFECTED)
_STAGE_CODE = {stage: code for code, stage in enumerate(STAGES)}
INCLUDED, AVAILABLE, USED, AFFECTED = range(4)
UNDECLARED_KEPT = 5  # undeclared involvements a game reports per game (a bug in its hooks), shown as notes
RIDGE_LAMBDA = 1.0  # the L2 penalty on a card's coefficient: a normal prior of standard deviation 1 (log-odds)
RIDGE_LAMBDA_SEAT = 0.01  # a token penalty on the seat terms, so that collinear ones stay finite
BOOTSTRAP = 100  # resamples of the games for the strength intervals
HISTOGRAM_BINS = 40  # at most this many bins in a length histogram
SIGNIFICANCE = 0.05
STATISTICS = "statistics: card strengths"  # the progress phase of the card models' fits (the bar's second line)
RIDGE_LAMBDA_SETUP = 0.1  # a light penalty on the setup terms (decks, builds, schools): they carry the decks' effect
MIN_USES = 20  # a card used in fewer (game, seat) pairs is set apart: too few games to judge it
PAIRED_RIDGE = 1.0  # a token L2 penalty in the paired model of the comparison, so that collinear entries stay finite
DOMINANT_SHARE = 0.9  # a card used in at least this share of the pairs is "dominant": the game may collapse onto it
DOMINANT_LEAD = 0.25  # ... if it is also used in this much more of them than the median card of its kind
OUT_OF_LINE_POINTS = 3.0  # a strength interval clear of 0 and at least this many points from it is "out of line"
NEWTON_STEPS = 50  # at most this many Newton steps per fit (a handful suffice)
SETUP_STREAM = 0x5E7  # game i's setup is drawn from derive_seed(seed, i, SETUP_STREAM)

METHOD = {
    "score": (
        "A seat's score is its share of each game's result, averaged over the games: a win 1, a win shared by k "
        "seats 1/k (a two-seat draw 1/2), a loss 0. A card's 'owner' is the seat whose card it is; a card's "
        "counts are (game, seat) pairs, except that an involvement that belongs to no seat (a rule) counts once "
        "per game and has no owner's score, strength or rank. Games with errors are left out of every statistic."
    ),
    "intervals": (
        "Every interval is a 95% interval. Scores: Wilson's score interval for a proportion (draws and shared wins "
        "count as fractions), over the games or (game, seat) pairs counted. Card strengths: percentile intervals "
        f"of a bootstrap over games ({BOOTSTRAP} resamples, whole games resampled, the fit repeated on each)."
    ),
    "strength": (
        "A card's strength is its coefficient in an L2-regularised logistic regression (binomial, logit link, "
        "fitted by Newton's method) of the owner's result (its share: win 1, draw 1/2, loss 0) on, for every card "
        "used in the games, whether that seat used it and the share of the other seats that used it, plus one "
        "indicator per seat and one for the first player (which carry no penalty but a token one) and, where the "
        "games vary the decks, builds or schools, one per deck for the seat's own and one for the others' (a light "
        f"penalty of {RIDGE_LAMBDA_SETUP}), so that a card is not credited with its deck's results. The penalty is "
        f"{RIDGE_LAMBDA}·β²/2 per card term (a normal prior of standard deviation {1 / math.sqrt(RIDGE_LAMBDA):g} on "
        "the log-odds), so rarely used cards are pulled towards 0. A card's points are its coefficient less the "
        "use-weighted mean coefficient of its kind, put as the change it makes to a fair seat's chance of winning "
        "(1/seats), in percentage points: 0 is the average card of its kind, +10 means its owner wins 10 points "
        "more often when it is played, other cards, seats and decks held equal. Rank 1 is the strongest; cards "
        "never used have no strength and no rank."
    ),
    "dominance": (
        "A card's pick rate is the share of the (game, seat) pairs that used it (of the games, for a rule). A card "
        f"is dominant when its pick rate is at least {DOMINANT_SHARE:.0%} and at least {DOMINANT_LEAD:.0%} above "
        "the median of its kind: the game may be collapsing onto it. A card everybody plays has no games without "
        "it to compare with, so its strength says little: compare two variants (--baseline-option) instead. Cards "
        f"used in fewer than {MIN_USES} pairs are set apart as too few to judge."
    ),
    "comparison": (
        "Each seat's score is compared between the two variants by a two-proportion z-test (pooled; draws count "
        "half), the mean number of turns by Welch's t-test (scipy); the cards as the comparison's method says."
    ),
    "length": (
        "Turns are the game's own turn counter at the end; decisions are the actions taken. Percentiles are "
        "linear interpolations; histogram bins are [lo, hi) over whole numbers."
    ),
    "coverage": (
        "Coverage counts, for everything the game declares, the games in which it was used (played, bought, set, "
        "summoned, fired, applied...). Never used ones are listed first, those most often in a deck or hand "
        "(games_any: the games in which it occurred at any stage) first among them: a card dealt often and never "
        "played is the likeliest to be unusable."
    ),
    "involvement": (
        "Stages of a card for a (game, seat) pair: included (in the deck, build, school or supply at the start), "
        "available (drawn, offered: it could have been used; a used card counts as available too), used, affected "
        "(destroyed, discarded, countered...)."
    ),
}


# -- playing -----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Job:
    """Everything a worker needs to play any game of the report by its item number (small and picklable): item
    ``v * games + i`` is game ``i`` of variant ``v``."""

    game_id: str
    variants: tuple[tuple[tuple[str, Any], ...], ...]  # each variant's options
    agents: tuple[str, ...]  # one spec per seat, before rotation
    seed: int
    games: int
    setups: bool = True  # lay each game's Game.report_setup over its variant's options


def seat_agents(agents: Sequence[str], index: int) -> list[str]:
    """The agent spec in each seat of game ``index``: the given order rotated by ``index mod seats``.

    >>> seat_agents(["a", "b", "c"], 0), seat_agents(["a", "b", "c"], 1)
    (['a', 'b', 'c'], ['b', 'c', 'a'])
    """
    n = len(agents)
    return [agents[(k + index) % n] for k in range(n)]


_CATALOGUES: dict[int, tuple[Game, list[Declared], dict[tuple[str, str], int]]] = {}


def _catalogue(game: Game) -> tuple[list[Declared], dict[tuple[str, str], int]]:
    """The game's catalogue and each entry's number, once per loaded game (the runner caches the games; the game
    is kept with its catalogue, so its id is not reused while it is cached)."""
    found = _CATALOGUES.get(id(game))
    if found is None or found[0] is not game:
        catalogue = list(game.involvement_catalogue())
        found = _CATALOGUES[id(game)] = (game, catalogue, {(d.kind, d.name): i for i, d in enumerate(catalogue)})
    return found[1], found[2]


def game_setup(game: Game, seed: int, index: int) -> Setup | None:
    """The decks, builds or schools of game ``index`` (:meth:`Game.report_setup`), drawn from their own seed
    stream so that every variant of the report plays game ``index`` with the same setup (common random numbers)."""
    return game.report_setup(derive_seed(seed, index, SETUP_STREAM))


def play_one(
    game: Game,
    index: int,
    seed: int,
    agents: Sequence[str],
    setup: Setup | None = None,
    *,
    make: Callable[[str, int], Agent] = make_agent,
) -> dict[str, Any]:
    """Play game ``index`` and summarise it: returns, first player (``game.first_player``), turns,
    decisions, end condition, and per seat the codes ``entry * 4 + stage`` of the catalogue entries it saw and
    the number of times it used each; ``shared`` and ``shared_used`` the same for involvements that belong to no
    seat (rules); ``any`` is every entry that occurred at all; ``setup`` what each seat brought (``setup``'s
    labels; ``game`` is already loaded with its options); ``trace`` the game's own evaluation of every seat
    (:meth:`Game.evaluate` of its observation) at the start of each turn, ``[turn, [value per seat]]``, or
    ``None`` where the game has none. A game's own exception is caught and reported (``error``), as ``simulate``
    does. ``make`` makes each seat's agent from its spec and seed (depth and luck's matches pass one that also
    makes their restricted agent)."""
    catalogue, number = _catalogue(game)
    seats = game.num_players
    game_seed = derive_seed(seed, index)
    seen: list[set[int]] = [set() for _ in range(seats)]
    used: list[Counter[int]] = [Counter() for _ in range(seats)]
    shared: set[int] = set()
    shared_used: Counter[int] = Counter()
    anywhere: set[int] = set()
    undeclared: set[str] = set()

    def record(involvements: list[Involvement]) -> None:
        for inv in involvements:
            entry = number.get((inv.kind, inv.name))
            stage = VERBS.get(inv.verb)
            if entry is None or stage is None:
                if len(undeclared) < UNDECLARED_KEPT:
                    undeclared.add(f"{inv.kind}:{inv.name} ({inv.verb})")
                continue
            if inv.seat is not None and not 0 <= inv.seat < seats:
                if len(undeclared) < UNDECLARED_KEPT:
                    undeclared.add(f"{inv.kind}:{inv.name} (seat {inv.seat})")
                continue
            anywhere.add(entry)
            code = _STAGE_CODE[stage]
            if inv.seat is None:
                shared.add(entry * 4 + code)
                if code == USED:
                    shared_used[entry] += 1
            else:
                seen[inv.seat].add(entry * 4 + code)
                if code == USED:
                    used[inv.seat][entry] += 1

    out: dict[str, Any] = {"index": index, "seed": game_seed, "setup": None if setup is None else list(setup.seats)}
    state = None
    decisions = 0
    trace: list[Any] | None = []

    def evaluations() -> None:
        nonlocal trace
        assert state is not None and trace is not None
        values = [game.evaluate(state.observation(s), s) for s in range(seats)]
        if all(v is None for v in values):
            trace = None  # the game has no evaluation: no drama to measure
            return
        trace.append([state.turn, [None if v is None else round(float(v), 3) for v in values]])

    try:
        players = [make(spec, derive_seed(seed, index, k + 1)) for k, spec in enumerate(agents)]
        state = game.new_initial_state(game_seed)
        first = game.first_player(state)  # asked again after each action until the rules have decided it
        views = [SeatView(state, s) for s in range(seats)]
        if catalogue:
            record(game.initial_involvement(state))
        turn = state.turn
        evaluations()
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            action = players[seat].act(views[seat])
            if catalogue:
                record(apply_involving(state, action))
            else:
                state.apply(action)
            if first is None:
                first = game.first_player(state)
            decisions += 1
            if trace is not None and state.turn != turn and not state.is_terminal():
                turn = state.turn
                evaluations()
        out.update(
            returns=[float(r) for r in state.returns()],
            first=first,
            turns=state.turn,
            decisions=decisions,
            end=game.end_condition(state),
            seen=[sorted(s) for s in seen],
            used=[sorted(u.items()) for u in used],
            shared=sorted(shared),
            shared_used=sorted(shared_used.items()),
            any=sorted(anywhere),
            undeclared=sorted(undeclared),
            trace=trace,
            error=None,
        )
    except Exception as e:  # a bug in a game or an agent must not stop a long run: it is counted and reported
        where = traceback.extract_tb(e.__traceback__)[-1]
        message = f"{type(e).__name__}: {e} (at {Path(where.filename).name}:{where.lineno})"
        out.update(returns=None, first=None, turns=0, decisions=decisions, end=None, trace=None, error=message)
    return out


def play_chunk(job: Job, items: list[int]) -> list[tuple[int, dict[str, Any]]]:
    """The runner's work function: play these items (variant-major game numbers), each keyed by its item."""
    out = []
    for item in items:
        variant, index = divmod(item, job.games)
        options = dict(job.variants[variant])
        game = runner.load_cached(job.game_id, options)
        setup = game_setup(game, job.seed, index) if job.setups else None
        if setup is not None:
            game = runner.load_cached(job.game_id, {**options, **dict(setup.options)})
        out.append((item, play_one(game, index, job.seed, seat_agents(job.agents, index), setup)))
    return out


# -- statistics --------------------------------------------------------------------------------------------------
def share(returns: Sequence[float], seat: int) -> float:
    """The seat's share of the result: 1/k when it is among the k seats with the best return, else 0.

    >>> share([1.0, -1.0], 0), share([0.0, 0.0], 1), share([1.0, 1.0, -1.0], 1), share([1.0, -1.0], 1)
    (1.0, 0.5, 0.5, 0.0)
    """
    best = max(returns)
    if returns[seat] < best:
        return 0.0
    return 1.0 / sum(1 for r in returns if r == best)


def _r(x: float, digits: int = 4) -> float:
    return round(float(x), digits)


def _ci(total: float, n: int) -> list[float] | None:
    if n <= 0:
        return None
    lo, hi = wilson(total / n, n)
    return [_r(lo), _r(hi)]


def _mean_or_none(total: float, n: int) -> float | None:
    return _r(total / n) if n else None


def distribution(values: Sequence[int]) -> dict[str, Any]:
    """Mean, median, 10th and 90th percentiles, extremes and a histogram of whole-number ``values``.

    >>> d = distribution([3, 4, 4, 5, 10])
    >>> d["mean"], d["median"], d["min"], d["max"], d["histogram"][:2]
    (5.2, 4.0, 3, 10, [[3, 4, 1], [4, 5, 2]])
    """
    import numpy as np

    if not values:
        return {"mean": None, "median": None, "p10": None, "p90": None, "min": None, "max": None, "histogram": []}
    array = np.asarray(values, dtype=float)
    low, high = int(min(values)), int(max(values))
    width = max(1, math.ceil((high - low + 1) / HISTOGRAM_BINS))
    counts = Counter((int(v) - low) // width for v in values)
    histogram = [[low + b * width, low + (b + 1) * width, counts.get(b, 0)] for b in range((high - low) // width + 1)]
    return {
        "mean": _r(float(array.mean()), 3),
        "median": _r(float(np.median(array)), 2),
        "p10": _r(float(np.percentile(array, 10)), 2),
        "p90": _r(float(np.percentile(array, 90)), 2),
        "min": low,
        "max": high,
        "histogram": histogram,
    }


@dataclass(frozen=True)
class _Pair:
    """One seat of one finished game, as the card statistics see it."""

    game: int  # position among the finished games
    seat: int
    score: float
    first: bool
    stages: frozenset[int]  # codes entry * 4 + stage
    used: dict[int, int]
    setup: str | None = None  # what this seat brought (its deck, build, school), when the games vary it
    others: tuple[str, ...] = ()  # what the other seats brought


def _pairs(done: list[dict[str, Any]], seats: int) -> list[_Pair]:
    out = []
    for g, row in enumerate(done):
        labels = row.get("setup")
        for s in range(seats):
            out.append(
                _Pair(
                    g,
                    s,
                    share(row["returns"], s),
                    row["first"] == s,
                    frozenset(row["seen"][s]),
                    dict((int(e), int(c)) for e, c in row["used"][s]),
                    None if labels is None else str(labels[s]),
                    () if labels is None else tuple(str(x) for i, x in enumerate(labels) if i != s),
                )
            )
    return out


@dataclass
class Fit:
    """The card model of one variant, kept beside its report.json object for the comparison (never written):
    the modelled entries (catalogue numbers), their coefficients, their centred points and, per bootstrap
    resample, the centred points again (``None`` without intervals)."""

    modelled: list[int]
    keys: list[tuple[str, str]]  # the modelled entries' (kind, name)
    betas: Any  # numpy array (m,)
    points: Any  # numpy array (m,)
    samples: Any  # numpy array (bootstrap, m) of centred points, or None
    pairs: int  # (game, seat) pairs counted


def points_of(betas: Any, centre: Any, seats: int) -> Any:
    """Coefficients as changes of the owner's win probability, in percentage points: the change from a fair
    seat's ``1/seats`` that the coefficient, less its kind's centre, makes on the logit scale.

    >>> import numpy as np
    >>> [round(float(x), 2) for x in points_of(np.array([0.0, 0.5, -0.5]), np.zeros(3), 2)]
    [0.0, 12.25, -12.25]
    """
    import numpy as np

    base = math.log((1 / seats) / (1 - 1 / seats)) if seats > 1 else 0.0
    return 100.0 * (1.0 / (1.0 + np.exp(-(base + betas - centre))) - 1.0 / max(seats, 1))


def _centres(betas: Any, kinds: Sequence[str], weights: Any) -> Any:
    """Each coefficient's kind centre: the use-weighted mean coefficient of its kind (so that 0 is the average
    card, the average ability...); ``betas`` may be (m,) or (resamples, m)."""
    import numpy as np

    centre = np.zeros_like(betas)
    for kind in set(kinds):
        cols = [c for c, k in enumerate(kinds) if k == kind]
        w = weights[cols] / weights[cols].sum()
        centre[..., cols] = (betas[..., cols] * w).sum(axis=-1, keepdims=True)
    return centre


def summarise_variant(
    label: str,
    options: dict[str, Any],
    catalogue: Sequence[Declared],
    ends: Sequence[Declared],
    seats: int,
    rows: Sequence[dict[str, Any]],
    *,
    seed: int = 0,
    bootstrap: int = BOOTSTRAP,
    tick: Callable[[], None] | None = None,
    agents: Sequence[str] = (),
    setup_kind: str | None = None,
) -> dict[str, Any]:
    """One VARIANT of report.json from the games' summaries (:func:`play_one`'s dicts, in index order). Its card
    model is kept under the key ``"_fit"`` (a :class:`Fit`) for :func:`compare`; :func:`report` removes it.
    ``tick`` is called once per model fit (the progress of the statistics). ``agents`` (the specs before
    rotation) and ``setup_kind`` name the matchups' labels: the setups, else the agents where they differ."""
    errors = [r for r in rows if r["error"] is not None]
    done = [r for r in rows if r["error"] is None]
    out: dict[str, Any] = {
        "label": label,
        "options": {k: v if isinstance(v, (str, int, float, bool)) else str(v) for k, v in options.items()},
        "games": len(rows),
        "errors": len(errors),
        "error_examples": [f"game {r['index']} (seed {r['seed']}): {r['error']}" for r in errors[:5]],
    }
    out["seats"] = []
    for s in range(seats):
        results = Counter(result_for(r["returns"], s) for r in done)
        total = sum(share(r["returns"], s) for r in done)
        out["seats"].append(
            {
                "seat": s,
                "wins": results["win"],
                "draws": results["draw"],
                "losses": results["loss"],
                "score": _mean_or_none(total, len(done)),
                "ci": _ci(total, len(done)),
            }
        )
    firsts = [r for r in done if r["first"] is not None]
    if firsts:
        total = sum(share(r["returns"], r["first"]) for r in firsts)
        out["first_player"] = {"games": len(firsts), "score": _r(total / len(firsts)), "ci": _ci(total, len(firsts))}
    else:
        out["first_player"] = None
    out["length"] = {
        "turns": distribution([r["turns"] for r in done]),
        "decisions": distribution([r["decisions"] for r in done]),
    }
    end_counts = Counter(r["end"] for r in done)
    declared_ends = list(ends) + [
        Declared("end", name, f"{name} (not declared by end_conditions())")
        for name in sorted(set(end_counts) - {d.name for d in ends})
    ]
    out["ends"] = [
        {
            "name": d.name,
            "label": d.label,
            "count": end_counts.get(d.name, 0),
            "share": _r(end_counts.get(d.name, 0) / len(done)) if done else None,
        }
        for d in declared_ends
    ]
    pairs = _pairs(done, seats)
    out["setups"] = setup_table(pairs, seats)
    by_agent = (lambda row: seat_agents(agents, row["index"])) if len(set(agents)) > 1 else None
    out["matchups"] = matchups(done, kind=setup_kind or "deck", seat_labels=by_agent)
    out["drama"], drama_note = drama(done, distribution)
    ownerless = [(frozenset(r["shared"]), {int(e): int(c) for e, c in r["shared_used"]}) for r in done]
    cards, strength_method, fit = card_statistics(
        catalogue, pairs, ownerless, len(done), seats, seed=seed, bootstrap=bootstrap, tick=tick
    )
    out["cards"] = cards
    out["strength_method"] = strength_method
    out["strength_centre"] = _strength_centres(cards)
    out["out_of_line"] = out_of_line(cards)
    any_counts: Counter[int] = Counter(e for r in done for e in r["any"])
    used_games: Counter[int] = Counter(e for r in done for e in _used_entries(r))
    coverage: list[dict[str, Any]] = [
        {"kind": d.kind, "name": d.name, "label": d.label, "games": used_games.get(i, 0), "games_any": any_counts[i]}
        for i, d in enumerate(catalogue)
    ]
    coverage.sort(key=lambda c: (c["games"], -c["games_any"] if c["games"] == 0 else 0, c["kind"], c["name"]))
    out["coverage"] = coverage
    notes = []
    if not catalogue:
        notes.append(
            "This game declares no card involvement yet (involvement_catalogue() is empty): the report has its "
            "seats, lengths and ends, but no per-card statistics and no coverage."
        )
    elif done and all(c["rank"] is None for c in cards):
        notes.append(
            "No card was used by a seat in any finished game, so there are no strengths"
            + (
                f" (every game ended as '{next(iter(end_counts))}': the agents may have played the same game "
                "every time; try other agents, e.g. --agents random)"
                if len(end_counts) == 1
                else ""
            )
            + "."
        )
    undeclared = sorted({u for r in done for u in r["undeclared"]})
    if undeclared:
        notes.append(
            "The game reported involvements it does not declare (a bug in its hooks; they are left out): "
            + ", ".join(undeclared[:10])
        )
    if drama_note:
        notes.append(drama_note)
    out["notes"] = notes
    out["_fit"] = fit
    return out


def setup_table(pairs: Sequence[_Pair], seats: int) -> list[dict[str, Any]]:
    """What each seat brought: per setup label, the pairs it was played in (per seat and in all) and how it
    fared (its share of the results, Wilson interval), most played first; empty when the games vary nothing."""
    by_label: dict[str, list[_Pair]] = {}
    for p in pairs:
        if p.setup is not None:
            by_label.setdefault(p.setup, []).append(p)
    table: list[dict[str, Any]] = []
    for name, group in by_label.items():
        total = sum(p.score for p in group)
        per_seat = Counter(p.seat for p in group)
        table.append(
            {
                "label": name,
                "seats": [per_seat.get(s, 0) for s in range(seats)],
                "pairs": len(group),
                "score": _mean_or_none(total, len(group)),
                "ci": _ci(total, len(group)),
            }
        )
    table.sort(key=lambda t: (-t["pairs"], t["label"]))
    return table


def _strength_centres(cards: Sequence[dict[str, Any]]) -> dict[str, float]:
    """The centre removed from each kind's coefficients (see :func:`_centres`), for the page's method text."""
    out: dict[str, float] = {}
    for c in cards:
        if c.get("centre") is not None:
            out[c["kind"]] = c.pop("centre")
        else:
            c.pop("centre", None)
    return out


def _used_entries(row: dict[str, Any]) -> set[int]:
    """The catalogue entries used in a game, by any seat or by none."""
    return {code // 4 for seen in [*row["seen"], row["shared"]] for code in seen if code % 4 == USED}


def verdict(card: dict[str, Any]) -> str:
    """A card's verdict in a designer's words, from its counts and strength; ``""`` when there is nothing to
    say (an ordinary card)."""
    used = card["games_used"]
    if used == 0:
        return "never used" + (
            f": it was in a deck, hand or offer {card['games_available'] or card['games_included']} times"
            if card["games_available"] or card["games_included"]
            else ""
        )
    if card.get("dominant"):
        return (
            f"dominant: played in {card['pick_rate']:.0%} of the seats' games, so the game may be collapsing onto "
            "it; its strength cannot be read from games without it: compare with a baseline (--baseline-option) or "
            "restricted play"
        )
    if card.get("few_uses"):
        return f"too few games to judge (used in {used})"
    points, ci = card.get("points"), card.get("points_ci")
    if points is None or ci is None:
        return ""
    if ci[0] > 0 and points >= OUT_OF_LINE_POINTS:
        return (
            f"out of line, strong: its owner's win rate is {points:+.1f} points higher when it is played "
            f"(95% interval {ci[0]:+.1f} to {ci[1]:+.1f}) than with an average card"
        )
    if ci[1] < 0 and points <= -OUT_OF_LINE_POINTS:
        return (
            f"out of line, weak: its owner's win rate is {points:+.1f} points lower when it is played "
            f"(95% interval {ci[0]:+.1f} to {ci[1]:+.1f}) than with an average card"
        )
    return ""


def out_of_line(cards: Sequence[dict[str, Any]], limit: int = 10) -> list[dict[str, Any]]:
    """The cards the page names at the top: strong or weak beyond doubt (interval clear of 0 by at least
    :data:`OUT_OF_LINE_POINTS`) and dominant ones, the most certain first (the interval's end nearest 0 farthest
    from it)."""
    found = []
    for c in cards:
        if c["verdict"].startswith(("out of line", "dominant")):
            ci = c.get("points_ci")
            margin = 1e9 if c.get("dominant") else (min(abs(ci[0]), abs(ci[1])) if ci else 0.0)
            found.append((margin, c))
    found.sort(key=lambda t: (-t[0], t[1]["kind"], t[1]["name"]))
    return [{"kind": c["kind"], "name": c["name"], "label": c["label"], "why": c["verdict"]} for _, c in found[:limit]]


def card_statistics(
    catalogue: Sequence[Declared],
    pairs: Sequence[_Pair],
    ownerless: Sequence[tuple[frozenset[int], dict[int, int]]],
    games: int,
    seats: int,
    *,
    seed: int = 0,
    bootstrap: int = BOOTSTRAP,
    tick: Callable[[], None] | None = None,
) -> tuple[list[dict[str, Any]], str, Fit | None]:
    """Every catalogue entry's CARD object, strongest first, the strength's method text and the model. ``ownerless``
    holds, per finished game, the codes and use counts of the involvements that belong to no seat: they count once
    per game in the ``games_*`` counts and ``used_count``, and have no owner's score or strength."""
    import numpy as np

    cards: list[dict[str, Any]] = []
    by_code: dict[int, list[int]] = {}  # code -> the pairs (their positions) that saw it, in order
    for k, p in enumerate(pairs):
        for c in p.stages:
            by_code.setdefault(c, []).append(k)
    shared_counts = Counter(c for stages, _ in ownerless for c in stages)
    shared_available = Counter(
        e for stages, _ in ownerless for e in {c // 4 for c in stages if c % 4 in (AVAILABLE, USED)}
    )
    shared_used: Counter[int] = Counter()
    for _, counts in ownerless:
        shared_used.update(counts)
    for i, d in enumerate(catalogue):
        codes = [i * 4 + k for k in range(4)]
        inc = [pairs[k] for k in by_code.get(codes[INCLUDED], [])]
        used_at = by_code.get(codes[USED], [])
        use = [pairs[k] for k in used_at]
        used_set = set(used_at)
        avail_only = [pairs[k] for k in by_code.get(codes[AVAILABLE], []) if k not in used_set]
        available = len(avail_only) + len(use)
        affected = len(by_code.get(codes[AFFECTED], []))
        included_set = set(by_code.get(codes[INCLUDED], []))
        not_inc = [p for k, p in enumerate(pairs) if k not in included_set] if inc else []
        alone = [shared_counts[c] for c in codes]
        alone_available = shared_available[i]
        owned = any(codes[k] in by_code for k in range(4))
        entry: dict[str, Any] = {"kind": d.kind, "name": d.name, "label": d.label}
        entry.update(
            games_included=len(inc) + alone[INCLUDED],
            games_available=available + alone_available,
            games_used=len(use) + alone[USED],
            games_affected=affected + alone[AFFECTED],
            used_count=sum(p.used.get(i, 0) for p in use) + shared_used[i],
        )
        for key, group in (
            ("used", use),
            ("available_not_used", avail_only),
            ("included", inc),
            ("not_included", not_inc),
        ):
            total = sum(p.score for p in group)
            entry[f"score_{key}"] = _mean_or_none(total, len(group))
            entry[f"ci_{key}"] = _ci(total, len(group))
        counted = len(pairs) if owned else games  # a rule's use counts once per game
        entry["pick_of"] = counted
        entry["pick_rate"] = _mean_or_none(entry["games_used"], counted)
        entry["pick_rate_ci"] = _ci(entry["games_used"], counted)
        entry["dominant"] = False  # decided below, against the other entries of its kind
        entry["few_uses"] = 0 < entry["games_used"] < MIN_USES
        entry.update(strength=None, strength_ci=None, points=None, points_ci=None, rank=None)
        cards.append(entry)
    _mark_dominant(cards)
    modelled = [i for i in range(len(cards)) if by_code.get(i * 4 + USED)]  # used by a seat at least once
    fit: Fit | None = None
    if not catalogue:
        method = "No strengths: the game declares no card involvement."
    elif not modelled or games < 2:
        method = "No strengths: no card was used in a finished game."
    else:
        betas, samples = strengths(pairs, modelled, games, seats, seed=seed, bootstrap=bootstrap, tick=tick)
        kinds = [cards[i]["kind"] for i in modelled]
        weights = np.array([max(1, cards[i]["games_used"]) for i in modelled], dtype=float)
        centre = _centres(betas, kinds, weights)
        points = points_of(betas, centre, seats)
        sample_points = None
        if samples is not None:
            sample_points = points_of(samples, _centres(samples, kinds, weights), seats)
            lo = np.percentile(sample_points, 2.5, axis=0)
            hi = np.percentile(sample_points, 97.5, axis=0)
            b_lo = np.percentile(samples, 2.5, axis=0)
            b_hi = np.percentile(samples, 97.5, axis=0)
        fit = Fit(
            list(modelled),
            [(cards[i]["kind"], cards[i]["name"]) for i in modelled],
            betas,
            points,
            sample_points,
            len(pairs),
        )
        for c, i in enumerate(modelled):
            cards[i]["strength"] = _r(betas[c])
            cards[i]["points"] = _r(points[c], 2)
            cards[i]["centre"] = _r(centre[c])
            if samples is not None:
                cards[i]["strength_ci"] = [_r(b_lo[c]), _r(b_hi[c])]
                cards[i]["points_ci"] = [_r(lo[c], 2), _r(hi[c], 2)]
        method = (
            f"L2-regularised logistic regression of the owner's result (its share: win 1, draw 1/2, loss 0) on the "
            f"use of each of the {len(modelled)} cards used in {games} games, by the owner and by the other seats, "
            "with seat and first-player terms"
            + (
                " and terms for what each seat brought (its deck, build or school) and what the others brought"
                if any(p.setup for p in pairs)
                else ""
            )
            + f" (penalty {RIDGE_LAMBDA}·β²/2 per card term, fitted by Newton's method); points: the coefficient "
            "less its kind's use-weighted mean, as a change of a fair seat's win probability; intervals: "
            f"{bootstrap} bootstrap resamples of the games"
            + ("" if bootstrap >= 20 else " (too few for intervals: none given)")
            + "."
        )
    for entry in cards:
        entry["verdict"] = verdict(entry)
    ranked = sorted(
        (i for i in range(len(cards)) if cards[i]["strength"] is not None),
        key=lambda i: (-cards[i]["points"], cards[i]["kind"], cards[i]["name"]),
    )
    for rank, i in enumerate(ranked, start=1):
        cards[i]["rank"] = rank
    order = ranked + sorted(
        (i for i in range(len(cards)) if cards[i]["rank"] is None),
        key=lambda i: (-cards[i]["games_included"] - cards[i]["games_available"], cards[i]["kind"], cards[i]["name"]),
    )
    return [cards[i] for i in order], method, fit


def _mark_dominant(cards: list[dict[str, Any]]) -> None:
    """Flag the entries the game may be collapsing onto: used in at least :data:`DOMINANT_SHARE` of the pairs,
    and by at least :data:`DOMINANT_LEAD` more of them than the median entry of its kind that was used at all (so
    that where every card is played whenever drawn, as in a fixed deck, none stands out). Rules are never
    dominant: they apply, nobody chooses them."""
    by_kind: dict[str, list[float]] = {}
    for c in cards:
        if c["pick_rate"]:
            by_kind.setdefault(c["kind"], []).append(c["pick_rate"])
    for c in cards:
        rate = c["pick_rate"]
        if c["kind"] == "rule" or not rate or c["games_used"] < MIN_USES:
            continue
        c["dominant"] = rate >= DOMINANT_SHARE and rate - statistics.median(by_kind[c["kind"]]) >= DOMINANT_LEAD


def strengths(
    pairs: Sequence[_Pair],
    modelled: Sequence[int],
    games: int,
    seats: int,
    *,
    seed: int = 0,
    bootstrap: int = BOOTSTRAP,
    tick: Callable[[], None] | None = None,
) -> tuple[Any, Any]:
    """Each modelled entry's coefficient for its owner's use, and the coefficients of every bootstrap resample
    (an array ``(bootstrap, m)``; ``None`` with fewer than 20 resamples). See ``METHOD["strength"]``. The fits run
    on one BLAS thread: on a busy machine OpenBLAS's spinning threads made these small fits twenty times slower."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):
        return _strengths(pairs, modelled, games, seats, seed=seed, bootstrap=bootstrap, tick=tick)


def _design(pairs: Sequence[_Pair], modelled: Sequence[int], games: int, seats: int) -> tuple[Any, Any, Any]:
    """The model's design matrix (the intercept, seats, first player, setups, then the cards' own use and the
    other seats' use), its response and each column's penalty: see ``METHOD["strength"]``."""
    import numpy as np

    m = len(modelled)
    column = {e: c for c, e in enumerate(modelled)}
    # per pair: own use (m columns), then the share of the other seats that used it (m columns)
    own = np.zeros((len(pairs), m))
    for row, p in enumerate(pairs):
        for code in p.stages:
            if code % 4 == USED and (c := column.get(code // 4)) is not None:
                own[row, c] = 1.0
    by_game = own.reshape(games, seats, m) if len(pairs) == games * seats else None
    assert by_game is not None, "pairs must hold every seat of every finished game, in order"
    others = (by_game.sum(axis=1, keepdims=True) - by_game) / max(1, seats - 1)
    other = others.reshape(games * seats, m)
    seat_cols = np.zeros((len(pairs), seats - 1))
    for row, p in enumerate(pairs):
        if p.seat:
            seat_cols[row, p.seat - 1] = 1.0
    first = np.array([[1.0 if p.first else 0.0] for p in pairs])
    if len({p.seat for p in pairs if p.first}) <= 1:
        # the same seat always acted first (or none did): the first-player term would repeat a seat's, and two
        # nearly unpenalised collinear terms make the fit crawl; the seat terms carry it alone
        first = first[:, :0]
    labels = sorted({p.setup for p in pairs if p.setup is not None})
    setup_cols = np.zeros((len(pairs), 2 * len(labels)))
    if len(labels) > 1:
        where = {name: k for k, name in enumerate(labels)}
        for row, p in enumerate(pairs):
            if p.setup is not None:
                setup_cols[row, where[p.setup]] = 1.0
                for name in p.others:
                    setup_cols[row, len(labels) + where[name]] += 1.0 / len(p.others)
    else:
        setup_cols = setup_cols[:, :0]
    x = np.hstack([np.ones((len(pairs), 1)), seat_cols, first, setup_cols, own, other])
    y = np.array([p.score for p in pairs])
    penalty = np.concatenate(
        [
            [0.0],
            np.full(seat_cols.shape[1] + first.shape[1], RIDGE_LAMBDA_SEAT),
            np.full(setup_cols.shape[1], RIDGE_LAMBDA_SETUP),
            np.full(2 * m, RIDGE_LAMBDA),
        ]
    )
    return x, y, penalty


def _strengths(
    pairs: Sequence[_Pair],
    modelled: Sequence[int],
    games: int,
    seats: int,
    *,
    seed: int,
    bootstrap: int,
    tick: Callable[[], None] | None,
) -> tuple[Any, Any]:
    import numpy as np

    m = len(modelled)
    x, y, penalty = _design(pairs, modelled, games, seats)
    start = x.shape[1] - 2 * m  # the cards' own-use columns come after the intercept, seats and setups
    params = _ridge_logit(x, y, penalty, None)
    if tick is not None:
        tick()
    betas = params[start : start + m]
    if bootstrap < 20:
        return betas, None
    rng = np.random.default_rng(derive_seed(seed, 0xB007))
    rows_of = np.arange(games * seats).reshape(games, seats)
    samples = np.empty((bootstrap, m))
    for b in range(bootstrap):
        picked = rows_of[rng.integers(0, games, size=games)].ravel()
        samples[b] = _ridge_logit(x[picked], y[picked], penalty, params)[start : start + m]
        if tick is not None:
            tick()
    return betas, samples


def _ridge_logit(x: Any, y: Any, penalty: Any, start: Any) -> Any:
    """The penalised fit: the coefficients minimising ``-loglike + Σ penalty·β²/2`` of a logistic model of the
    shares ``y`` (binomial log-likelihood, fractional responses allowed), by Newton's method (iteratively
    reweighted least squares with the exact Hessian ``XᵀWX + diag(penalty)``; the step halved while it does not
    lower the objective), warm-started from ``start`` in the bootstrap. The problem is small and strictly convex,
    so a handful of steps converge (a quasi-Newton solver needed about fifty, at 1 ms each)."""
    import numpy as np
    from scipy.special import expit, log_expit

    def objective(beta: Any) -> float:
        z = x @ beta
        return -float(np.sum(y * log_expit(z) + (1.0 - y) * log_expit(-z))) + 0.5 * float(np.sum(penalty * beta**2))

    beta = np.zeros(x.shape[1]) if start is None else np.array(start, dtype=float)
    ridge = np.diag(penalty) + 1e-9 * np.eye(x.shape[1])  # the intercept's zero penalty stays invertible
    current = objective(beta)
    for _ in range(NEWTON_STEPS):
        p = expit(x @ beta)
        grad = x.T @ (p - y) + penalty * beta
        hessian = (x * (p * (1.0 - p))[:, None]).T @ x + ridge
        step = np.linalg.solve(hessian, grad)
        size = 1.0
        while True:
            trial = beta - size * step
            value = objective(trial)
            if value <= current + 1e-12 or size < 1e-6:
                break
            size /= 2
        beta, done = trial, current - value < 1e-10 * max(1.0, abs(current))
        current = value
        if done or float(np.max(np.abs(size * step))) < 1e-9:
            break
    return beta


# -- the comparison of two variants ------------------------------------------------------------------------------
def two_proportions(a: float | None, n_a: int, b: float | None, n_b: int) -> float | None:
    """The two-sided p-value of a pooled two-proportion z-test (scipy's normal), ``None`` without data.

    >>> round(two_proportions(0.6, 1000, 0.5, 1000), 5), two_proportions(0.5, 10, 0.5, 10)
    (1e-05, 1.0)
    """
    z = _z_two_proportions(a, n_a, b, n_b)
    return None if z is None else _p_of_z(z)


def _z_two_proportions(a: float | None, n_a: int, b: float | None, n_b: int) -> float | None:
    if a is None or b is None or n_a <= 0 or n_b <= 0:
        return None
    pooled = (a * n_a + b * n_b) / (n_a + n_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    if se == 0:
        return 0.0 if a == b else math.inf
    return (a - b) / se


def _p_of_z(z: float) -> float:
    from scipy import stats

    return float(2 * stats.norm.sf(abs(z)))


def benjamini_hochberg(ps: Sequence[float | None]) -> list[float | None]:
    """Benjamini-Hochberg adjusted p-values (q-values), ``None`` kept where there is no test (statsmodels'
    ``multipletests``, method ``fdr_bh``).

    >>> benjamini_hochberg([0.01, None, 0.04, 0.03])
    [0.03, None, 0.04, 0.04]
    """
    from statsmodels.stats.multitest import multipletests

    tested = [k for k, p in enumerate(ps) if p is not None]
    out: list[float | None] = [None] * len(ps)
    if tested:
        q = multipletests([ps[k] for k in tested], method="fdr_bh")[1]
        for k, value in zip(tested, q):
            out[k] = _r(float(value), 6)
    return out


def _line(a: float | None, b: float | None, p: float | None) -> dict[str, Any]:
    return {
        "a": a,
        "b": b,
        "change": None if a is None or b is None else _r(a - b),
        "p": None if p is None else _r(p, 6),
        "significant": None if p is None else p < SIGNIFICANCE,
    }


def _entry_changes(
    data_a: dict[tuple[str, str], str], data_b: dict[tuple[str, str], str], labels: dict[tuple[str, str], str]
) -> dict[tuple[str, str], dict[str, Any]]:
    """Every catalogue entry whose data differ between the variants (or that only one has)."""
    out = {}
    for key in sorted(set(data_a) | set(data_b)):
        a, b = data_a.get(key), data_b.get(key)
        if a == b:
            continue
        change = "added" if b is None else "removed" if a is None else "data"
        out[key] = {"kind": key[0], "name": key[1], "label": labels.get(key, key[1]), "change": change, "a": a, "b": b}
    return out


def compare(
    a: dict[str, Any],
    b: dict[str, Any],
    turns_a: Sequence[int],
    turns_b: Sequence[int],
    data_a: dict[tuple[str, str], str] | None = None,
    data_b: dict[tuple[str, str], str] | None = None,
    paired: dict[tuple[str, str], dict[str, float]] | None = None,
) -> dict[str, Any]:
    """The COMPARISON block of two VARIANTs (``a`` as given, ``b`` the baseline), each one's turns and each
    one's entry data (:meth:`Game.entry_data`, for "what changed"). An entry with data of its own (a card) is
    compared by the paired model of the games' changes (``paired``, :func:`paired_changes`); the others by their
    points (the difference of each variant's bootstrap resamples, which share the games' seeds) and their pick
    rates (a
    two-proportion test); a card's evidence is the smaller of the two p-values, doubled (Bonferroni over its two
    tests), adjusted over all cards by Benjamini-Hochberg; the strongest evidence comes first, cards with too few
    uses in both variants last."""
    import numpy as np
    from scipy import stats

    done_a = a["games"] - a["errors"]
    done_b = b["games"] - b["errors"]
    seats = []
    for sa, sb in zip(a["seats"], b["seats"]):
        line = _line(sa["score"], sb["score"], two_proportions(sa["score"], done_a, sb["score"], done_b))
        seats.append({"seat": sa["seat"], **line})
    first = None
    fa, fb = a["first_player"], b["first_player"]
    if fa is not None and fb is not None:
        first = _line(fa["score"], fb["score"], two_proportions(fa["score"], fa["games"], fb["score"], fb["games"]))
    p_turns = None
    if len(turns_a) >= 2 and len(turns_b) >= 2:
        if statistics.pvariance(turns_a) == 0 and statistics.pvariance(turns_b) == 0:
            p_turns = 1.0 if turns_a[0] == turns_b[0] else 0.0
        else:
            p_turns = float(stats.ttest_ind(turns_a, turns_b, equal_var=False).pvalue)
    length = _line(a["length"]["turns"]["mean"], b["length"]["turns"]["mean"], p_turns)
    cards_a = {(c["kind"], c["name"]): c for c in a["cards"]}
    cards_b = {(c["kind"], c["name"]): c for c in b["cards"]}
    labels = {k: c["label"] for k, c in {**cards_b, **cards_a}.items()}
    changes = _entry_changes(data_a or {}, data_b or {}, labels)
    fit_a: Fit | None = a.get("_fit")
    fit_b: Fit | None = b.get("_fit")
    col_a = {} if fit_a is None else {k: c for c, k in enumerate(fit_a.keys)}
    col_b = {} if fit_b is None else {k: c for c, k in enumerate(fit_b.keys)}
    cards = []
    zs = []
    for key in list(cards_a) + [k for k in cards_b if k not in cards_a]:
        ca, cb = cards_a.get(key), cards_b.get(key)
        pa = ca["points"] if ca else None
        pb = cb["points"] if cb else None
        change = None if pa is None or pb is None else _r(pa - pb, 2)
        change_ci = None
        z_points = None
        sa_col = col_a.get(key)
        sb_col = col_b.get(key)
        if (
            change is not None
            and fit_a is not None
            and fit_b is not None
            and fit_a.samples is not None
            and fit_b.samples is not None
            and sa_col is not None
            and sb_col is not None
        ):
            diff = fit_a.samples[:, sa_col] - fit_b.samples[:, sb_col]
            change_ci = [_r(float(np.percentile(diff, 2.5)), 2), _r(float(np.percentile(diff, 97.5)), 2)]
            # the percentile bootstrap test, smoothed by a normal fit to the resampled differences: how far their
            # distribution lies from 0. Not the full fit's change over their spread: under the ridge penalty a
            # rarely used card's change sits at the edge of its own resampled interval (resamples that drop its
            # few decisive games pull it towards 0), which made cards the edit merely moved look surer than it
            sd = float(np.std(diff, ddof=1))
            centre = float(np.mean(diff))
            z_points = centre / sd if sd > 0 else (0.0 if centre == 0 else math.inf)
        estimates = 1
        if paired and key in paired:
            # also measured on the same games (see paired_changes): the strength fits see an edit that touches
            # every game (ToraBato's J), the paired model one that touches few (Dice Battle's Goblin); the
            # stronger evidence is shown, and the p-value pays for the choice of two (Bonferroni)
            found = paired[key]
            if z_points is not None:
                estimates = 2
            if z_points is None or abs(found["z"]) > abs(z_points):
                change = _r(100 * found["change"], 2)
                half = 100 * float(stats.norm.ppf(0.975)) * found["se"]
                change_ci = [_r(change - half, 2), _r(change + half, 2)]
                z_points = found["z"]
        pick_a = ca["pick_rate"] if ca else None
        pick_b = cb["pick_rate"] if cb else None
        # the test compares choice rates (used when it could have been), which the games' length moves less
        choice_a, n_a = _choice(ca)
        choice_b, n_b = _choice(cb)
        z_pick = _z_two_proportions(choice_a, n_a, choice_b, n_b)
        p_points = None if z_points is None else min(1.0, estimates * _p_of_z(z_points))
        p_pick = None if z_pick is None else _p_of_z(z_pick)
        # a card's evidence is its strength's change; its pick rate's change counts where the card is dominant
        # in a variant (its strength cannot be read there), since every pick rate moves with the game's length
        dominant = bool((ca and ca["dominant"]) or (cb and cb["dominant"]))
        evidence = [(p_points, z_points)] + ([(p_pick, z_pick)] if dominant or p_points is None else [])
        tested = [(pv, z) for pv, z in evidence if pv is not None and z is not None]
        p = min(1.0, len(tested) * min(pv for pv, _ in tested)) if tested else None
        zs.append(max((abs(z) for _, z in tested), default=0.0))
        used_a = ca["games_used"] if ca else 0
        used_b = cb["games_used"] if cb else 0
        cards.append(
            {
                "kind": key[0],
                "name": key[1],
                "label": labels[key],
                "points_a": pa,
                "points_b": pb,
                "points_change": change,
                "points_change_ci": change_ci,
                "pick_a": pick_a,
                "pick_b": pick_b,
                "pick_change": None if pick_a is None or pick_b is None else _r(pick_a - pick_b),
                "choice_a": choice_a,
                "choice_b": choice_b,
                "p_points": None if p_points is None else _r(p_points, 6),
                "p_pick": None if p_pick is None else _r(p_pick, 6),
                "p": None if p is None else _r(p, 6),
                "games_used_a": used_a,
                "games_used_b": used_b,
                "few_uses": max(used_a, used_b) < MIN_USES,
                "changed": key in changes,
                "dominant_a": bool(ca and ca["dominant"]),
                "dominant_b": bool(cb and cb["dominant"]),
            }
        )
    # two families: the entries the designer edited are the questions asked before the games ("is my edit out of
    # line?"), corrected among themselves; every other card is a search for what else moved, corrected over all
    for family in ([c for c in cards if c["changed"]], [c for c in cards if not c["changed"]]):
        for card, q in zip(family, benjamini_hochberg([c["p"] for c in family])):
            card["q"] = q
            card["significant"] = None if q is None else q < SIGNIFICANCE
            card["verdict"] = comparison_verdict(card)
    order = sorted(
        range(len(cards)),
        key=lambda k: (cards[k]["few_uses"], cards[k]["p"] is None, cards[k]["p"] or 0.0, -zs[k], cards[k]["name"]),
    )
    cards = [cards[k] for k in order]
    by_key = {(c["kind"], c["name"]): c for c in cards}
    changed = []
    for key, entry in changes.items():
        card = by_key.get(key, {})
        changed.append(
            {
                **entry,
                **{f: card.get(f) for f in ("points_change", "points_change_ci", "pick_change", "p", "q")},
                "dominant": bool(card.get("dominant_a")),
                "verdict": card.get("verdict") or "no games to judge it by",
            }
        )
    rank = {(c["kind"], c["name"]): k for k, c in enumerate(cards)}
    changed.sort(key=lambda c: (rank.get((c["kind"], c["name"]), len(rank)), c["kind"], c["name"]))
    opts_a, opts_b = a["options"], b["options"]
    for name in sorted(set(opts_a) | set(opts_b)):
        if opts_a.get(name) != opts_b.get(name):
            changed.append(
                {
                    "kind": "option",
                    "name": name,
                    "label": f"option {name}",
                    "change": "option",
                    "a": opts_a.get(name),
                    "b": opts_b.get(name),
                    "points_change": None,
                    "points_change_ci": None,
                    "pick_change": None,
                    "p": None,
                    "q": None,
                    "verdict": "the game's option differs (its effect shows in the seats, lengths and cards)",
                }
            )
    return {
        "labels": [a["label"], b["label"]],
        "seats": seats,
        "first_player": first,
        "length_turns_mean": length,
        "changed": changed,
        "cards": cards,
        "method": (
            "Every card's points (its strength as a change of a fair seat's win probability) are compared between "
            "the variants through the difference of their bootstrap resamples, which replay the same games' seeds (a "
            "normal fit to those differences: their mean over their spread). An entry with data of its own in the "
            "card file (a card, whether edited or not) is also measured on the same games: both variants play game i "
            "with the same seed, decks and agents, so a game the edit did not touch ends the same in both. The "
            "difference of each seat's score between the variants is regressed on whether each such entry was within "
            "the seat's reach (drawn or offered where the game deals cards, else in its deck or build; or used), less "
            "the other seats' reach (least squares, standard errors robust to a game's seats being one observation; "
            "an edited entry with the edited entries alone, since only an edit can make a game differ and the cards "
            "always within reach beside it would share its effect). The first estimate sees an edit that touches "
            "every game, the second one that touches few; the stronger is shown and its p-value doubled (Bonferroni). "
            "Where a card is dominant in either variant (played in nearly every game, so that its strength cannot be "
            "read from games without it) or has no strength (a rule), its choice rate (the share of the seats' games "
            "in which it could have been used that used it) is compared too, by a two-proportion z-test, and the "
            "card's p-value is the smaller of the two, doubled (pick rates alone are weak evidence: they all move "
            "with the games' length). The q-value adjusts the p-value for the number of cards compared "
            "(Benjamini-Hochberg false discovery rate), in two families: the entries whose data differ between the "
            "files (the questions the edit asked) among themselves, every other card among all the others. "
            "'Significant' means q < 0.05. Cards are listed by evidence, the strongest first; cards used in fewer "
            "than "
            f"{MIN_USES} seats' games in both variants are listed apart."
        ),
    }


def paired_changes(
    rows_a: Sequence[dict[str, Any]],
    rows_b: Sequence[dict[str, Any]],
    catalogue_a: Sequence[Declared],
    catalogue_b: Sequence[Declared],
    keys: Sequence[tuple[str, str]],
    seats: int,
) -> dict[tuple[str, str], dict[str, float]]:
    """The change each entry of ``keys`` (the entries a card file holds data for) brought to its owner's results,
    measured on the same games: both variants play game ``i`` with the same seed, setup and agents (common random
    numbers), so a game in which no edited entry mattered ends the same in both, and the difference of each
    (game, seat)'s score, A minus B, is the edit's effect on that seat plus the noise of the games it changed.
    That difference is regressed on whether each entry was within the seat's reach (in either variant; less the
    share of the other seats it was within reach of: the edit of a card helps its owner and hurts the others),
    least squares with a token ridge (:data:`PAIRED_RIDGE`), standard errors robust to the two seats of a game
    being one observation (the sandwich over games). Returns, per entry within reach in some game, ``change`` (a
    share: 0.1 is 10 points), ``se``, ``z``, ``p`` (two-sided, normal).

    *Within reach* is available (drawn, offered) or used, where the game reports the entry available at all
    (Dice Battle's cards are drawn from a 30-card deck: a deck card never drawn changed nothing); else in the
    deck or build, or used (Laplaplace's build is in play as a whole). Not "used": the edit itself changes which
    cards are used (a card that boosts the edited one is played more often beside it, and would share its
    credit), while what a seat was dealt or drew is the same in both variants until the games part.

    Why not the difference of the two variants' strengths: each is fitted on its own games' outcomes, whose noise
    (a card's strength moves ±15 points between two runs of the same file) swamps an edit's effect, while the
    paired difference is zero wherever the edit changed nothing. An entry that did not change gets a change near 0
    unless its results moved with the edit (a card that answers the edited one)."""
    import numpy as np
    from scipy import stats

    num_a = {(d.kind, d.name): i for i, d in enumerate(catalogue_a)}
    num_b = {(d.kind, d.name): i for i, d in enumerate(catalogue_b)}
    keys = [k for k in keys if k in num_a and k in num_b]
    games = [(ra, rb) for ra, rb in zip(rows_a, rows_b) if ra["error"] is None and rb["error"] is None]
    if not keys or len(games) < 2:
        return {}
    offered_a = {code // 4 for ra, _ in games for seen in ra["seen"] for code in seen if code % 4 == AVAILABLE}
    offered_b = {code // 4 for _, rb in games for seen in rb["seen"] for code in seen if code % 4 == AVAILABLE}
    code_a: dict[int, int] = {}
    code_b: dict[int, int] = {}
    for column, key in enumerate(keys):
        offered = num_a[key] in offered_a or num_b[key] in offered_b  # the game deals it: within reach once drawn
        stages = (AVAILABLE, USED) if offered else (INCLUDED, USED)
        code_a.update((num_a[key] * 4 + stage, column) for stage in stages)
        code_b.update((num_b[key] * 4 + stage, column) for stage in stages)
    x = np.zeros((len(games) * seats, len(keys)))
    y = np.zeros(len(games) * seats)
    for g, (ra, rb) in enumerate(games):
        use = np.zeros((seats, len(keys)))
        for s in range(seats):
            for row, codes in ((ra, code_a), (rb, code_b)):
                for code in row["seen"][s]:
                    if (at := codes.get(code)) is not None:
                        use[s, at] = 1.0
            y[g * seats + s] = share(ra["returns"], s) - share(rb["returns"], s)
        x[g * seats : (g + 1) * seats] = use - (use.sum(axis=0, keepdims=True) - use) / max(1, seats - 1)
    kept = np.flatnonzero(np.abs(x).sum(axis=0) > 0)
    if not len(kept):
        return {}
    x = x[:, kept]
    inverse = np.linalg.inv(x.T @ x + PAIRED_RIDGE * np.eye(len(kept)))
    beta = inverse @ (x.T @ y)
    scores = (x * (y - x @ beta)[:, None]).reshape(len(games), seats, len(kept)).sum(axis=1)  # per game
    se = np.sqrt(np.diag(inverse @ (scores.T @ scores) @ inverse))
    out = {}
    for column, entry in enumerate(kept):
        z = float(beta[column] / se[column]) if se[column] > 0 else 0.0
        out[keys[int(entry)]] = {
            "change": float(beta[column]),
            "se": float(se[column]),
            "z": z,
            "p": float(2 * stats.norm.sf(abs(z))),
        }
    return out


def _choice(card: dict[str, Any] | None) -> tuple[float | None, int]:
    """A card's choice rate (the share of the pairs in which it was available that used it) and its count."""
    if card is None or not card["games_available"]:
        return None, 0
    return _r(card["games_used"] / card["games_available"]), card["games_available"]


def comparison_verdict(card: dict[str, Any]) -> str:
    """A compared card's verdict in words."""
    if card["few_uses"]:
        return f"too few games to judge (used in {card['games_used_a']} and {card['games_used_b']})"
    parts = []
    if card["points_change"] is not None:
        ci = card["points_change_ci"]
        parts.append(
            f"its owner's win rate when it is played moved {card['points_change']:+.1f} points"
            + (f" (95% interval {ci[0]:+.1f} to {ci[1]:+.1f})" if ci else "")
        )
    if card["pick_change"] is not None and card["pick_a"] is not None and card["pick_b"] is not None:
        parts.append(f"played in {card['pick_a']:.0%} of the seats' games (was {card['pick_b']:.0%})")
    text = "; ".join(parts)
    if card["significant"]:
        if not card["changed"]:  # its own data are the same: the edit of another entry moved it
            return "moved by the change (its own data did not change): " + text
        if card["dominant_a"] and not card["dominant_b"]:
            return (
                f"out of line, dominant: played in {card['pick_a']:.0%} of the seats' games (was "
                f"{card['pick_b']:.0%}): the game collapses onto it (its win rate when played cannot be read where "
                "every seat plays it)"
            )
        return "out of line: " + text
    return ("no clear change: " + text) if text else ""


# -- the whole report --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Plan:
    """A checked report: the game, each variant's options, the agents per seat (before rotation)."""

    game_id: str
    game_name: str
    options: dict[str, Any]
    baseline: dict[str, Any] | None
    agents: tuple[str, ...]
    seed: int
    games: int
    setups: bool = False  # each game's decks/builds/schools come from Game.report_setup
    setup_kind: str | None = None
    setup_note: str = ""
    sweep: Sweep | None = None  # --sweep: one number of one card played at several values (arena/sweep.py)


def plan(
    game_id: str,
    *,
    n: int = 1000,
    seed: int = 0,
    agents: Sequence[str] | None = None,
    options: dict[str, Any] | None = None,
    baseline_options: dict[str, Any] | None = None,
    setups: bool = True,
    sweep: str | None = None,
    sweep_outcome: str | None = None,
    sweep_dir: Path | None = None,
) -> Plan:
    """Check the game, options, baseline options, agents and sweep (raises :class:`OptionError`) before any game.
    ``setups``: vary each game's decks, builds or schools by :meth:`Game.report_setup` (unless the options
    already name what a setup would set: the designer's choice is kept, and the plan says so). A ``sweep``
    (:func:`~cardarena.arena.sweep.plan_sweep`) writes its card files into ``sweep_dir`` (a new temporary folder
    when not given)."""
    if n < 1:
        raise OptionError(f"-n must be at least 1, got {n}")
    options = dict(options or {})
    game = load(game_id, **options)
    baseline = None
    if baseline_options:
        baseline = {**options, **baseline_options}
        other = load(game_id, **baseline)
        if other.num_players != game.num_players:
            raise OptionError(
                f"the baseline options must not change the number of seats ({game.num_players} -> {other.num_players})"
            )
    specs = list(agents or [DEFAULT_AGENT])
    if len(specs) == 1:
        specs = specs * game.num_players
    if len(specs) != game.num_players:
        raise OptionError(f"{game_id} with these options has {game.num_players} seats; got {len(specs)} agents")
    for spec in specs:
        make_agent(spec, 0)  # an unknown agent or parameter fails here, naming the valid ones
    # a card, deck or build file that loads but cannot be dealt fails here too, not in every game of the run
    game.new_initial_state(derive_seed(seed, 0))
    if baseline is not None:
        other.new_initial_state(derive_seed(seed, 0))
    kind, note = None, ""
    first = game.report_setup(derive_seed(seed, 0, SETUP_STREAM)) if setups else None
    if first is not None:
        named = sorted(set(dict(first.options)) & (set(options) | set(baseline_options or {})))
        if named:
            setups, note = False, f"The decks, builds or schools are the options given ({', '.join(named)})."
        else:
            kind = first.kind
            load(game_id, **{**options, **dict(first.options)})  # a game's own setup must load: fail early if not
            note = (
                f"Each game's {first.kind}s are drawn anew (the same in every variant): the players bring varied "
                f"{first.kind}s, so that no card's result is tied to one {first.kind} or one seat; the card model "
                f"controls for each seat's {first.kind}."
            )
    else:
        setups = False
    swept = None
    if sweep is not None:
        folder = sweep_dir if sweep_dir is not None else Path(tempfile.mkdtemp(prefix="cardarena-sweep-"))
        swept = plan_sweep(game_id, options, sweep, sweep_outcome, folder)
    return Plan(game_id, game.name, options, baseline, tuple(specs), seed, n, setups, kind, note, swept)


def identity(the_plan: Plan) -> dict[str, Any]:
    """The run's identity in its result store (:mod:`cardarena.arena.results`): every field of the plan (so a
    field added to it is part of the identity too), the report's schema (the layout of a stored game), and a
    digest of every data file an option names, so that a card file edited between two runs is another run. The
    number of games, ``games``, may grow: a rerun with a larger ``-n`` plays only the new games."""
    import hashlib
    import json
    from dataclasses import asdict

    fields = {k: v for k, v in asdict(the_plan).items() if k not in ("game_name", "setup_note")}  # words, not the run
    if isinstance(fields.get("sweep"), dict):  # what the designer asked for; the rest follows from it and the files
        fields["sweep"] = {k: fields["sweep"][k] for k in ("target", "values", "outcome")}
    files: dict[str, str] = {}
    spec = {o.name: o for o in load(the_plan.game_id, **the_plan.options).option_spec}
    for options in (the_plan.options, the_plan.baseline or {}):
        for name, value in options.items():
            option = spec.get(name)
            if option is not None and option.names_a_file(value) and Path(str(value)).is_file():
                digest = hashlib.sha256(Path(str(value)).read_bytes()).hexdigest()[:16]
                files[f"{name}={value}"] = digest
    out = {"run": "report", "schema": SCHEMA, **fields, "files": files}
    return dict(json.loads(json.dumps(out, default=str)))


def report(
    the_plan: Plan,
    *,
    backend: runner.Backend | str = runner.Backend.PROCESS,
    jobs: int | None = 1,
    address: str | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    command: str = "",
    bootstrap: int = BOOTSTRAP,
    store: ResultStore | None = None,
) -> dict[str, Any]:
    """Play the report's games and compute report.json's object (schema 2). ``progress(done, total, phase)`` is
    called as games finish (phase ``"games"``) and then as the card models are fitted (``"statistics: card
    strengths"``: one step per fit, the bootstrap's included).

    With a ``store`` (:func:`cardarena.arena.results.open_store` with :func:`identity`), every finished game is
    stored as it arrives and the games already stored are not played again: a run interrupted and run again gives
    the report of an uninterrupted one. A stored game's key is ``index * variants + variant``, so a larger ``-n``
    keeps every key."""
    start = time.perf_counter()
    variants = [the_plan.options] + ([the_plan.baseline] if the_plan.baseline is not None else [])
    # a sweep's values are more variants of the same run (one progress bar); the value the card file already has
    # is the report's own variant, not played twice
    swept = [o for o in the_plan.sweep.options if o not in variants] if the_plan.sweep is not None else []
    played = variants + swept
    job = Job(
        the_plan.game_id,
        tuple(tuple(sorted(v.items())) for v in played),
        the_plan.agents,
        the_plan.seed,
        the_plan.games,
        the_plan.setups,
    )
    total = the_plan.games * len(played)
    count = len(played)

    def key(item: int) -> int:  # the job's item (variant-major) -> the store's key (game-major)
        v, i = divmod(item, the_plan.games)
        return i * count + v

    rows: dict[int, dict[str, Any]] = {}
    if store is not None:
        for k, row in store.load().items():
            i, v = divmod(k, count)
            if i < the_plan.games:
                rows[v * the_plan.games + i] = row

    def on_results(results: list[tuple[int, dict[str, Any]]]) -> None:
        if store is not None:
            store.add((key(item), row) for item, row in results)
        rows.update(results)
        if progress is not None:
            progress(len(rows), total, "games")

    if progress is not None:
        progress(len(rows), total, "games")
    missing = [item for item in range(total) if item not in rows]
    if missing:
        runner.run(play_chunk, job, missing, on_results, backend=backend, jobs=jobs, address=address)
    fits = len(played) * (1 + (bootstrap if bootstrap >= 20 else 0))
    fitted = 0

    def tick() -> None:
        nonlocal fitted
        fitted += 1
        if progress is not None:
            progress(fitted, fits, STATISTICS)

    if progress is not None:
        progress(0, fits, STATISTICS)
    out_variants = []
    turns = []
    data = []
    loaded: list[Game] = []

    def summarise(v: int, options: dict[str, Any], label: str, **extra: Any) -> tuple[Game, dict[str, Any]]:
        """Played variant ``v`` (its rows) summarised with the game its options load."""
        game = load(the_plan.game_id, **options)
        mine = [rows[v * the_plan.games + i] for i in range(the_plan.games)]
        summary = summarise_variant(
            label,
            game.record_options(),
            game.involvement_catalogue(),
            game.end_conditions(),
            game.num_players,
            mine,
            seed=the_plan.seed,
            bootstrap=bootstrap,
            tick=tick,
            **extra,
        )
        turns.append([r["turns"] for r in mine if r["error"] is None])
        return game, summary

    for v, options in enumerate(variants):
        label = "as given" if v == 0 else "baseline"
        game, summary = summarise(v, options, label, agents=the_plan.agents, setup_kind=the_plan.setup_kind)
        out_variants.append(summary)
        loaded.append(game)
        data.append(game.entry_data())
    sweep = None
    if the_plan.sweep is not None:
        summaries, lengths = [], []
        for options in the_plan.sweep.options:
            v = played.index(options)
            if v < len(variants):
                summaries.append(out_variants[v])
                lengths.append(turns[v])
                continue
            _, summary = summarise(v, options, f"{the_plan.sweep.target} = {the_plan.sweep.values[len(summaries)]}")
            summary.pop("_fit", None)
            summaries.append(summary)
            lengths.append(turns[-1])  # summarise appended this variant's
        sweep = summarise_sweep(the_plan.sweep, summaries, lengths)
    comparison = None
    if len(variants) == 2:
        rows_a, rows_b = ([rows[v * the_plan.games + i] for i in range(the_plan.games)] for v in (0, 1))
        catalogues = (loaded[0].involvement_catalogue(), loaded[1].involvement_catalogue())
        paired = paired_changes(rows_a, rows_b, *catalogues, sorted(set(data[0]) | set(data[1])), loaded[0].num_players)
        # an edited entry's change is measured with the edited entries alone: only an edit can make game i differ
        # between the variants, so the difference is theirs; beside every entry, the cards always within reach
        # with it (the rest of its school or deck) would share its effect (a Tash-Kalar school's being)
        edited = sorted(k for k in set(data[0]) | set(data[1]) if data[0].get(k) != data[1].get(k))
        paired.update(paired_changes(rows_a, rows_b, *catalogues, edited, loaded[0].num_players))
        comparison = compare(out_variants[0], out_variants[1], turns[0], turns[1], data[0], data[1], paired)
    for variant in out_variants:
        variant.pop("_fit", None)
    if progress is not None:
        progress(fits, fits, STATISTICS)
    return {
        "schema": SCHEMA,
        "game": the_plan.game_id,
        "game_name": the_plan.game_name,
        "agents": list(the_plan.agents),
        "seed": the_plan.seed,
        "command": command,
        "created": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "elapsed_s": round(time.perf_counter() - start, 1),
        "method": dict(METHOD),
        "setup": (
            {"kind": the_plan.setup_kind, "varied": True, "note": the_plan.setup_note}
            if the_plan.setups
            else ({"kind": None, "varied": False, "note": the_plan.setup_note} if the_plan.setup_note else None)
        ),
        "variants": out_variants,
        "comparison": comparison,
        "sweep": sweep,
        "depth": None,
    }
