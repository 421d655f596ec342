"""The per-game result store of a long run: every finished game is written as it arrives, so a run resumes.

A store holds the run's *identity* (a JSON object: the game, its options, the entrants, the seed, the number of
games...) and one JSON object per finished game, keyed by the game's index. Opening a store that holds another
run's identity is refused (:class:`StoreMismatchError` says which field differs), so a resumed run can only add
games of the same run. One field may be named as able to *grow* (``strength``'s ``pairs``): a store of the same run
with fewer of it is extended and its identity rewritten, so that a pilot of 50 rounds becomes a cell of 100 by
playing only the 50 new ones; fewer than stored is refused. Statistics are computed from the stored results sorted
by index, never from the order in which games finished: an interrupted and resumed run gives exactly the output of
an uninterrupted one.

Two formats, chosen by the file name:

- **SQLite** (the default; any name not ending in ``.jsonl``): tables ``meta(key, value)`` and
  ``results(idx INTEGER PRIMARY KEY, data TEXT)``, written in WAL mode; each batch is one transaction, so a
  ``kill -9`` loses at most the games not yet handed to the store.
- **JSON lines** (``.jsonl``): the identity on the first line (``{"identity": {...}}``), then one game per line
  (``{"idx": 7, ...}``). A line cut short by a kill is dropped when the file is opened again.
"""

from __future__ import annotations

import json
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..engine import OptionError


class StoreMismatchError(OptionError):
    """The store at this path holds another run (another game, seed, entrant list, ...)."""


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _check_identity(path: Path, stored: dict[str, Any], identity: dict[str, Any], grows: str | None) -> bool:
    """Refuse another run's store; ``True`` when the run is the stored one with more of ``grows`` (the caller
    rewrites the stored identity), ``False`` when it is the same run."""
    if stored == identity:
        return False
    keys = sorted(set(stored) | set(identity))
    differs = [k for k in keys if stored.get(k) != identity.get(k)]
    if grows is not None and differs == [grows]:
        old, new = stored.get(grows), identity.get(grows)
        if isinstance(old, int) and isinstance(new, int):
            if old < new:
                return True
            raise StoreMismatchError(
                f"{path} holds a run of {grows} {old}; it can be extended to more, not cut to {new}"
                " (give another --out, or the same number again)"
            )
    detail = ", ".join(f"{k}: stored {stored.get(k)!r}, now {identity.get(k)!r}" for k in differs[:3])
    raise StoreMismatchError(
        f"{path} holds the results of another run ({detail}); give another --out, or delete the file to start over"
    )


class ResultStore(ABC):
    """The interface of both formats: ``load()`` the stored games, ``add()`` finished ones, ``close()``."""

    path: Path

    @abstractmethod
    def load(self) -> dict[int, dict[str, Any]]:
        """Every stored game, by index."""

    @abstractmethod
    def add(self, rows: Iterable[tuple[int, dict[str, Any]]]) -> None:
        """Store finished games (index, result) in one go; a game already stored is kept as it was."""

    def close(self) -> None:  # noqa: B027 - a store with nothing to release (in memory) keeps this default
        """Release the file."""

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class MemoryStore(ResultStore):
    """Results kept in memory only (nothing survives the process)."""

    def __init__(self) -> None:
        self.path = Path(":memory:")
        self._rows: dict[int, dict[str, Any]] = {}

    def load(self) -> dict[int, dict[str, Any]]:
        return dict(self._rows)

    def add(self, rows: Iterable[tuple[int, dict[str, Any]]]) -> None:
        for index, row in rows:
            self._rows.setdefault(index, row)


