"""The items (アイテム): their timing windows, the choices each offers and their effects.

Every holder of a face-down item is asked at each window, so that being asked reveals nothing about which item
they hold: a holder of another item may only decline. The Mysterious Crystal and the Herb of Oblivion resolve when
taken (取得時自動発動).
"""

from __future__ import annotations

from itertools import permutations
from math import floor
from typing import TYPE_CHECKING

from ..actions import DECLINE, LyabiAction, use
from ..constants import (
    AUTO_ITEMS,
    BRUSH,
    COLOURS,
    CRYSTAL,
    EYE,
    HERB,
    ITEM_IDS,
    MIRROR,
    NO_ITEM,
    ORB,
    P_BRUSH,
    P_DRAW,
    P_EYE,
    P_MAIN,
    P_MIRROR,
    P_ORDER,
    P_SWORD,
    STONE,
    SWORD,
)
from .board import STEP, check_hp, log, use_item

if TYPE_CHECKING:
    from ..state import LyabiState

#: The item each timing window (and the main phase) is for.
WINDOW_ITEM: dict[int, int] = {P_DRAW: ORB, P_EYE: EYE, P_BRUSH: BRUSH, P_MIRROR: MIRROR, P_SWORD: SWORD, P_MAIN: STONE}
WINDOW_USE = {
    P_DRAW: [use("orb"), DECLINE],
    P_EYE: [use("eye"), DECLINE],
    P_MIRROR: [use("mirror"), DECLINE],
    P_SWORD: [use("sword"), DECLINE],
}
ONLY_DECLINE = [DECLINE]
ORDER_HINT = "list exactly the looked-at cards, top of the deck first"


# -- the checks ---------------------------------------------------------------------------------------------
def holds_fault(held: int, item: int) -> str | None:
    """An item is used only by its holder."""
    return None if held == item else _NOT_HELD[held][item]


#: ``_NOT_HELD[held][item]``: the reason why the holder of ``held`` (``NO_ITEM``: none, the last row) cannot use
#: ``item``, written once (item windows ask every item holder, so this is on the hot path).
_NOT_HELD = [
    [f"you do not hold the {name}" + (f" (you hold the {ITEM_IDS[h]})" if h != NO_ITEM else "") for name in ITEM_IDS]
    for h in [*range(len(ITEM_IDS)), NO_ITEM]
]


def timing_fault(phase: int, item: int) -> str | None:
    """Each item is used at its own timing."""
    if WINDOW_ITEM.get(phase) == item:
        return None
    return f"the {ITEM_IDS[item]} is not used at this timing ({STEP[phase][0]})"


def stone_fault(main_used: int) -> str | None:
    """The Space-Time Stone gives a second action: it is used before the main-phase action."""
    return "the Space-Time Stone is used before the main-phase action" if main_used else None


def brush_colour_fault(colour: int, new: int) -> str | None:
    """The Goddess's Brush changes the battle attribute to another colour."""
    return f"your ryabi is already {COLOURS[new]}" if new == colour else None


def why_not_use(st: LyabiState, s: int, a: LyabiAction) -> str | None:
    item = ITEM_IDS.index(a[1])
    fault = holds_fault(st.item[s], item) or timing_fault(st.phase, item)
    if fault is None and item == STONE:
        fault = stone_fault(st.main_used)
    if fault is None and item == BRUSH:
        fault = brush_colour_fault(st.colour[s], COLOURS.index(a[2]))
    return fault


def why_not_order(st: LyabiState, s: int, a: LyabiAction) -> str | None:
    names = st.game.cards.r_names
    top = looked_at(st, s)
    return None if sorted(a[1:]) == sorted(names[k] for k in top) else ORDER_HINT


# -- the lists ----------------------------------------------------------------------------------------------
def stone_usable(st: LyabiState, s: int) -> bool:
    return holds_fault(st.item[s], STONE) is None and stone_fault(st.main_used) is None


def window_choices(st: LyabiState, s: int) -> list[LyabiAction]:
    """An item window: the window's item used by its holder, or decline."""
    phase = st.phase
    if holds_fault(st.item[s], WINDOW_ITEM[phase]) is None:
        return WINDOW_USE[phase]
    return ONLY_DECLINE


