"""The public event log: a chain ``(newest event, older log)`` ending in ``()``. Adding an event makes a new chain
that shares the old one, in constant time, so clones share their logs and a long game costs nothing per event."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardarena.engine.fields import to_json

if TYPE_CHECKING:
    from ..state import DiceBattleState

Event = tuple[Any, ...]
Log = tuple[Any, ...]  # (Event, Log) or () for the empty log


def event(st: DiceBattleState, *entry: Any) -> None:
    """Add a public event to the log."""
    st.log = (entry, st.log)


def newest(log: Log, limit: int | None = None) -> list[Event]:
    """The last ``limit`` events of ``log`` (all with ``None``), oldest first."""
    out: list[Event] = []
    node = log
    while node and (limit is None or len(out) < limit):
        out.append(node[0])
        node = node[1]
    out.reverse()
    return out


def events(st: DiceBattleState, limit: int | None = None) -> list[Event]:
    """Public events, oldest first (the last ``limit`` of them)."""
    return newest(st.log, limit)


def log_snapshot(log: Log) -> list[Any]:
    """The log in a snapshot: a flat list, oldest first (the chain itself would nest one level per event)."""
    return [to_json(e) for e in newest(log)]
