"""What every rule moves: cards paid from a hand, ryabi gained from the supply, an item used up, the battle log,
and the end of the game (rulebook: ゲームの終了)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..constants import (
    BUY_K,
    DECLINE_K,
    ITEM_K,
    NO_ITEM,
    ORDER_K,
    P_BRUSH,
    P_DRAW,
    P_EYE,
    P_ITEM,
    P_MAIN,
    P_MIRROR,
    P_ORDER,
    P_OVER,
    P_SET,
    P_SWORD,
    PASS_K,
    PLACE_K,
    SET_K,
    SPLIT_K,
    USE_K,
)

if TYPE_CHECKING:
    from ..state import LyabiState


def use_item(st: LyabiState, s: int) -> None:
    """An item is used once, then removed from the game face up (public)."""
    st.removed_items.append(st.item[s])
    st.item[s] = NO_ITEM


def pay(st: LyabiState, s: int, names: tuple[str, ...]) -> None:
    """Ryabi paid from the hand go to the discard pile, face up."""
    kind_of = st.game.codec.kind_of
    hand, discard = st.hand[s], st.discard[s]
    for name in names:
        k = kind_of[name]
        hand.remove(k)
        discard.append(k)
    forget(st, s, names)


def forget(st: LyabiState, s: int, shown: Sequence[str]) -> None:
    """Cards that left a hand face up (paid, or revealed in battle) are no longer known to be in it."""
    known = st.public_hand[s]
    if known:
        kind_of = st.game.codec.kind_of
        for name in shown:
            k = kind_of[name]
            if k in known:
                known.remove(k)


def gain(st: LyabiState, s: int, k: int) -> None:
    """A gained ryabi goes from the supply to the discard pile."""
    st.supply[k] -= 1
    if not st.supply[k]:
        st.supply_mask &= ~(1 << k)
    st.discard[s].append(k)


def log(st: LyabiState, **facts: Any) -> None:
    """Add public facts about the current battle (a new dict: clones share the old one)."""
    st.last_battle = {**(st.last_battle or {}), **facts}


def win_for(seat: int) -> list[float]:
    return [1.0, -1.0] if seat == 0 else [-1.0, 1.0]


def check_hp(st: LyabiState) -> bool:
    """HP 0 or less loses; both at once is a draw. True when the game ended."""
    down = [st.hp[0] <= 0, st.hp[1] <= 0]
    if not (down[0] or down[1]):
        return False
    if down[0] and down[1]:
        finish(st, [0.0, 0.0], "both players fell to 0 HP")
    else:
        loser = 0 if down[0] else 1
        finish(st, win_for(1 - loser), f"seat {loser} fell to 0 HP")
    return True


def finish(st: LyabiState, result: list[float], reason: str) -> None:
    st.result = result
    st.end_reason = reason
    st.phase = P_OVER
    st.queue = []


#: Each decision phase in words, and the kinds of action it takes.
STEP: dict[int, tuple[str, tuple[str, ...]]] = {
    P_DRAW: ("the draw phase's item window", (USE_K, DECLINE_K)),
    P_MAIN: ("main phase", (BUY_K, SPLIT_K, PLACE_K, USE_K, PASS_K)),
    P_ITEM: ("item phase", (ITEM_K, PASS_K)),
    P_ORDER: ("Mysterious Crystal's ordering", (ORDER_K,)),
    P_EYE: ("battle preparation's item window", (USE_K, DECLINE_K)),
    P_SET: ("battle preparation (setting face down)", (SET_K,)),
    P_BRUSH: ("item window after the reveal", (USE_K, DECLINE_K)),
    P_MIRROR: ("item window before battle damage", (USE_K, DECLINE_K)),
    P_SWORD: ("item window after battle damage", (USE_K, DECLINE_K)),
}
