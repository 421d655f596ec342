"""Setup and the turn (ゲームの準備, ターンの流れ): the draw phase and its window, the two main and item phases in
priority order, the battle phase, the end phase; and carrying out any decision."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....engine import zones
from ..actions import LyabiAction
from ..constants import BEATS, ITEM_K, NO_ITEM, P_DRAW, P_ITEM, P_MAIN, P_ORDER, USE_K
from . import battle, items, market
from .board import finish, pay, use_item, win_for

if TYPE_CHECKING:
    from ..state import LyabiState


def setup(st: LyabiState) -> None:
    """ゲームの準備: piles, the setup circles (and so the first player), the initial decks and hands, items."""
    c = st.game.cards
    rng = st.rng
    for k in range(len(c.c_names)):
        st.piles[c.c_level_index[k]].extend([k] * c.c_count[k])
    lv0 = st.piles[0]
    # 5./6. each player takes a random setup circle; equal colours: both go back, shuffle and take again.
    while True:
        rng.shuffle(lv0)
        a, b = lv0[-1], lv0[-2]
        if c.c_colour[a] != c.c_colour[b]:
            break
    lv0.pop()
    lv0.pop()
    st.field = [[a], [b]]
    # The player whose circle beats the other's is first player for the whole game.
    st.first = 0 if BEATS[c.c_colour[a]] == c.c_colour[b] else 1
    st.order = (st.first, 1 - st.first)
    for pile in st.piles[1:]:
        rng.shuffle(pile)
    # 7. the initial deck and hand printed on the circle, taken out of the supply.
    for s in (0, 1):
        colour = c.c_colour[st.field[s][0]]
        hand, deck = c.start_hand[colour], c.start_deck[colour]
        assert hand is not None and deck is not None  # validated by the data loader
        st.hand[s] = list(hand)
        st.public_hand[s] = list(hand)
        st.deck[s] = list(deck)
        for k in (*hand, *deck):
            st.supply[k] -= 1
        rng.shuffle(st.deck[s])
    st.item_pile = [i for i, spec in enumerate(c.items) for _ in range(spec.count)]
    rng.shuffle(st.item_pile)
    st.supply_mask = sum(1 << k for k, n in enumerate(st.supply) if n)
    st.pile_mask = sum(1 << i for i, p in enumerate(st.piles) if p)


def begin_turn(st: LyabiState) -> None:
    if st.turn_no >= st.game.options["max_turns"]:
        finish(st, [0.0, 0.0], f"the turn limit ({st.turn_no}) was reached")
        return
    st.turn_no += 1
    hand_size = st.game.cards.hand_size
    st.draw_to = [hand_size, hand_size]
    st.queue = [s for s in st.order if st.item[s] != NO_ITEM]
    next_draw_window(st)


def next_draw_window(st: LyabiState) -> None:
    if st.queue:
        st.phase, st.actor = P_DRAW, st.queue.pop(0)
        return
    draw_phase(st)


def draw_phase(st: LyabiState) -> None:
    """ドローフェイズ: each player draws until holding 3; an empty deck is refilled from the discard pile."""
    lost = [not draw(st, s) for s in st.order]
    if lost[0] or lost[1]:
        if lost[0] and lost[1]:
            finish(st, [0.0, 0.0], "both decks ran out")
        else:
            loser = st.order[0] if lost[0] else st.order[1]
            finish(st, win_for(1 - loser), f"seat {loser}'s deck ran out")
        return
    start_main(st, st.first)


def draw(st: LyabiState, s: int) -> bool:
    """Draw up to ``draw_to[s]``; False if deck and discard run out before the hand holds the hand size."""
    hand, deck, discard = st.hand[s], st.deck[s], st.discard[s]
    target = st.draw_to[s]
    while len(hand) < target:
        if not deck:
            if not discard:
                return len(hand) >= st.game.cards.hand_size
            zones.shuffle_into(discard, deck, st.rng)
            st.known_top[s] = 0
            # The old deck (public contents) is all in the hand now: every seat knows these cards.
            st.public_hand[s] = hand.copy()
        hand.append(deck.pop())
        if st.known_top[s]:
            st.known_top[s] -= 1
    if not deck:  # the whole deck (public contents) was drawn: every seat knows the hand
        st.public_hand[s] = hand.copy()
    return True


def start_main(st: LyabiState, s: int) -> None:
    """メインフェイズ: one action (two with the Space-Time Stone); an empty hand goes on to the item phase."""
    st.phase, st.actor = P_MAIN, s
    st.actions_left, st.main_used = 1, 0
    if not st.hand[s]:
        start_item(st, s)


def start_item(st: LyabiState, s: int) -> None:
    """アイテム取得フェイズ: asked whenever the player holds cards (a public fact), even if they cannot pay:
    skipping a hand that totals less than the item cost would tell the opponent so."""
    if st.item_pile and st.hand[s]:
        st.phase, st.actor = P_ITEM, s
        return
    after_item(st, s)


def after_item(st: LyabiState, s: int) -> None:
    """The first player's main and item phases, then the second player's, then the battle phase."""
    if s == st.first:
        start_main(st, 1 - s)
    elif battle.start_battle(st):
        end_phase(st)


def end_phase(st: LyabiState) -> None:
    """エンドフェイズ: each player discards the rest of their hand."""
    for s in (0, 1):
        st.discard[s].extend(st.hand[s])
        st.hand[s].clear()
        st.public_hand[s] = []
    begin_turn(st)


def apply(st: LyabiState, action: LyabiAction) -> None:
    """Carry out a legal ``action`` of the seat to act."""
    s = st.actor
    phase = st.phase
    if phase == P_MAIN:
        if market.apply_main(st, s, action):
            start_item(st, s)
    elif phase == P_ITEM:
        if action[0] == ITEM_K:
            pay(st, s, action.pay)
            if items.take_item(st, s):
                after_item(st, s)
        else:
            after_item(st, s)
    elif phase == P_ORDER:
        items.put_back(st, s, action)
        after_item(st, s)
    elif phase == P_DRAW:
        if action[0] == USE_K:
            use_item(st, s)
            items.orb(st, s)
        next_draw_window(st)
    elif battle.apply(st, s, action):
        end_phase(st)
