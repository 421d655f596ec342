"""AI seats: strength labels, the checks on an agent spec, and the worker pool where agents think.

An agent never thinks on the server's event loop: :class:`AIPool` hands a :class:`ThinkJob` (the game's public
inputs: id, options, seed, the action texts so far, the seat, the agent spec and its seed) to a process of a
``ProcessPoolExecutor``; the worker rebuilds the state, gives the agent a ``SeatView`` and returns the action's
text. The server then applies that text exactly as it applies a human's.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from ..agents import SeatView, make_agent, parse_spec
from ..engine import OptionError, State, load

log = logging.getLogger("cardarena.web")

#: The strength labels of the lobby and the agent spec each stands for (docs/web.md).
STRENGTHS: dict[str, str] = {
    "easy": "heuristic",
    "normal": "ismcts:iterations=300",
    "hard": "ismcts:iterations=2000",
}

#: Where a game's measured setting beats the generic one: the labels it overrides (docs/agents.md, "Tash-Kalar: a
#: search that looks a turn ahead": at about the generic hard's cost per decision, the generic one plays the
#: heuristic's game there, 0.525 against it, this one 0.680 [0.613, 0.741]).
GAME_STRENGTHS: dict[str, dict[str, str]] = {
    "tashkalar": {"hard": "ismcts:iterations=300,rollout=heuristic,depth=10,candidates=8,prior=0.1"},
}


def strength_spec(label: str, game_id: str) -> str:
    """The agent spec a strength label stands for in ``game_id`` (``label`` must be one of :data:`STRENGTHS`)."""
    return GAME_STRENGTHS.get(game_id, {}).get(label, STRENGTHS[label])


#: The most an agent spec given by a user may ask of the server per decision (a spec is user input: one
#: ``ismcts:iterations=10000000`` would hold a worker for hours).
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


def think(job: ThinkJob) -> str:
    """The worker's task: rebuild the state, let the agent choose from the seat's view, return the text."""
    state = _rebuild(job)
    if state.current_player != job.seat:
        raise RuntimeError(f"seat {job.seat} is not to act in game {job.key} at ply {len(job.actions)}")
    agent = make_agent(job.agent, job.agent_seed)
    return str(agent.act(SeatView(state, job.seat)))


def default_workers() -> int:
    return max(1, min(4, os.cpu_count() or 1))


class AIPool:
    """A process pool for AI seats, started on first use. ``workers=0`` thinks in a thread instead (for tests of
    the server's logic that do not need processes; still never on the event loop)."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = default_workers() if workers is None else workers
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: the server has threads (the store's thread pool), and forking a process with
            # threads can copy a held lock into the child.
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def think(self, job: ThinkJob, *, timeout: float) -> str:
        """The action text the agent chooses; raises on the agent's failure, a broken pool or the timeout."""
        if self.workers == 0:
            return await asyncio.wait_for(asyncio.to_thread(think, job), timeout)
        loop = asyncio.get_running_loop()
        try:
            return await asyncio.wait_for(loop.run_in_executor(self._executor(), think, job), timeout)
        except BrokenProcessPool:
            log.error("the AI worker pool broke (a worker died); starting a new one")
            self._discard()
            raise

    def _discard(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            processes = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:  # a worker deep in a search would otherwise run on after the server
                process.terminate()

    def close(self) -> None:
        self._discard()
