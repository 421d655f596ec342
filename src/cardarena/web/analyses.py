"""Post-game analyses in the browser (issue 31, point 5): "where did I go wrong in that game?"

The replay page of a finished game asks for the analysis of one seat's decisions
(``POST /api/games/{key}/analysis?seat=K`` starts it, ``GET`` tells how far it is and gives it when done). It is the
same analysis as ``cardarena replay FILE --analyse --seat K`` (:mod:`cardarena.agents.analysis`): every decision of
the seat searched from the seat's information only, by the server's analyst (``expert`` unless the server is told
otherwise).

**It never slows live play.** The searches run in a worker process of their own (:class:`AnalysisWorker`, niced,
one decision at a time, started on first use; ``processes=0`` runs them in a thread, for tests), never on the event
loop; each decision's searches stop at :data:`DECISION_SECONDS` at the latest (``time_limit``); and at most
:data:`RUNNING` analyses are under way at once (503 ``busy`` with ``Retry-After`` beyond). The server runs the
analysis decision by decision, so it knows how far it is (``done`` of ``total``), which the page shows.

**It is kept.** A finished analysis is stored with the game (the store's ``analyses`` table, Alembic revision 0004),
per game, seat and analyst, so a restarted server gives it at once. A finished game's record is public, so any
seat's analysis may be asked for by anyone.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from ..agents.analysis import DEFAULT_AGENT, Decision, GameAnalysis, analyse_position, analyst, flag, model_name
from ..agents.search import time_limit
from ..engine import State, load
from .ai import die_with_parent
from .lobby import ApiError
from .replays import Replays
from .store import Store

log = logging.getLogger("cardarena.web")

#: The most one decision's searches may take in the worker, whatever the analyst's spec says.
DECISION_SECONDS = 10.0
#: Analyses under way (running or waiting for the worker) at once, all clients together.
RUNNING = 4
#: Failed analyses whose reason the server remembers (the page says why; asking again retries).
FAILURES = 64
WORKER_NICE = 10
RETRY_AFTER = "5"
SEED = 0  # the analysis's searches' seed: the same game, seat and analyst give the same analysis


@dataclass(frozen=True)
class AnalysisJob:
    """A finished game's record, the seat to analyse and the analyst: everything the worker needs, nothing secret
    (the record of a finished game is public)."""

    key: str
    game: str
    options: dict[str, Any]
    seed: int
    actions: tuple[str, ...]
    seat: int
    agent: str


# -- in the worker -----------------------------------------------------------------------------------------------
_LAST: dict[str, tuple[AnalysisJob, int, State]] = {}  # per worker: the state last replayed, to go on from
_LAST_LOCK = threading.Lock()


def _state_at(job: AnalysisJob, ply: int) -> State:
    """The state before action ``ply`` of ``job``'s record (replayed on from the last one asked, when it can)."""
    with _LAST_LOCK:
        last = _LAST.get("state")
        if last is not None and last[0] == job and last[1] <= ply:
            state, start = last[2], last[1]
        else:
            state, start = load(job.game, **job.options).new_initial_state(job.seed), 0
        for text in job.actions[start:ply]:
            state.apply_text(text)
        _LAST["state"] = (job, ply, state.clone())
        return state


def plan(job: AnalysisJob) -> list[int]:
    """The plies of the seat's decisions in the record."""
    state = load(job.game, **job.options).new_initial_state(job.seed)
    plies: list[int] = []
    for ply, text in enumerate(job.actions):
        if state.current_player == job.seat:
            plies.append(ply)
        state.apply_text(text)
    return plies


def analyse_ply(job: AnalysisJob, ply: int) -> dict[str, Any]:
    """One decision's analysis (JSON-ready), its searches cut at :data:`DECISION_SECONDS`."""
    state = _state_at(job, ply)
    action = state.game.parse_action(state, job.actions[ply])
    with time_limit(DECISION_SECONDS):
        return analyse_position(state, ply, action, agent=job.agent, seed=SEED).to_json()


def _start_worker(parent: int) -> None:  # in the worker process, once
    with suppress(OSError):
        os.nice(WORKER_NICE)
    die_with_parent(parent)


