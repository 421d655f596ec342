"""Replays of finished games: each step of a game as one viewer saw it at that time, or with every seat's cards open.

A replay is built from the record alone (the stored seed and actions, replayed), so it shows exactly the game that
was played. A step of a seat is what the server sent that seat then: ``state_view(state, seat)`` of the state
after ``ply`` actions (no legal actions: nothing can be chosen in a replay) and the seat's log up to there.
Replays are given only once a game is over: its record is then public (``/api/games/{key}/record``), so the
number of actions and the order in which they came are no secret any more, but a running game's are.

``open`` shows every seat's view side by side (each seat's own hidden cards are in its view): every card the
game dealt, for after the game.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from ..engine import State, load
from .lobby import ApiError
from .store import GameStatus
from .tables import Table
from .views import Viewer, state_view

CACHED_GAMES = 16  # finished games whose states are kept in memory for stepping back and forth
OPEN = "open"


class ReplayCache:
    """The states after each ply of recently replayed games, least recently used dropped first."""

    def __init__(self, size: int = CACHED_GAMES) -> None:
        self.size = size
        self._games: OrderedDict[str, list[State]] = OrderedDict()
        self._lock = threading.Lock()  # called from the server's worker threads

    def states(self, table: Table) -> list[State]:
        """Every state of ``table``'s game, from the initial one to the end (built in the caller's thread)."""
        with self._lock:
            states = self._games.get(table.key)
            if states is not None:
                self._games.move_to_end(table.key)
                return states
        states = replay_states(table)
        with self._lock:
            self._games[table.key] = states
            while len(self._games) > self.size:
                self._games.popitem(last=False)
        return states


def replay_states(table: Table) -> list[State]:
    row = table.row
    state = load(row.game, **row.options).new_initial_state(row.seed)
    states = [state.clone()]
    for action in table.state.history:
        state.apply(action)
        states.append(state.clone())
    return states


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


def check_finished(table: Table) -> None:
    if table.row.status != GameStatus.FINISHED or not table.state.is_terminal():
        raise ApiError(409, "not_finished", "a game is replayed once it is over (spectators watch it live)")


def replay_step(table: Table, states: list[State], viewer: Viewer | str, ply: int) -> dict[str, Any]:
    """The ``replay`` answer: the game, the step's ply and the number of plies, and the view(s) and log."""
    state = states[ply]
    plies = len(states) - 1
    base: dict[str, Any] = {
        "key": table.key,
        "game": table.row.game,
        "title": state.game.name,
        "ply": ply,
        "plies": plies,
        "seat": viewer,
        "seats": table.seats(),
        "result": table.row.result,
    }
    if viewer == OPEN:
        history = table.state.history
        log = [
            {
                "n": i + 1,
                "ply": i + 1,
                "seat": states[i].current_player,
                "text": states[i].game.describe_action(states[i], a),
            }
            for i, a in enumerate(history[:ply])
        ]
        views = [state_view(state, seat, acting=False) for seat in range(state.game.num_players)]
        return {**base, "views": views, "log": log}
    assert viewer is None or isinstance(viewer, int)
    entries = table.logs[viewer]
    plies_of = table.entry_plies[viewer]
    log = [entry for entry, at in zip(entries, plies_of, strict=True) if at < ply]
    return {**base, **state_view(state, viewer, acting=False), "log": log}
