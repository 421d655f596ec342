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
import time
import traceback
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..agents import Agent, SeatView, make_agent
from ..engine import Declared, Game, Involvement, OptionError, derive_seed, load
from ..engine.involvement import VERBS, Stage, apply_involving
from . import runner
from .strength import result_for, wilson

SCHEMA = 1
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
        "A card's strength is its coefficient in an L2-regularised logistic regression (statsmodels GLM, binomial, "
        "logit link, fit_regularized with L1_wt=0) of the owner's result (its share: win 1, draw 1/2, loss 0) on, "
        "for every card used in the games, whether that seat used it and the share of the other seats that used "
        "it, plus one indicator per seat and one for the first player (which carry no penalty but a token one). "
        f"The penalty is {RIDGE_LAMBDA}·β²/2 per card term (a normal prior of standard deviation "
        f"{1 / math.sqrt(RIDGE_LAMBDA):g} on the log-odds), so rarely used cards are pulled towards 0. A "
        "positive strength means the owner wins more often when the card is used, other cards and the seat held "
        "equal. Rank 1 is the strongest; cards never used have no strength and no rank."
    ),
    "comparison": (
        "Each score is compared between the two variants by a two-proportion z-test (pooled; draws count half), "
        "the mean number of turns by Welch's t-test (scipy); 'significant' means p < 0.05, one test per line with "
        "no correction for the many lines (expect 1 in 20 of unchanged cards to be flagged by chance)."
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


def play_one(
    game: Game,
    index: int,
    seed: int,
    agents: Sequence[str],
    *,
    make: Callable[[str, int], Agent] = make_agent,
) -> dict[str, Any]:
    """Play game ``index`` and summarise it: returns, first player (``game.first_player``), turns,
    decisions, end condition, and per seat the codes ``entry * 4 + stage`` of the catalogue entries it saw and
    the number of times it used each; ``shared`` and ``shared_used`` the same for involvements that belong to no
    seat (rules); ``any`` is every entry that occurred at all. A game's own exception is caught and reported
    (``error``), as ``simulate`` does. ``make`` makes each seat's agent from its spec and seed (depth and luck's
    matches pass one that also makes their restricted agent)."""
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

    out: dict[str, Any] = {"index": index, "seed": game_seed}
    state = None
    decisions = 0
    try:
        players = [make(spec, derive_seed(seed, index, k + 1)) for k, spec in enumerate(agents)]
        state = game.new_initial_state(game_seed)
        first = game.first_player(state)  # asked again after each action until the rules have decided it
        views = [SeatView(state, s) for s in range(seats)]
        if catalogue:
            record(game.initial_involvement(state))
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
            error=None,
        )
    except Exception as e:  # a bug in a game or an agent must not stop a long run: it is counted and reported
        where = traceback.extract_tb(e.__traceback__)[-1]
        message = f"{type(e).__name__}: {e} (at {Path(where.filename).name}:{where.lineno})"
        out.update(returns=None, first=None, turns=0, decisions=decisions, end=None, error=message)
    return out


def play_chunk(job: Job, items: list[int]) -> list[tuple[int, dict[str, Any]]]:
    """The runner's work function: play these items (variant-major game numbers), each keyed by its item."""
    out = []
    for item in items:
        variant, index = divmod(item, job.games)
        game = runner.load_cached(job.game_id, dict(job.variants[variant]))
        out.append((item, play_one(game, index, job.seed, seat_agents(job.agents, index))))
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


def _pairs(done: list[dict[str, Any]], seats: int) -> list[_Pair]:
    out = []
    for g, row in enumerate(done):
        for s in range(seats):
            out.append(
                _Pair(
                    g,
                    s,
                    share(row["returns"], s),
                    row["first"] == s,
                    frozenset(row["seen"][s]),
                    dict((int(e), int(c)) for e, c in row["used"][s]),
                )
            )
    return out


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
) -> dict[str, Any]:
    """One VARIANT of report.json from the games' summaries (:func:`play_one`'s dicts, in index order)."""
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
    ownerless = [(frozenset(r["shared"]), {int(e): int(c) for e, c in r["shared_used"]}) for r in done]
    cards, strength_method = card_statistics(
        catalogue, pairs, ownerless, len(done), seats, seed=seed, bootstrap=bootstrap
    )
    out["cards"] = cards
    out["strength_method"] = strength_method
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
    out["notes"] = notes
    return out


