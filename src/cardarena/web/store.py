"""Where the server keeps its games: the interface, and an in-memory implementation for tests and throwaway runs.

A game is stored as its record (game id, options, seed, the action texts in order) plus the lobby's metadata
(seats, names, hashed seat tokens, status). The live ``State`` is never stored: it is rebuilt from the record by
replaying the actions, so what is stored is exactly what a replay needs.

The guarantee every implementation gives: when :meth:`Store.append_action` returns, the action is durable (the SQL
store has committed it), so the server may acknowledge and broadcast it. ``append_action`` refuses a ply that is
not the next one (:class:`StaleWrite`): two writers can never both append at the same ply.

``cardarena.web.sql`` (SQLAlchemy 2, Alembic migrations; SQLite or PostgreSQL) is the durable implementation;
:func:`open_store` picks one from a URL.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any


class GameStatus(StrEnum):
    OPEN = "open"  # waiting for human seats to be claimed
    RUNNING = "running"  # every human seat claimed at least once; actions are being played
    FINISHED = "finished"  # terminal: the record is complete and may be replayed
    ABANDONED = "abandoned"  # closed without an end (clean-up of stale games)


class SeatKind(StrEnum):
    HUMAN = "human"
    AI = "ai"


class StoreError(Exception):
    """A store operation that cannot be done (no such game, a stale write)."""


class UnknownGame(StoreError):
    pass


class StaleWrite(StoreError):
    """An action appended at a ply that is not the game's next ply (someone else wrote first)."""


@dataclass(frozen=True)
class SeatRow:
    seat: int
    kind: SeatKind
    name: str  # the player's chosen name, or the AI's label ("normal AI"); "" for an unclaimed human seat
    agent: str | None = None  # AI seats: the agent spec
    label: str | None = None  # AI seats: the strength label (easy, normal, hard) or None for a raw spec
    token_hash: str | None = None  # human seats: sha256 hex of the seat token
    claimed: bool = False  # a human has joined the seat (and not left)


@dataclass(frozen=True)
class GameRow:
    key: str  # the public, unguessable game key
    game: str  # the game id (torabato, ...)
    options: dict[str, Any]  # options as recorded (record_options(): only those different from the defaults)
    seed: int
    seats: tuple[SeatRow, ...]
    status: GameStatus = GameStatus.OPEN
    private: bool = False
    ply: int = 0  # number of actions stored
    result: list[float] | None = None
    created: datetime = field(default_factory=lambda: datetime.now(UTC))
    updated: datetime = field(default_factory=lambda: datetime.now(UTC))
    rematch_of: str | None = None


class Store(ABC):
    """The storage interface the server uses. Implementations are thread-safe: the server calls them from a
    thread pool (``anyio.to_thread``), never on the event loop."""

    @abstractmethod
    def create_game(self, row: GameRow) -> None:
        """Store a new game (``row.ply`` is 0, no actions)."""

    @abstractmethod
    def get_game(self, key: str) -> GameRow:
        """The game's row; :class:`UnknownGame` if there is none."""

    @abstractmethod
    def list_games(self, statuses: tuple[GameStatus, ...]) -> list[GameRow]:
        """Games with one of ``statuses``, newest first."""

    @abstractmethod
    def actions(self, key: str) -> list[str]:
        """The game's action texts in order (its record's ``actions``)."""

    @abstractmethod
    def append_action(self, key: str, ply: int, seat: int | None, text: str, *, result: list[float] | None) -> None:
        """Durably append the action played at ``ply`` (0-based: the game's ``ply`` before it) by ``seat``.
        ``result``: the returns when this action ended the game (the game becomes finished, in the same
        transaction). Raises :class:`StaleWrite` if ``ply`` is not the game's current ply."""

    @abstractmethod
    def update_seat(self, key: str, seat: SeatRow) -> None:
        """Replace one seat's row (join, leave, rename)."""

    @abstractmethod
    def set_status(self, key: str, status: GameStatus) -> None:
        """Change a game's status (open -> running, abandoning a stale game)."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release connections."""


class MemoryStore(Store):
    """Everything in this process's memory: for tests and ``--db memory://`` (nothing survives a restart)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._games: dict[str, GameRow] = {}
        self._actions: dict[str, list[tuple[int | None, str]]] = {}

    def create_game(self, row: GameRow) -> None:
        with self._lock:
            if row.key in self._games:
                raise StoreError(f"game {row.key!r} exists already")
            self._games[row.key] = row
            self._actions[row.key] = []

    def _get(self, key: str) -> GameRow:
        try:
            return self._games[key]
        except KeyError:
            raise UnknownGame(f"no game {key!r}") from None

    def get_game(self, key: str) -> GameRow:
        with self._lock:
            return self._get(key)

    def list_games(self, statuses: tuple[GameStatus, ...]) -> list[GameRow]:
        with self._lock:
            rows = [g for g in self._games.values() if g.status in statuses]
        return sorted(rows, key=lambda g: g.created, reverse=True)

    def actions(self, key: str) -> list[str]:
        with self._lock:
            self._get(key)
            return [text for _, text in self._actions[key]]

    def append_action(self, key: str, ply: int, seat: int | None, text: str, *, result: list[float] | None) -> None:
        with self._lock:
            row = self._get(key)
            if ply != row.ply:
                raise StaleWrite(f"game {key!r} is at ply {row.ply}, not {ply}")
            self._actions[key].append((seat, text))
            status = GameStatus.FINISHED if result is not None else row.status
            self._games[key] = replace(row, ply=ply + 1, result=result, status=status, updated=datetime.now(UTC))

    def update_seat(self, key: str, seat: SeatRow) -> None:
        with self._lock:
            row = self._get(key)
            seats = tuple(seat if s.seat == seat.seat else s for s in row.seats)
            self._games[key] = replace(row, seats=seats, updated=datetime.now(UTC))

    def set_status(self, key: str, status: GameStatus) -> None:
        with self._lock:
            row = self._get(key)
            self._games[key] = replace(row, status=status, updated=datetime.now(UTC))


def open_store(url: str) -> Store:
    """``memory://`` -> :class:`MemoryStore`; ``sqlite:///PATH`` or ``postgresql+psycopg://...`` -> the SQL store
    (migrated to the latest schema on open)."""
    if url == "memory://":
        return MemoryStore()
    raise StoreError(f"unsupported database URL {url!r}")  # the SQL store is being built (issue 15)
