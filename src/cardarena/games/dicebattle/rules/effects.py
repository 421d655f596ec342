"""Carrying out card effects: conditions (``when``) and operations (``do``) of the effect language."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..constants import KIND_HUMAN, KIND_MONSTER, PENALTY, PERMANENT, STEP_MILL, STEP_OPS, STOCK, Entry
from .deck import defer, draw, take_top
from .levels import base_level, main_kind, shift_level, unit_level
from .log import event

if TYPE_CHECKING:
    from ..cards import Effect
    from ..state import DiceBattleState


LEVEL_OPS = frozenset({"power", "weaken", "halve", "swap"})  # operations that change a main unit's level


def effect_of(st: DiceBattleState, entry: Entry) -> Effect:
    """The effect a queue entry stands for: the card's effect, or its grant's from the stock zone."""
    t = st.game.tables
    eff = t.grant[entry[2]] if entry[3] == STOCK else t.effect[entry[2]]
    assert eff is not None
    return eff


def holds(st: DiceBattleState, seat: int, when: str, n: int) -> bool:
    """Whether a condition of the effect language holds for ``seat`` now."""
    if when == "always":
        return True
    me = st.sides[seat]
    opp = st.sides[1 - seat]
    if when == "opp_human":
        return main_kind(st, 1 - seat) == KIND_HUMAN
    if when == "opp_monster":
        return main_kind(st, 1 - seat) == KIND_MONSTER
    if when == "opp_token":
        return opp.token
    if when == "opp_magic":
        return bool(opp.circle)
    if when == "my_human":
        return main_kind(st, seat) == KIND_HUMAN
    if when == "my_monster":
        return main_kind(st, seat) == KIND_MONSTER
    if when == "behind":
        return me.stars < opp.stars
    if when == "ahead":
        return me.stars > opp.stars
    if when == "losing":
        return unit_level(st, seat) < unit_level(st, 1 - seat)
    if when == "first":
        return st.first == seat
    if when == "second":
        return st.first != seat
    if when == "roll_le":
        return me.roll <= n
    if when == "roll_ge":
        return me.roll >= n
    if when == "monsters_ge":
        kind = st.game.tables.kind
        return sum(1 for c in me.main if kind[c] == KIND_MONSTER) >= n
    if when == "hand_le":
        return len(me.hand) <= n
    raise AssertionError(f"unknown condition {when!r}")  # the card loader accepts only known words


def fire(st: DiceBattleState, entry: Entry, eff: Effect) -> None:
    """Carry out an effect's operations; a fired choice/forced grant leaves the stock zone."""
    _, seat, card, zone = entry
    event(st, "effect", seat, card, zone)
    if zone == STOCK and eff.type != PERMANENT:
        side = st.sides[seat]
        side.stock.remove(card)
        side.fired.append(card)
    run_ops(st, entry, 0)


def run_ops(st: DiceBattleState, entry: Entry, start: int) -> None:
    """Carry out an effect's operations from the ``start``-th on; a penalty decision interrupts (the rest waits)."""
    _, seat, card, _ = entry
    ops = effect_of(st, entry).ops
    for k in range(start, len(ops)):
        op, n = ops[k]
        operate(st, seat, card, op, n)
        if st.phase == PENALTY:
            if k + 1 < len(ops):
                defer(st, (STEP_OPS, entry, k + 1))
            return


def operate(st: DiceBattleState, seat: int, card: int, op: str, n: int) -> None:
    me = st.sides[seat]
    opp_seat = 1 - seat
    opp = st.sides[opp_seat]
    if op in LEVEL_OPS:
        if op == "power":
            shift_level(st, seat, n)
        elif op == "weaken":
            shift_level(st, opp_seat, -n)
        elif op == "halve":
            level = unit_level(st, opp_seat)
            opp.mod -= level - level // 2
        else:  # swap
            mine, theirs = unit_level(st, seat), unit_level(st, opp_seat)
            me.mod = theirs - base_level(st, seat)
            opp.mod = mine - base_level(st, opp_seat)
        event(st, "levels", unit_level(st, 0), unit_level(st, 1))
    elif op == "draw":
        draw(st, seat, n)
    elif op == "opp_draw":
        draw(st, opp_seat, n)
    elif op == "discard":
        for _ in range(n):
            if not opp.hand:
                break
            c = opp.hand.pop(st.rng.randbelow(len(opp.hand)))
            opp.grave.append(c)
            if opp.stuck and not st.game.tables.fits(c, opp.stuck_roll):
                opp.stuck -= 1  # it may have been one of the cards that could not be set
            if c in opp.known:
                opp.known.remove(c)
            event(st, "discard", opp_seat, c)
    elif op == "mill":
        take_top(st, STEP_MILL, opp_seat, n)
    elif op == "salvage":
        levels = st.game.tables.level
        for _ in range(n):
            if not me.grave:
                break
            best = max(me.grave, key=lambda c: (levels[c], -c))
            me.grave.remove(best)
            me.hand.append(best)
            me.known.append(best)
            event(st, "salvage", seat, best)
    elif op == "star":
        me.stars += n
        event(st, "stars", seat, me.stars)
    elif op == "steal":
        opp.stars = max(0, opp.stars - n)
        event(st, "stars", opp_seat, opp.stars)
    elif op == "cancel":
        opp.cancelled = True
        event(st, "cancel", opp_seat)
    elif op == "tie_win":
        me.tie_win = True
        event(st, "tie_win", seat)
    elif op == "keep":
        me.keep.append(card)
    else:  # pragma: no cover - the loader accepts only known words
        raise AssertionError(f"unknown operation {op!r}")
