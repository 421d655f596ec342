"""The live tables: one authoritative engine ``State`` per game the server serves, and the way actions reach it.

An action, a human's or an AI's, goes one way: checked (the game accepts actions, the seat is to act, the ply is
the seat's current one, the text reads and is legal) -> appended to the store (committed) -> applied to the live
state -> acknowledged to its sender -> broadcast, each connection getting only what its seat may see
(:mod:`cardarena.web.views`). One ``asyncio.Lock`` per game makes actions apply one at a time; every store call
runs in a thread (``asyncio.to_thread``), never on the event loop; AI seats think in :class:`AIPool`.

**Undo.** After a human seat's action the server asks the kernel (:mod:`cardarena.engine.undo`) whether that seat
may take it back, and offers ``can_undo`` to that seat only. An ``undo`` is committed to the store (the action is
removed from the record) before anyone is told; the viewers that saw the action get ``undone`` and their log
entry is withdrawn; the viewers that did not see it hear nothing. AI seats never undo. A seat's ``can_undo`` and
its refusals never depend on actions it did not see (the kernel's rule: see :mod:`cardarena.engine.undo`).

**Clocks and leaving.** A game may have a turn clock (:mod:`cardarena.web.clocks`): one timer task per game sleeps
until the deadline of the human seat to act and, when it passes with that seat still to act, hands the seat to an
AI of the clock's strength; every commit, undo or hand-over re-arms it, and closing the server cancels it. The
clock is shown to everyone, so an action hidden from someone leaves it as it is (:meth:`Tables._clock_after`). A seat
may also leave a running game for good (``hand_over``): an AI of the strength it chose plays on for it.

**What stays in memory** (:mod:`cardarena.web.capacity`). The store holds every game; memory holds the tables
something drives or someone uses. At start only running games with an AI seat or a clock are rebuilt; a table
with no connection, no AI seat to act and no running clock leaves memory after a while and :meth:`Tables.get`
rebuilds it from its record on the next access. A periodic sweep abandons the open games that did not start in
time (their links then answer ``expired``), and creating a game counts its creator's open games in the store.

**The log.** Each viewer's log has one entry per action it sees happen (none for the others): the action as seen
and ``narrate(before, action, after, viewer)``, its consequences as the game tells that viewer
(:func:`views.log_entry`, made when the action is applied). Seat numbers stay in the stored entries; the seats'
names are put in when an entry is sent (:func:`views.named_entries`), since names change while a game runs.

**Thinking and help.** While an AI seat thinks, every connection is told so (``thinking``: public, who and since
when; :meth:`Tables._show_thinking`). A seat may ask for a hint or the odds (:meth:`Tables.advise`): computed in the
AI pool from its own view only (:mod:`cardarena.web.advice`), one question per seat at a time, answered to it only.

**A seat's ply.** Some actions are hidden from other seats even in number (Laplaplace's secret build: the other
seat does not learn how many cards were added). So the server never sends the total number of actions: a
connection's ``ply`` is the length of its own seat's log (the actions that seat saw happen). The seat to act sees
each of its own actions, so a stale or replayed ``act`` (an old ``ply``) is still recognised.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from ..agents.levels import level_spec
from ..engine import Action, RulesError, State, derive_seed, load, prior_state, undo_refusal
from . import advice, protocol
from .ai import AIPool, ThinkJob, strength_seconds, think
from .capacity import Capacity
from .clocks import Clock, now
from .lobby import (
    ApiError,
    account_seat,
    bad_request,
    check_name,
    find_seat,
    hash_token,
    new_token,
    no_game,
    seat_of_secret,
    summary,
)
from .metrics import Metrics
from .ratings import Ratings, rating_key, resigned
from .store import GameRow, GameStatus, SeatKind, SeatRow, Store, StoreError, UnknownGame
from .strengths import words_for
from .views import Viewer, log_entry, named_entries, named_view, seat_names, state_view, viewers, with_names

log = logging.getLogger("cardarena.web")

QUEUE_SIZE = 512  # messages waiting for one slow connection before it is dropped
REPLACED = "this seat was opened in another window or device, so this one stopped"


class ActError(Exception):
    """An action refused: the code of docs/web.md and the reason. The game is unchanged."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(eq=False)
