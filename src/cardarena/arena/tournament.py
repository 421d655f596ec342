"""Tournaments: every entrant against every other (or one against a field), on common random numbers.

**Entrants.** An entrant is an agent spec, optionally under a name and with *seat options*:
``[NAME=]SPEC[@key=value,...]``, e.g. ``heuristic``, ``ismcts:iterations=200``, ``horde=heuristic@deck=horde``,
``mine=heuristic@deck=my_deck.toml``. A seat option ``key`` sets the game's per-seat option ``key<seat>``
(``deck0``/``deck1`` in Dice Battle, ``build0`` in Laplaplace, ``school0``...``school3`` in Tash-Kalar) for
whichever seat the entrant sits in, so the same agent with two decks is two entrants. Game-wide options
(``cards=...``) are the same for every seat and are given with ``-o``; two card files are compared by two runs
with the same seed (docs/tournaments.md).

**Schedule.** A pairing (A, B) plays ``deals`` deals; deal ``d`` is the game seeded ``derive_seed(seed, d)``, the
same in every pairing, and it is played once in every *seating* of the pairing: in a duel A-B and B-A; in a
game of ``s`` seats the distinct rotations of the alternating pattern A B A B ... and of its complement (3 seats:
ABA, BAA, AAB, BAB, ABB, BBA; 4 seats: ABAB, BABA, which also puts A and B on opposite teams when seats 0+2 play
1+3). So two games of a deal differ only by who sits where (common random numbers), and every entrant sits in
every seat equally often. The agent in seat ``k`` of seating ``o`` of deal ``d`` is seeded
``derive_seed(seed, d, o, k + 1)``. Game ``index = (d * pairings + p) * seatings + o``: deal-major, so every
pairing advances together and a run of fewer deals is a prefix of a run of more.

**A game's result for the pairing** compares the best return among A's seats with the best among B's: a win
for A when A's is higher, a draw when equal, a loss otherwise (in a duel the usual win/draw/loss; in teams the
team's result). A game that raises is stored as an error and not scored.

**Sequential stopping** (``until_significant``): after every deal the pairing's deal scores so far, in deal
order, go through :func:`~cardarena.arena.stats.sprt`; at its first decision the pairing stops and later deals
of it are not played (or, if already played by a busy worker, not counted). The stopping deal depends on the
stored results alone, so a resumed or re-run tournament stops at the same place.

Every finished game is stored at once (:mod:`cardarena.arena.results`); the summary is computed from the stored
results sorted by index, so any backend, any number of jobs and any interruption give the same JSON.
"""

from __future__ import annotations

import hashlib
import json
import math
import statistics
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..agents import SeatView, make_agent
from ..engine import OptionError, derive_seed, load
from . import runner
from .results import open_store
from .stats import Sprt, bradley_terry, paired_interval, sprt
from .strength import result_for, wilson

SCHEDULE_VERSION = 1  # raise when the schedule or the seeding changes: old stores then refuse to resume
DEFAULT_DELTA = 0.05  # --until-significant looks for a score difference of this size from 0.5 (about 35 Elo)


@dataclass(frozen=True)
class Entrant:
    """One entrant: its name in the tables, its agent spec and its seat options (``{"deck": "horde"}``)."""

    name: str
    spec: str
    seat_options: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "agent": self.spec, "seat_options": dict(self.seat_options)}


def parse_entrant(text: str) -> Entrant:
    """``[NAME=]SPEC[@key=value,...]`` -> an :class:`Entrant` (checked against a game by :func:`plan`).

    >>> parse_entrant("ismcts:iterations=200")
    Entrant(name='ismcts:iterations=200', spec='ismcts:iterations=200', seat_options=())
    >>> parse_entrant("mine=heuristic@deck=my deck.toml")
    Entrant(name='mine', spec='heuristic', seat_options=(('deck', 'my deck.toml'),))
    """
    raw = text.strip()
    name = raw
    head, sep, rest = raw.partition("=")
    if sep and head.strip() and not any(c in head for c in ":@,"):
        name, raw = head.strip(), rest.strip()
    spec, at, opts = raw.partition("@")
    spec = spec.strip()
    if not spec:
        raise OptionError(f"entrant {text!r} names no agent; write [NAME=]SPEC[@key=value,...]")
    seat_options: list[tuple[str, str]] = []
    if at:
        for item in filter(None, (p.strip() for p in opts.split(","))):
            key, eq, value = item.partition("=")
            if not eq or not key.strip():
                raise OptionError(f"entrant {text!r}: seat option {item!r} must look like key=value")
            seat_options.append((key.strip(), value.strip()))
        if not seat_options:
            raise OptionError(f"entrant {text!r}: nothing after '@'; write @key=value")
    return Entrant(name, spec, tuple(seat_options))


