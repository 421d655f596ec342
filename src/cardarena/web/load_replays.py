"""The replay load test (issue 27, point 4): ``python -m cardarena.web.load_replays`` (``make load-replays``).

Live games of scripted WebSocket clients (as in :mod:`cardarena.web.load`) play beside clients that hammer the
replay of many distinct finished games, and the script reports the live games' act->ack latency percentiles, so
that the cost of replays to live play shows. Before the server starts, ``--replay-games`` finished games (random
legal play, no resignation) are written into its database: none of them is in the server's memory, and a replay
client picks one at random for each request (a seat, ``spectator`` or ``open``, and a random ply, 0 and the end
included), so most requests miss whatever the server keeps. Each replay client is one anonymous address sending
``--replay-rate`` requests a second (18 by default, under the REST limit of 20) whether or not the earlier ones
have been answered; it counts the answers by status and measures their latency. It runs in a process of its own,
so that it takes nothing from the live clients, whose latency is measured. ``--replay-clients 0`` gives the
same live load without replays, for comparison.

``check=True`` (``--check``) also compares every answered step with the finished game's record replayed in the
load script (the view of the asked seat at the asked ply and its log): the small run in ``make test``
(tests/web/test_load_replays.py) is a correctness check, without timing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from ..engine import load
from .load import HOST, Server, Stats, _game, _percentile, free_port
from .store import GameRow, GameStatus, SeatKind, SeatRow, Store, open_store
from .views import log_text, named_view, seat_names, state_view

IN_FLIGHT = 32  # a replay client's requests waiting for an answer at once, at most (beyond: it skips a beat)


@dataclass
class ReplayStats:
    latencies: list[float] = field(default_factory=list)  # seconds, answered steps (200)
    statuses: dict[int, int] = field(default_factory=dict)
    skipped: int = 0  # requests not sent: IN_FLIGHT were already waiting
    problems: list[str] = field(default_factory=list)


def seed_finished_games(store: Store, game: str, count: int, seed: int) -> dict[str, tuple[GameRow, list[str]]]:
    """``count`` finished games of ``game`` written straight into ``store`` (random players that never resign):
    their rows and action texts by key. A server started on the store afterwards has none of them in memory."""
    rng = random.Random(seed)
    games: dict[str, tuple[GameRow, list[str]]] = {}
    players = load(game).num_players
    for i in range(count):
        seats = tuple(SeatRow(s, SeatKind.AI, f"random {s}", agent="random", claimed=True) for s in range(players))
        key, game_seed = f"replay{seed}x{i}", rng.getrandbits(63)
        store.create_game(
            GameRow(key=key, game=game, options={}, seed=game_seed, seats=seats, status=GameStatus.RUNNING)
        )
        state = load(game).new_initial_state(game_seed)
        while not state.is_terminal():
            action = rng.choice(state.playout_actions())
            seat, ply = state.current_player, len(state.history)
            state.apply(action)
            store.append_action(key, ply, seat, str(action), result=state.returns() if state.is_terminal() else None)
        games[key] = (store.get_game(key), [str(a) for a in state.history])
    return games


def _seed(db: str, game: str, count: int, seed: int) -> dict[str, tuple[GameRow, list[str]]]:
    store = open_store(db)
    try:
        return seed_finished_games(store, game, count, seed)
    finally:
        store.close()


def reference_step(row: GameRow, actions: Sequence[str], seat: int | str | None, ply: int) -> dict[str, Any]:
    """What a replay step must hold, straight from the record: the viewer's view after ``ply`` actions and the
    texts of its log up to there (every action's description for ``open``)."""
    state = load(row.game, **row.options).new_initial_state(row.seed)
    texts: list[str] = []
    for text in actions[:ply]:
        action = state.game.parse_action(state, text)
        if seat == "open":
            texts.append(state.game.describe_action(state, action))
        else:
            assert seat is None or isinstance(seat, int)
            line = log_text(state, action, seat)
            if line:
                texts.append(line)
        state.apply(action)
    names = seat_names([s.name for s in row.seats])  # the words a view says with names (its end_reason)
    if seat == "open":
        views = [named_view(state_view(state, s, acting=False), names) for s in range(state.game.num_players)]
        return {"views": views, "log": texts}
    assert seat is None or isinstance(seat, int)
    return {**named_view(state_view(state, seat, acting=False), names), "log": texts}


def _get(url: str) -> tuple[int, Any, float]:
    """GET ``url``: the status, the JSON body and the seconds it took."""
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:
            return answer.status, json.loads(answer.read()), time.perf_counter() - started
    except urllib.error.HTTPError as e:
        return e.code, None, time.perf_counter() - started


async def _replay_client(
    base: str,
    games: dict[str, GameRow],
    actions: dict[str, list[str]],
    stats: ReplayStats,
    *,
    rate: float,
    rng: random.Random,
    deadline: float,
    check: bool,
    pool: ThreadPoolExecutor,
) -> None:
    """One anonymous client: ``rate`` replay requests a second of random finished games, seats and plies, each sent
    on time whether or not the earlier ones were answered (at most :data:`IN_FLIGHT` waiting)."""
    loop = asyncio.get_running_loop()
    waiting: set[asyncio.Future[None]] = set()
    keys = sorted(games)

    async def one(key: str, seat: int | str | None, ply: int) -> None:
        query = f"seat={'spectator' if seat is None else seat}&ply={ply}"
        status, body, seconds = await loop.run_in_executor(pool, _get, f"{base}/api/games/{key}/replay?{query}")
        stats.statuses[status] = stats.statuses.get(status, 0) + 1
        if status != 200:
            if status != 429:
                stats.problems.append(f"replay {key} {query}: status {status}")
            return
        stats.latencies.append(seconds)
        if (body["key"], body["ply"], body["plies"], body["seat"]) != (key, ply, len(actions[key]), seat):
            stats.problems.append(f"replay {key} {query}: the answer is of another step")
        elif check:
            want = await loop.run_in_executor(pool, reference_step, games[key], actions[key], seat, ply)
            got = {k: body[k] for k in want}
            got["log"] = [entry["text"] for entry in body["log"]]
            if json.loads(json.dumps(want)) != got:
                stats.problems.append(f"replay {key} {query}: the step differs from the record replayed")

    tick = time.monotonic()
    while tick < deadline:
        waiting = {f for f in waiting if not f.done()}
        if len(waiting) < IN_FLIGHT:
            key = rng.choice(keys)
            players = len(games[key].seats)
            seat = rng.choice([*range(players), None, "open"])
            plies = len(actions[key])
            ply = rng.choice([0, plies, rng.randint(0, plies)])
            waiting.add(asyncio.ensure_future(one(key, seat, ply)))
        else:
            stats.skipped += 1
        tick += 1 / rate
        await asyncio.sleep(max(0.0, tick - time.monotonic()))
    if waiting:
        await asyncio.wait(waiting)


def _replay_process(
    base: str,
    games: dict[str, GameRow],
    actions: dict[str, list[str]],
    *,
    rate: float,
    seed: int,
    seconds: float,
    check: bool,
) -> ReplayStats:
    """One replay client for ``seconds``, in a process of its own (so that its work takes nothing from the live
    clients, whose latency is measured in the main process): its statistics."""
    stats = ReplayStats()
    deadline = time.monotonic() + seconds
    with ThreadPoolExecutor(IN_FLIGHT, thread_name_prefix="replay") as pool:
        client = _replay_client(
            base, games, actions, stats, rate=rate, rng=random.Random(seed), deadline=deadline, check=check, pool=pool
        )
        asyncio.run(client)
    return stats


def _quantiles(values: list[float]) -> dict[str, float]:
    return {q: round(_percentile(values, p), 2) for q, p in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99))}