class AnalysisWorker:
    """Where the searches run: one process of its own (spawned on first use), or a thread (``processes=0``)."""

    def __init__(self, processes: int = 1) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        self._turn = asyncio.Lock()

    async def run(self, task: Any, *args: Any) -> Any:
        if self.processes == 0:
            async with self._turn:
                return await asyncio.to_thread(task, *args)
        if self._pool is None:
            context = multiprocessing.get_context("spawn")  # as for the AI pool: the server has threads
            self._pool = ProcessPoolExecutor(
                self.processes, mp_context=context, initializer=_start_worker, initargs=(os.getpid(),)
            )
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, task, *args)
        except BrokenProcessPool:
            self.close()
            raise

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


# -- the server's side -------------------------------------------------------------------------------------------
@dataclass
class _Running:
    done: int = 0
    total: int | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class Analyses:
    """The analyses the server gives: cached in the store, else run in the background, one seat of a finished game
    at a time, at most :data:`RUNNING` at once."""

    def __init__(self, replays: Replays, store: Store, *, agent: str = DEFAULT_AGENT, processes: int = 1) -> None:
        analyst(agent)  # a bad analyst fails when the server starts
        self.replays, self.store, self.agent = replays, store, agent
        self.worker = AnalysisWorker(processes)
        self.running: dict[tuple[str, int], _Running] = {}
        self.failed: OrderedDict[tuple[str, int], str] = OrderedDict()

    def _seat(self, value: str | None, players: int) -> int:
        if value is None or not value.isdigit() or int(value) >= players:
            raise ApiError(400, "bad_request", f"seat must be 0..{players - 1}")
        return int(value)

    async def status(self, key: str, seat: str | None, *, start: bool = False) -> dict[str, Any]:
        """The answer of ``GET`` (``start=False``) or ``POST`` (``start=True``) ``/api/games/{key}/analysis?seat=K``:
        ``status`` ``none`` (not asked for yet), ``running`` (with ``done`` and ``total`` decisions), ``done`` (with
        the ``analysis``) or ``failed`` (with the ``error``). 404 for no game, 409 before its end, 400 for a bad
        seat, 503 ``busy`` when too many analyses are under way."""
        row, actions = await self.replays.finished(key)
        at = self._seat(seat, len(row.seats))
        head: dict[str, Any] = {"key": row.key, "seat": at, "agent": self.agent}
        stored = await asyncio.to_thread(self.store.get_analysis, row.key, at, self.agent)
        if stored is not None:
            return {**head, "status": "done", "analysis": stored}
        running = self.running.get((row.key, at))
        if running is None and start:
            if len(self.running) >= RUNNING:
                raise ApiError(503, "busy", f"{RUNNING} analyses are under way; try again in a while")
            self.failed.pop((row.key, at), None)
            job = AnalysisJob(row.key, row.game, row.options, row.seed, actions, at, self.agent)
            running = self.running[(row.key, at)] = _Running()
            running.task = asyncio.create_task(self._run(job, running))
        if running is not None:
            return {**head, "status": "running", "done": running.done, "total": running.total}
        error = self.failed.get((row.key, at))
        if error is not None:
            return {**head, "status": "failed", "error": error}
        return {**head, "status": "none"}

    async def _run(self, job: AnalysisJob, running: _Running) -> None:
        where = (job.key, job.seat)
        try:
            plies = await self.worker.run(plan, job)
            running.total = len(plies)
            decisions: list[Decision] = []
            for ply in plies:
                decisions.append(Decision.from_json(await self.worker.run(analyse_ply, job, ply)))
                running.done += 1
            flag(decisions)
            final = await self.worker.run(_result, job)
            analysis = GameAnalysis(job.game, job.agent, final[0], SEED, [job.seat], decisions, final[1])
            await asyncio.to_thread(self.store.put_analysis, job.key, job.seat, job.agent, analysis.to_json())
        except asyncio.CancelledError:
            raise
        except Exception as e:  # a worker that died, a store that failed: the page says so, asking again retries
            log.exception("the analysis of game %s, seat %d failed", job.key, job.seat)
            self.failed[where] = f"the analysis failed ({type(e).__name__}); try again"
            while len(self.failed) > FAILURES:
                self.failed.popitem(last=False)
        finally:
            self.running.pop(where, None)

    def close(self) -> None:
        for running in list(self.running.values()):
            if running.task is not None:
                running.task.cancel()
        self.running.clear()
        self.worker.close()


def _result(job: AnalysisJob) -> tuple[str | None, list[float] | None]:
    """The analyst's model for the game and the game's result (in the worker: loading a model costs)."""
    state = _state_at(job, len(job.actions))
    return model_name(job.agent, state.game), state.returns() if state.is_terminal() else None