class SQLiteStore(ResultStore):
    """Results in an SQLite file (see the module's docstring)."""

    def __init__(self, path: Path, identity: dict[str, Any], grows: str | None = None) -> None:
        self.path = path
        try:
            self._db = sqlite3.connect(path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            self._db.execute("CREATE TABLE IF NOT EXISTS results (idx INTEGER PRIMARY KEY, data TEXT NOT NULL)")
            row = self._db.execute("SELECT value FROM meta WHERE key = 'identity'").fetchone()
        except sqlite3.DatabaseError as e:
            raise OptionError(f"{path} is not a result store (an SQLite file): {e}") from None
        if row is None:
            self._db.execute("INSERT INTO meta VALUES ('identity', ?)", (_dumps(identity),))
        else:
            try:
                stored = json.loads(row[0])
            except json.JSONDecodeError:
                raise OptionError(f"{path}: the stored identity is not JSON") from None
            if _check_identity(path, stored, identity, grows):
                self._db.execute("UPDATE meta SET value = ? WHERE key = 'identity'", (_dumps(identity),))

    def load(self) -> dict[int, dict[str, Any]]:
        out: dict[int, dict[str, Any]] = {}
        for index, data in self._db.execute("SELECT idx, data FROM results ORDER BY idx"):
            try:
                out[index] = json.loads(data)
            except json.JSONDecodeError:
                raise OptionError(f"{self.path}: the result of game {index} is not JSON") from None
        return out

    def add(self, rows: Iterable[tuple[int, dict[str, Any]]]) -> None:
        with self._db:
            self._db.execute("BEGIN")
            self._db.executemany("INSERT OR IGNORE INTO results VALUES (?, ?)", [(i, _dumps(row)) for i, row in rows])

    def close(self) -> None:
        self._db.close()


class JsonLinesStore(ResultStore):
    """Results in a JSON-lines file (see the module's docstring)."""

    def __init__(self, path: Path, identity: dict[str, Any], grows: str | None = None) -> None:
        self.path = path
        self._rows: dict[int, dict[str, Any]] = {}
        good = 0  # bytes of whole, readable lines
        raw = path.read_bytes() if path.exists() else b""
        if raw and b"\n" not in raw and not b'{"identity":'.startswith(raw[:12]):
            raise OptionError(f"{path} is not a result store (its first line holds no identity)")
        if b"\n" in raw:  # the identity line is whole (a kill while it was written leaves a file to redo)
            lines = raw.split(b"\n")
            try:
                head = json.loads(lines[0])
                stored = head["identity"]
            except (json.JSONDecodeError, KeyError, TypeError, UnicodeDecodeError):
                raise OptionError(f"{path} is not a result store (its first line holds no identity)") from None
            extended = _check_identity(path, stored, identity, grows)
            good = len(lines[0]) + 1
            for line in lines[1:]:
                try:
                    row = json.loads(line)
                    index = int(row.pop("idx"))
                except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError, UnicodeDecodeError):
                    break  # the line a kill cut short (always the last one): dropped, and played again
                self._rows.setdefault(index, row)
                good += len(line) + 1
            good = min(good, len(raw))
            if extended:  # the identity line changes length: the file is written anew (games kept) and swapped in
                head = (_dumps({"identity": identity}) + "\n").encode()
                body = raw[len(lines[0]) + 1 : good]
                fresh = path.with_name(path.name + ".new")
                fresh.write_bytes(head + body)
                fresh.replace(path)
                raw = head + body
                good = len(raw)
            self._file = path.open("r+b")
            self._file.truncate(good)
            self._file.seek(good)
            if good and not raw[:good].endswith(b"\n"):
                self._file.write(b"\n")
        else:
            self._file = path.open("w+b")
            self._file.write((_dumps({"identity": identity}) + "\n").encode())
        self._file.flush()

    def load(self) -> dict[int, dict[str, Any]]:
        return dict(sorted(self._rows.items()))

    def add(self, rows: Iterable[tuple[int, dict[str, Any]]]) -> None:
        lines = []
        for index, row in rows:
            if index not in self._rows:
                self._rows[index] = row
                lines.append(_dumps({"idx": index, **row}) + "\n")
        self._file.write("".join(lines).encode())
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def open_store(path: str | Path | None, identity: dict[str, Any], *, grows: str | None = None) -> ResultStore:
    """The store at ``path`` (SQLite, or JSON lines for ``*.jsonl``; in memory for ``None``), created if new.
    ``grows``: the identity field (an integer) a resumed run may raise above the stored value, extending the store."""
    identity = json.loads(_dumps(identity))  # as it reads back from the file: lists, not tuples
    if path is None:
        return MemoryStore()
    p = Path(path)
    if p.is_dir():
        raise OptionError(f"{p} is a folder; --out takes a file (NAME.sqlite or NAME.jsonl)")
    p.parent.mkdir(parents=True, exist_ok=True)
    if p.suffix == ".jsonl":
        return JsonLinesStore(p, identity, grows)
    return SQLiteStore(p, identity, grows)
