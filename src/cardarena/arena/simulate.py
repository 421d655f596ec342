"""Many seeded games between agents, over the one runner (:mod:`cardarena.arena.runner`): processes or Ray, with
identical results for any backend and job count (games are keyed by index and summarised in index order)."""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..agents import SeatView, make_agent
from ..engine import Game, OptionError, derive_seed, load
from . import runner


@dataclass(frozen=True)
class GameResult:
    index: int
    seed: int
    returns: tuple[float, ...] | None
    turns: int
    decisions: int
    error: str | None = None


def play_game(game: Game, index: int, seed: int, agent_names: list[str], record_dir: str | None) -> GameResult:
    """Play game number ``index`` of a run seeded by ``seed``; an exception is caught and reported as an error."""
    game_seed = derive_seed(seed, index)
    state = None
    try:
        agents = [make_agent(agent_names[s], derive_seed(seed, index, s + 1)) for s in range(game.num_players)]
        state = game.new_initial_state(game_seed)
        views = [SeatView(state, s) for s in range(game.num_players)]
        decisions = 0
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            state.apply(agents[seat].act(views[seat]))
            decisions += 1
        if record_dir is not None:
            path = Path(record_dir) / f"{game.id}-{index:06d}.json"
            path.write_text(json.dumps(state.to_record(), ensure_ascii=False) + "\n", encoding="utf-8")
        return GameResult(index, game_seed, tuple(state.returns()), state.turn, decisions)
    except Exception as e:  # a bug in a game or agent must not stop a long run: it is counted and reported
        where = traceback.extract_tb(e.__traceback__)[-1]
        message = f"{type(e).__name__}: {e} (at {Path(where.filename).name}:{where.lineno})"
        decisions = len(state.history) if state is not None else 0
        return GameResult(index, game_seed, None, 0, decisions, message)


def _play_chunk(
    context: tuple[str, dict[str, Any], int, list[str], str | None], indices: list[int]
) -> list[GameResult]:
    """The runner's work function: play these games (the game is loaded once per worker)."""
    game_id, options, seed, agent_names, record_dir = context
    game = runner.load_cached(game_id, options)
    return [play_game(game, i, seed, agent_names, record_dir) for i in indices]


def simulate(
    game_id: str,
    *,
    n: int = 100,
    seed: int = 0,
    agents: list[str] | None = None,
    options: dict[str, Any] | None = None,
    jobs: int | None = 1,
    record_dir: str | Path | None = None,
    backend: runner.Backend | str = runner.Backend.PROCESS,
    address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play ``n`` games and summarise them (the ``simulate --json`` object).

    ``jobs=None`` uses every core; ``progress(done, n)`` is called as games finish.
    """
    options = dict(options or {})
    game = load(game_id, **options)  # fail early on a bad game or option
    names = list(agents or ["random"])
    if len(names) == 1:
        names = names * game.num_players
    if len(names) != game.num_players:
        raise OptionError(f"{game_id} with these options has {game.num_players} seats; got {len(names)} agents")
    for s, name in enumerate(names):
        make_agent(name, s)  # validate names before forking
    rdir = None
    if record_dir is not None:
        Path(record_dir).mkdir(parents=True, exist_ok=True)
        rdir = str(record_dir)
    results: list[GameResult] = []

    def on_results(chunk: list[GameResult]) -> None:
        results.extend(chunk)
        if progress is not None:
            progress(len(results), n)

    if progress is not None:
        progress(0, n)
    context = (game_id, options, seed, names, rdir)
    runner.run(_play_chunk, context, range(n), on_results, backend=backend, jobs=jobs, address=address)
    results.sort(key=lambda r: r.index)
    return summarise(game, seed, names, results)


def summarise(game: Game, seed: int, agents: list[str], results: list[GameResult]) -> dict[str, Any]:
    wins = [0] * game.num_players
    draws = 0
    errors = [r for r in results if r.error is not None]
    done = [r for r in results if r.returns is not None]
    for r in done:
        assert r.returns is not None
        best = max(r.returns)
        if best == min(r.returns):
            draws += 1
            continue
        for s, v in enumerate(r.returns):
            if v == best:
                wins[s] += 1
    count = len(done)
    out: dict[str, Any] = {
        "game": game.id,
        "options": game.record_options(),
        "games": len(results),
        "seed": seed,
        "agents": agents,
        "wins": wins,
        "draws": draws,
        "mean_turns": round(sum(r.turns for r in done) / count, 3) if count else 0.0,
        "median_turns": _median([r.turns for r in done]),
        "mean_decisions": round(sum(r.decisions for r in done) / count, 3) if count else 0.0,
        "errors": len(errors),
    }
    if errors:
        out["error_samples"] = [{"game": r.index, "seed": r.seed, "error": r.error} for r in errors[:5]]
    return out


def _median(values: list[int]) -> float:
    if not values:
        return 0.0
    v = sorted(values)
    mid = len(v) // 2
    return float(v[mid]) if len(v) % 2 else (v[mid - 1] + v[mid]) / 2
