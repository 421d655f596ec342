"""Levels: what the cards set use of the die, and the main unit's level in battle."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..constants import KIND_HUMAN, KIND_NONE, TOKEN_LEVEL

if TYPE_CHECKING:
    from ..state import DiceBattleState, Side
    from ..tables import Tables


def spent(t: Tables, side: Side) -> int:
    """How much of the die the cards set this round use (units, magic, the new grant)."""
    main = side.main
    total = 0
    if main:
        # The first unit uses its cost; monsters joining it use their join cost (異例 free_join: nothing).
        total = t.cost[side.roll][main[0]]
        join = t.join[side.roll]
        for k in range(1, len(main)):
            total += join[main[k]]
    for c in side.circle:
        total += t.level[c]
    if side.grant >= 0:
        total += t.grant_level[side.grant]
    return total


def main_kind(st: DiceBattleState, seat: int) -> int:
    """KIND_HUMAN, KIND_MONSTER, or KIND_NONE for the dice token / nothing."""
    side = st.sides[seat]
    if side.token or not side.main:
        return KIND_NONE
    return st.game.tables.kind[side.main[0]]


def base_level(st: DiceBattleState, seat: int) -> int:
    side = st.sides[seat]
    if side.token:
        return TOKEN_LEVEL
    if not side.main:
        return 0
    t = st.game.tables
    level = t.level
    if t.kind[side.main[0]] == KIND_HUMAN:
        return level[side.main[0]]
    return sum(level[c] for c in side.main)


def unit_level(st: DiceBattleState, seat: int) -> int:
    """The main unit's level now: its base level plus this battle's changes (never below 0)."""
    return base_level(st, seat) + st.sides[seat].mod


def shift_level(st: DiceBattleState, seat: int, n: int) -> None:
    """Change the main unit's level by ``n`` at once, clamped at 0: a later +N starts from 0 (no hidden debt)."""
    side = st.sides[seat]
    side.mod = max(side.mod + n, -base_level(st, seat))
