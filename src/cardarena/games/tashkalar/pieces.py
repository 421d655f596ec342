"""Pieces on the board: a cell is 0 (empty) or ``owner << 2 | rank`` (rank 1 common, 2 heroic, 3 legendary).

``bb[cell]`` is the bit set of the squares holding that cell value, kept in step with ``board`` so that pattern
matching and effect targeting are a few integer operations.
"""

from __future__ import annotations

from .board import bits

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
