"""What each seat may know (``observation``) and worlds it cannot tell apart (``resample``).

Hidden: hands, deck order, the face-down circle piles and item pile, face-down items and battle sets before the
reveal. Public: discard piles, fields, HP, removed cards, supply, sizes, and whatever was revealed or used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...engine import Rng
from .data import AUTO_ITEMS, COLOURS, ITEM_IDS
from .state import NO_ITEM, PHASE_NAMES

if TYPE_CHECKING:
    from .state import LyabiState


def dummy_in_hand(st: LyabiState, s: int) -> bool:
    """1_1: a battling player takes the dummy into hand; it leaves the hand only if set."""
    return st.battling[s] and st.sets[s] != ()


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
            shown_set = {"face_down": max(1, len(sets))}
        p: dict[str, Any] = {
            "hp": st.hp[s],
            "hand_size": len(st.hand[s]) + dummy_in_hand(st, s),
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
    set and face-down item, the order of the face-down piles, and the future chance."""
    w = st.clone()
    w._legal = None
    deck = w.deck[seat]
    n = len(deck) - w.known_top[seat]
    if n > 1:
        below = deck[:n]
        r.shuffle(below)
        deck[:n] = below
    _resample_opponent_ryabi(w, seat, r)
    o = 1 - seat
    if w.item[o] != NO_ITEM:
        # Auto items resolve on acquisition, so a face-down item is never one of them.
        pool = [*w.item_pile, w.item[o]]
        choices = [i for i, x in enumerate(pool) if x not in AUTO_ITEMS]
        w.item[o] = pool.pop(choices[r.randbelow(len(choices))])
        r.shuffle(pool)
        w.item_pile = pool
    else:
        r.shuffle(w.item_pile)
    for pile in w.piles:
        r.shuffle(pile)
    w.rng = Rng(r.next64())
    return w


def _resample_opponent_ryabi(w: LyabiState, seat: int, r: Rng) -> None:
    """Redraw the opponent's hand (and unrevealed set) from the cards ``seat`` cannot place: the hand's unknown
    cards and the deck. Cards known to be in the hand (``public_hand``, or all of it after the Mystic Eye) stay."""
    o = 1 - seat
    hidden_set = w.sets[o] is not None and not w.revealed
    set_cards = list(w.sets[o] or ()) if hidden_set else []
    # The hand and an unrevealed set together: a set of one face-down card may be the dummy or a ryabi.
    held = [*w.hand[o], *set_cards]
    h = len(held)
    seen = w.eye_seen[seat] is not None  # the Mystic Eye showed this seat the opponent's whole hand
    known = held.copy() if seen else list(w.public_hand[o])
    unknown = held.copy()
    for k in known:
        unknown.remove(k)
    pool = [*unknown, *w.deck[o]]
    u = len(unknown)
    shape = len(set_cards) if set_cards else (1 if hidden_set else 0)
    r.shuffle(pool)
    new_set: tuple[int, ...] | None = None
    if shape == 2:
        # A double charge: a random pair of one colour among the known cards and at most u pool cards, the rest
        # of the hand from the pool (the true pair is always among the candidates).
        colour = w.game.cards.r_colour
        cand, n = [*known, *pool], len(known)
        pairs = [
            (i, j)
            for i in range(len(cand))
            for j in range(i + 1, len(cand))
            if colour[cand[i]] == colour[cand[j]] and (i >= n) + (j >= n) <= u
        ]
        i, j = pairs[r.randbelow(len(pairs))]
        new_set = tuple(sorted((cand[i], cand[j])))
        rest = [cand[x] for x in range(n, len(cand)) if x != i and x != j]
        take = u - (i >= n) - (j >= n)
        hand = [cand[x] for x in range(n) if x != i and x != j] + rest[:take]
        deck = rest[take:]
    else:
        hand = [*known, *pool[:u]]
        deck = pool[u:]
        if shape == 1:
            x = r.randbelow(h + 1)
            new_set = () if x == h else (hand.pop(x),)
    w.hand[o] = hand
    if hidden_set:
        w.sets[o] = new_set
    w.deck[o] = deck