class Conn:
    """One WebSocket of a seat (``seat`` an int) or of a spectator (``None``): an outgoing queue that a writer
    task drains, so a slow client never holds up a game. A client that lets its queue fill up is dropped."""

    seat: Viewer
    queue: asyncio.Queue[dict[str, Any] | None] = field(default_factory=lambda: asyncio.Queue(QUEUE_SIZE))
    log_sent: int = 0  # entries of the seat's log this connection has
    closed: bool = False

    def push(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            log.warning("a connection did not read its messages; dropping it")
            self.closed = True

    def close(self) -> None:
        self.closed = True
        with suppress(asyncio.QueueFull):  # when full, the writer finds ``closed`` set after the messages before it
            self.queue.put_nowait(None)


class Table:
    """One game: its row (seats, status), its live state, each viewer's log and the connections."""

    def __init__(self, row: GameRow, state: State, logs: dict[Viewer, list[dict[str, Any]]]) -> None:
        self.row = row
        self.state = state
        self.logs = logs
        self.lock = asyncio.Lock()
        self.conns: list[Conn] = []
        self.views: dict[Viewer, dict[str, Any]] = {}  # the last view sent to each viewer's connections
        self.ai_task: asyncio.Task[None] | None = None
        #: the state before the last action, while kept (after an undo it is rebuilt from the record)
        self.before: State | None = None
        #: the seat that may take the last action back (a human seat, checked by the kernel), or ``None``
        self.undoable: int | None = None
        #: for each viewer, the index in the history of the action of each of its log entries
        self.entry_plies: dict[Viewer, list[int]] = {v: [] for v in logs}
        self.clock: Clock | None = None if row.clock is None else Clock.from_json(row.clock)
        self.clock_task: asyncio.Task[None] | None = None
        #: counts every change of position (an action or an undo): an AI's answer is for one version only,
        #: since after an undo and another action the history has the same length but not the same actions
        self.version = 0
        #: when the table was last asked for or last left (``time.monotonic``): an idle table leaves memory
        self.touched = time.monotonic()
        #: the AI seat that thinks now and since when (public, sent to everyone as ``thinking``), or ``None``
        self.thinking: tuple[int, datetime] | None = None
        #: the seats with a hint or the odds being computed (one at a time each), and those computations
        self.advising: set[int] = set()
        #: a finished rated game's ``rated`` message (how its players' ratings moved), told to every connection
        #: that comes after its end too; ``None`` until known
        self.rated: dict[str, Any] | None = None
        self.advice_tasks: set[asyncio.Task[None]] = set()

    @property
    def key(self) -> str:
        return self.row.key

    def ply_of(self, viewer: Viewer) -> int:
        return len(self.logs[viewer])

    def connected(self) -> set[int]:
        return {c.seat for c in self.conns if c.seat is not None and not c.closed}

    def spectators(self) -> int:
        """How many spectator connections watch the game (shown to everyone at the table)."""
        return sum(1 for c in self.conns if c.seat is None and not c.closed)

    def summary(self) -> dict[str, Any]:
        return {**summary(self.row, ply=self.ply_of(None), connected=self.connected()), "spectators": self.spectators()}

    def seats(self) -> list[dict[str, Any]]:
        seats: list[dict[str, Any]] = self.summary()["seats"]
        return seats

    def accepts_actions(self) -> bool:
        return self.row.status == GameStatus.RUNNING and not self.state.is_terminal()

    def clock_seat(self) -> int | None:
        """The human seat whose clock runs now (to act in a running game with a clock), or ``None``."""
        seat = self.state.current_player
        if self.clock is None or seat is None or not self.accepts_actions():
            return None
        return seat if self.row.seats[seat].kind == SeatKind.HUMAN else None

    def log_action(self, before: State, action: Action, after: State) -> list[Viewer]:
        """Add ``action``, taken in ``before`` and leading to ``after``, to each viewer's log as that viewer sees
        it, with its consequences (:func:`views.log_entry`); the viewers that see it."""
        index = len(before.history)
        seen = []
        for viewer, entries in self.logs.items():
            # numbered from 1: ``n`` is also the count a client holding it sends as ``since``
            entry = log_entry(before, action, after, viewer, len(entries) + 1)
            if entry is not None:
                entries.append(entry)
                self.entry_plies[viewer].append(index)
                seen.append(viewer)
        return seen

    def names(self) -> list[str]:
        """Each seat's name as the log shows it now (:func:`views.seat_names`)."""
        return seat_names([s.name for s in self.row.seats])

    def withdraw_last(self) -> list[Viewer]:
        """Take the log entries of the last action out of every viewer's log (an undo); the viewers that had one."""
        index = len(self.state.history) - 1
        out = []
        for viewer, plies in self.entry_plies.items():
            if plies and plies[-1] == index:
                plies.pop()
                self.logs[viewer].pop()
                out.append(viewer)
        return out


def build_table(row: GameRow, actions: list[str]) -> Table:
    """The table of a stored game: its initial state from the seed, then every stored action (a replay)."""
    state = load(row.game, **row.options).new_initial_state(row.seed)
    table = Table(row, state, {v: [] for v in viewers(state)})
    for text in actions:
        action = state.game.parse_action(state, text)
        before = state.clone()
        state.apply(action)
        table.log_action(before, action, state)
    table.undoable = undoable_seat(table)
    return table


def undoable_seat(table: Table, before: State | None = None) -> int | None:
    """The human seat that may take the last action of ``table`` back (the kernel's policy), or ``None``; AI seats
    never undo. Runs the kernel's check (a few milliseconds): call it in a thread."""
    state = table.state
    if not state.history or not table.accepts_actions():
        return None
    before = before if before is not None else prior_state(state)
    seat = before.current_player
    if seat is None or table.row.seats[seat].kind != SeatKind.HUMAN:
        return None
    return seat if undo_refusal(state, seat, before=before) is None else None


def driven(row: GameRow) -> bool:
    """Whether a running game goes on with nobody connected: an AI seat may have to act or a clock may run out.
    Such a game is rebuilt when the server starts; the others wait in the store until someone comes."""
    return row.clock is not None or any(s.kind == SeatKind.AI for s in row.seats)


class Tables:
    """Every live table of the server, and what happens at them."""

    def __init__(
        self,
        store: Store,
        ai: AIPool,
        *,
        ai_timeout: float = 120.0,
        capacity: Capacity | None = None,
        ratings: Ratings | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.store = store
        #: the operator's instruments (``/metrics``): actions, the act's latency, refusals
        self.metrics = metrics if metrics is not None else Metrics()
        #: where a finished rated game's result updates its players' ratings (none: no game is rated)
        self.ratings = ratings
        self.ai = ai
        self.ai_timeout = ai_timeout
        self.capacity = capacity if capacity is not None else Capacity()
        self._tables: dict[str, Table] = {}
        self._loading = KeyedLocks()  # one rebuild of a game at a time; other games' rebuilds do not wait
        self._creating = asyncio.Lock()  # counting an address's open games and adding one is one step
        #: the spectator's ply of each running game taken out of memory while idle (the lobby lists it as it was)
        self._resting: dict[str, int] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._closing = False

    # -- life cycle -------------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Expire the open games that waited too long; rebuild the running games that go on with nobody connected
        (an AI seat or a turn clock: see :func:`driven`) from their stored records and let their AI seats think;
        start the periodic sweep. Other unfinished games are rebuilt when someone comes (:meth:`get`)."""
        await self.expire_open()
        rows = await asyncio.to_thread(self.store.list_games, (GameStatus.RUNNING,))
        for row in rows:
            if not driven(row):
                continue
            try:
                self._tables[row.key] = await asyncio.to_thread(self._build, row.key)
            except (RulesError, StoreError) as e:
                log.error("game %s cannot be rebuilt from its record (%s); it is not served", row.key, e)
        for table in self._tables.values():
            await self._resume(table)
        log.info("rebuilt %d of %d running games (the others when someone comes)", len(self._tables), len(rows))
        await self._rate_unrated()
        self._sweeper = asyncio.create_task(self._sweep_forever())

    async def close(self) -> None:
        self._closing = True
        tasks = [t.ai_task for t in self._tables.values() if t.ai_task is not None]
        tasks += [t.clock_task for t in self._tables.values() if t.clock_task is not None]
        tasks += [task for t in self._tables.values() for task in t.advice_tasks]
        tasks += [self._sweeper] if self._sweeper is not None else []
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for table in self._tables.values():
            for conn in table.conns:
                conn.close()
        self.ai.close()

    def _build(self, key: str) -> Table:  # in a thread
        row = self.store.get_game(key)
        return build_table(row, self.store.actions(key))

    async def _resume(self, table: Table) -> None:
        """Set a table rebuilt from its record going: its clock (one stopped by a crash between two writes runs
        again) and its AI seats."""
        if table.clock is not None and table.clock.since is None and table.accepts_actions():
            await self._restart_clock(table)
        self._arm_clock(table)
        self._kick_ai(table)

    async def get(self, key: str) -> Table:
        """The live table of ``key``, rebuilt from the store if it is not in memory (a finished game, an idle one,
        one not rebuilt at start); ``ApiError`` 404 when there is no such game, 410 when it expired."""
        table = self._tables.get(key)
        if table is None:
            if not isinstance(key, str) or not 0 < len(key) <= 64:
                raise no_game()
            async with self._loading.of(key):
                table = self._tables.get(key)
                if table is None:
                    table = await self._load(key)
        table.touched = time.monotonic()
        return table

    async def _load(self, key: str) -> Table:
        """Rebuild ``key``'s table from the store (its loading lock held); an open game past its time expires."""
        try:
            row = await asyncio.to_thread(self.store.get_game, key)
        except UnknownGame:
            raise no_game() from None
        if row.status == GameStatus.OPEN and row.created < self._open_cutoff():
            await asyncio.to_thread(self.store.set_status, key, GameStatus.ABANDONED)
            log.info("game %s expired: not started within %g s", key, self.capacity.expire_open_after)
            row = replace(row, status=GameStatus.ABANDONED)
        if row.status == GameStatus.ABANDONED:
            raise self.capacity.expired()
        try:
            table = await asyncio.to_thread(self._build, key)
        except UnknownGame:
            raise no_game() from None
        if row.rated and row.status == GameStatus.FINISHED and self.ratings is not None:
            changes = await asyncio.to_thread(self.ratings.changes_of, row)
            table.rated = {"type": "rated", "changes": changes} if changes else None
        self._tables[key] = table
        self._resting.pop(key, None)
        await self._resume(table)
        return table

    def live(self, key: str) -> Table | None:
        return self._tables.get(key)

    def live_counts(self) -> dict[str, int]:
        """How many games this process holds in memory, by status (``/metrics``)."""
        counts: dict[str, int] = {}
        for table in self._tables.values():
            counts[str(table.row.status)] = counts.get(str(table.row.status), 0) + 1
        return counts

    def connections(self) -> int:
        """Open connections at every table (``/metrics``)."""
        return sum(1 for table in self._tables.values() for c in table.conns if not c.closed)

    async def stored_row(self, key: str) -> GameRow:
        """``key``'s row as stored (``ApiError`` 404 when there is no such game), for what needs no live table."""
        if not isinstance(key, str) or not 0 < len(key) <= 64:
            raise no_game()
        try:
            return await asyncio.to_thread(self.store.get_game, key)
        except UnknownGame:
            raise no_game() from None

    # -- what the server keeps (docs/web.md, Limits) ---------------------------------------------------------
    def _open_cutoff(self) -> datetime:
        """Open games created before this moment have waited too long."""
        return datetime.now(UTC) - timedelta(seconds=self.capacity.expire_open_after)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.capacity.sweep_period)
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep of open and idle games failed; it runs again later")

    async def sweep(self) -> None:
        """Expire the open games past their time, then take the idle tables out of memory."""
        await self.expire_open()
        self.unload_idle()

    async def expire_open(self, *, at_most: int = 500) -> int:
        """Abandon the open games created more than ``capacity.expire_open_after`` seconds ago (``at_most`` of
        them, the next sweep goes on); their connections are told ``expired`` and closed. How many expired."""
        rows = await asyncio.to_thread(
            self.store.list_games, (GameStatus.OPEN,), before=self._open_cutoff(), limit=at_most
        )
        for row in rows:
            await self._expire(row.key)
        if rows:
            log.info("%d open games expired (not started within %g s)", len(rows), self.capacity.expire_open_after)
        return len(rows)

    async def _expire(self, key: str) -> None:
        table = self._tables.get(key)
        if table is None:
            async with self._loading.of(key):  # no one rebuilds it meanwhile
                table = self._tables.get(key)
                if table is None:
                    await asyncio.to_thread(self.store.set_status, key, GameStatus.ABANDONED)
                    return
        async with table.lock:  # no one joins it meanwhile
            if table.row.status != GameStatus.OPEN:
                return
            await asyncio.to_thread(self.store.set_status, key, GameStatus.ABANDONED)
            table.row = replace(table.row, status=GameStatus.ABANDONED)
            error = self.capacity.expired()
            for conn in table.conns:
                conn.push({"type": "error", "code": error.code, "message": error.message})
                conn.close()
        if self._tables.get(key) is table:
            del self._tables[key]

    def unload_idle(self) -> int:
        """Take out of memory every table that nothing drives: no connection, no AI seat to act, no running clock,
        no action under way, untouched for ``capacity.unload_idle_after`` seconds. The store has all of it: the
        next :meth:`get` rebuilds the same table. How many left."""
        moment = time.monotonic()
        idle = [t for t in self._tables.values() if self._idle(t, moment)]
        for table in idle:
            del self._tables[table.key]
            if table.row.status == GameStatus.RUNNING:
                self._resting[table.key] = table.ply_of(None)
        return len(idle)

    def _idle(self, table: Table, moment: float) -> bool:
        return (
            moment - table.touched >= self.capacity.unload_idle_after
            and not table.conns
            and not table.lock.locked()
            and (table.ai_task is None or table.ai_task.done())
            and (table.clock_task is None or table.clock_task.done())
            and self._ai_seat(table) is None
            and table.clock_seat() is None
        )

    async def listing(self, rows: list[GameRow]) -> list[dict[str, Any]]:
        """The lobby's summaries of listed games. A table in memory gives its own; an open game out of memory has
        no action and nobody connected; a running one out of memory is shown as it was when it left memory (after
        a restart: rebuilt once, to count the actions a spectator sees, which the store does not know)."""
        out = []
        for row in rows:
            table = self._tables.get(row.key)
            if table is None and row.ply != 0 and row.key not in self._resting:
                try:
                    table = await self.get(row.key)
                except (ApiError, RulesError, StoreError):
                    continue
            if table is not None:
                if not table.row.private:
                    out.append(table.summary())
                continue
            ply = self._resting.get(row.key, 0)
            out.append({**summary(row, ply=ply, connected=set()), "spectators": 0})
        return out

    # -- the lobby --------------------------------------------------------------------------------------------
    async def create(self, row: GameRow) -> Table:
        """Store and seat a new game; ``ApiError`` 409 ``too_many_open`` when it would wait for players and its
        creator's address has ``capacity.open_per_address`` such games already, ``too_many_ai_games`` when only AIs
        play it and the address has as many such games running."""
        ai_only = all(s.kind == SeatKind.AI for s in row.seats)
        if ai_only:
            row = replace(row, status=GameStatus.RUNNING)
        async with self._creating:
            if ai_only and row.creator is not None:
                running = sum(1 for t in self._tables.values() if _ai_only_running(t, row.creator))
                if self.capacity.capped(running):
                    raise self.capacity.too_many_ai_games(running)
            elif row.status == GameStatus.OPEN and row.creator is not None:
                count = self.store.count_games
                waiting = await asyncio.to_thread(count, (GameStatus.OPEN,), creator=row.creator)
                if self.capacity.capped(waiting):
                    raise self.capacity.too_many_open(waiting)
            await asyncio.to_thread(self.store.create_game, row)
        table = await asyncio.to_thread(build_table, row, [])
        self._tables[row.key] = table
        await self._restart_clock(table)
        self._kick_ai(table)
        return table

    async def join(self, table: Table, token: object, name: object, *, account: int | None = None) -> tuple[int, str]:
        """Take the open seat whose invitation ``token`` is: the seat and its new secret, which replaces the
        invitation (stored hashed, given to the joiner only). A taken seat's token (its secret, or an invitation
        used already) is refused, so nobody can rename a player or take their seat over. ``account``: the
        signed-in joiner's account, which the seat is bound to (:meth:`_claim`)."""
        async with table.lock:
            seat = find_seat(table.row, token)
            if seat is None:
                raise ApiError(
                    403,
                    "bad_token",
                    "this link's token is not an open seat of this game (an invitation works once: someone has "
                    "taken this seat)",
                )
            if seat.claimed:
                raise ApiError(409, "taken", "this seat is taken already: its page opens with the seat's secret")
            secret = await self._claim(table, seat, name, account)
        self._kick_ai(table)
        return seat.seat, secret

    async def sit(
        self, table: Table, seat_number: object, name: object, *, account: int | None = None
    ) -> tuple[int, str]:
        """Anyone takes an open human seat of a listed (not private) game, without an invitation: the seat and
        its new secret, given to the sitter only (the invitation the creator holds stops working). A private
        game's seats are reached only by their invitations; a taken seat is refused like a used invitation, and so
        is a seat named when the game was made (the creator's own, or kept for someone: 409 ``reserved``)."""
        async with table.lock:
            if table.row.private:
                raise ApiError(
                    403, "private", "this game is private: its seats are taken only with their invitation links"
                )
            if not isinstance(seat_number, int) or isinstance(seat_number, bool):
                raise bad_request("seat is the number of an open seat of this game")
            seat = next((s for s in table.row.seats if s.seat == seat_number), None)
            if seat is None or seat.kind != SeatKind.HUMAN:
                raise bad_request(f"this game has no human seat {seat_number}")
            if seat.claimed:
                raise ApiError(409, "taken", "this seat is taken already: choose an open seat")
            if seat.name:  # named when the game was made: its creator's own (or a friend's), not offered
                raise ApiError(409, "reserved", f"this seat is kept for {seat.name}: choose an open seat")
            secret = await self._claim(table, seat, name, account)
        self._kick_ai(table)
        return seat.seat, secret

    async def _claim(self, table: Table, seat: SeatRow, name: object, account: int | None) -> str:
        """Name the open ``seat`` and give it a new secret (stored hashed, returned), which replaces its
        invitation; the game starts when every human seat is taken. The caller holds the table's lock.

        ``account`` (the taker is signed in) binds the seat to it: its player comes back to it from any browser
        signed in to the account. A rated game's seats go to signed-in people only (403 ``sign_in_required``),
        one seat an account (409 ``same_account``: nobody rates themselves)."""
        if table.row.status in (GameStatus.FINISHED, GameStatus.ABANDONED):
            raise ApiError(409, "finished", "this game is over")
        if table.row.rated and account is None:
            raise ApiError(403, "sign_in_required", "this game is rated: sign in (or register) to take a seat")
        if table.row.rated and any(s.account == account and s.claimed for s in table.row.seats):
            raise ApiError(409, "same_account", "your account has a seat of this rated game already")
        secret = new_token()
        claimed = replace(seat, name=check_name(name), claimed=True, token_hash=hash_token(secret), account=account)
        await asyncio.to_thread(self.store.update_seat, table.key, claimed, ply=table.row.ply)
        row = replace(table.row, seats=tuple(claimed if s.seat == seat.seat else s for s in table.row.seats))
        if row.status == GameStatus.OPEN and all(s.claimed for s in row.seats):
            await asyncio.to_thread(self.store.set_status, table.key, GameStatus.RUNNING)
            row = replace(row, status=GameStatus.RUNNING)
        table.row = row
        await self._restart_clock(table)
        self._broadcast_seats(table)
        self._broadcast(table)
        return secret

    async def leave(self, table: Table, token: object, *, account: int | None = None) -> tuple[int, str]:
        """The seat whose secret ``token`` is becomes open again: its secret stops working (its connections are
        closed) and a new invitation replaces it, returned to the leaver to pass on (or to come back with); an
        account bound to it is no longer. Not in a running rated game (409 ``rated``): someone else would finish
        it for the leaver, who would escape the loss that leaving is there (:meth:`hand_over` is how to leave it).
        Without ``token``: the seat bound to ``account`` (its player signed in, in a browser without the secret)."""
        async with table.lock:
            seat = account_seat(table.row, account) if token is None else seat_of_secret(table.row, token)
            if table.row.rated and table.row.status == GameStatus.RUNNING:
                raise ApiError(
                    409,
                    "rated",
                    "a rated game's seat is not given back once it runs: hand it to an AI instead (handover), which "
                    "counts as a loss",
                )
            invitation = new_token()
            opened = replace(seat, name="", claimed=False, token_hash=hash_token(invitation), account=None)
            await asyncio.to_thread(self.store.update_seat, table.key, opened, ply=table.row.ply)
            table.row = replace(table.row, seats=tuple(opened if s.seat == seat.seat else s for s in table.row.seats))
            self._close_seat(table, seat.seat, protocol.error("left", "this seat was left: it is open again"))
            self._broadcast_seats(table)
        return seat.seat, invitation

    async def rename_account(self, account: int, name: str) -> int:
        """Give every seat bound to ``account`` the name ``name``, in every game (a deleted account's games stay,
        under the deleted name); the tables in memory show it at once. The number of games changed."""
        rows = await asyncio.to_thread(self.store.list_games, tuple(GameStatus), account=account)
        for row in rows:
            table = self._tables.get(row.key)
            if table is not None:
                async with table.lock:
                    table.row = await self._rename_seats(table.row, account, name)
                    self._broadcast_seats(table)
                continue
            try:
                await self._rename_seats(row, account, name)
            except StoreError:  # it moved (loaded and played meanwhile): once more, from the table or the store
                table = self._tables.get(row.key)
                if table is None:
                    await self._rename_seats(await self.stored_row(row.key), account, name)
                else:
                    async with table.lock:
                        table.row = await self._rename_seats(table.row, account, name)
                        self._broadcast_seats(table)
        return len(rows)

    async def _rename_seats(self, row: GameRow, account: int, name: str) -> GameRow:
        seats = list(row.seats)
        for i, seat in enumerate(seats):
            if seat.account == account:
                seats[i] = replace(seat, name=name)
                await asyncio.to_thread(self.store.update_seat, row.key, seats[i], ply=row.ply)
        return replace(row, seats=tuple(seats))

    # -- connections ------------------------------------------------------------------------------------------
    def attach(self, table: Table, conn: Conn, *, since: int) -> None:
        """A connection joins the table: it gets ``welcome``, then the state with the log after ``since``.

        A seat has one live connection: the newest. An older one of the same seat (another window, another
        device, or a socket a network drop left half open while the page reconnected) is told ``replaced`` and
        closed, so the seat's owner sees when the seat was opened elsewhere and nobody reads along unseen."""
        if table.row.status == GameStatus.ABANDONED:  # it expired while this connection said hello
            error = self.capacity.expired()
            conn.push({"type": "error", "code": error.code, "message": error.message})
            conn.close()
            return
        if self._tables.setdefault(table.key, table) is not table:  # unloaded and rebuilt while it said hello
            log.warning("game %s: a connection came to a table that had left memory; it connects again", table.key)
            conn.push(protocol.error("unavailable", "the game was reloaded while this page connected; reconnecting"))
            conn.close()  # the page reconnects (with backoff) and reaches the live table
            return
        if conn.seat is not None:
            self._close_seat(table, conn.seat, protocol.error("replaced", REPLACED))
        table.conns.append(conn)
        conn.log_sent = min(max(since, 0), table.ply_of(conn.seat))
        conn.push(
            {
                "type": "welcome",
                "seat": conn.seat,
                "game": table.summary(),
                "rules_url": _rules_url(table),
                "odds": advice.has_odds(table.state.game),
                # hints and odds: offered in every game but a rated one (its players' own play is rated)
                "advice": not table.row.rated,
                "cards": _card_texts(table),
                # each AI strength in words (the "an AI plays on" menu): never an agent spec
                "strengths": words_for(table.row.game, table.row.options),
            }
        )
        view = self._view(table, conn.seat)
        table.views[conn.seat] = view
        conn.push(self._state_message(table, conn, view))
        if table.thinking is not None:
            conn.push(_thinking_message(table))
        if table.rated is not None:  # a page that comes back after a rated game's end reads how the ratings moved
            conn.push(table.rated)
        self._broadcast_seats(table, skip=conn)  # its own state carries the seats

    @staticmethod
    def _close_seat(table: Table, seat: int, message: dict[str, Any]) -> None:
        """Send ``message`` to every connection of ``seat`` and close them (they leave ``conns`` on detach)."""
        for old in table.conns:
            if old.seat == seat and not old.closed:
                old.push(message)
                old.close()

    def detach(self, table: Table, conn: Conn) -> None:
        conn.close()
        if conn in table.conns:
            table.conns.remove(conn)
        self._broadcast_seats(table)
        table.touched = time.monotonic()
        if not table.conns and table.row.status == GameStatus.FINISHED and not self._closing:
            self._tables.pop(table.key, None)  # rebuilt from the store if someone looks again

    def chat(self, table: Table, conn: Conn, text: str) -> None:
        if conn.seat is None:
            raise ActError("spectator", "spectators watch: they cannot chat")
        name = table.row.seats[conn.seat].name
        message = {"type": "chat", "seat": conn.seat, "name": name, "text": text}
        for other in table.conns:
            other.push(message)

    # -- help: hint and odds (docs/web.md, "Hint and odds") --------------------------------------------------------
    def advise(self, table: Table, conn: Conn, purpose: str) -> None:
        """A seat asks for a hint (it is to act) or the odds: computed in the AI pool from its own view, answered
        to this connection only. One question per seat at a time (:class:`ActError` ``busy`` otherwise), so no
        page can fill the pool: it waits its turn with the AI seats' decisions, under the same budget."""
        seat = conn.seat
        if seat is None:
            raise ActError("spectator", "spectators watch: hints and odds are for the players")
        if not table.accepts_actions():
            raise ActError("finished" if table.state.is_terminal() else "waiting", "there is no game to help with")
        _check_human(table, seat)
        if table.row.rated:
            raise ActError("rated", "no hints or odds in a rated game: it is your own play that is rated")
        if purpose == "hint" and table.state.current_player != seat:
            raise ActError("not_your_turn", "a hint is for your own decision: it is not your turn")
        if purpose == "odds" and not advice.has_odds(table.state.game):
            raise ActError("no_odds", f"{table.state.game.name} declares no hidden facts to give odds on")
        if seat in table.advising:
            raise ActError("busy", f"your last question is still being answered: one at a time (no {purpose} now)")
        row, ply = table.row, table.ply_of(seat)
        tag = advice.TAG_HINT if purpose == "hint" else advice.TAG_ODDS
        job = ThinkJob(
            key=row.key,
            game=row.game,
            options=row.options,
            seed=row.seed,
            actions=tuple(str(a) for a in table.state.history),
            seat=seat,
            agent=advice.HINT_SPEC if purpose == "hint" else "odds",
            agent_seed=advice.advice_seed(row.seed, tag, seat, ply),
            purpose=purpose,
        )
        table.advising.add(seat)
        task = asyncio.create_task(self._advise(table, conn, job, ply))
        table.advice_tasks.add(task)
        task.add_done_callback(table.advice_tasks.discard)

    async def _advise(self, table: Table, conn: Conn, job: ThinkJob, ply: int) -> None:
        """Compute ``job`` in the pool and answer it to ``conn`` (``ply``: the seat's ply it is about)."""
        try:
            answer = _named_advice(json.loads(await self.ai.think(job, timeout=self.ai_timeout)), table.names())
            conn.push({"type": job.purpose, "ply": ply, **answer})
        except asyncio.CancelledError:
            raise
        except Exception as e:
            log.error(
                "game %s: the %s for seat %d failed (%s: %s)", job.key, job.purpose, job.seat, type(e).__name__, e
            )
            conn.push(protocol.error("unavailable", f"the {job.purpose} could not be computed now; try again"))
        finally:
            table.advising.discard(job.seat)

    # -- actions ----------------------------------------------------------------------------------------------
    async def act(self, table: Table, conn: Conn, ply: int, text: str) -> None:
        """A seat's action, refused with :class:`ActError` (the game unchanged) or committed, applied,
        acknowledged to ``conn`` and broadcast."""
        started = time.perf_counter()
        try:
            await self._act(table, conn, ply, text)
        except ActError as e:
            self.metrics.refused.labels(code=e.code).inc()
            raise
        self.metrics.latency.observe(time.perf_counter() - started)
        self._kick_ai(table)

    async def _act(self, table: Table, conn: Conn, ply: int, text: str) -> None:
        seat = conn.seat
        if seat is None:
            raise ActError("spectator", "spectators watch: they cannot act")
        async with table.lock:
            state = table.state
            if state.is_terminal() or table.row.status in (GameStatus.FINISHED, GameStatus.ABANDONED):
                raise ActError("finished", "this game is over")
            if table.row.status != GameStatus.RUNNING:
                raise ActError("waiting", "the game starts once every human seat is taken")
            if ply != table.ply_of(seat):
                raise ActError("stale_ply", f"that answers ply {ply}; the game is at ply {table.ply_of(seat)}")
            if state.current_player != seat:
                raise ActError("not_your_turn", f"seat {state.current_player} is to act, not seat {seat}")
            _check_human(table, seat)
            try:
                action = state.game.parse_action(state, text)
            except RulesError as e:
                raise ActError("malformed", f"not an action of {state.game.id}: {e}") from None
            if not state.is_legal(action):
                raise ActError("illegal", f"{text!r} is not legal now: {state.why_illegal(action)}")
            await self._commit(table, seat, action, conn)

    async def _commit(self, table: Table, seat: int, action: Action, sender: Conn | None) -> None:
        """Commit, apply, acknowledge, broadcast (``table.lock`` held)."""
        state = table.state
        ply = len(state.history)
        after = state.clone()
        after.apply(action)
        result = after.returns() if after.is_terminal() else None
        try:
            await asyncio.to_thread(self.store.append_action, table.key, ply, seat, str(action), result=result)
        except StoreError as e:
            log.error("game %s: the action at ply %d could not be stored: %s", table.key, ply, e)
            raise ActError("unavailable", "the action could not be saved; try again") from None
        self.metrics.actions.labels(by="person" if sender is not None else "ai").inc()
        seen_by = table.log_action(state, action, after)
        table.before, table.state = state, after
        table.version += 1
        status = GameStatus.FINISHED if result is not None else table.row.status
        table.row = replace(table.row, ply=ply + 1, result=result, status=status)
        table.undoable = None
        await self._clock_after(table, charge=seat, seen_by=seen_by, acting=seat)
        if sender is not None:
            sender.push({"type": "ack", "ply": table.ply_of(seat)})
            table.undoable = await asyncio.to_thread(undoable_seat, table, state)
        self._broadcast(table)
        if result is not None and table.row.rated:
            await self._rate(table)

    async def _rate_unrated(self) -> None:
        """Rate the finished rated games a stopped server left unrated (it stopped between storing the result and
        rating it)."""
        if self.ratings is None:
            return
        ratings = self.ratings
        for key in await asyncio.to_thread(ratings.unrated):
            try:
                row = await asyncio.to_thread(self.store.get_game, key)
                history = await asyncio.to_thread(self.store.actions, key)
                forfeited = await asyncio.to_thread(resigned, row, history)
                rating = await asyncio.to_thread(rating_key, row)
                await asyncio.to_thread(ratings.rate_game, row, key=rating, forfeited=forfeited)
            except Exception:
                log.exception("game %s: its players' ratings could not be updated", key)

    async def _rate(self, table: Table) -> None:
        """A rated game has ended (``table.lock`` held): its players' ratings move (:mod:`cardarena.web.ratings`),
        and every connection is told how (``rated``: ratings are public). The result is stored already, so a
        failure here is logged and leaves the game as it is."""
        if self.ratings is None:
            return
        ratings, row, history = self.ratings, table.row, [str(a) for a in table.state.history]

        def rate() -> list[dict[str, Any]]:
            forfeited = resigned(row, history)
            return [c.to_json() for c in ratings.rate_game(row, key=rating_key(row), forfeited=forfeited)]

        try:
            changes = await asyncio.to_thread(rate)
        except Exception:
            log.exception("game %s: its players' ratings could not be updated", table.key)
            return
        if changes:
            table.rated = message = {"type": "rated", "changes": changes}
            for conn in table.conns:
                conn.push(message)

    async def undo(self, table: Table, conn: Conn, ply: int) -> None:
        """A seat takes its last action back (``ply``: the seat's ply, as for ``act``), refused with
        :class:`ActError` (the game unchanged) or committed to the store, then told to the viewers that saw it."""
        seat = conn.seat
        if seat is None:
            raise ActError("spectator", "spectators watch: they cannot undo")
        async with table.lock:
            if not table.accepts_actions():
                raise ActError("finished" if table.state.is_terminal() else "waiting", "there is no game to undo in")
            if ply != table.ply_of(seat):
                raise ActError("stale_ply", f"that answers ply {ply}; the game is at ply {table.ply_of(seat)}")
            _check_human(table, seat)
            if table.undoable != seat:
                reason = await asyncio.to_thread(self._why_no_undo, table, seat, table.before)
                raise ActError("undo_refused", f"you cannot take your last action back: {reason}")
            before = table.before if table.before is not None else await asyncio.to_thread(prior_state, table.state)
            last = len(table.state.history) - 1
            try:
                await asyncio.to_thread(self.store.retract_action, table.key, last)
            except StoreError as e:
                log.error("game %s: the undo of ply %d could not be stored: %s", table.key, last, e)
                raise ActError("unavailable", "the undo could not be saved; try again") from None
            acting = table.state.current_player
            withdrawn = table.withdraw_last()
            table.state, table.before = before, None
            table.version += 1
            table.row = replace(table.row, ply=last)
            table.undoable = await asyncio.to_thread(undoable_seat, table)
            await self._clock_after(table, charge=table.clock_seat(), seen_by=withdrawn, acting=acting)
            for conn_ in table.conns:
                if conn_.seat in withdrawn:
                    conn_.log_sent = min(conn_.log_sent, table.ply_of(conn_.seat))
                    conn_.push({"type": "undone", "seat": seat, "ply": table.ply_of(conn_.seat)})
                    table.views.pop(conn_.seat, None)  # its view is sent again, whatever changed
            conn.push({"type": "ack", "ply": table.ply_of(seat)})
            self._broadcast(table)
        self._kick_ai(table)

    @staticmethod
    def _why_no_undo(table: Table, seat: int, before: State | None) -> str:
        if table.row.seats[seat].kind != SeatKind.HUMAN:
            return "AI seats never undo"
        return undo_refusal(table.state, seat, before=before) or "another action came first"

    # -- clocks and leaving -----------------------------------------------------------------------------------
    async def _restart_clock(self, table: Table, *, charge: int | None = None) -> None:
        """After a change of position (``table.lock`` held, or a new table): charge ``charge``'s running time,
        start the clock of the human seat to act now (if any), store the clock, and re-arm the timer."""
        clock = table.clock
        if clock is None:
            return
        moment = now()
        clock = clock.stop(charge, moment)
        if table.clock_seat() is not None:
            clock = clock.start(moment)
        table.clock = clock
        await asyncio.to_thread(self.store.update_clock, table.key, clock.to_json(), ply=table.row.ply)
        self._arm_clock(table)

    async def _clock_after(
        self, table: Table, *, charge: int | None, seen_by: list[Viewer], acting: int | None
    ) -> None:
        """The clock after an action or an undo (``table.lock`` held) that ``seen_by`` saw happen, taken while
        ``acting`` was to act. The clock is public: it restarts (:meth:`_restart_clock`) only at a change every
        viewer sees (the action is in every viewer's log, or another seat is to act now). A change hidden from
        someone (Laplaplace's secret ``add``) leaves the clock as it is, so its time cannot tell that anything
        happened: a run of hidden decisions is one decision for a ``move`` clock; a ``game`` clock charges the
        same seconds at the next restart. Its timer is re-armed for the new position, with the same deadline."""
        if len(seen_by) == len(table.logs) or table.state.current_player != acting or table.clock_seat() is None:
            await self._restart_clock(table, charge=charge)
        else:
            self._arm_clock(table)

    def _arm_clock(self, table: Table) -> None:
        """(Re)start the game's timer task for the seat whose clock runs; none when no clock runs."""
        if table.clock_task is not None and table.clock_task is not asyncio.current_task():
            table.clock_task.cancel()
        table.clock_task = None
        if table.clock_seat() is not None and table.clock is not None and not self._closing:
            table.clock_task = asyncio.create_task(self._watch_clock(table, table.version))

    async def _watch_clock(self, table: Table, version: int) -> None:
        """Sleep until the deadline of the seat to act in position ``version``; then, if the position is still that
        one, hand the seat to an AI. A change of position cancels this task (and arms a new one)."""
        try:
            while True:
                seat, clock = table.clock_seat(), table.clock
                if seat is None or clock is None or table.version != version:
                    return
                left = clock.left(seat, now(), running=True)
                if left > 0:
                    await asyncio.sleep(min(left, 3600.0))
                    continue
                async with table.lock:
                    if table.clock_seat() != seat or table.version != version:
                        return
                    log.info("game %s: seat %d ran out of time; an AI (%s) plays on", table.key, seat, clock.then)
                    await self._hand_over(table, seat, clock.then, why="time")
                self._kick_ai(table)
                return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: the clock stopped", table.key)

    async def hand_over(self, table: Table, seat: int, strength: str, *, why: str) -> None:
        """``seat`` leaves a running game: an AI of ``strength`` plays on for it (``ApiError`` 409 otherwise)."""
        async with table.lock:
            if not table.accepts_actions():
                raise ApiError(409, "not_running", "only a running game's seat can be handed to an AI")
            if table.row.seats[seat].kind != SeatKind.HUMAN:
                raise ApiError(409, "handed_over", "this seat is played by an AI already")
            await self._hand_over(table, seat, strength, why=why)
        self._kick_ai(table)

    async def _hand_over(self, table: Table, seat: int, strength: str, *, why: str) -> None:
        """Make ``seat`` an AI seat of ``strength`` (``table.lock`` held): stored, then told to every connection."""
        old = table.row.seats[seat]
        running = table.clock_seat()
        name = f"{old.name or f'player {seat + 1}'} ({strength} AI)"
        ai = SeatRow(
            seat,
            SeatKind.AI,
            name,
            agent=level_spec(strength, table.row.game),
            label=strength,
            token_hash=old.token_hash,
            claimed=True,
            account=old.account,  # still its player's: in a rated game, the seat's loss (ratings.py)
        )
        await asyncio.to_thread(self.store.update_seat, table.key, ai, ply=table.row.ply)
        table.row = replace(table.row, seats=tuple(ai if s.seat == seat else s for s in table.row.seats))
        if table.undoable == seat:
            table.undoable = None
        await self._restart_clock(table, charge=running)
        message = {"type": "handed_over", "seat": seat, "strength": strength, "why": why}
        for conn in table.conns:
            conn.push(message)
        self._broadcast_seats(table)
        self._broadcast(table)

    # -- AI seats ---------------------------------------------------------------------------------------------
    def _ai_seat(self, table: Table) -> int | None:
        seat = table.state.current_player
        if seat is None or not table.accepts_actions() or table.row.seats[seat].kind != SeatKind.AI:
            return None
        return seat

    def _kick_ai(self, table: Table) -> None:
        self._show_thinking(table)
        running = table.ai_task is not None and not table.ai_task.done()
        if not running and not self._closing and self._ai_seat(table) is not None:
            table.ai_task = asyncio.create_task(self._run_ai(table))

    async def _run_ai(self, table: Table) -> None:
        """Play the AI seats of ``table`` for as long as one of them is to act."""
        try:
            while not self._closing:
                self._show_thinking(table)
                seat = self._ai_seat(table)
                if seat is None:
                    return
                row, state = table.row, table.state
                ply, version = len(state.history), table.version
                job = ThinkJob(
                    key=row.key,
                    game=row.game,
                    options=row.options,
                    seed=row.seed,
                    actions=tuple(str(a) for a in state.history),
                    seat=seat,
                    agent=row.seats[seat].agent or "random",
                    agent_seed=derive_seed(row.seed, seat, ply),
                    seconds=strength_seconds(row.seats[seat].label),
                )
                text = await self._think(job)
                async with table.lock:
                    if table.version != version or self._ai_seat(table) != seat:
                        continue
                    try:
                        action = table.state.parse_legal(text)
                    except RulesError as e:
                        log.error("game %s: AI seat %d chose %r, which is refused (%s)", row.key, seat, text, e)
                        action = table.state.parse_legal(await asyncio.to_thread(think, replace(job, agent="random")))
                    await self._commit(table, seat, action, None)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: the AI seats stopped", table.key)
            self._show_thinking(table, stopped=True)

    def _show_thinking(self, table: Table, *, stopped: bool = False) -> None:
        """Tell every connection when an AI seat begins to think and when it stops (``thinking``, docs/web.md). A
        run of one seat's decisions is one thinking, from the first; it ends when another seat is to act (or none,
        or the AI task ``stopped``). Who is to act is public, so this tells nobody anything hidden: not even how
        many decisions a run held (Laplaplace's secret build)."""
        seat = None if stopped else self._ai_seat(table)
        current = None if table.thinking is None else table.thinking[0]
        if seat == current:
            return
        table.thinking = None if seat is None else (seat, now())
        message = _thinking_message(table)
        for conn in table.conns:
            conn.push(message)

    async def _think(self, job: ThinkJob) -> str:
        """The agent's choice from the pool (which gives it at most its budget to think); if the agent fails (an
        error, a worker that died or overran its budget and was replaced, no answer within ``ai_timeout``), the
        failure is logged and this one decision is made by the ``random`` agent instead."""
        try:
            return await self.ai.think(job, timeout=self.ai_timeout)
        except asyncio.CancelledError:
            raise
        except Exception as e:
            log.error(
                "game %s: AI seat %d (%s) failed at ply %d (%s: %s); this decision falls back to 'random'",
                job.key,
                job.seat,
                job.agent,
                len(job.actions),
                type(e).__name__,
                e,
            )
            return await asyncio.to_thread(think, replace(job, agent="random"))

    # -- what each connection is sent ------------------------------------------------------------------------
    def _view(self, table: Table, viewer: Viewer) -> dict[str, Any]:
        human = viewer is None or table.row.seats[viewer].kind == SeatKind.HUMAN  # a seat handed to an AI: no choices
        view = state_view(table.state, viewer, acting=table.accepts_actions() and human)
        view["status"] = str(table.row.status)
        view["can_undo"] = viewer is not None and viewer == table.undoable
        return view

    def _state_message(self, table: Table, conn: Conn, view: dict[str, Any]) -> dict[str, Any]:
        entries = table.logs[conn.seat]
        message = {
            "type": "state",
            "ply": len(entries),
            **named_view(view, table.names()),
            "log": named_entries(entries[conn.log_sent :], table.names()),
            "seats": table.seats(),
            "spectators": table.spectators(),
            "clock": None if table.clock is None else table.clock.view(table.state.current_player, now()),
        }
        conn.log_sent = len(entries)
        return message

    def _broadcast(self, table: Table) -> None:
        """Send each viewer whose view or log changed its new state; a viewer that saw nothing happen (an action
        hidden from it, which left its view alike) is sent nothing, so it cannot count hidden actions."""
        by_viewer: dict[Viewer, list[Conn]] = {}
        for conn in table.conns:
            by_viewer.setdefault(conn.seat, []).append(conn)
        for viewer, conns in by_viewer.items():
            view = self._view(table, viewer)
            grew = any(c.log_sent < table.ply_of(viewer) for c in conns)
            if not grew and view == table.views.get(viewer):
                continue
            table.views[viewer] = view
            for conn in conns:
                conn.push(self._state_message(table, conn, view))

    def _broadcast_seats(self, table: Table, *, skip: Conn | None = None) -> None:
        message = {"type": "seats", "seats": table.seats(), "spectators": table.spectators()}
        for conn in table.conns:
            if conn is not skip:
                conn.push(message)


class KeyedLocks:
    """An ``asyncio.Lock`` per key, kept only while someone holds or waits for it (a game is rebuilt once however
    many ask for it at the same time, and the rebuild of one game never holds up another's)."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def of(self, key: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)


def _ai_only_running(table: Table, creator: str) -> bool:
    """Whether ``table`` is a running game of ``creator``'s in which only AIs play (their decisions use the shared
    workers until the game ends)."""
    row = table.row
    return row.creator == creator and table.accepts_actions() and all(s.kind == SeatKind.AI for s in row.seats)


def _check_human(table: Table, seat: int) -> None:
    if table.row.seats[seat].kind != SeatKind.HUMAN:
        raise ActError("handed_over", "this seat was handed to an AI (it left or ran out of time): the AI plays it")


def _named_advice(answer: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """A hint's labels and the odds' facts with the seats' names put in (as the log's lines: never "seat 1")."""
    for row in answer.get("rows", []):
        row["label"] = with_names(row["label"], names)
    for fact in answer.get("facts", []):
        fact["fact"] = with_names(fact["fact"], names)
    return answer


def _thinking_message(table: Table) -> dict[str, Any]:
    """``thinking``: the AI seat that thinks, since when (ISO time) and for how many seconds so far (a page counts on
    from there on its own clock); ``seat`` ``None`` when no AI thinks."""
    if table.thinking is None:
        return {"type": "thinking", "seat": None}
    seat, since = table.thinking
    elapsed = max(0.0, (now() - since).total_seconds())
    return {"type": "thinking", "seat": seat, "since": since.isoformat(), "elapsed": round(elapsed, 1)}


def _card_texts(table: Table) -> dict[str, dict[str, object]]:
    """What every card of the table's game says (``Game.card_texts``: public, the same for every seat), for the
    page's card viewer (``welcome.cards``)."""
    return {name: text.as_dict() for name, text in table.state.game.card_texts().items()}


def _rules_url(table: Table) -> str:
    return f"/api/games/{table.key}/rules"
