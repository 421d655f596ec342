"""How strong agent A is against agent B: paired seeds, every seat order, a win rate with its 95% interval.

Round ``k`` (``pairs`` of them) deals the same game, seed ``derive_seed(seed, k)``, once for every seat A can take:
A in seat 0 and B in every other seat, then A in seat 1, and so on (in a 2-seat game a round is the classic
pair of games with the seats swapped). The same deal in every seat order cancels most of the luck of the deal and
the first player's edge. Each seat's agent is seeded with ``derive_seed(seed, k, a_seat, seat + 1)``.

A game counts for A as a **win** when no seat's return is above A's and some seat's is below (a first place shared
with a teammate, or tied in a free-for-all, counts: the kernel does not know teams), a **draw** when every seat
has the same return, and a **loss** otherwise (:func:`result_for`). The **score** is ``(wins + draws / 2) /
games`` (draws count half) and its 95% interval is Wilson's score interval on it (:func:`wilson`). In a game of
``n`` seats A plays ``n - 1`` copies of B, so two equal agents score about ``1 / n`` in a free-for-all, 0.5 in a
duel or between two teams (where A's teammate is a B). A game that raises is an error: reported, not scored.

The results (everything but the timings) are a function of the arguments alone: the games are keyed by index and
any number of jobs gives the same output (the games run on :mod:`cardarena.arena.runner`). Tournaments
(:mod:`cardarena.arena.tournament`) use :func:`result_for` and :func:`wilson`.
"""

from __future__ import annotations

import math
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..agents import SeatView, make_agent
from ..engine import Game, OptionError, derive_seed, load
from . import runner
from .results import open_store

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile


def result_for(returns: list[float], seat: int) -> str:
    """``win``, ``draw`` or ``loss`` of ``seat`` by the game's returns (see the module's docstring).

    >>> result_for([1.0, -1.0], 0), result_for([0.0, 0.0], 0), result_for([1.0, -1.0, 1.0, -1.0], 2)
    ('win', 'draw', 'win')
    """
    mine = returns[seat]
    if max(returns) > mine:
        return "loss"
    return "win" if min(returns) < mine else "draw"


def wilson(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion ``score`` observed over ``n`` trials (draws as half a win).

    ``centre = (p + z²/2n) / (1 + z²/n)``, ``half = z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n)``: unlike the normal
    interval it stays inside [0, 1] and is honest near 0 and 1. ``n = 0`` gives the whole range.

    >>> lo, hi = wilson(0.9, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.826, 0.945)
    """
    if n <= 0:
        return 0.0, 1.0
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (score + z2 / (2 * n)) / denominator
    half = z * math.sqrt(max(0.0, score * (1 - score) / n + z2 / (4 * n * n))) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Outcome:
    """One game of a strength run: round ``pair``, A in seat ``a_seat``; ``result`` is ``win``/``draw``/``loss``,
    or ``error`` with the message. ``seconds`` is wall-clock time (the only part that is not reproducible)."""

    index: int
    pair: int
    a_seat: int
    seed: int
    result: str
    decisions: int
    a_decisions: int
    a_seconds: float
    seconds: float
    error: str | None = None


def play_one(
    game: Game, agents: tuple[str, str], index: int, seed: int, clock: Callable[[], float] = time.perf_counter
) -> Outcome:
    """Game number ``index`` of a run: round ``index // seats`` with A in seat ``index % seats``. A's thinking
    time (``a_seconds``) is read on ``clock``: wall time by default, ``time.process_time`` for CPU seconds."""
    seats = game.num_players
    pair, a_seat = divmod(index, seats)
    game_seed = derive_seed(seed, pair)
    start = time.perf_counter()
    decisions = a_decisions = 0
    a_seconds = 0.0
    try:
        players = [
            make_agent(agents[0] if s == a_seat else agents[1], derive_seed(seed, pair, a_seat, s + 1))
            for s in range(seats)
        ]
        state = game.new_initial_state(game_seed)
        views = [SeatView(state, s) for s in range(seats)]
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            if seat == a_seat:
                t = clock()
                action = players[seat].act(views[seat])
                a_seconds += clock() - t
                a_decisions += 1
            else:
                action = players[seat].act(views[seat])
            state.apply(action)
            decisions += 1
        returns = state.returns()
        result = result_for(returns, a_seat)
        return Outcome(
            index, pair, a_seat, game_seed, result, decisions, a_decisions, a_seconds, time.perf_counter() - start
        )
    except Exception as e:  # a bug in a game or an agent must not stop a long run: it is counted and reported
        where = traceback.extract_tb(e.__traceback__)[-1]
        message = f"{type(e).__name__}: {e} (at {Path(where.filename).name}:{where.lineno})"
        return Outcome(
            index,
            pair,
            a_seat,
            game_seed,
            "error",
            decisions,
            a_decisions,
            a_seconds,
            time.perf_counter() - start,
            message,
        )


def _play_chunk(context: tuple[str, dict[str, Any], tuple[str, str], int], indices: list[int]) -> list[Outcome]:
    """The runner's work function (:mod:`cardarena.arena.runner`): play these games."""
    game_id, options, agents, seed = context
    game = runner.load_cached(game_id, options)
    return [play_one(game, agents, i, seed) for i in indices]


