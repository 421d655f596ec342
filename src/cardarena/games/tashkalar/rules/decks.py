"""The card decks: drawing, refilling hands at the end of a turn, and putting cards under their decks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....engine import zones
from ..cards.data import Card

if TYPE_CHECKING:
    from ..state import TashKalarState


def sideways(st: TashKalarState) -> int:
    return st.game.cards.rules.team_sideways if st.game.teams else 0


def draw(st: TashKalarState, p: int, which: int) -> bool:
    """Draw one card of deck ``which`` (0 school, 1 legend, 2 flare) for ``p``; False if none is left."""
    if which == 0:
        deck = st.deck_s[p]
        if not deck:
            return False
        st.hand_b[p].append(deck.pop())
        if len(deck) <= sideways(st):
            # the last (upright) card drawn; in team games the bottom cards lie sideways
            st.deck_out[p] = True
        return True
    deck, disc, hand = (st.deck_l, st.disc_l, st.hand_l[p]) if which == 1 else (st.deck_f, st.disc_f, st.hand_f[p])
    if not deck:
        if not disc:
            return False
        zones.shuffle_into(disc, deck, st.rng)
    hand.append(deck.pop())
    return True


def refill(st: TashKalarState, p: int, *, initial: bool = False, decks: tuple[int, ...] = (0, 1, 2)) -> None:
    """Draw up to 3 beings, 2 legends, 1 flare (the decks in ``decks``), then the extra cards."""
    rules = st.game.cards.rules
    if st.known_hand[p]:
        # a known card that left the hand is no longer known there (drawing it again is secret)
        held = st.hand_b[p] + st.hand_l[p] + st.hand_f[p]
        st.known_hand[p] = [c for c in st.known_hand[p] if c in held]
    for which, hand, limit in (
        (0, st.hand_b[p], rules.hand_beings),
        (1, st.hand_l[p], rules.hand_legends),
        (2, st.hand_f[p], rules.hand_flares),
    ):
        if which in decks:
            while len(hand) < limit and draw(st, p, which):
                pass
    if not initial:
        for which in decks:
            for _ in range(st.extra[which]):
                draw(st, p, which)
    st.known_bottom[p] = min(st.known_bottom[p], len(st.deck_s[p]))


def put_under(st: TashKalarState, card: Card) -> None:
    """After the discard action: ``card`` from the player's hand goes under its own deck.

    A being goes under the player's school deck (its place there is known to that player, ``known_bottom``;
    in team games it lies sideways, the bottom 6 always being the sideways ones); a legend under the shared
    legend deck, a flare under the shared flare deck.
    """
    p = st.player
    c = card.index
    if card.kind == "being":
        st.hand_b[p].remove(c)
        st.deck_s[p].insert(0, c)
        st.known_bottom[p] += 1
    elif card.kind == "legend":
        st.hand_l[p].remove(c)
        st.deck_l.insert(0, c)
    else:
        st.hand_f[p].remove(c)
        st.deck_f.insert(0, c)
