"""Replays of finished games: each step of a game as one viewer saw it at that time, or with every seat's cards open.

A replay is built from the record alone (the stored seed and actions, replayed), so it shows exactly the game that
was played. A step of a seat is what the server sent that seat then: ``state_view(state, seat)`` of the state
after ``ply`` actions (no legal actions: nothing can be chosen in a replay) and the seat's log up to there.
Replays are given only once a game is over: its record is then public (``/api/games/{key}/record``), so the
number of actions and the order in which they came are no secret any more, but a running game's are.

``open`` shows every seat's view side by side (each seat's own hidden cards are in its view): every card the
game dealt, for after the game.

**Cost (issue 27, point 4).** A replay must not slow the games being played. So a step costs what it shows: the
state at ``ply`` is replayed forward from the nearest checkpoint (a copy of the state kept every
:data:`CHECKPOINT_EVERY` plies, made the first time the replay passes there), and only the asked viewer's log is
built, up to ``ply`` (``ply=0`` needs the initial state only). A finished game that is not in the server's memory
is read from the store (its record and row), never rebuilt as a live table with every viewer's log. The steps are
built, and their answers encoded as JSON, in a worker process of their own (:class:`ReplayWorker`), one at a time,
so that a replay takes nothing from the server process's event loop or its GIL (and, niced, it yields the CPU to
the server); and :class:`ReplayGate` lets one client address have at most :data:`PER_CLIENT` requests waiting for
a step at once (429 ``rate_limited`` beyond, with ``Retry-After``), and all clients :data:`WAITING` (503 ``busy``).
"""

from __future__ import annotations

import asyncio
import bisect
import json
import logging
import multiprocessing
import os
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from typing import Any

from ..engine import State, load
from .ai import die_with_parent
from .lobby import ApiError, summary
from .store import GameRow, GameStatus, Store
from .tables import Table, Tables
from .views import Viewer, log_entry, named_entries, named_view, seat_names, state_view

log = logging.getLogger("cardarena.web")

OPEN = "open"
CHECKPOINT_EVERY = 16  # plies between two kept states of a replayed game
CACHED_GAMES = 32  # replayed games whose checkpoints and logs a worker keeps, least recently used dropped first
CACHED_RECORDS = 64  # finished games' action texts the server keeps (a record is final once the game is over)
PER_CLIENT = 4  # replay requests of one client address in the server at once (one built, the rest waiting)
WAITING = 64  # replay requests of all clients in the server at once
RETRY_AFTER = "1"  # seconds, in a refusal's Retry-After header
WORKER_NICE = 10  # the replay worker's niceness, added to the server's

ReplayViewer = int | str | None  # a seat, ``open`` or None (a spectator)


def read_viewer(value: str | None, players: int) -> Viewer | str:
    """``seat`` of a replay request: a seat number, ``spectator`` (or nothing) or ``open``."""
    if value is None or value in ("", "spectator"):
        return None
    if value == OPEN:
        return OPEN
    if value.isdigit() and int(value) < players:
        return int(value)
    raise ApiError(400, "bad_request", f"seat must be 0..{players - 1}, 'spectator' or 'open'")


def read_ply(value: str | None, plies: int) -> int:
    """``ply`` of a replay request: 0 (the start) .. ``plies`` (the end); nothing means the end."""
    if value is None or value == "":
        return plies
    if not value.isdigit() or int(value) > plies:
        raise ApiError(400, "bad_request", f"ply must be a whole number 0..{plies}")
    return int(value)


NOT_FINISHED_REPLAY = "a game is replayed once it is over (spectators watch it live)"
NOT_FINISHED_RECORD = "the record of a game is given once the game is over"


def check_finished(table: Table) -> None:
    if table.row.status != GameStatus.FINISHED or not table.state.is_terminal():
        raise ApiError(409, "not_finished", NOT_FINISHED_REPLAY)