async def run(
    *,
    games: int,
    game: str = "torabato",
    replay_clients: int = 1,
    replay_games: int = 48,
    replay_rate: float = 18.0,
    db: str | None = None,
    seconds: float = 60.0,
    warmup: float = 2.0,
    think: float = 1.0,
    seed: int = 1,
    check: bool = False,
) -> dict[str, Any]:
    """Seed the finished games, start the server, play ``games`` live games for ``seconds`` with the replay
    clients starting after ``warmup`` seconds; the report as a dict (latencies in milliseconds)."""
    with tempfile.TemporaryDirectory(prefix="cardarena-load-replays-") as tmp:
        db = db or f"sqlite:///{tmp}/load.db"
        seeded = await asyncio.to_thread(_seed, db, game, replay_games, seed)
        finished = {key: row for key, (row, _) in seeded.items()}
        actions = {key: texts for key, (_, texts) in seeded.items()}
        # every scripted game comes from this one address: the cap on its open games is lifted (docs/web.md, Limits)
        uncapped = ("--open-games-per-address", "0")
        server = Server(db, free_port(), ai_workers=1, log=Path(tmp) / "server.log", options=uncapped)
        base, url = f"http://{HOST}:{server.port}", f"ws://{HOST}:{server.port}"
        await asyncio.to_thread(server.start)
        stats, replays = Stats(), ReplayStats()
        try:
            deadline = time.monotonic() + seconds
            started = time.perf_counter()
            tasks = [
                asyncio.create_task(_game(base, url, game, stats, seed + i, deadline, think)) for i in range(games)
            ]
            await asyncio.sleep(min(warmup, seconds))
            loop = asyncio.get_running_loop()
            with ProcessPoolExecutor(max(1, replay_clients), mp_context=multiprocessing.get_context("spawn")) as procs:
                clients = [
                    loop.run_in_executor(
                        procs,
                        partial(
                            _replay_process,
                            base,
                            finished,
                            actions,
                            rate=replay_rate,
                            seed=seed * 1000 + c,
                            seconds=deadline - time.monotonic(),
                            check=check,
                        ),
                    )
                    for c in range(replay_clients)
                ]
                for client in await asyncio.gather(*clients):
                    replays.latencies += client.latencies
                    replays.skipped += client.skipped
                    replays.problems += client.problems
                    for status, count in client.statuses.items():
                        replays.statuses[status] = replays.statuses.get(status, 0) + count
                keys = [k for k in await asyncio.gather(*tasks, return_exceptions=True) if isinstance(k, str)]
            elapsed = time.perf_counter() - started
            problems = list(replays.problems)
            if len(keys) < games:
                problems.append(f"{games - len(keys)} live games could not be created")
            log_tail = (Path(tmp) / "server.log").read_text(errors="replace")[-2000:] if problems else ""
        finally:
            server.stop()
    return {
        "games": games,
        "game": game,
        "think_s": think,
        "actions": len(stats.latencies),
        "seconds": round(elapsed, 2),
        "latency_ms": _quantiles(stats.latencies),
        "errors": stats.errors,
        "reconnects": stats.reconnects,
        "replay_clients": replay_clients,
        "replay_games": replay_games,
        "replay_rate": replay_rate,
        "replay_statuses": replays.statuses,
        "replay_skipped": replays.skipped,
        "replay_latency_ms": _quantiles(replays.latencies),
        "problems": problems,
        "server_log_tail": log_tail,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m cardarena.web.load_replays", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="concurrent live games (default 20)")
    parser.add_argument("--game", default="torabato", help="game id, live and replayed (default torabato)")
    parser.add_argument("--think", type=float, default=1.0, help="seconds between a live player's actions (1)")
    parser.add_argument("--replay-clients", type=int, default=1, help="clients hammering replays (default 1)")
    parser.add_argument("--replay-games", type=int, default=48, help="distinct finished games replayed (48)")
    parser.add_argument("--replay-rate", type=float, default=18.0, help="requests a second per replay client (18)")
    parser.add_argument("--seconds", type=float, default=60.0, help="the run's length (default 60)")
    parser.add_argument("--db", default=None, help="database URL (default: a SQLite file in a temporary directory)")
    parser.add_argument("--check", action="store_true", help="compare every step with the record replayed")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    report = asyncio.run(
        run(
            games=args.games,
            game=args.game,
            replay_clients=args.replay_clients,
            replay_games=args.replay_games,
            replay_rate=args.replay_rate,
            db=args.db,
            seconds=args.seconds,
            think=args.think,
            check=args.check,
        )
    )
    if args.json:
        print(json.dumps(report))
    else:
        lat, rep = report["latency_ms"], report["replay_latency_ms"]
        print(
            f"{report['games']} live games of {report['game']}, think {report['think_s']:g} s:"
            f" {report['actions']} actions in {report['seconds']} s; act->ack p50 {lat['p50']} ms,"
            f" p95 {lat['p95']} ms, p99 {lat['p99']} ms; reconnects {report['reconnects']}, errors {report['errors']}"
        )
        print(
            f"beside {report['replay_clients']} replay client(s) at {report['replay_rate']:g} requests/s over"
            f" {report['replay_games']} finished games: answers {report['replay_statuses']}"
            f" (not sent: {report['replay_skipped']}); replay p50 {rep['p50']} ms, p95 {rep['p95']} ms,"
            f" p99 {rep['p99']} ms"
        )
        for problem in report["problems"]:
            print("PROBLEM:", problem)
    sys.exit(1 if report["problems"] else 0)


if __name__ == "__main__":
    main()