def brush_choices(st: LyabiState, s: int) -> list[LyabiAction]:
    """After the reveal: the brush holder may turn its battle ryabi to another colour."""
    if holds_fault(st.item[s], BRUSH) is not None:
        return ONLY_DECLINE
    return BRUSH_USE[st.colour[s]]


#: The brush holder's choices by the colour of its set (-1: none), written once (shared lists).
BRUSH_USE: dict[int, list[LyabiAction]] = {
    colour: [use("brush", name) for i, name in enumerate(COLOURS) if brush_colour_fault(colour, i) is None]
    + ONLY_DECLINE
    for colour in range(-1, len(COLOURS))
}


def looked_at(st: LyabiState, s: int) -> list[int]:
    """The cards the Mysterious Crystal looked at, top of the deck first."""
    return st.deck[s][-st.known_top[s] :][::-1]


def order_choices(st: LyabiState) -> list[LyabiAction]:
    """Mysterious Crystal: every distinct order of the looked-at cards, top of the deck first."""
    names = st.game.cards.r_names
    seqs = sorted(set(permutations(looked_at(st, st.actor))))
    return [LyabiAction(("order", *(names[k] for k in seq))) for seq in seqs]


# -- the effects --------------------------------------------------------------------------------------------
def take_item(st: LyabiState, s: int) -> bool:
    """The top item, face down; True unless the Crystal now asks for an order (the item phase goes on)."""
    if st.item[s] != NO_ITEM:  # the item already held is removed from the game
        st.removed_items.append(st.item[s])
    new = st.item_pile.pop()
    st.item[s] = new
    if new not in AUTO_ITEMS:
        return True
    use_item(st, s)  # 取得時自動発動: resolves now
    if new == HERB:
        o = 1 - s
        if st.item[o] != NO_ITEM:
            st.removed_items.append(st.item[o])
            st.item[o] = NO_ITEM
        return True
    assert new == CRYSTAL
    look = int(st.game.cards.items[CRYSTAL].value)  # type: ignore[arg-type]
    n = min(look, len(st.deck[s]))
    st.known_top[s] = max(st.known_top[s], n)
    if n >= 2:  # asked even if every order is the same: not asking would show the cards are alike
        st.phase, st.actor = P_ORDER, s
        return False
    return True


def put_back(st: LyabiState, s: int, a: LyabiAction) -> None:
    """Mysterious Crystal: the looked-at cards back on the deck in the chosen order (``a`` lists the top first)."""
    kind_of = st.game.codec.kind_of
    kinds = [kind_of[n] for n in a[1:]]
    st.deck[s][-len(kinds) :] = kinds[::-1]


def orb(st: LyabiState, s: int) -> None:
    """Stargazing Orb: draw up to more cards this turn."""
    st.draw_to[s] = int(st.game.cards.items[ORB].value)  # type: ignore[arg-type]


def eye(st: LyabiState, s: int) -> None:
    """Mystic Eye: see the opponent's hand before setting."""
    st.eye_seen[s] = tuple(sorted(st.hand[1 - s]))


def brush(st: LyabiState, s: int, colour: str) -> None:
    """Goddess's Brush: the battle attribute of the set becomes ``colour``."""
    st.colour[s] = COLOURS.index(colour)
    log(st, **{f"brush_seat{s}": colour})


def mirror(st: LyabiState) -> bool:
    """Mirror of Desire: the damage is prevented and the attacker takes part of it, rounded down. True when the
    game ended."""
    reflect = st.game.cards.items[MIRROR].value
    back = floor(st.pending * reflect)  # type: ignore[operator]
    st.hp[st.winner] -= back
    log(st, damage=0, mirrored=back)
    st.pending = 0
    return check_hp(st)


def sword(st: LyabiState, s: int) -> bool:
    """War God's Sword: more damage after battle damage was dealt. True when the game ended."""
    extra = int(st.game.cards.items[SWORD].value)  # type: ignore[arg-type]
    st.hp[1 - s] -= extra
    log(st, sword=extra)
    return check_hp(st)