def seatings(seats: int) -> list[tuple[int, ...]]:
    """The seatings of a pairing: for each seat, 0 (entrant A) or 1 (entrant B); see the module's docstring.

    >>> seatings(2), seatings(4)
    ([(0, 1), (1, 0)], [(0, 1, 0, 1), (1, 0, 1, 0)])
    >>> [''.join('AB'[x] for x in s) for s in seatings(3)]
    ['ABA', 'BAA', 'AAB', 'BAB', 'ABB', 'BBA']
    """
    base = tuple(i % 2 for i in range(seats))
    out: list[tuple[int, ...]] = []
    for pattern in (base, tuple(1 - x for x in base)):
        for shift in range(seats):
            rotated = pattern[shift:] + pattern[:shift]
            if rotated not in out:
                out.append(rotated)
    return out


@dataclass(frozen=True)
class Plan:
    """Everything a worker needs to play any game of the tournament by its index (small and picklable)."""

    game_id: str
    options: tuple[tuple[str, Any], ...]
    entrants: tuple[Entrant, ...]
    pairings: tuple[tuple[int, int], ...]
    seatings: tuple[tuple[int, ...], ...]
    per_seat: tuple[str, ...]  # the game's per-seat option names without their digit (deck, build, school)
    seed: int
    #: what else a stored result depends on, beyond the specs (the ladder: the model file each expert plays with)
    extra: tuple[tuple[str, str], ...] = ()

    def locate(self, index: int) -> tuple[int, int, int]:
        """Game ``index`` -> (deal, pairing, seating)."""
        rest, o = divmod(index, len(self.seatings))
        d, p = divmod(rest, len(self.pairings))
        return d, p, o

    def index(self, deal: int, pairing: int, seating: int) -> int:
        return (deal * len(self.pairings) + pairing) * len(self.seatings) + seating

    def seat_entrants(self, pairing: int, seating: int) -> list[int]:
        """The entrant (its number) in every seat of a game."""
        pair = self.pairings[pairing]
        return [pair[x] for x in self.seatings[seating]]

    def game_options(self, entrants: list[int]) -> dict[str, Any]:
        """The game's options for a seating: ``-o`` options, then each entrant's seat options on its seat."""
        options = dict(self.options)
        for seat, e in enumerate(entrants):
            for key, value in self.entrants[e].seat_options:
                options[f"{key}{seat}"] = value
        return options

    def identity(self) -> dict[str, Any]:
        """What a result store must hold to resume this tournament (the number of deals is not part of it: a
        run of more deals extends a run of fewer)."""
        out: dict[str, Any] = {
            "kind": "tournament",
            "schedule": SCHEDULE_VERSION,
            "game": self.game_id,
            "options": {k: str(v) for k, v in self.options},
            "entrants": [e.to_json() for e in self.entrants],
            "pairings": [list(p) for p in self.pairings],
            "seed": self.seed,
        }
        if self.extra:
            out["extra"] = dict(self.extra)
        return out


def plan(
    game_id: str,
    entrants: list[str],
    *,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    gauntlet: str | None = None,
) -> Plan:
    """Check the game, the options and the entrants, and lay out the pairings (raises :class:`OptionError`)."""
    options = dict(options or {})
    game = load(game_id, **options)
    parsed = [parse_entrant(t) for t in ([gauntlet] if gauntlet is not None else []) + list(entrants)]
    if len(parsed) < 2:
        raise OptionError("a tournament needs at least two entrants (--agents A,B[,...], or --gauntlet G --agents A)")
    names = [e.name for e in parsed]
    for name in names:
        if names.count(name) > 1:
            raise OptionError(f"two entrants are named {name!r}; name them apart: NAME=SPEC (e.g. a={name})")
    for e in parsed:
        make_agent(e.spec, 0)  # an unknown agent or parameter fails here, naming the valid ones
    seats = game.num_players
    option_names = {o.name for o in game.option_spec}
    per_seat = tuple(
        sorted(n[:-1] for n in option_names if n.endswith("0") and all(f"{n[:-1]}{s}" in option_names for s in (0, 1)))
    )
    for e in parsed:
        for key, _ in e.seat_options:
            if key not in per_seat:
                what = (
                    f"{key!r} is a game-wide option: give it with -o {key}=..., the same for every seat"
                    if key in option_names
                    else f"{game_id} has no per-seat option {key!r}"
                )
                valid = ", ".join(per_seat) or "none"
                raise OptionError(f"entrant {e.name!r}: {what} (seat options of {game_id}: {valid})")
    count = len(parsed)
    if gauntlet is not None:
        pairings = tuple((0, j) for j in range(1, count))
    else:
        pairings = tuple((i, j) for i in range(count) for j in range(i + 1, count))
    result = Plan(
        game_id=game_id,
        options=tuple(sorted(options.items())),
        entrants=tuple(parsed),
        pairings=pairings,
        seatings=tuple(seatings(seats)),
        per_seat=per_seat,
        seed=seed,
    )
    for p in range(len(pairings)):  # every seating loads: bad seat option values fail before any game is played
        for o in range(len(result.seatings)):
            g = load(game_id, **result.game_options(result.seat_entrants(p, o)))
            if g.num_players != seats:
                raise OptionError(f"seat options must not change the number of seats ({seats})")
    return result


