"""AI seats: strength labels, the checks on an agent spec, and the worker pool where agents think.

An agent never thinks on the server's event loop: :class:`AIPool` hands a :class:`ThinkJob` (the game's public
inputs: id, options, seed, the action texts so far, the seat, the agent spec and its seed) to one of its worker
processes; the worker rebuilds the state, gives the agent a ``SeatView`` and returns the action's text. The server
then applies that text exactly as it applies a human's. A seat's ``hint`` and ``odds`` (:mod:`.advice`) are jobs of
the same pool (``purpose``), computed from the seat's own view, in the same queue and under the same budget.

What a decision may cost the server is bounded three ways (docs/web.md, "AI seats"):

- **A budget per decision, enforced in the worker**: the agent thinks under
  :func:`~cardarena.agents.time_limit` (``budget`` seconds), so a search stops and answers with its best action
  so far, whatever its spec asks.
- **A worker that overruns is replaced**: one that has not answered ``grace`` seconds after its budget (an agent
  that does not look at the clock, a slow rebuild) is killed and a new one started; the decision fails, and the
  server's fallback answers it.
- **Cheap agents never wait for searches**: one worker is kept for the cheap agents (:data:`CHEAP_SPECS`:
  milliseconds a decision) and searches never run on it, so one game's (or many games') expensive AI cannot make
  another game's easy AI wait. Searches share the other workers first come, first served; a game asks for one
  decision at a time, so that is round-robin between games, each decision bounded by the budget.

Each worker dies with the server: it asks Linux to kill it when its parent dies (``PR_SET_PDEATHSIG``), and a
thread checks its parent's pid every second (other systems, or a worker whose parent thread ended).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from ..agents import SeatView, make_agent, parse_spec, time_limit
from ..agents.levels import LEVEL_SECONDS
from ..engine import OptionError, State, games, load
from . import advice

log = logging.getLogger("cardarena.web")

# The strength labels of the lobby and the agent spec each stands for, and the most a decision of each may think,
# are :mod:`cardarena.agents.levels`' (``LEVELS``, ``GAME_LEVELS``, ``level_spec``, ``LEVEL_SECONDS``): the same
# labels as ``cardarena play --vs LABEL`` and the ladder (docs/web.md, "Strength labels"). A decision stops at its
# label's cap and answers with its best action so far (:func:`~cardarena.agents.time_limit`), so a long Tash-Kalar
# High Form turn does not make a player wait (issue 28, point 9); the figures each strength reaches are measured by
# ``scripts/ai_timings.py`` and its rating by ``cardarena ladder`` (:mod:`.strengths`).


def strength_seconds(label: str | None) -> float | None:
    """The time a decision of strength ``label`` may take (``levels.LEVEL_SECONDS``); ``None`` for an agent spec
    given instead of a label (it gets the server's budget per decision only)."""
    return None if label is None else LEVEL_SECONDS.get(label)


#: The most an agent spec given by a user may ask of the server per decision (a spec is user input: one
#: ``ismcts:iterations=10000000`` would hold a worker for hours). Their product is not capped
#: (``ismcts:iterations=20000,rollout=heuristic,depth=1000`` passes and would cost over an hour): the budget per
#: decision (:class:`AIPool`) bounds every decision whatever its spec.
MAX_AGENT_PARAMS: dict[str, float] = {"iterations": 20_000, "seconds": 10.0, "worlds": 512, "depth": 1_000}


def check_agent(spec: str) -> None:
    """Refuse an unknown spec, a cheating agent (``mcts`` reads hidden cards) and a budget over the caps;
    raise ``OptionError`` with the reason in plain words."""
    if not isinstance(spec, str) or not spec.strip() or len(spec) > 200:
        raise OptionError("an agent spec is a text such as 'ismcts:iterations=500' (at most 200 characters)")
    agent = make_agent(spec, 0)
    if type(agent).cheats:
        raise OptionError(
            f"agent {spec!r} reads the true state, hidden cards included (it cheats: for analysis only);"
            " it cannot sit at a table"
        )
    _, params = parse_spec(spec)
    for name, value in params.items():
        cap = MAX_AGENT_PARAMS.get(name)
        if cap is not None and float(value) > cap:
            raise OptionError(f"agent {spec!r}: {name} is at most {cap:g} on this server")


@dataclass(frozen=True)
class ThinkJob:
    """What a worker needs to choose one action: nothing but the game's public inputs and the seat."""

    key: str  # the game's key (the worker's cache of rebuilt states is keyed by it)
    game: str
    options: dict[str, Any]
    seed: int
    actions: tuple[str, ...]
    seat: int
    agent: str
    agent_seed: int
    #: ``act`` (choose the seat's action), or the help a seat asks for itself (:mod:`cardarena.web.advice`):
    #: ``hint`` (the search's top actions; ``agent`` is the search's spec) or ``odds`` (the hidden facts' odds)
    purpose: str = "act"
    #: the most this decision may think (seconds: its strength's ``levels.LEVEL_SECONDS``), under the pool's budget;
    #: ``None``: the pool's budget alone
    seconds: float | None = None


_CACHE: OrderedDict[str, tuple[int, State]] = OrderedDict()  # per worker process: key -> (actions applied, state)
_CACHE_SIZE = 32


def _rebuild(job: ThinkJob) -> State:
    """The state after ``job.actions``, reusing this worker's last state of the same game when it is a prefix
    (an AI seat asks again a few actions later: replaying only the new ones keeps long games cheap)."""
    cached = _CACHE.pop(job.key, None)
    if cached is not None and cached[0] <= len(job.actions):
        done, state = cached
        if [str(a) for a in state.history] != list(job.actions[:done]):
            state = load(job.game, **job.options).new_initial_state(job.seed)
            done = 0
    else:
        state, done = load(job.game, **job.options).new_initial_state(job.seed), 0
    for text in job.actions[done:]:
        state.apply_text(text)
    _CACHE[job.key] = (len(job.actions), state)
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return state


def think(job: ThinkJob, budget: float | None = None) -> str:
    """The worker's task: rebuild the state, let the agent choose from the seat's view, return the text. With a
    ``budget`` (seconds), the agent's search stops by then and answers with its best action so far. A job for a
    hint or the odds answers their JSON text instead (:func:`advise`)."""
    if job.purpose != "act":
        return advise(job, budget)
    if job.seconds is not None:
        budget = job.seconds if budget is None else min(budget, job.seconds)
    state = _rebuild(job)
    if state.current_player != job.seat:
        raise RuntimeError(f"seat {job.seat} is not to act in game {job.key} at ply {len(job.actions)}")
    agent = make_agent(job.agent, job.agent_seed)
    if budget is None:
        return str(agent.act(SeatView(state, job.seat)))
    with time_limit(budget):
        return str(agent.act(SeatView(state, job.seat)))


def advise(job: ThinkJob, budget: float | None = None) -> str:
    """A hint or the odds for ``job.seat``, from its own view (:mod:`cardarena.web.advice`), as JSON text; with a
    ``budget`` (seconds), the search (or the drawing of worlds) stops by then with what it has."""
    state = _rebuild(job)
    if job.purpose == "hint":
        if state.current_player != job.seat:
            raise RuntimeError(f"seat {job.seat} is not to act in game {job.key}")
        if budget is None:
            return json.dumps(advice.hint(state, job.seat, spec=job.agent, seed=job.agent_seed))
        with time_limit(budget):
            return json.dumps(advice.hint(state, job.seat, spec=job.agent, seed=job.agent_seed))
    if job.purpose == "odds":
        return json.dumps(advice.odds(state, job.seat, seed=job.agent_seed, budget=budget))
    raise ValueError(f"no such job: {job.purpose!r}")


def default_workers() -> int:
    return max(1, min(4, os.cpu_count() or 1))


#: Seconds an AI decision may think on the server (``cardarena serve --ai-budget``). Every named strength has its own
#: smaller cap (``levels.LEVEL_SECONDS``, at most 2.5 s: docs/web.md, "Strength labels"), so this bounds the custom
#: specs an operator allows; a lower ``--ai-budget`` cuts the strengths too.
DEFAULT_BUDGET = 10.0
#: Seconds past its budget after which a worker that has not answered is killed and replaced.
DEFAULT_GRACE = 5.0
#: The agent specs that cost milliseconds a decision (``easy`` is ``heuristic``): they have a worker of their own.
CHEAP_SPECS = frozenset({"random", "heuristic"})

#: A worker's task: (job, budget in seconds) -> the action's text. :func:`think`; tests pass their own.
Task = Callable[[ThinkJob, float], str]


class AIOverrun(RuntimeError):
    """A worker did not answer within its budget and grace; it was killed and replaced."""


class AIWorkerLost(RuntimeError):
    """A worker died (or its pipe broke) before answering; it was replaced."""


@dataclass(eq=False)
class _Call:
    job: ThinkJob
    future: asyncio.Future[str]
    cheap: bool


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    conn: Connection
    lane: bool  # kept for the cheap agents
    ready: bool = False  # it has imported everything and waits for jobs
    call: _Call | None = None  # the decision it is thinking about
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)


