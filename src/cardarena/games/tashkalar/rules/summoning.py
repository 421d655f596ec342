"""Finding legal summons fast, and the out-of-units rules for the being's piece.

A pattern orientation is a list of (shift, minimum rank) relative to the summon square. The summon squares where
it matches are the AND of the player's "rank ≥ r" bit sets, each shifted back by its offset, intersected with
the squares whose piece (if any) is not of a higher rank than the being: a handful of integer operations per
orientation, whatever the number of pieces.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..board import ONBOARD, bits
from ..cards.data import LEGENDARY, Card, Orientation
from .pieces import has_supply, rank_mask

if TYPE_CHECKING:
    from ..state import TashKalarState


def at_least(bb: list[int], side: int) -> tuple[int, int, int, int]:
    """Bitboards of ``side``'s pieces of rank at least 1, 2, 3 (index 0 unused)."""
    base = side << 2
    ge3 = bb[base | 3]
    ge2 = bb[base | 2] | ge3
    ge1 = bb[base | 1] | ge2
    return (0, ge1, ge2, ge3)


#: card -> pieces its pattern needs, by ``id`` (a card's hash reads all its fields); the card is kept with its
#: entry, so that a card set freed and replaced can never hand its id to another card's entry
_NEEDS: dict[int, tuple[Card, tuple[int, int, int]]] = {}


def needs(card: Card) -> tuple[int, int, int]:
    """How many of your pieces of rank at least 1, 2 and 3 the pattern needs (the same in every orientation)."""
    got = _NEEDS.get(id(card))
    if got is not None and got[0] is card:
        return got[1]
    o = card.orients[0]
    ranks = [r for _, r in o.reqs] + ([o.summon_req] if o.summon_req else [])
    counts = (len(ranks), sum(r >= 2 for r in ranks), sum(r >= 3 for r in ranks))
    _NEEDS[id(card)] = (card, counts)
    return counts


def legal_summons(st: TashKalarState) -> list[tuple[int, int, int]]:
    """Every legal summon (card, summon square, orientation index) of the player to act, in a stable order:
    the hand's beings then legends, each orientation, squares from a1 upwards."""
    bb = st.bb
    ge = at_least(bb, st.side)
    r2 = rank_mask(bb, 2)
    r3 = rank_mask(bb, 3)
    allowed = (0, ONBOARD & ~(r2 | r3), ONBOARD & ~r3, ONBOARD)
    cs = st.game.cards.cards
    out: list[tuple[int, int, int]] = []
    seat = st.player
    have = (ge[1].bit_count(), ge[2].bit_count(), ge[3].bit_count())
    for c in (*st.hand_b[seat], *st.hand_l[seat]):
        card = cs[c]
        n1, n2, n3 = needs(card)
        if n1 > have[0] or n2 > have[1] or n3 > have[2]:
            continue  # too few pieces of those ranks for the pattern in any orientation
        allow = allowed[card.rank]
        # a piece for the being: in the supply, or (out of units) one of yours outside any placement of the pattern
        supplied = has_supply(st, st.side, card.rank) or _own_kind(st, card).bit_count() > n1 + 1
        for oi, o in enumerate(card.orients):
            m = allow
            if o.summon_req:
                m &= ge[o.summon_req]
            for shift, r in o.reqs:
                g = ge[r]
                m &= (g >> shift) if shift >= 0 else (g << -shift)
                if not m:
                    break
            if m:
                out.extend([(c, sq, oi) for sq in bits(m) if supplied or piece_available(st, card, o, sq)])
    return out


def improvised_summons(st: TashKalarState) -> list[tuple[int, int, int, int]]:
    """乱戦 即興召喚: summons (card, square, orientation, enemy square) that use exactly one enemy piece, of a
    colour the player has not improvised with yet, as if it were their own piece of the same rank."""
    p = st.side
    bb = st.bb
    ge = at_least(bb, p)
    e1 = e2 = e3 = 0
    used = st.improv[st.active]
    for col in range(st.game.n_col):
        if col != p and not used >> col & 1:
            b = col << 2
            e3 |= bb[b | 3]
            e2 |= bb[b | 2]
            e1 |= bb[b | 1]
    if not (e1 | e2 | e3):
        return []
    e2 |= e3
    e1 |= e2
    eg = (0, e1, e2, e3)
    r2 = rank_mask(bb, 2)
    r3 = rank_mask(bb, 3)
    allowed = (0, ONBOARD & ~(r2 | r3), ONBOARD & ~r3, ONBOARD)
    cs = st.game.cards.cards
    out: list[tuple[int, int, int, int]] = []
    for c in (*st.hand_b[st.player], *st.hand_l[st.player]):
        card = cs[c]
        for oi, o in enumerate(card.orients):
            base_m = allowed[card.rank]
            if o.summon_req:
                base_m &= ge[o.summon_req]
            for j, (sj, rj) in enumerate(o.reqs):
                g = eg[rj]
                m = base_m & ((g >> sj) if sj >= 0 else (g << -sj))
                for k, (shift, r) in enumerate(o.reqs):
                    if not m:
                        break
                    if k != j:
                        g = ge[r]
                        m &= (g >> shift) if shift >= 0 else (g << -shift)
                while m:
                    low = m & -m
                    sq = low.bit_length() - 1
                    m ^= low
                    if piece_available(st, card, o, sq):
                        out.append((c, sq, oi, sq + sj))
    out.sort()
    return out


def pattern_mask(o: Orientation, sq: int) -> int:
    """The squares of the pieces a summon at ``sq`` uses."""
    m = 0
    for shift, _ in o.reqs:
        m |= 1 << (sq + shift)
    return m


def _own_kind(st: TashKalarState, card: Card) -> int:
    base = st.side << 2
    return st.bb[base | 3] if card.rank == LEGENDARY else st.bb[base | 1] | st.bb[base | 2]


def recall_mask(st: TashKalarState, card: Card, o: Orientation, sq: int) -> int:
    """Out of units: the pieces of the right kind that may be taken back for this summon (0: none needed).

    ユニットの不足: a piece of yours destroyed on the summon square is reused; otherwise one of your pieces of that
    kind outside the pattern is taken off the board.
    """
    if has_supply(st, st.side, card.rank):
        return 0
    kind = _own_kind(st, card)
    if kind >> sq & 1:
        return 0
    return kind & ~pattern_mask(o, sq) & ~(1 << sq)


def piece_available(st: TashKalarState, card: Card, o: Orientation, sq: int) -> bool:
    """A piece for the being exists: in the supply, or by the out-of-units rules."""
    if has_supply(st, st.side, card.rank):
        return True
    kind = _own_kind(st, card)
    return bool(kind >> sq & 1 or kind & ~pattern_mask(o, sq) & ~(1 << sq))