def play_index(plan: Plan, index: int) -> dict[str, Any]:
    """Play game ``index`` of the tournament; the stored row (a game's own error is caught and reported)."""
    deal, pairing, seating = plan.locate(index)
    who = plan.seat_entrants(pairing, seating)
    game_seed = derive_seed(plan.seed, deal)
    row: dict[str, Any] = {"deal": deal, "pairing": pairing, "seating": seating, "seed": game_seed}
    start = time.perf_counter()
    decisions = 0
    seat_seconds = [0.0] * len(who)  # each seat's thinking time over its decisions with a choice (wall clock: not
    seat_decisions = [0] * len(who)  # reproducible, like "seconds") and the number of those decisions
    try:
        game = runner.load_cached(plan.game_id, plan.game_options(who))
        players = [
            make_agent(plan.entrants[e].spec, derive_seed(plan.seed, deal, seating, seat + 1))
            for seat, e in enumerate(who)
        ]
        state = game.new_initial_state(game_seed)
        views = [SeatView(state, s) for s in range(len(who))]
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            t = time.perf_counter()
            action = players[seat].act(views[seat])
            if len(state.legal_actions()) > 1:  # a forced decision costs nothing to think: not timed
                seat_seconds[seat] += time.perf_counter() - t
                seat_decisions[seat] += 1
            state.apply(action)
            decisions += 1
        row.update(returns=[float(r) for r in state.returns()], turns=state.turn, decisions=decisions, error=None)
    except Exception as e:  # a bug in a game or an agent must not stop a long run: it is counted and reported
        where = traceback.extract_tb(e.__traceback__)[-1]
        message = f"{type(e).__name__}: {e} (at {Path(where.filename).name}:{where.lineno})"
        row.update(returns=None, turns=0, decisions=decisions, error=message)
    row["seconds"] = round(time.perf_counter() - start, 4)
    row["seat_seconds"] = [round(x, 5) for x in seat_seconds]
    row["seat_decisions"] = seat_decisions
    return row


def play_chunk(plan: Plan, indices: list[int]) -> list[tuple[int, dict[str, Any]]]:
    """The runner's work function: play these games."""
    return [(i, play_index(plan, i)) for i in indices]


def pairing_result(plan: Plan, row: dict[str, Any]) -> float | None:
    """A's score in a stored game (1 win, 0.5 draw, 0 loss), ``None`` for an error."""
    returns = row["returns"]
    if returns is None:
        return None
    pattern = plan.seatings[row["seating"]]
    best_a = max(r for r, x in zip(returns, pattern) if x == 0)
    best_b = max(r for r, x in zip(returns, pattern) if x == 1)
    return 1.0 if best_a > best_b else 0.5 if best_a == best_b else 0.0