def _used_entries(row: dict[str, Any]) -> set[int]:
    """The catalogue entries used in a game, by any seat or by none."""
    return {code // 4 for seen in [*row["seen"], row["shared"]] for code in seen if code % 4 == USED}


def card_statistics(
    catalogue: Sequence[Declared],
    pairs: Sequence[_Pair],
    ownerless: Sequence[tuple[frozenset[int], dict[int, int]]],
    games: int,
    seats: int,
    *,
    seed: int = 0,
    bootstrap: int = BOOTSTRAP,
) -> tuple[list[dict[str, Any]], str]:
    """Every catalogue entry's CARD object, strongest first, and the strength's method text. ``ownerless`` holds,
    per finished game, the codes and use counts of the involvements that belong to no seat: they count once per
    game in the ``games_*`` counts and ``used_count``, and have no owner's score."""
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
        entry.update(strength=None, strength_ci=None, rank=None)
        cards.append(entry)
    modelled = [i for i in range(len(cards)) if by_code.get(i * 4 + USED)]  # used by a seat at least once
    if not catalogue:
        return cards, "No strengths: the game declares no card involvement."
    if not modelled or games < 2:
        return cards, "No strengths: no card was used in a finished game."
    fit = strengths(pairs, modelled, games, seats, seed=seed, bootstrap=bootstrap)
    for i, (beta, ci) in zip(modelled, fit):
        cards[i]["strength"] = _r(beta)
        cards[i]["strength_ci"] = None if ci is None else [_r(ci[0]), _r(ci[1])]
    ranked = sorted(modelled, key=lambda i: (-cards[i]["strength"], cards[i]["kind"], cards[i]["name"]))
    for rank, i in enumerate(ranked, start=1):
        cards[i]["rank"] = rank
    order = ranked + sorted(
        (i for i in range(len(cards)) if cards[i]["rank"] is None),
        key=lambda i: (-cards[i]["games_included"] - cards[i]["games_available"], cards[i]["kind"], cards[i]["name"]),
    )
    method = (
        f"L2-regularised logistic regression of the owner's result (its share: win 1, draw 1/2, loss 0) on the use "
        f"of each of the {len(modelled)} cards used in {games} games, by the owner and by the other seats, with "
        f"seat and first-player terms (statsmodels GLM binomial, fit_regularized L1_wt=0, penalty "
        f"{RIDGE_LAMBDA}·β²/2 per card term); intervals: {bootstrap} bootstrap resamples of the games"
        + ("" if bootstrap >= 20 else " (too few for intervals: none given)")
        + "."
    )
    return [cards[i] for i in order], method


def strengths(
    pairs: Sequence[_Pair],
    modelled: Sequence[int],
    games: int,
    seats: int,
    *,
    seed: int = 0,
    bootstrap: int = BOOTSTRAP,
) -> list[tuple[float, tuple[float, float] | None]]:
    """Each modelled entry's coefficient for its owner's use, and its bootstrap 95% interval (``None`` with fewer
    than 20 resamples). See ``METHOD["strength"]``. The fits run on one BLAS thread: on a busy machine OpenBLAS's
    spinning threads made these small fits twenty times slower."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):
        return _strengths(pairs, modelled, games, seats, seed=seed, bootstrap=bootstrap)


def _strengths(
    pairs: Sequence[_Pair],
    modelled: Sequence[int],
    games: int,
    seats: int,
    *,
    seed: int,
    bootstrap: int,
) -> list[tuple[float, tuple[float, float] | None]]:
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
    x = np.hstack([np.ones((len(pairs), 1)), seat_cols, first, own, other])
    y = np.array([p.score for p in pairs])
    start = seats + first.shape[1]  # the intercept, the seat terms and the first player's come before the cards
    penalty = np.concatenate([[0.0], np.full(start - 1, RIDGE_LAMBDA_SEAT), np.full(x.shape[1] - start, RIDGE_LAMBDA)])
    params = _ridge_logit(x, y, penalty, None)
    betas = params[start : start + m]
    if bootstrap < 20:
        return [(float(b), None) for b in betas]
    rng = np.random.default_rng(derive_seed(seed, 0xB007))
    rows_of = np.arange(games * seats).reshape(games, seats)
    samples = np.empty((bootstrap, m))
    for b in range(bootstrap):
        picked = rows_of[rng.integers(0, games, size=games)].ravel()
        samples[b] = _ridge_logit(x[picked], y[picked], penalty, params)[start : start + m]
    lo = np.percentile(samples, 2.5, axis=0)
    hi = np.percentile(samples, 97.5, axis=0)
    return [(float(b), (float(lo[c]), float(hi[c]))) for c, b in enumerate(betas)]


def _ridge_logit(x: Any, y: Any, penalty: Any, start: Any) -> Any:
    """The penalised fit: statsmodels' ridge GLM minimises ``-loglike/n + Σ alpha·β²/2``, so ``alpha`` is the
    per-term penalty divided by the number of rows."""
    import statsmodels.api as sm

    model = sm.GLM(y, x, family=sm.families.Binomial())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a resample may warn about its convergence; the interval shows the spread
        fit = model.fit_regularized(
            method="elastic_net", alpha=penalty / len(y), L1_wt=0.0, start_params=start, opt_method="L-BFGS-B"
        )
    return fit.params


# -- the comparison of two variants ------------------------------------------------------------------------------
def two_proportions(a: float | None, n_a: int, b: float | None, n_b: int) -> float | None:
    """The two-sided p-value of a pooled two-proportion z-test (scipy's normal), ``None`` without data.

    >>> round(two_proportions(0.6, 1000, 0.5, 1000), 5), two_proportions(0.5, 10, 0.5, 10)
    (1e-05, 1.0)
    """
    from scipy import stats

    if a is None or b is None or n_a <= 0 or n_b <= 0:
        return None
    pooled = (a * n_a + b * n_b) / (n_a + n_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    if se == 0:
        return 1.0 if a == b else 0.0
    return float(2 * stats.norm.sf(abs(a - b) / se))


def _line(a: float | None, b: float | None, p: float | None) -> dict[str, Any]:
    return {
        "a": a,
        "b": b,
        "change": None if a is None or b is None else _r(a - b),
        "p": None if p is None else _r(p, 6),
        "significant": None if p is None else p < SIGNIFICANCE,
    }


def compare(a: dict[str, Any], b: dict[str, Any], turns_a: Sequence[int], turns_b: Sequence[int]) -> dict[str, Any]:
    """The COMPARISON block of two VARIANTs (``a`` as given, ``b`` the baseline) and each one's turns."""
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
    cards = []
    for key in list(cards_a) + [k for k in cards_b if k not in cards_a]:
        ca, cb = cards_a.get(key), cards_b.get(key)
        sa = ca["score_used"] if ca else None
        sb = cb["score_used"] if cb else None
        na = ca["games_used"] if ca else 0
        nb = cb["games_used"] if cb else 0
        label = (ca or cb or {})["label"]
        cards.append(
            {
                "kind": key[0],
                "name": key[1],
                "label": label,
                **_line(sa, sb, two_proportions(sa, na, sb, nb)),
                "games_used_a": na,
                "games_used_b": nb,
            }
        )
    cards.sort(key=lambda c: (c["change"] is None, -abs(c["change"] or 0.0), c["kind"], c["name"]))
    return {
        "labels": [a["label"], b["label"]],
        "seats": seats,
        "first_player": first,
        "length_turns_mean": length,
        "cards": cards,
    }


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


def plan(
    game_id: str,
    *,
    n: int = 1000,
    seed: int = 0,
    agents: Sequence[str] | None = None,
    options: dict[str, Any] | None = None,
    baseline_options: dict[str, Any] | None = None,
) -> Plan:
    """Check the game, options, baseline options and agents (raises :class:`OptionError`) before any game."""
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
    return Plan(game_id, game.name, options, baseline, tuple(specs), seed, n)


def report(
    the_plan: Plan,
    *,
    backend: runner.Backend | str = runner.Backend.PROCESS,
    jobs: int | None = 1,
    address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    command: str = "",
    bootstrap: int = BOOTSTRAP,
) -> dict[str, Any]:
    """Play the report's games and compute report.json's object (schema 1)."""
    start = time.perf_counter()
    variants = [the_plan.options] + ([the_plan.baseline] if the_plan.baseline is not None else [])
    job = Job(
        the_plan.game_id,
        tuple(tuple(sorted(v.items())) for v in variants),
        the_plan.agents,
        the_plan.seed,
        the_plan.games,
    )
    total = the_plan.games * len(variants)
    rows: dict[int, dict[str, Any]] = {}

    def on_results(results: list[tuple[int, dict[str, Any]]]) -> None:
        rows.update(results)
        if progress is not None:
            progress(len(rows), total)

    if progress is not None:
        progress(0, total)
    runner.run(play_chunk, job, range(total), on_results, backend=backend, jobs=jobs, address=address)
    out_variants = []
    turns = []
    for v, options in enumerate(variants):
        game = load(the_plan.game_id, **options)
        mine = [rows[v * the_plan.games + i] for i in range(the_plan.games)]
        out_variants.append(
            summarise_variant(
                "as given" if v == 0 else "baseline",
                game.record_options(),
                game.involvement_catalogue(),
                game.end_conditions(),
                game.num_players,
                mine,
                seed=the_plan.seed,
                bootstrap=bootstrap,
            )
        )
        turns.append([r["turns"] for r in mine if r["error"] is None])
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
        "variants": out_variants,
        "comparison": compare(out_variants[0], out_variants[1], turns[0], turns[1]) if len(variants) == 2 else None,
    }
