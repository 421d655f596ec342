"""Pieces on the board: a cell is 0 (empty) or ``owner << 2 | rank`` (rank 1 common, 2 heroic, 3 legendary).

``bb[cell]`` is the bit set of the squares holding that cell value, kept in step with ``board`` so that pattern
matching and effect targeting are a few integer operations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..board import ONBOARD, bits
from ..cards.data import LEGENDARY

if TYPE_CHECKING:
    from ..state import TashKalarState

EMPTY = 0


def cell(owner: int, rank: int) -> int:
    return owner << 2 | rank


def owner_of(c: int) -> int:
    return c >> 2


def rank_of(c: int) -> int:
    return c & 3


def rank_mask(bb: list[int], rank: int) -> int:
    """Squares holding a piece of exactly ``rank``, any owner."""
    return bb[rank] | bb[4 | rank] | bb[8 | rank] | bb[12 | rank]


def pieces_mask(bb: list[int], owners: tuple[int, ...], ranks: int) -> int:
    """Squares holding a piece of one of ``owners`` whose rank bit is set in ``ranks`` (bit r for rank r)."""
    m = 0
    for o in owners:
        base = o << 2
        if ranks & 2:
            m |= bb[base | 1]
        if ranks & 4:
            m |= bb[base | 2]
        if ranks & 8:
            m |= bb[base | 3]
    return m


def all_pieces(bb: list[int]) -> int:
    return bb[1] | bb[2] | bb[3] | bb[5] | bb[6] | bb[7] | bb[9] | bb[10] | bb[11] | bb[13] | bb[14] | bb[15]


def count_pieces(bb: list[int], owner: int) -> int:
    b = owner << 2
    return (bb[b | 1] | bb[b | 2] | bb[b | 3]).bit_count()


def count_upgraded(bb: list[int], owner: int) -> int:
    b = owner << 2
    return (bb[b | 2] | bb[b | 3]).bit_count()


def listing(board: list[int], mask: int) -> list[tuple[int, int]]:
    return [(sq, board[sq]) for sq in bits(mask)]


# -- changing the board ------------------------------------------------------------------------------------


def put(st: TashKalarState, sq: int, owner: int, rank: int) -> None:
    """Take a piece of ``rank`` from ``owner``'s supply and set it on the empty square ``sq``."""
    c = cell(owner, rank)
    st.board[sq] = c
    st.bb[c] |= 1 << sq
    if rank == LEGENDARY:
        st.supply_leg[owner] -= 1
    else:
        st.supply_two[owner] -= 1


def remove(st: TashKalarState, sq: int, *, destroyed: bool) -> None:
    """Take the piece on ``sq`` off the board, back to its owner; ``destroyed`` counts it for scoring."""
    c = st.board[sq]
    owner, rank = c >> 2, c & 3
    st.board[sq] = 0
    st.bb[c] &= ~(1 << sq)
    if destroyed and owner != st.side:
        # 破壊した敵ユニットをゲームボードのわきによける: back to its owner at the end of the turn
        st.destroyed[rank - 1] += 1
        st.dest[3 * owner + rank - 1] += 1
        if st.game.mode != "highform":
            return forget(st, sq)
    if rank == LEGENDARY:
        st.supply_leg[owner] += 1
    else:
        st.supply_two[owner] += 1
    forget(st, sq)


def forget(st: TashKalarState, sq: int) -> None:
    if sq == st.ctx_self:
        st.ctx_self = -1
    if st.pool > 0:
        st.pool &= ~(1 << sq)


def flip(st: TashKalarState, sq: int, rank: int) -> None:
    """Turn the two-sided piece on ``sq`` to its ``rank`` side (common/heroic)."""
    c = st.board[sq]
    st.bb[c] &= ~(1 << sq)
    c = (c & ~3) | rank
    st.board[sq] = c
    st.bb[c] |= 1 << sq


def has_supply(st: TashKalarState, owner: int, rank: int) -> bool:
    return (st.supply_leg if rank == LEGENDARY else st.supply_two)[owner] > 0


def empty_mask(st: TashKalarState) -> int:
    return ONBOARD & ~all_pieces(st.bb)


def aside(st: TashKalarState) -> list[int]:
    """Destroyed enemy pieces set aside this turn: [two-sided, legendary] per colour (none in High Form)."""
    d = st.dest
    if st.game.mode == "highform":
        return [0] * (2 * st.game.n_col)
    out = []
    for o in range(st.game.n_col):
        out += [d[3 * o] + d[3 * o + 1], d[3 * o + 2]]
    return out
