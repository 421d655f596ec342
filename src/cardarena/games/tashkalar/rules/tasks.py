"""High Form task conditions checked on a position (the task file is read by ``cards/tasks.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..board import ADJ, AREAS, bits
from ..cards.tasks import CORNERS, CROSS_ARMS, CROSS_CENTRE, OPPOSITE_SIDES, Condition, Task

if TYPE_CHECKING:
    from ..state import TashKalarState


# ---------------------------------------------------------------------------------------------------------------
# Checking conditions


def _own(st: TashKalarState, col: int, ranks: int) -> int:
    base = col << 2
    bb = st.bb
    m = 0
    for r in (1, 2, 3):
        if ranks >> r & 1:
            m |= bb[base | r]
    return m


def _enemy(st: TashKalarState, col: int, ranks: int) -> int:
    m = 0
    for o in range(st.game.n_col):
        if o != col:
            m |= _own(st, o, ranks)
    return m


def _groups(mask: int) -> list[int]:
    out = []
    while mask:
        seed = mask & -mask
        group = seed
        frontier = seed
        while frontier:
            nxt = 0
            for s in bits(frontier):
                nxt |= ADJ[s]
            nxt &= mask & ~group
            group |= nxt
            frontier = nxt
        out.append(group)
        mask &= ~group
    return out


def _longest_line(mask: int, step: int) -> int:
    best = 0
    m = mask
    n = 0
    while m:
        n += 1
        best = n
        m &= m >> step
    return best


def holds(st: TashKalarState, col: int, cond: Condition) -> bool:
    k = cond.kind
    if k in ("destroyed", "summoned") and col != st.side:
        return False  # what happened this turn belongs to the colour whose turn it is
    if k == "destroyed":
        dest = st.dest
        total = up = 0
        for o in range(st.game.n_col):
            if o != col:
                total += dest[3 * o] + dest[3 * o + 1] + dest[3 * o + 2]
                up += dest[3 * o + 1] + dest[3 * o + 2]
        return total >= cond.count and up >= cond.upgraded
    if k == "occupy":
        return (_own(st, col, cond.ranks) & cond.area).bit_count() >= cond.count
    if k == "summoned":
        # each summon counts, even two on the same square in one turn
        n = sum(1 for e in st.summoned if cond.ranks >> (e & 3) & 1 and cond.area >> (e >> 2) & 1)
        return n >= cond.count
    if k == "cross":
        return bool(_own(st, col, cond.ranks) >> CROSS_CENTRE & 1) and _own(st, col, 0b1110) & CROSS_ARMS == CROSS_ARMS
    if k == "line":
        own = _own(st, col, cond.ranks)
        return any(_longest_line(own, step) >= cond.count for step in cond.direction)
    if k == "chain":
        for g in _groups(_own(st, col, 0b1110)):
            if cond.reaches is None:
                if g.bit_count() >= cond.count:
                    return True
            elif cond.reaches == "centre-and-edge":
                if g >> CROSS_CENTRE & 1 and g & AREAS["edge"]:
                    return True
            else:
                pairs = OPPOSITE_SIDES if cond.reaches == "opposite-sides" else CORNERS
                if any(g & a and g & b for a, b in pairs):
                    return True
        return False
    # surround
    own = _own(st, col, 0b1110)
    for o in range(st.game.n_col):
        if o == col:
            continue
        theirs = _own(st, o, 0b1110)
        for s in bits(_own(st, o, cond.ranks)):
            adj = ADJ[s]
            if (adj & own).bit_count() >= cond.count and not (cond.isolated and adj & theirs):
                return True
    return False


def task_holds(st: TashKalarState, col: int, task: Task) -> bool:
    return all(holds(st, col, c) for c in task.conditions)
