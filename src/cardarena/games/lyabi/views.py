"""What each seat may know (``observation``) and worlds it cannot tell apart (``resample``).

Hidden: hands, deck order, the face-down circle piles and item pile, face-down items and battle sets before the
reveal (a set's size included: until both have set, another seat sees only that a set was made, and the setter's
hand size as it was before setting). Public: discard piles, fields, HP, removed cards, supply, sizes, and whatever
was revealed or used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...engine import Rng
from .constants import AUTO_ITEMS, COLOURS, ITEM_IDS, NO_ITEM, PHASE_NAMES

if TYPE_CHECKING:
    from .state import LyabiState


def dummy_in_hand(st: LyabiState, s: int) -> bool:
    """1_1: a battling player takes the dummy into hand; it leaves the hand only if set."""
    return st.battling[s] and st.sets[s] != ()


def set_pending(st: LyabiState, s: int) -> bool:
    """Seat ``s`` has set face down and the sets are not yet revealed (バトルステップ 2_1: revealed together)."""
    return st.sets[s] is not None and not st.revealed


def hand_size_seen(st: LyabiState, s: int, seat: int | None) -> int:
    """The size of seat ``s``'s hand (the dummy counted while it is there) as ``seat`` sees it.

    While a set is pending, other seats see the hand as it was before setting (ryabi and the dummy): the cards
    that left it, one, two or the dummy, would tell them the set's size.
    """
    if s != seat and set_pending(st, s):
        return len(st.hand[s]) + len(st.sets[s] or ()) + 1
    return len(st.hand[s]) + dummy_in_hand(st, s)


def _names(names: tuple[str, ...], cards: list[int] | tuple[int, ...]) -> list[str]:
    return [names[k] for k in sorted(cards)]


def observation(st: LyabiState, seat: int | None) -> dict[str, Any]:
    c = st.game.cards
    rn, cn = c.r_names, c.c_names
    players = []
    for s in (0, 1):
        sets = st.sets[s]
        if sets is None:
            shown_set: Any = None
        elif st.revealed:
            shown_set = "dummy" if not sets else _names(rn, sets)
        else:
            shown_set = "face down"  # one ryabi, a double charge or the dummy: nothing tells which
        p: dict[str, Any] = {
            "hp": st.hp[s],
            "hand_size": hand_size_seen(st, s, seat),
            "hand_known": _names(rn, st.public_hand[s]),
            "deck_size": len(st.deck[s]),
            "discard": _names(rn, st.discard[s]),
            "field": [cn[k] for k in st.field[s]],
            "item": "face down" if st.item[s] != NO_ITEM else None,
            "draw_to": st.draw_to[s],
            "battling": st.battling[s],
            "set": shown_set,
        }
        if s == seat:
            p["hand"] = _names(rn, st.hand[s])
            p["dummy_in_hand"] = dummy_in_hand(st, s)
            p["item"] = ITEM_IDS[st.item[s]] if st.item[s] != NO_ITEM else None
            k = st.known_top[s]
            p["deck_top"] = [rn[x] for x in reversed(st.deck[s][len(st.deck[s]) - k :])] if k else []
            if sets is not None:
                p["set"] = "dummy" if not sets else _names(rn, sets)
        players.append(p)
    obs: dict[str, Any] = {
        "turn": st.turn_no,
        "phase": PHASE_NAMES[st.phase],
        "to_act": st.current_player,
        "first_player": st.first,
        "players": players,
        "supply": {rn[k]: n for k, n in enumerate(st.supply)},
        "circle_piles": {str(lv): len(p) for lv, p in zip(c.levels, st.piles)},
        "item_pile": len(st.item_pile),
        "removed": {
            "ryabi": {rn[k]: n for k, n in enumerate(st.removed_ryabi) if n},
            "circles": [cn[k] for k in st.removed_circles],
            "items": [ITEM_IDS[i] for i in st.removed_items],
        },
        "actions_left": st.actions_left,
        "battle_colours": [COLOURS[x] if x >= 0 else None for x in st.colour] if st.revealed else None,
        "pending_damage": st.pending,
        "last_battle": st.last_battle,
        "result": st.result,
        "end_reason": st.end_reason,
    }
    if seat is not None:
        obs["seat"] = seat
        seen = st.eye_seen[seat]
        if seen is not None:
            obs["seen_opponent_hand"] = _names(rn, seen)
    return obs


def resample(st: LyabiState, seat: int, r: Rng) -> LyabiState:
    """Redraw what ``seat`` cannot see: its own deck below the known top, the opponent's hand, deck, unrevealed
    set and face-down item, the order of the face-down piles, and the future chance.

    Canonical: every pool of unseen cards is sorted before the rng shuffles or deals it, so the world is a
    function of what ``seat`` knows and of ``r`` alone (two states the seat cannot tell apart, a state and any
    of its resamples included, give the same world with the same rng).
    """
    w = st.clone()
    deck = w.deck[seat]
    n = len(deck) - w.known_top[seat]
    if n > 1:
        below = sorted(deck[:n])
        r.shuffle(below)
        deck[:n] = below
    _resample_opponent_ryabi(w, seat, r)
    o = 1 - seat
    if w.item[o] != NO_ITEM:
        # Auto items resolve on acquisition, so a face-down item is never one of them.
        pool = sorted([*w.item_pile, w.item[o]])
        choices = [i for i, x in enumerate(pool) if x not in AUTO_ITEMS]
        w.item[o] = pool.pop(choices[r.randbelow(len(choices))])
        r.shuffle(pool)
        w.item_pile = pool
    else:
        w.item_pile.sort()
        r.shuffle(w.item_pile)
    for pile in w.piles:
        pile.sort()
        r.shuffle(pile)
    w.rng = Rng(r.next64())
    return w


def _resample_opponent_ryabi(w: LyabiState, seat: int, r: Rng) -> None:
    """Redraw the opponent's hand (and unrevealed set) from the cards ``seat`` cannot place: the hand's unknown
    cards and the deck. Cards known to be in the hand (``public_hand``, or all of it after the Mystic Eye) stay.

    An unrevealed set shows nothing, its size included, so it is redrawn as any set the redrawn hand allows
    (one ryabi, a double charge or the dummy), each equally likely. The pool is sorted before it is shuffled and
    the known cards are put first in sorted order, so no order comes from the true state.
    """
    o = 1 - seat
    hidden_set = set_pending(w, o)
    # The hand and an unrevealed set together: the hand as it was before setting.
    held = [*w.hand[o], *(w.sets[o] or ())] if hidden_set else list(w.hand[o])
    seen = w.eye_seen[seat] is not None  # the Mystic Eye showed this seat the opponent's whole hand
    known = held.copy() if seen else list(w.public_hand[o])
    unknown = held.copy()
    for k in known:
        unknown.remove(k)
    pool = sorted([*unknown, *w.deck[o]])
    u = len(unknown)
    r.shuffle(pool)
    hand = [*sorted(known), *pool[:u]]  # the known cards, then the unknown ones as dealt
    w.deck[o] = pool[u:]
    if hidden_set:
        sets = w.game.set_choices(tuple(sorted(hand)))
        chosen = sets[r.randbelow(len(sets))]
        kind_of = w.game.codec.kind_of
        kinds = () if chosen[1] == "dummy" else tuple(kind_of[n] for n in chosen[1:])
        for k in kinds:
            hand.remove(k)
        w.sets[o] = kinds
    w.hand[o] = hand


# -- what search and the odds advisor ask about the unseen -----------------------------------------------------
def _held_unknown(st: LyabiState, seat: int) -> list[int]:
    """The opponent's cards in hand (and under an unrevealed set) that ``seat`` cannot name, in the hand's order."""
    o = 1 - seat
    held = [*st.hand[o], *(st.sets[o] or ())] if set_pending(st, o) else list(st.hand[o])
    if st.eye_seen[seat] is not None:
        return []
    for k in st.public_hand[o]:
        held.remove(k)
    return held


def hidden_cards(st: LyabiState, seat: int) -> dict[str, dict[str, Any]]:
    """Every place ``seat`` cannot see, pooled as resample redraws them: the opponent's unknown hand cards (with an
    unrevealed set, as held before setting) and deck; the seat's own deck below the known top; the opponent's
    face-down item with the item pile; each face-down circle pile. The hand's places are its unknown cards in the
    hand's order (resample deals them in a random order after the known ones)."""
    c = st.game.cards
    o = 1 - seat
    pools: dict[str, dict[str, Any]] = {}
    opponent = {f"hand {i}": c.r_names[k] for i, k in enumerate(_held_unknown(st, seat))}
    opponent.update({f"deck {i}": c.r_names[k] for i, k in enumerate(st.deck[o])})
    pools["opponent's hand and deck"] = opponent
    n = len(st.deck[seat]) - st.known_top[seat]
    pools["your deck"] = {f"deck {i}": c.r_names[k] for i, k in enumerate(st.deck[seat][:n])}
    items = {f"pile {i}": ITEM_IDS[x] for i, x in enumerate(st.item_pile)}
    pools["items"] = items
    if st.item[o] != NO_ITEM:
        # A face-down item is never an auto item: when every other item it could be is alike, the seat knows it.
        could_be = {x for x in (*st.item_pile, st.item[o]) if x not in AUTO_ITEMS}
        pool = "items" if len(could_be) > 1 else "opponent's item (known: the only kind it can be)"
        pools.setdefault(pool, {})["opponent's item"] = ITEM_IDS[st.item[o]]
    for lv, pile in zip(c.levels, st.piles):
        pools[f"Lv{lv} circle pile"] = {f"pile {i}": c.c_names[k] for i, k in enumerate(pile)}
    return {name: places for name, places in pools.items() if places}


def hidden_facts(world: LyabiState, seat: int) -> dict[str, str]:
    """Facts worth odds, read from a world ``resample(seat)`` drew: does the opponent hold a ryabi of each colour
    (an unrevealed set counts as held), the colour of its set while it is face down, its strongest card."""
    c = world.game.cards
    o = 1 - seat
    pending = set_pending(world, o)
    held = [*world.hand[o], *(world.sets[o] or ())] if pending else list(world.hand[o])
    facts = {
        f"opponent holds a {colour} ryabi": "yes" if any(c.r_colour[k] == ci for k in held) else "no"
        for ci, colour in enumerate(COLOURS)
    }
    if pending:
        cards = world.sets[o]
        facts["opponent's face-down set"] = (
            "the dummy" if not cards else COLOURS[c.r_colour[cards[0]]] + (" double charge" if len(cards) > 1 else "")
        )
    best = max(held, key=lambda k: (c.r_cost[k], c.r_times[k]), default=None)
    facts["opponent's strongest card"] = "none" if best is None else f"Lv{c.r_level[best]} ({c.r_names[best]})"
    return facts
