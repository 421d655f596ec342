"""Turn clocks: what a game's clock is, how a create request sets one, and how time is charged.

A game has no clock, or one of three (chosen when it is created, docs/web.md "Turn clocks"):

- ``game``: each human seat has ``limit`` seconds for the whole game (chess-style), spent only while it is to act;
- ``move``: each decision of a human seat must come within ``limit`` seconds;
- ``turn``: a turn-based game (issue 32): each decision within ``limit`` seconds too, given in hours (1 hour to 14
  days), so that people play it over days, coming back when it is their turn (the lobby says which games wait for
  them).

A seat that runs out of time is handed to an AI of the strength ``then`` (easy, normal, hard), so the others can
finish. AI seats have no clock (the server bounds their thinking by its own timeout).

The clock is stored with the game as a JSON object (``GameRow.clock``): the kind, the limit, ``then``, the seconds
each seat has used and ``since``, when the seat to act began to think (ISO time, ``None`` while nothing runs). The
deadline is recomputed from these after a restart, so a restart neither resets nor stops a clock. Time is wall
time: the seconds a server was down count as thinking time of the seat to act.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from ..agents.levels import LEVELS
from .lobby import bad_request

KINDS = ("game", "move", "turn")
GAME_MINUTES = (0.5, 600.0)  # minutes per player: the range a create request may ask
MOVE_SECONDS = (5, 3600)  # seconds per decision
TURN_HOURS = (1, 14 * 24)  # hours per decision of a turn-based game


@dataclass(frozen=True)
class Clock:
    kind: str  # "game", "move" or "turn"
    limit: float  # seconds: per seat for the whole game ("game"), per decision ("move", "turn")
    then: str  # the strength label of the AI that takes a seat over when its time runs out
    used: tuple[float, ...]  # seconds each seat has used ("game"; zeros for the others)
    since: datetime | None = None  # when the seat to act began to think; None while no human clock runs

    @property
    def per_decision(self) -> bool:
        """Whether the limit is each decision's (``move``, ``turn``), not the whole game's."""
        return self.kind != "game"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "limit": self.limit,
            "then": self.then,
            "used": list(self.used),
            "since": None if self.since is None else self.since.isoformat(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Clock:
        since = data.get("since")
        return cls(
            kind=str(data["kind"]),
            limit=float(data["limit"]),
            then=str(data["then"]),
            used=tuple(float(u) for u in data["used"]),
            since=None if since is None else datetime.fromisoformat(since),
        )

    def left(self, seat: int, now: datetime, *, running: bool) -> float:
        """Seconds ``seat`` has left; ``running``: it is the seat to act, and the time since ``since`` counts."""
        spent = 0.0 if self.since is None or not running else max(0.0, (now - self.since).total_seconds())
        if self.per_decision:
            return self.limit - spent
        return self.limit - self.used[seat] - spent

    def stop(self, seat: int | None, now: datetime) -> Clock:
        """``seat`` (the seat whose clock ran, or ``None``) has acted: its time is charged and nothing runs."""
        if self.since is None or seat is None or self.per_decision:
            return replace(self, since=None)
        used = list(self.used)
        used[seat] += max(0.0, (now - self.since).total_seconds())
        return replace(self, used=tuple(used), since=None)

    def start(self, now: datetime) -> Clock:
        return replace(self, since=now)

    def view(self, to_act: int | None, now: datetime) -> dict[str, Any]:
        """What every connection is told (public: each seat's time left is on the table for all to see)."""
        running = to_act if self.since is not None else None
        left = [round(max(0.0, self.left(s, now, running=s == running)), 1) for s in range(len(self.used))]
        return {"kind": self.kind, "limit": self.limit, "then": self.then, "left": left, "running": running}


def read_clock(body: object, players: int) -> Clock | None:
    """The ``clock`` of a create request: absent or ``null`` for none, else ``{"kind": "game", "minutes": M}``,
    ``{"kind": "move", "seconds": S}`` or ``{"kind": "turn", "hours": H}`` (turn-based), with ``"then"``: the
    strength taking over (default ``easy``)."""
    if body is None:
        return None
    if not isinstance(body, dict):
        raise bad_request("clock must be an object {kind, minutes | seconds | hours, then} or null")
    kind = body.get("kind")
    if kind in (None, "none"):
        return None
    if kind not in KINDS:
        raise bad_request(f"clock kind must be one of none, {', '.join(KINDS)}, not {kind!r}")
    then = body.get("then", "easy")
    if then not in LEVELS:
        raise bad_request(f"clock 'then' must be one of {', '.join(LEVELS)} (the AI taking over), not {then!r}")
    if kind == "game":
        limit = _number(body.get("minutes"), "clock minutes", *GAME_MINUTES) * 60
    elif kind == "turn":
        limit = _number(body.get("hours"), "clock hours", *TURN_HOURS) * 3600
    else:
        limit = _number(body.get("seconds"), "clock seconds", *MOVE_SECONDS)
    return Clock(kind=str(kind), limit=limit, then=str(then), used=(0.0,) * players)


def fresh(clock: dict[str, Any] | None, players: int) -> dict[str, Any] | None:
    """The clock of a rematch: the same kind, limit and ``then``, no time used."""
    if clock is None:
        return None
    return replace(Clock.from_json(clock), used=(0.0,) * players, since=None).to_json()


def _number(value: object, what: str, lowest: float, highest: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise bad_request(f"{what} must be a number from {lowest:g} to {highest:g}")
    if not lowest <= value <= highest:
        raise bad_request(f"{what} must be a number from {lowest:g} to {highest:g}")
    return float(value)


def now() -> datetime:
    return datetime.now(UTC)