class _Progress:
    """What the parent knows while the games come in: the stored rows, each pairing's complete deals (in order)
    and where its sequential test stopped. Everything is kept incrementally, so a batch of results costs the
    parent time in proportion to the batch, not to the run."""

    def __init__(self, plan: Plan, deals: int, delta: float | None, rows: dict[int, dict[str, Any]]) -> None:
        self.plan = plan
        self.deals = deals
        self.delta = delta
        pairings = len(plan.pairings)
        self.rows: dict[int, dict[str, Any]] = {}
        self.stop: list[int | None] = [None] * pairings
        self._scores: list[list[float | None]] = [[] for _ in range(pairings)]  # complete deals, in order
        self._tests = [Sprt(delta) if delta is not None else None for _ in range(pairings)]
        self._done = [0] * pairings  # stored games that count (deal below the pairing's counted deals)
        self.add(sorted(rows.items()))

    def add(self, results: list[tuple[int, dict[str, Any]]]) -> None:
        """Take finished games; extend the complete deals of their pairings and run their sequential tests."""
        touched = set()
        for index, row in results:
            if index in self.rows:
                continue
            self.rows[index] = row
            p = row["pairing"]
            touched.add(p)
            if row["deal"] < self.counted_deals(p):
                self._done[p] += 1
        for p in sorted(touched):
            self._extend(p)

    def _extend(self, pairing: int) -> None:
        scores = self._scores[pairing]
        seatings = len(self.plan.seatings)
        while len(scores) < self.counted_deals(pairing):
            d = len(scores)
            rows = [self.rows.get(self.plan.index(d, pairing, o)) for o in range(seatings)]
            if any(r is None for r in rows):
                return
            valid = [s for r in rows if r is not None and (s := pairing_result(self.plan, r)) is not None]
            scores.append(sum(valid) / len(valid) if valid else None)
            test = self._tests[pairing]
            if test is not None and self.stop[pairing] is None and test.push(scores[-1]) is not None:
                self.stop[pairing] = len(scores)  # later deals of this pairing no longer count
                self._done[pairing] = sum(
                    1 for r in self.rows.values() if r["pairing"] == pairing and r["deal"] < len(scores)
                )

    def deal_scores(self, pairing: int) -> list[float | None]:
        """A's mean score over each complete counted deal, in deal order (``None`` for a deal of errors only)."""
        return self._scores[pairing][: self.counted_deals(pairing)]

    def counted_deals(self, pairing: int) -> int:
        stopped = self.stop[pairing]
        return self.deals if stopped is None else stopped

    def wanted(self) -> Iterator[int]:
        """The games still to play, in index order; a pairing the test has settled yields no more."""
        for d in range(self.deals):
            for p in range(len(self.plan.pairings)):
                if d >= self.counted_deals(p):
                    continue
                for o in range(len(self.plan.seatings)):
                    i = self.plan.index(d, p, o)
                    if i not in self.rows:
                        yield i

    def total(self) -> int:
        return sum(self.counted_deals(p) for p in range(len(self.plan.pairings))) * len(self.plan.seatings)

    def done(self) -> int:
        return sum(self._done)


def default_out(plan: Plan, data_dir: str | Path) -> Path:
    """Where a tournament's results go when no ``--out`` is given: named by a hash of its identity, so the same
    command finds them again."""
    digest = hashlib.sha256(json.dumps(plan.identity(), sort_keys=True).encode()).hexdigest()[:12]
    return Path(data_dir) / "tournaments" / f"{plan.game_id}-{digest}.sqlite"


ProgressCallback = Callable[[int, int], None]


def tournament(
    plan_: Plan,
    *,
    games_per_pairing: int = 100,
    until_significant: bool = False,
    delta: float = DEFAULT_DELTA,
    out: str | Path | None = None,
    backend: runner.Backend | str = runner.Backend.PROCESS,
    jobs: int | None = None,
    address: str | None = None,
    progress: ProgressCallback | None = None,
    on_rows: Callable[[dict[int, dict[str, Any]]], None] | None = None,
) -> dict[str, Any]:
    """Play the tournament (resuming what ``out`` already holds) and return its summary (the ``--json`` object).

    ``games_per_pairing`` is rounded up to whole deals (a multiple of the number of seatings). ``progress(done,
    total)`` is called with the counted games as they arrive; ``on_rows(rows)`` with every stored row by index at
    the end (their timings: the ladder's seconds per decision).
    """
    if games_per_pairing < 1:
        raise OptionError(f"games per pairing must be at least 1, got {games_per_pairing}")
    if not 0 < delta < 0.5:
        raise OptionError(f"the sequential test's delta must be between 0 and 0.5, got {delta}")
    deals = math.ceil(games_per_pairing / len(plan_.seatings))
    with open_store(out, plan_.identity()) as store:
        state = _Progress(plan_, deals, delta if until_significant else None, store.load())
        if progress is not None:
            progress(state.done(), state.total())

        def on_results(results: list[tuple[int, dict[str, Any]]]) -> None:
            store.add(results)
            state.add(results)
            if progress is not None:
                progress(state.done(), state.total())

        runner.run(play_chunk, plan_, state.wanted(), on_results, backend=backend, jobs=jobs, address=address)
        rows = store.load()
    if on_rows is not None:
        on_rows(rows)
    return summarise(
        plan_, rows, deals=deals, games_per_pairing=games_per_pairing, delta=delta if until_significant else None
    )


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 3) if values else 0.0


