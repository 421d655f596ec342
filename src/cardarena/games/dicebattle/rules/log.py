"""The public event log: a tuple of events (``(word, ...)``), oldest first, replaced (never changed in place) as
events happen, so that clones share it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..state import DiceBattleState

Event = tuple[Any, ...]


def event(st: DiceBattleState, *entry: Any) -> None:
    """Add a public event to the log."""
    st.log += (entry,)


def events(st: DiceBattleState, limit: int | None = None) -> list[Event]:
    """Public events, oldest first (the last ``limit`` of them)."""
    log = st.log
    return list(log if limit is None or limit >= len(log) else log[len(log) - limit :])
