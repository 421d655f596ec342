"""The state protocol of Lyabi's rules: :func:`legal_actions`, :func:`why_not` and :func:`apply`, joining the topic
modules (see the package's docstring). Legality has one source: each condition is a check in its topic's module that
both filters the listed actions and gives the reason for a refusal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ..actions import LyabiAction
from ..constants import DECLINE_K, ITEM_K, ORDER_K, P_BRUSH, P_ITEM, P_MAIN, P_ORDER, P_SET, PASS_K, SET_K, USE_K
from . import battle, items, market, turns
from .board import STEP
from .turns import apply

if TYPE_CHECKING:
    from ..state import LyabiState

__all__ = ["apply", "legal_actions", "start", "why_not"]


def start(st: LyabiState) -> None:
    """The game's setup and the first turn up to its first decision."""
    turns.setup(st)
    turns.begin_turn(st)


def legal_actions(st: LyabiState) -> list[LyabiAction]:
    """The legal actions of the seat to act, in a stable order (not called once the game is over)."""
    phase, s = st.phase, st.actor
    game = st.game
    if phase == P_MAIN:
        return game.market.main(
            tuple(sorted(st.hand[s])),
            st.supply_mask,
            st.pile_mask,
            tuple(sorted(st.field[s])),
            items.stone_usable(st, s),
        )
    if phase == P_SET:
        return game.set_choices(tuple(sorted(st.hand[s])))
    if phase == P_ITEM:
        return game.market.item(tuple(sorted(st.hand[s])))
    if phase == P_BRUSH:
        return items.brush_choices(st, s)
    if phase == P_ORDER:
        return items.order_choices(st)
    return items.window_choices(st, s)


def why_not(st: LyabiState, action: object) -> str | None:
    """``None`` when ``action`` is legal now, else the first failing check in plain words."""
    if st.result is not None:
        return "the game is over"
    if not _canonical(st, action):
        return (
            f"{str(action)!r} is not an action of lyabi: "
            "take actions from legal_actions() or read them with game.parse_action"
        )
    a = cast(LyabiAction, action)
    s, phase, kind = st.actor, st.phase, a[0]
    step, kinds = STEP[phase]
    if kind not in kinds:
        return f"seat {s} is in the {step}; expected: {', '.join(kinds)}"
    if kind in (PASS_K, DECLINE_K):
        return None
    if kind == USE_K:
        return items.why_not_use(st, s, a)
    if kind == ITEM_K:
        return market.why_not_item(st, s, a)
    if kind == ORDER_K:
        return items.why_not_order(st, s, a)
    if kind == SET_K:
        return battle.why_not_set(st, s, a)
    return market.why_not_main(st, s, a)


def _canonical(st: LyabiState, a: object) -> bool:
    """``a`` is a Lyabi action in its canonical form (as the codec reads its text back)."""
    if type(a) is not LyabiAction:
        return False
    try:
        return st.game.codec.parse(str(a)) == a
    except (TypeError, ValueError, IndexError):  # InvalidActionError is a ValueError
        return False
