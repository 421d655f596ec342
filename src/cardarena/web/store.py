"""Where the server keeps its games: the interface, and an in-memory implementation for tests and throwaway runs.

A game is stored as its record (game id, options, seed, the action texts in order) plus the lobby's metadata
(seats, names, hashed seat tokens, status). The live ``State`` is never stored: it is rebuilt from the record by
replaying the actions, so what is stored is exactly what a replay needs.

The guarantee every implementation gives: when :meth:`Store.append_action` returns, the action is durable (the SQL
store has committed it), so the server may acknowledge and broadcast it. ``append_action`` refuses a ply that is
not the next one (:class:`StaleWrite`): two writers can never both append at the same ply.

``cardarena.web.sql`` (SQLAlchemy 2, Alembic migrations; SQLite or PostgreSQL) is the durable implementation;
:func:`open_store` picks one from a URL. The rows, the errors and the :class:`Store` interface are defined in
``cardarena.web.rows`` (so that the SQL store need not import this module, which imports it) and re-exported here.
"""

from __future__ import annotations

import os
import threading
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cardarena.web.rows import (
    DatabaseInUse,
    GameRow,
    GameStatus,
    SeatKind,
    SeatRow,
    StaleWrite,
    Store,
    StoreError,
    UnknownGame,
)

__all__ = [
    "DatabaseInUse",
    "GameRow",
    "GameStatus",
    "MemoryStore",
    "SeatKind",
    "SeatRow",
    "StaleWrite",
    "Store",
    "StoreError",
    "UnknownGame",
    "default_database_url",
    "open_store",
]


class MemoryStore(Store):
    """Everything in this process's memory: for tests and ``--db memory://`` (nothing survives a restart)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._games: dict[str, GameRow] = {}
        self._actions: dict[str, list[tuple[int | None, str]]] = {}
        self._analyses: dict[tuple[str, int, str], dict[str, Any]] = {}

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

    def _at(self, key: str, ply: int) -> GameRow:
        """The game's row, for a write meant for the position at ``ply`` (:class:`StaleWrite` if it moved)."""
        row = self._get(key)
        if row.ply != ply:
            raise StaleWrite(f"game {key!r} is at ply {row.ply}, not {ply}: the write was for an older position")
        return row

    def get_game(self, key: str) -> GameRow:
        with self._lock:
            return self._get(key)

    def list_games(
        self,
        statuses: tuple[GameStatus, ...],
        *,
        limit: int | None = None,
        before: datetime | None = None,
        listed_only: bool = False,
        account: int | None = None,
    ) -> list[GameRow]:
        with self._lock:
            rows = [
                g
                for g in self._games.values()
                if g.status in statuses
                and (before is None or g.created < before)
                and not (listed_only and g.private)
                and (account is None or any(s.account == account for s in g.seats))
            ]
        rows.sort(key=lambda g: g.key)  # the SQL store's order: newest first, then by key
        rows.sort(key=lambda g: g.created, reverse=True)
        return rows if limit is None else rows[:limit]

    def count_games(self, statuses: tuple[GameStatus, ...], *, creator: str) -> int:
        with self._lock:
            return sum(1 for g in self._games.values() if g.status in statuses and g.creator == creator)

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

    def retract_action(self, key: str, ply: int) -> None:
        with self._lock:
            row = self._get(key)
            if row.status == GameStatus.FINISHED:
                raise StoreError(f"game {key!r} is finished: its record is final")
            if ply + 1 != row.ply:
                raise StaleWrite(f"game {key!r} is at ply {row.ply}: its last action is not at ply {ply}")
            self._actions[key].pop()
            self._games[key] = replace(row, ply=ply, updated=datetime.now(UTC))

    def update_clock(self, key: str, clock: dict[str, Any] | None, *, ply: int) -> None:
        with self._lock:
            row = self._at(key, ply)
            self._games[key] = replace(row, clock=clock, updated=datetime.now(UTC))

    def update_seat(self, key: str, seat: SeatRow, *, ply: int) -> None:
        with self._lock:
            row = self._at(key, ply)
            if all(s.seat != seat.seat for s in row.seats):
                raise StoreError(f"game {key!r} has no seat {seat.seat}")
            seats = tuple(seat if s.seat == seat.seat else s for s in row.seats)
            self._games[key] = replace(row, seats=seats, updated=datetime.now(UTC))

    def set_status(self, key: str, status: GameStatus) -> None:
        with self._lock:
            row = self._get(key)
            self._games[key] = replace(row, status=status, updated=datetime.now(UTC))

    def get_analysis(self, key: str, seat: int, agent: str) -> dict[str, Any] | None:
        with self._lock:
            self._get(key)
            return self._analyses.get((key, seat, agent))

    def put_analysis(self, key: str, seat: int, agent: str, analysis: dict[str, Any]) -> None:
        with self._lock:
            self._get(key)
            self._analyses[(key, seat, agent)] = analysis


def default_database_url() -> str:
    """The database ``cardarena serve`` uses without ``--db``: ``sqlite:///DATA/cardarena.db``, where DATA is
    ``$CARDARENA_DATA`` if set, else ``./data`` (``make run`` runs in the repository, whose ``/data/`` git
    ignores)."""
    data = Path(os.environ.get("CARDARENA_DATA") or "data").resolve()
    return f"sqlite:///{data / 'cardarena.db'}"


def open_store(url: str) -> Store:
    """``memory://`` -> :class:`MemoryStore`; ``sqlite:///PATH`` or ``postgresql+psycopg://...`` -> the SQL store
    (migrated to the latest schema on open). Anything else: :class:`StoreError`."""
    if url == "memory://":
        return MemoryStore()
    if url.startswith(("sqlite:///", "postgresql+psycopg://")):
        from cardarena.web.sql import SqlStore  # SQLAlchemy and Alembic are loaded only for a SQL store

        return SqlStore(url)
    scheme = url.partition("://")[0] if "://" in url else url
    raise StoreError(
        f"unsupported database URL (scheme {scheme!r}): use sqlite:///PATH, postgresql+psycopg://USER@HOST/DB "
        "or memory://"
    )