# -- building a step (in the replay worker) -------------------------------------------------------------------
@dataclass(frozen=True)
class ReplayJob:
    """One step to build: the game's record, the viewer and the ply, and the answer's fields that come from the
    server (``head``: key, game, seats, result). Everything a worker process needs, and nothing secret: the
    record of a finished game is public."""

    key: str
    game: str
    options: dict[str, Any]
    seed: int
    actions: tuple[str, ...]
    viewer: ReplayViewer
    ply: int
    head: dict[str, Any]


class GameReplay:
    """One finished game being replayed: its checkpoints (the state every :data:`CHECKPOINT_EVERY` plies, from the
    start up to the furthest ply replayed so far) and, per viewer, its log as far as it was built."""

    def __init__(self, job: ReplayJob) -> None:
        self.actions = job.actions
        self.source = (job.game, job.options, job.seed, job.actions)  # the record this replays
        self.checkpoints: list[State] = [load(job.game, **job.options).new_initial_state(job.seed)]
        #: per viewer: its log entries, the ply of each entry's action, and how many plies the log covers
        self.logs: dict[ReplayViewer, tuple[list[dict[str, Any]], list[int]]] = {}
        self.logged: dict[ReplayViewer, int] = {}

    def state_at(self, ply: int, *, copy: bool = False) -> State:
        """The state after ``ply`` actions, replayed from the nearest checkpoint at or before ``ply`` (keeping new
        checkpoints on the way). Without ``copy`` it may be a checkpoint itself: to read, not to change."""
        index = min(ply // CHECKPOINT_EVERY, len(self.checkpoints) - 1)
        start = index * CHECKPOINT_EVERY
        if start == ply and not copy:
            return self.checkpoints[index]
        state = self.checkpoints[index].clone()
        self._forward(state, start, ply)
        return state

    def step(self, viewer: ReplayViewer, ply: int) -> tuple[State, list[dict[str, Any]]]:
        """The state after ``ply`` actions (to read only) and ``viewer``'s log up to there."""
        entries, plies = self.logs.setdefault(viewer, ([], []))
        done = self.logged.get(viewer, 0)
        if ply <= done:
            state = self.state_at(ply)
        else:  # the viewer's log reaches ``done`` only: build it on while replaying to ``ply``
            state = self.state_at(done, copy=True)
            self._forward(state, done, ply, viewer=viewer, log=True)
            self.logged[viewer] = ply
        return state, entries[: bisect.bisect_left(plies, ply)]

    def _forward(self, state: State, start: int, end: int, *, viewer: ReplayViewer = None, log: bool = False) -> None:
        """Apply actions ``start..end-1`` to ``state`` (the state after ``start``), adding ``viewer``'s log entries
        on the way if ``log``; a checkpoint is kept at each multiple of :data:`CHECKPOINT_EVERY` past the last."""
        for i in range(start, end):
            action = state.game.parse_action(state, self.actions[i])
            before = state.clone() if log else state
            state.apply(action)
            if log:
                self._log(before, action, state, viewer, i)
            if i + 1 == len(self.checkpoints) * CHECKPOINT_EVERY:
                self.checkpoints.append(state.clone())

    def _log(self, before: State, action: Any, after: State, viewer: ReplayViewer, index: int) -> None:
        entries, plies = self.logs[viewer]
        if viewer == OPEN:  # every action, in full, then its consequences as a spectator is told them
            entries.append(open_entry(before, action, after, index + 1))
            plies.append(index)
            return
        assert viewer is None or isinstance(viewer, int)
        entry = log_entry(before, action, after, viewer, len(entries) + 1)  # as the live table (Table.log_action)
        if entry is not None:
            entries.append(entry)
            plies.append(index)


def open_entry(before: State, action: Any, after: State, n: int) -> dict[str, Any]:
    """The ``n``-th entry of the open replay's log: the action in full, then its consequences as a spectator is
    told them (``narrate`` for ``None``)."""
    text = before.game.describe_action(before, action)
    told = before.game.narrate(before, action, after, None)
    return {"n": n, "ply": n, "seat": before.current_player, "text": text, "lines": [text, *told[1:]]}


_GAMES: OrderedDict[str, GameReplay] = OrderedDict()  # per process: the games replayed lately
_GAMES_LOCK = threading.Lock()  # one step at a time (a thread worker: steps of several apps in one process)


def _replay_of(job: ReplayJob) -> GameReplay:
    """This worker's replay of ``job``'s game (``_GAMES_LOCK`` held), kept among the games replayed lately."""
    game = _GAMES.pop(job.key, None)
    if game is None or game.source != (job.game, job.options, job.seed, job.actions):
        game = GameReplay(job)
    _GAMES[job.key] = game
    while len(_GAMES) > CACHED_GAMES:
        _GAMES.popitem(last=False)
    return game


def build_record(job: ReplayJob) -> bytes:
    """The finished game's record (``GET /api/games/{key}/record``, what ``cardarena replay --verify`` replays) as
    JSON: the state at the end, replayed from the nearest checkpoint like a step."""
    with _GAMES_LOCK:
        state = _replay_of(job).state_at(len(job.actions))
        return json.dumps(state.to_record(), ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def build_step(job: ReplayJob) -> bytes:
    """The ``replay`` answer to ``job`` as JSON (encoded here, off the server's event loop): ``head``, the ply and
    the number of plies, and the viewer's view(s) and log (docs/web.md, Replays)."""
    with _GAMES_LOCK:
        state, entries = _replay_of(job).step(job.viewer, job.ply)
        head = job.head
        base = {
            "key": head["key"],
            "game": head["game"],
            "title": state.game.name,
            "ply": job.ply,
            "plies": len(job.actions),
            "seat": job.viewer,
            "seats": head["seats"],
            "result": head["result"],
        }
        names = seat_names([seat["name"] for seat in head["seats"]])  # as the live table names them now
        if job.viewer == OPEN:
            views = [named_view(state_view(state, seat, acting=False), names) for seat in range(state.game.num_players)]
            answer = {**base, "views": views, "log": named_entries(entries, names)}
        else:
            assert job.viewer is None or isinstance(job.viewer, int)
            view = named_view(state_view(state, job.viewer, acting=False), names)
            answer = {**base, **view, "log": named_entries(entries, names)}
        # as FastAPI's JSONResponse encodes a returned dict: the same bytes as before
        return json.dumps(answer, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def _start_worker(parent: int) -> None:  # in the worker process, once
    """Make this worker yield the CPU to the server (a replay can wait; a move should not), and end it when the
    server that started it is gone (killed, it cannot say so), as the AI workers do."""
    with suppress(OSError):
        os.nice(WORKER_NICE)
    die_with_parent(parent)


class ReplayWorker:
    """Where steps are built: one process of its own (started on first use), so that building a replay holds
    neither the server's event loop nor its GIL; ``processes=0`` builds in a thread instead (for tests of the
    server's logic), one step at a time either way."""

    def __init__(self, processes: int = 1) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        self._turn = asyncio.Lock()  # steps waiting for the thread wait here, not in the server's thread pool

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork, as for the AI pool: the server has threads
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.processes, mp_context=context, initializer=_start_worker, initargs=(os.getpid(),)
            )
        return self._pool

    async def build(self, job: ReplayJob, task: Callable[[ReplayJob], bytes] = build_step) -> bytes:
        """``task(job)`` (a step, or the record) as built by the worker."""
        if self.processes == 0:
            async with self._turn:
                return await asyncio.to_thread(task, job)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), task, job)
        except BrokenProcessPool:
            log.error("the replay worker died; starting a new one for the next step")
            self.close()
            raise ApiError(503, "unavailable", "the replay could not be built; try again") from None

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


