"""What one seat (or a spectator, ``None``) is sent of a game: built only from what that seat may see.

Every function here reads the state through the hooks that answer for one seat: ``observation(seat)``,
``game.board(state, seat)``, ``game.action_seen_by(state, action, seat)`` and, for the seat to act only, its legal
actions with ``game.choice_label``. The wire leak test (tests/web/test_server_leaks.py) builds these from the true state
and from worlds resampled for the seat and requires them identical.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..engine import Action, State

Viewer = int | None  # a seat, or None for a spectator


def viewers(state: State) -> list[Viewer]:
    """Every seat, then the spectators."""
    return [*range(state.game.num_players), None]


def log_text(state: State, action: Action, viewer: Viewer) -> str:
    """How ``action``, about to be taken in ``state``, reads in ``viewer``'s log; "" when the viewer does not see
    it happen (it gets no entry, so not even the number of such actions shows). The actor always sees its own."""
    text = state.game.action_seen_by(state, action, viewer)
    if not text and viewer is not None and viewer == state.current_player:
        text = str(action)
    return text


def log_entry(before: State, action: Action, after: State, viewer: Viewer, n: int) -> dict[str, Any] | None:
    """``viewer``'s ``n``-th log entry, for ``action`` taken in ``before`` leading to ``after``; ``None`` when the
    viewer does not see it happen (:func:`log_text`). ``text`` is the action as seen; ``lines`` is what the game
    tells the viewer of it, ``narrate(before, action, after, viewer)``: the action line first, then its
    consequences (draws, combat, damage, battle results, the end and why), still with seat numbers
    (:func:`named_entries` puts the players' names in when the entry is sent)."""
    text = log_text(before, action, viewer)
    if not text:
        return None
    lines = before.game.narrate(before, action, after, viewer) or [text]
    return {"n": n, "ply": n, "seat": before.current_player, "text": text, "lines": lines}


#: how the games' narration names a seat: "seat 1", "Seat 1", "seat(s) 1" (Tash-Kalar's result), "P1" (Laplaplace)
SEAT_REFERENCE = re.compile(r"\b(?:[Ss]eat(?:\(s\))? |P)(\d+)\b")


def seat_names(names: Sequence[str]) -> list[str]:
    """The name each seat goes by in the log: its player's (or AI's) name, "player N" (from 1) while unclaimed."""
    return [name or f"player {seat + 1}" for seat, name in enumerate(names)]


def with_names(line: str, names: Sequence[str]) -> str:
    """``line`` with every seat reference replaced by that seat's name (a number that is no seat stays)."""

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        return names[seat] if seat < len(names) else match.group(0)

    return SEAT_REFERENCE.sub(name, line)


def named_entries(entries: Sequence[dict[str, Any]], names: Sequence[str]) -> list[dict[str, Any]]:
    """Log entries as sent: their ``lines`` with the seats' names as they are now (``names``: one per seat, see
    :func:`seat_names`). Names change (a player joins, leaves, hands over to an AI), so they are put in when an
    entry is sent, never stored: a reconnect or a replay shows every entry with the names of that moment."""
    return [{**e, "lines": [with_names(line, names) for line in e["lines"]]} for e in entries]


def legal_view(state: State, viewer: Viewer) -> list[dict[str, Any]]:
    """The viewer's legal actions with their group and detail (``choice_label``), only when it is to act; an
    action the table must confirm before sending it (``Game.confirm_text``) carries the question as ``confirm``.
    A pass (``Game.is_pass``) carries ``pass: true`` and the game's resignation (``Game.resign_action``)
    ``resign: true``: the table's auto-pass takes a decision whose one action besides resigning is forced, and
    "Pass until something happens" passes while a pass is legal (docs/web.md, Auto-pass)."""
    if viewer is None or state.current_player != viewer:
        return []
    game = state.game
    out = []
    for action in state.legal_actions():
        group, detail = game.choice_label(state, action)
        entry: dict[str, Any] = {"text": str(action), "group": group, "detail": detail}
        confirm = game.confirm_text(state, action)
        if confirm:
            entry["confirm"] = confirm
        if game.is_pass(action):
            entry["pass"] = True
        if game.resign_action is not None and action == game.resign_action:
            entry["resign"] = True
        out.append(entry)
    return out


def board_view(state: State, viewer: Viewer) -> list[dict[str, Any]]:
    """The game's text panels as the viewer sees them."""
    return [
        {"title": p.title, "lines": list(p.lines), "seat": p.seat, "key": p.key}
        for p in state.game.board(state, viewer)
    ]


def state_view(state: State, viewer: Viewer, *, acting: bool = True) -> dict[str, Any]:
    """The part of a ``state`` message that comes from the game: who is to act, the turn number (public in every
    game) and whose turn it is (``turn_player``, where turns are one player's), the end, the observation, the
    board and (for the seat to act, while the game accepts actions: ``acting``) the legal actions. A finished
    game's view also says why it ended (``end_reason``: the game's public words, ``Game.end_reason``, still with
    seat numbers: :func:`named_view` puts the names in)."""
    terminal = state.is_terminal()
    view: dict[str, Any] = {
        "to_act": state.current_player,
        "turn": state.turn,
        "turn_player": None if terminal else state.game.turn_player(state),
        "terminal": terminal,
        "returns": state.returns() if terminal else None,
        "observation": state.observation(viewer),
        "board": board_view(state, viewer),
        "legal": legal_view(state, viewer) if acting else [],
    }
    if terminal:
        view["end_reason"] = state.game.end_reason(state)
    return view


def named_view(view: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """A view as sent: its ``end_reason`` with the seats' names as they are now (as :func:`named_entries` does for
    the log)."""
    if not view.get("end_reason"):
        return view
    return {**view, "end_reason": with_names(view["end_reason"], names)}
