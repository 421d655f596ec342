"""A person's games, as the lobby's "Your games" shows them (issue 32, turn-based play): for each seat the browser
holds (its secret, kept in the browser's storage) or the person's account is bound to, the game, its players, and
whether it waits for that seat now, with the time left to answer.

Whose turn it is reaches only the seat itself here: a seat is told whether *it* is to act, which its own table
page shows it too, and nothing of the other seats beyond what the lobby shows everyone."""

from __future__ import annotations

import asyncio
from typing import Any

from ..engine import game_class
from .clocks import now
from .lobby import ApiError, find_seat
from .store import GameRow, GameStatus, SeatKind, SeatRow
from .tables import Table, Tables

#: the most seats one request may ask about
MOST = 50


def seat_status(table: Table | None, row: GameRow, seat: SeatRow) -> dict[str, Any]:
    """What ``seat``'s own player is told of its game: ``your_turn`` (it is to act in a running game), the seconds
    its clock has left then (``None``: no clock), and the game as the lobby shows it."""
    your_turn = False
    left: float | None = None
    if table is not None and table.accepts_actions() and table.state.current_player == seat.seat:
        your_turn = table.row.seats[seat.seat].kind == SeatKind.HUMAN
        if your_turn and table.clock is not None:
            left = round(max(0.0, table.clock.left(seat.seat, now(), running=table.clock_seat() == seat.seat)), 1)
    clock = row.clock or {}
    return {
        "key": row.key,
        "seat": seat.seat,
        "game": row.game,
        "title": game_class(row.game).name,
        "status": str(row.status),
        "turn_based": clock.get("kind") == "turn",
        "rated": row.rated,
        "your_turn": your_turn,
        "left": left,
        "players": [s.name or f"player {s.seat + 1}" for s in row.seats],
        "updated": row.updated.isoformat(),
        "play": f"/play/{row.key}#seat={seat.seat}",
    }


async def seats_status(tables: Tables, asked: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """The status of each ``(key, secret)`` the browser holds; a key that is no game, or a secret that is not a
    taken seat of it, is answered ``{"key", "status": "unknown"}`` (the browser may forget it) and tells nothing
    else. Finished games are read from the store, not rebuilt."""
    out: list[dict[str, Any]] = []
    for key, secret in asked[:MOST]:
        try:
            table = tables.live(key)
            row = table.row if table is not None else await tables.stored_row(key)
        except ApiError:
            out.append({"key": key, "status": "unknown"})
            continue
        seat = find_seat(row, secret)
        if seat is None or not seat.claimed:
            out.append({"key": key, "status": "unknown"})
            continue
        if table is None and row.status == GameStatus.RUNNING:
            table = await tables.get(key)  # to know whose turn it is
            row = table.row
        out.append(seat_status(table, row, row.seats[seat.seat]))
    return out


async def account_status(tables: Tables, account: int, *, known: set[str]) -> list[dict[str, Any]]:
    """The status of each game in progress where a human seat is bound to ``account`` (a signed-in person), but
    for the games in ``known`` (the browser holds their seats already): their ``play`` is the page that opens the
    seat by the account (``/play/KEY#account``), from a browser that holds no secret of it."""
    statuses = (GameStatus.OPEN, GameStatus.RUNNING)
    rows = await asyncio.to_thread(tables.store.list_games, statuses, account=account, limit=MOST)
    out: list[dict[str, Any]] = []
    for row in rows:
        if row.key in known:
            continue
        table = tables.live(row.key)
        if table is None and row.status == GameStatus.RUNNING:
            table = await tables.get(row.key)  # to know whose turn it is
        if table is not None:
            row = table.row
        seat = next((s for s in row.seats if s.account == account and s.kind == SeatKind.HUMAN), None)
        if seat is not None:
            out.append({**seat_status(table, row, seat), "play": f"/play/{row.key}#account"})
    return out