# -- the server's side ----------------------------------------------------------------------------------------
class ReplayBusy(ApiError):
    """A replay request refused because too many are waiting (its client's, or everyone's): try again soon."""


class ReplayGate:
    """How many replay requests each client address, and all of them, have in the server at once."""

    def __init__(self, per_client: int = PER_CLIENT, waiting: int = WAITING) -> None:
        self.per_client, self.waiting = per_client, waiting
        self.clients: dict[str, int] = {}

    @asynccontextmanager
    async def slot(self, client: str) -> AsyncIterator[None]:
        """Hold one of ``client``'s places while its request is served; :class:`ReplayBusy` when it has none."""
        if self.clients.get(client, 0) >= self.per_client:
            raise ReplayBusy(
                429, "rate_limited", f"at most {self.per_client} replay requests at once from one client; slow down"
            )
        if sum(self.clients.values()) >= self.waiting:
            raise ReplayBusy(503, "busy", "the server has too many replay requests waiting; try again soon")
        self.clients[client] = self.clients.get(client, 0) + 1
        try:
            yield
        finally:
            self.clients[client] -= 1
            if not self.clients[client]:
                del self.clients[client]


class Replays:
    """The replay steps the server gives: the checks of a request, the record it is built from (the live table's,
    or the store's for a game no longer in memory), and the worker that builds it."""

    def __init__(self, tables: Tables, store: Store, *, processes: int = 1) -> None:
        self.tables, self.store = tables, store
        self.worker = ReplayWorker(processes)
        self.gate = ReplayGate()
        self._actions: OrderedDict[str, tuple[str, ...]] = OrderedDict()

    async def step(self, key: str, seat: str | None, ply: str | None) -> bytes:
        """The JSON answer of ``GET /api/games/{key}/replay?seat=&ply=``; ``ApiError`` 404, 409 or 400 as before."""
        table = self.tables.live(key)
        if table is not None:
            check_finished(table)
            row, actions, seats = table.row, tuple(str(a) for a in table.state.history), table.seats()
        else:
            row, actions = await self._record(key)
            seats = summary(row, ply=0, connected=set())["seats"]  # nobody is connected to a game not in memory
        viewer = read_viewer(seat, len(row.seats))
        at = read_ply(ply, len(actions))
        head = {"key": row.key, "game": row.game, "seats": seats, "result": row.result}
        return await self.worker.build(ReplayJob(row.key, row.game, row.options, row.seed, actions, viewer, at, head))

    async def record(self, key: str) -> bytes:
        """The JSON answer of ``GET /api/games/{key}/record``: a finished game's record (409 before its end). A game
        not in memory is replayed by the worker, not rebuilt as a live table (its record is read from the store)."""
        table = self.tables.live(key)
        if table is not None:
            if table.row.status != GameStatus.FINISHED or not table.state.is_terminal():
                raise ApiError(409, "not_finished", NOT_FINISHED_RECORD)
            record = table.state.to_record()
            return json.dumps(record, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()
        row, actions = await self._record(key, refusal=NOT_FINISHED_RECORD)
        job = ReplayJob(row.key, row.game, row.options, row.seed, actions, None, len(actions), {})
        return await self.worker.build(job, build_record)

    async def finished(self, key: str) -> tuple[GameRow, tuple[str, ...]]:
        """A finished game's row and action texts: the live table's, or the store's for a game not in memory
        (``ApiError`` 404 or 409 as for a step)."""
        table = self.tables.live(key)
        if table is not None:
            check_finished(table)
            return table.row, tuple(str(a) for a in table.state.history)
        return await self._record(key)

    async def _record(self, key: str, *, refusal: str = NOT_FINISHED_REPLAY) -> tuple[GameRow, tuple[str, ...]]:
        """The row and action texts of a finished game from the store (404 if there is none, 409 if it is not
        over). The texts are kept for a while: a finished game's record never changes."""
        row = await self.tables.stored_row(key)
        if row.status != GameStatus.FINISHED:
            raise ApiError(409, "not_finished", refusal)
        actions = self._actions.pop(key, None)
        if actions is None:
            actions = tuple(await asyncio.to_thread(self.store.actions, key))
        self._actions[key] = actions
        while len(self._actions) > CACHED_RECORDS:
            self._actions.popitem(last=False)
        return row, actions

    def close(self) -> None:
        self.worker.close()