def strength(
    game_id: str,
    agents: tuple[str, str],
    *,
    pairs: int = 100,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    store: str | Path | None = None,
) -> dict[str, Any]:
    """Play ``pairs`` rounds of A (``agents[0]``) against B (``agents[1]``) in every seat order; summarise.

    ``progress(done, total)`` is called as games finish (in any order when ``jobs > 1``). With ``store`` (a file:
    SQLite, or JSON lines for ``*.jsonl``; see :mod:`.results`) every finished game is written as it ends and a
    run started again with the same arguments plays only the games still missing: the summary is that of an
    uninterrupted run (but for the wall time, which counts this run only). Run again with more ``pairs``, it plays
    only the new rounds (round ``k``'s games do not depend on ``pairs``): a pilot grows into a full cell.
    """
    options = dict(options or {})
    game = load(game_id, **options)  # fail early on a bad game or option
    if pairs < 1:
        raise OptionError(f"pairs must be at least 1, got {pairs}")
    for spec in agents:
        make_agent(spec, 0)  # fail early on a bad spec
    total = pairs * game.num_players
    start = time.perf_counter()
    identity: dict[str, Any] = {"run": "strength", "game": game_id, "options": game.record_options()}
    identity.update(agents=list(agents), seed=seed, pairs=pairs)
    with open_store(store, identity, grows="pairs") as results:
        outcomes = [Outcome(**row) for row in results.load().values()]
        done = {o.index for o in outcomes}
        if progress is not None and outcomes:
            progress(len(outcomes), total)

        def on_results(chunk: list[Outcome]) -> None:
            results.add((o.index, asdict(o)) for o in chunk)
            outcomes.extend(chunk)
            if progress is not None:
                progress(len(outcomes), total)

        missing = [i for i in range(total) if i not in done]
        runner.run(_play_chunk, (game_id, options, agents, seed), missing, on_results, jobs=jobs)
    outcomes.sort(key=lambda o: o.index)
    summary = summarise(game, agents, seed, pairs, outcomes, wall=time.perf_counter() - start, jobs=jobs)
    if done:
        summary["time"]["resumed_games"] = len(done)  # games read back from the store, not played by this run
    return summary


def rounds_by_outcome(outcomes: list[Outcome]) -> dict[str, int]:
    """How A fared in each round (one deal, once per seat A can take): rounds won from every seat, lost from every
    seat, and split (every other mix: a draw in some seat, or a win in one seat and a loss in another). Rounds
    with an error or a missing game are left out.

    A split duel round, a win with one side of the deal and a loss with the other, is one where the deal decided
    between these two agents: the share of split rounds bounds how far A's score can rise (docs/agents.md, "Why
    ToraBato's search saturates").

    >>> rows = [Outcome(i, i // 2, i % 2, 0, r, 1, 1, 0.0, 0.0) for i, r in enumerate(["win", "loss", "win", "win"])]
    >>> rounds_by_outcome(rows)
    {'won_every_seat': 1, 'split': 1, 'lost_every_seat': 0}
    """
    seats = 1 + max((o.a_seat for o in outcomes), default=0)
    by_round: dict[int, list[str]] = {}
    for o in outcomes:
        by_round.setdefault(o.pair, []).append(o.result)
    counts = {"won_every_seat": 0, "split": 0, "lost_every_seat": 0}
    for results in by_round.values():
        if len(results) < seats or "error" in results:
            continue
        if all(r == "win" for r in results):
            counts["won_every_seat"] += 1
        elif all(r == "loss" for r in results):
            counts["lost_every_seat"] += 1
        else:
            counts["split"] += 1
    return counts


def summarise(
    game: Game,
    agents: tuple[str, str],
    seed: int,
    pairs: int,
    outcomes: list[Outcome],
    *,
    wall: float = 0.0,
    jobs: int = 1,
) -> dict[str, Any]:
    """The strength JSON object: counts, A's score and its Wilson 95% interval, per seat and per round
    (:func:`rounds_by_outcome`), and timings apart."""
    scored = [o for o in outcomes if o.result != "error"]
    n = len(scored)
    wins = sum(o.result == "win" for o in scored)
    draws = sum(o.result == "draw" for o in scored)
    score = (wins + draws / 2) / n if n else 0.0
    lo, hi = wilson(score, n)
    by_seat = []
    for s in range(game.num_players):
        mine = [o for o in scored if o.a_seat == s]
        seat_score = (sum(o.result == "win" for o in mine) + sum(o.result == "draw" for o in mine) / 2) / len(mine)
        by_seat.append(round(seat_score, 4) if mine else None)
    a_decisions = sum(o.a_decisions for o in outcomes)
    out: dict[str, Any] = {
        "game": game.id,
        "options": game.record_options(),
        "agents": {"a": agents[0], "b": agents[1]},
        "seed": seed,
        "pairs": pairs,
        "seats": game.num_players,
        "games": len(outcomes),
        "wins": wins,
        "draws": draws,
        "losses": n - wins - draws,
        "errors": len(outcomes) - n,
        "score": round(score, 4),
        "ci95": [round(lo, 4), round(hi, 4)],
        "score_by_a_seat": by_seat,
        "rounds": rounds_by_outcome(outcomes),
        "mean_decisions": round(sum(o.decisions for o in scored) / n, 2) if n else 0.0,
        "time": {
            "wall_seconds": round(wall, 2),
            "jobs": jobs,
            "seconds_per_game": round(sum(o.seconds for o in outcomes) / len(outcomes), 4) if outcomes else 0.0,
            "a_seconds_per_decision": round(sum(o.a_seconds for o in outcomes) / a_decisions, 5)
            if a_decisions
            else 0.0,
        },
    }
    errors = [o for o in outcomes if o.error is not None]
    if errors:
        out["error_samples"] = [{"game": o.index, "seed": o.seed, "error": o.error} for o in errors[:5]]
    return out