class AIPool:
    """The worker processes of AI seats, started on first use: ``workers`` for searches and one more kept for the
    cheap agents (:data:`CHEAP_SPECS`), which also use an idle search worker when theirs is busy. Each decision
    thinks at most ``budget`` seconds; a worker silent ``grace`` seconds longer is killed and replaced.

    ``workers=0`` thinks in a thread instead (for tests of the server's logic that do not need processes; still
    never on the event loop, still under the budget, but nothing can be killed there). ``task`` is what a worker
    runs (:func:`think`; a test may pass a module-level function of its own). Use from one event loop."""

    def __init__(
        self,
        workers: int | None = None,
        *,
        budget: float = DEFAULT_BUDGET,
        grace: float = DEFAULT_GRACE,
        task: Task = think,
    ) -> None:
        if budget <= 0 or grace <= 0:
            raise ValueError("the AI budget and grace are positive numbers of seconds")
        self.workers = default_workers() if workers is None else workers
        self.budget = budget
        self.grace = grace
        self.task = task
        self._workers: list[_Worker] = []
        self._queue: deque[_Call] = deque()
        self._reaping: set[asyncio.Future[None]] = set()
        self._closed = False

    # -- the server's side ------------------------------------------------------------------------------------
    async def think(self, job: ThinkJob, *, timeout: float) -> str:
        """The action text the agent chooses; raises on the agent's failure, a lost or overrunning worker (which
        is replaced) or the ``timeout`` (seconds: waiting for a worker included)."""
        if self.workers == 0:
            return await asyncio.wait_for(asyncio.to_thread(self.task, job, self.budget), timeout)
        if self._closed:
            raise RuntimeError("the AI pool is closed")
        if not self._workers:
            self._start()
        cheap = job.purpose == "act" and job.agent.strip() in CHEAP_SPECS
        call = _Call(job, asyncio.get_running_loop().create_future(), cheap)
        self._queue.append(call)
        self._dispatch()
        try:
            return await asyncio.wait_for(call.future, timeout)
        finally:
            if call in self._queue:  # timed out or cancelled while waiting for a worker
                self._queue.remove(call)

    async def warm(self, timeout: float = 60.0) -> None:
        """Start the workers if they are not, and wait (at most ``timeout`` seconds) until each is ready."""
        if self.workers == 0:
            return
        if not self._workers:
            self._start()
        deadline = time.monotonic() + timeout
        while not all(w.ready for w in self._workers):
            if time.monotonic() > deadline:
                raise TimeoutError(f"the AI workers were not ready within {timeout:g} s")
            await asyncio.sleep(0.05)

    def queued(self) -> int:
        """Decisions waiting for a worker (``/metrics``)."""
        return len(self._queue)

    def thinking(self) -> int:
        """Decisions a worker is thinking about now (``/metrics``; a pool of threads says 0)."""
        return sum(1 for w in self._workers if w.call is not None)

    def pids(self) -> list[int]:
        """The process ids of the live workers (for tests and operators)."""
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    def close(self) -> None:
        """Stop every worker (a worker deep in a search is killed, not waited for)."""
        self._closed = True
        workers, self._workers = self._workers, []
        for worker in workers:
            self._detach(worker, AIWorkerLost("the server is closing"))
            worker.process.terminate()
        for worker in workers:
            worker.process.join(2)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(2)
        for call in self._queue:
            if not call.future.done():
                call.future.set_exception(RuntimeError("the AI pool is closed"))
        self._queue.clear()

    def _start(self) -> None:
        self._workers.append(self._spawn(lane=True))
        self._workers.extend(self._spawn(lane=False) for _ in range(self.workers))

    def _spawn(self, *, lane: bool) -> _Worker:
        # spawn, not fork: the server has threads (the store's thread pool), and forking a process with threads
        # can copy a held lock into the child.
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        process = context.Process(
            target=_worker_main, args=(theirs, os.getpid(), self.task), name="cardarena-ai", daemon=True
        )
        process.start()
        theirs.close()
        worker = _Worker(process, ours, lane)
        asyncio.get_running_loop().add_reader(ours.fileno(), self._on_message, worker)
        return worker

    def _dispatch(self) -> None:
        """Hand the waiting decisions, oldest first, to idle workers: a cheap one to its own worker or any idle
        one, a search to an idle search worker."""
        for call in list(self._queue):
            if call not in self._queue:  # handed out meanwhile (a worker replaced on the way dispatches too)
                continue
            able = [w for w in self._workers if call.cheap or not w.lane]
            if call.future.done() or not able:
                self._queue.remove(call)
                if not call.future.done():
                    call.future.set_exception(AIWorkerLost("no AI worker could start; see the server's log"))
                continue
            idle = [w for w in able if w.ready and w.call is None]
            if not idle:
                continue
            worker = min(idle, key=lambda w: not w.lane)  # a cheap decision prefers its own worker
            self._queue.remove(call)
            try:
                worker.conn.send((call.job, self.budget))
            except OSError:
                self._queue.appendleft(call)
                self._replace(worker, AIWorkerLost("its pipe broke"))
                continue
            worker.call = call
            loop = asyncio.get_running_loop()
            worker.timer = loop.call_later(self.budget + self.grace, self._overrun, worker, call)

    def _on_message(self, worker: _Worker) -> None:
        """A worker wrote: ready, an answer, an error; or its pipe closed (it died)."""
        try:
            message = worker.conn.recv()
        except (EOFError, OSError):
            if not worker.ready:  # it could not even start: starting another would only fail again
                log.error("an AI worker (pid %s) died while starting; it is not replaced", worker.process.pid)
                self._replace(worker, AIWorkerLost("the AI worker died while starting"), again=False)
                return
            log.error("an AI worker (pid %s) died; starting a new one", worker.process.pid)
            self._replace(worker, AIWorkerLost("the AI worker died"))
            return
        kind, value = message
        if kind == "ready":
            worker.ready = True
        else:
            call, worker.call = worker.call, None
            if worker.timer is not None:
                worker.timer.cancel()
            if call is not None and not call.future.done():  # not timed out or cancelled meanwhile
                if kind == "ok":
                    call.future.set_result(value)
                else:
                    call.future.set_exception(RuntimeError(value))
        self._dispatch()

    def _overrun(self, worker: _Worker, call: _Call) -> None:
        if worker.call is not call or worker not in self._workers:
            return
        log.error(
            "an AI worker (pid %s) thought past its budget of %g s and %g s of grace (game %s, %s); replacing it",
            worker.process.pid,
            self.budget,
            self.grace,
            call.job.key,
            call.job.agent,
        )
        self._replace(worker, AIOverrun(f"no answer within {self.budget + self.grace:g} s; the worker was replaced"))

    def _replace(self, worker: _Worker, error: Exception, *, again: bool = True) -> None:
        """Kill ``worker``, fail its decision with ``error`` and (``again``) start another in its place."""
        if worker not in self._workers:
            return
        self._workers.remove(worker)
        self._detach(worker, error)
        worker.process.kill()
        reap = asyncio.ensure_future(asyncio.to_thread(worker.process.join, 10))
        self._reaping.add(reap)
        reap.add_done_callback(self._reaping.discard)
        if again and not self._closed:
            self._workers.append(self._spawn(lane=worker.lane))
        self._dispatch()

    @staticmethod
    def _detach(worker: _Worker, error: Exception) -> None:
        """Stop listening to ``worker`` and fail the decision it held."""
        if worker.timer is not None:
            worker.timer.cancel()
        with contextlib.suppress(RuntimeError, OSError, ValueError):  # no loop any more, or the pipe is closed
            asyncio.get_running_loop().remove_reader(worker.conn.fileno())
        worker.conn.close()
        call, worker.call = worker.call, None
        if call is not None and not call.future.done():
            call.future.set_exception(error)


# -- the worker's side ----------------------------------------------------------------------------------------
PR_SET_PDEATHSIG = 1  # linux/prctl.h


def die_with_parent(parent: int) -> None:
    """End this process when ``parent`` dies (a server killed with SIGKILL cannot stop its workers itself): the AI
    workers and the replay worker call it first thing."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # the thread below still watches

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    if os.getppid() != parent:  # it died before the signal was asked for
        os._exit(0)
    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def _worker_main(conn: Connection, parent: int, task: Task) -> None:
    """A worker's life: answer ``(job, budget)`` with ``("ok", text)`` or ``("error", reason)``, one at a time,
    until the server closes the pipe or dies."""
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C on the server's terminal: the server stops its workers
    for game_id in games():  # import and load every game now: a decision should not pay for it (about a second)
        try:
            load(game_id).new_initial_state(0)
        except Exception:  # a game that needs options: its first decision loads it
            log.debug("the AI worker could not preload %s", game_id, exc_info=True)
    conn.send(("ready", None))
    while True:
        try:
            job, budget = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply = ("ok", task(job, budget))
        except Exception as e:
            reply = ("error", f"{type(e).__name__}: {e}")
        try:
            conn.send(reply)
        except OSError:
            return