def summarise(
    plan_: Plan,
    rows: dict[int, dict[str, Any]],
    *,
    deals: int,
    games_per_pairing: int,
    delta: float | None = None,
) -> dict[str, Any]:
    """The tournament's JSON object, from the stored rows alone (in index order): see docs/tournaments.md."""
    state = _Progress(plan_, deals, delta, rows)
    seats = len(plan_.seatings[0])
    pairings_out = []
    btl: list[tuple[int, int, float, int]] = []
    first_seat: list[float] = []
    seat_scores: list[list[float]] = [[] for _ in range(seats)]
    all_turns: list[int] = []
    all_decisions: list[int] = []
    errors: list[tuple[int, dict[str, Any]]] = []
    for p, (a, b) in enumerate(plan_.pairings):
        counted = state.counted_deals(p)
        games = [(i, row) for i, row in state.rows.items() if row["pairing"] == p and row["deal"] < counted]
        scores = [s for _, row in games if (s := pairing_result(plan_, row)) is not None]
        done = [row for _, row in games if row["returns"] is not None]
        errors += [(i, row) for i, row in games if row["error"] is not None]
        for row in done:
            for seat in range(seats):
                result = result_for(row["returns"], seat)
                seat_scores[seat].append(1.0 if result == "win" else 0.5 if result == "draw" else 0.0)
            first_seat.append(seat_scores[0][-1])
        turns = [row["turns"] for row in done]
        decisions = [row["decisions"] for row in done]
        all_turns += turns
        all_decisions += decisions
        n = len(scores)
        score = sum(scores) / n if n else 0.0
        deal_scores = [s for s in state.deal_scores(p) if s is not None]
        lo, hi = paired_interval(deal_scores)
        wlo, whi = wilson(score, n)
        entry: dict[str, Any] = {
            "a": plan_.entrants[a].name,
            "b": plan_.entrants[b].name,
            "games": len(games),
            "deals": len(state.deal_scores(p)),
            "wins": scores.count(1.0),
            "draws": scores.count(0.5),
            "losses": scores.count(0.0),
            "errors": len(games) - n,
            "score": round(score, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "ci95_wilson": [round(wlo, 4), round(whi, 4)],
            "mean_turns": _mean([float(t) for t in turns]),
            "median_turns": float(statistics.median(turns)) if turns else 0.0,
            "mean_decisions": _mean([float(x) for x in decisions]),
        }
        if delta is not None:
            stopped = state.stop[p]
            decided = sprt(state.deal_scores(p), delta).decision if stopped is not None else None
            winner = {"a": entry["a"], "b": entry["b"]}.get(decided or "")
            entry["sprt"] = {"stopped_after_deals": stopped, "stronger": winner}
        pairings_out.append(entry)
        if n:
            btl.append((a, b, sum(scores), n))
    ratings = bradley_terry(len(plan_.entrants), btl)
    fs = sum(first_seat) / len(first_seat) if first_seat else 0.0
    flo, fhi = wilson(fs, len(first_seat))
    out: dict[str, Any] = {
        "game": plan_.game_id,
        "options": {k: str(v) for k, v in plan_.options},
        "seed": plan_.seed,
        "games_per_pairing": games_per_pairing,
        "deals": deals,
        "seatings": ["".join("AB"[x] for x in s) for s in plan_.seatings],
        "entrants": [e.to_json() for e in plan_.entrants],
        "games": sum(p["games"] for p in pairings_out),
        "errors": len(errors),
        "pairings": pairings_out,
        "ratings": [
            {
                "name": e.name,
                "elo": round(r.elo, 1),
                "se": round(r.se, 1),
                "ci95": [round(r.ci95[0], 1), round(r.ci95[1], 1)],
            }
            for e, r in zip(plan_.entrants, ratings)
        ]
        if ratings is not None
        else None,
        "first_seat": {"score": round(fs, 4), "ci95": [round(flo, 4), round(fhi, 4)], "games": len(first_seat)},
        "seat_scores": [round(sum(s) / len(s), 4) if s else None for s in seat_scores],
        "mean_turns": _mean([float(t) for t in all_turns]),
        "mean_decisions": _mean([float(x) for x in all_decisions]),
        "until_significant": {"delta": delta, "alpha": 0.05} if delta is not None else None,
    }
    if errors:
        out["error_samples"] = [
            {"game": i, "seed": row["seed"], "error": row["error"]} for i, row in sorted(errors)[:5]
        ]
    return out
