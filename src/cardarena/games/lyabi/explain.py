"""Plain-words reasons why an action is not legal (for error messages; legality itself is ``legal_actions``)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .actions import LyabiAction
from .data import COLOURS, ITEM_IDS, STONE
from .state import P_BRUSH, P_DRAW, P_EYE, P_ITEM, P_MAIN, P_MIRROR, P_ORDER, P_SET, P_SWORD

if TYPE_CHECKING:
    from .state import LyabiState

STEP = {
    P_DRAW: ("the draw phase's item window", ("use", "decline")),
    P_MAIN: ("main phase", ("buy", "split", "place", "use", "pass")),
    P_ITEM: ("item phase", ("item", "pass")),
    P_ORDER: ("Mysterious Crystal's ordering", ("order",)),
    P_EYE: ("battle preparation's item window", ("use", "decline")),
    P_SET: ("battle preparation (setting face down)", ("set",)),
    P_BRUSH: ("item window after the reveal", ("use", "decline")),
    P_MIRROR: ("item window before battle damage", ("use", "decline")),
    P_SWORD: ("item window after battle damage", ("use", "decline")),
}
WINDOW_ITEMS = {P_DRAW: "orb", P_EYE: "eye", P_BRUSH: "brush", P_MIRROR: "mirror", P_SWORD: "sword", P_MAIN: "stone"}


def why_illegal(st: LyabiState, a: LyabiAction) -> str:
    if st.is_terminal():
        return "the game is over"
    s, phase, kind = st.actor, st.phase, a[0]
    step, kinds = STEP[phase]
    if kind not in kinds:
        return f"seat {s} is in the {step}; expected: {', '.join(kinds)}"
    c = st.game.cards
    kind_of = st.game.codec.kind_of
    hand = Counter(c.r_names[k] for k in st.hand[s])
    paid = Counter(a.pay if kind != "set" or a[1] == "dummy" else a[1:])
    missing = paid - hand
    if missing:
        return f"you do not hold {' '.join(sorted(missing.elements()))}"
    total = sum(c.r_cost[kind_of[n]] * k for n, k in paid.items())
    if kind == "buy":
        t = kind_of[a[1]]
        if not st.supply[t]:
            return f"no {a[1]} is left in the supply"
        if c.r_cost[t] > total:
            return f"the payment's total cost {total} is less than {a[1]}'s cost {c.r_cost[t]}"
    if kind == "split":
        gains = [kind_of[n] for n in a[2:]]
        for g in gains:
            if not st.supply[g]:
                return f"no {c.r_names[g]} is left in the supply"
            if c.r_cost[g] >= total:
                return f"each gained ryabi must cost less than the paid {a[1]} ({total})"
        if len(gains) == 2 and c.r_cost[gains[0]] == c.r_cost[gains[1]]:
            return "two gained ryabi may not have equal costs"
    if kind == "place":
        li = st.game.codec.level_of[a[1]]
        field = st.field[s]
        if not st.piles[li]:
            return f"the Lv{a[1]} circle pile is empty"
        if c.level_cost[li] > total:
            return f"the payment's total cost {total} is less than the Lv{a[1]} circles' cost {c.level_cost[li]}"
        if a[2] and not st.game.options["circle_replace"]:
            return "replacing a circle needs the option circle_replace"
        if a[2] and st.game.codec.circle_of[a[2]] not in field:
            return f"you have no {a[2]} circle to remove"
        if len(field) >= c.max_circles and not a[2]:
            return f"your field already holds {len(field)} circles (at most {c.max_circles})"
        if len(field) < c.max_circles and a[2]:
            return "you have room for a circle; nothing needs removing"
    if kind == "item" and total < c.item_cost:
        return f"an item costs a total of at least {c.item_cost}; this payment totals {total}"
    if kind == "set" and len(a) == 3 and c.r_colour[kind_of[a[1]]] != c.r_colour[kind_of[a[2]]]:
        return "a double charge needs two ryabi of the same attribute"
    if kind == "use":
        held = ITEM_IDS[st.item[s]] if st.item[s] >= 0 else None
        if held != a[1]:
            return f"you do not hold the {a[1]}" + (f" (you hold the {held})" if held else "")
        if WINDOW_ITEMS.get(phase) != a[1]:
            return f"the {a[1]} is not used at this timing ({step})"
        if st.item[s] == STONE and st.main_used:
            return "the Space-Time Stone is used before the main-phase action"
        if phase == P_BRUSH and a[2] == COLOURS[st.colour[s]]:
            return f"your ryabi is already {a[2]}"
    if kind == "order":
        return "list exactly the looked-at cards, top of the deck first"
    return "it is not one of the legal actions now"
