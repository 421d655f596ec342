"""The arena board: 69 squares of a 9×9 grid without its four corner triangles, as bitboards.

A square is an integer ``16 * y + x`` with ``x`` (file a-i) and ``y`` (rank 1-9) counted from 0. Rows are 16 wide
so that shifting a bitboard by a pattern offset never wraps a piece from one row into another: columns 9-15 are
never on the board. Sets of squares are Python ints used as bit sets.

>>> SQ_NAME[square(4, 4)], NAME_SQ["e5"] == square(4, 4), len(SQUARES)
('e5', True, 69)
>>> DIST[NAME_SQ["a4"]][NAME_SQ["i6"]], popcount(ADJ[NAME_SQ["e5"]])
(8, 8)
"""

from __future__ import annotations

from typing import Final

WIDTH: Final = 16
SIZE: Final = 9
FILES: Final = "abcdefghi"
NO_SQUARE: Final = -1


def square(x: int, y: int) -> int:
    """The square at file ``x`` and rank ``y`` (both from 0)."""
    return y * WIDTH + x


def on_board(x: int, y: int) -> bool:
    """Inside the 9×9 grid and outside the corner triangles (3 squares cut from each corner)."""
    if not (0 <= x < SIZE and 0 <= y < SIZE):
        return False
    cx = min(x, SIZE - 1 - x)
    cy = min(y, SIZE - 1 - y)
    return cx + cy >= 2


SQUARES: Final[tuple[int, ...]] = tuple(square(x, y) for y in range(SIZE) for x in range(SIZE) if on_board(x, y))
SQ_NAME: Final[dict[int, str]] = {square(x, y): f"{FILES[x]}{y + 1}" for y in range(SIZE) for x in range(SIZE)}
NAME_SQ: Final[dict[str, int]] = {name: sq for sq, name in SQ_NAME.items() if sq in set(SQUARES)}
ONBOARD: Final = sum(1 << s for s in SQUARES)


def sq_x(sq: int) -> int:
    return sq % WIDTH


def sq_y(sq: int) -> int:
    return sq // WIDTH


def compact(sq: int) -> int:
    """The square's number in 0..80 (``9 * y + x``), used by the fixed action encoding."""
    return sq_y(sq) * SIZE + sq_x(sq)


def uncompact(n: int) -> int:
    return square(n % SIZE, n // SIZE)


def popcount(mask: int) -> int:
    return mask.bit_count()


# _ROWS[y][r]: the squares of rank y whose files are the set bits of r (9 bits): a bit set is read a row at a time
_ROWS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(y * WIDTH + x for x in range(SIZE) if r >> x & 1) for r in range(1 << SIZE)) for y in range(SIZE)
)
_ROW_MASK: Final = (1 << WIDTH) - 1


def bits(mask: int) -> list[int]:
    """The squares of a bit set, lowest first (any non-negative int: rows outside the board are read bit by bit).

    >>> bits(1 << NAME_SQ["e5"] | 1 << NAME_SQ["a4"] | 1 << 9 | 1 << 200) == [9, NAME_SQ["a4"], NAME_SQ["e5"], 200]
    True
    """
    out: list[int] = []
    y = 0
    while mask:
        row = mask & _ROW_MASK
        if row:
            if y < SIZE and row < 512:
                out.extend(_ROWS[y][row])
            else:
                base = y * WIDTH
                out.extend(base + x for x in range(WIDTH) if row >> x & 1)
        mask >>= WIDTH
        y += 1
    return out


def mask_of(squares: list[int] | tuple[int, ...]) -> int:
    m = 0
    for s in squares:
        m |= 1 << s
    return m


def _neighbours(sq: int) -> list[int]:
    x, y = sq_x(sq), sq_y(sq)
    out = []
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if (dx or dy) and on_board(x + dx, y + dy):
                out.append(square(x + dx, y + dy))
    return out


NEIGHBOURS: Final[dict[int, list[int]]] = {s: _neighbours(s) for s in SQUARES}
#: the number of square indices (``16 * y + x`` below it): the tables the rules index by square have this length
N_INDEX: Final = SIZE * WIDTH
#: ADJ[s]: the squares adjacent to ``s``, indexed by square (0 off the board)
ADJ: Final[tuple[int, ...]] = tuple(mask_of(NEIGHBOURS[s]) if s in NEIGHBOURS else 0 for s in range(N_INDEX))


def _distances(start: int) -> dict[int, int]:
    """Distance as the rulebook defines it: the fewest moves (to adjacent squares, on the board) from start."""
    dist = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for s in frontier:
            for n in NEIGHBOURS[s]:
                if n not in dist:
                    dist[n] = dist[s] + 1
                    nxt.append(n)
        frontier = nxt
    return dist


DIST: Final[dict[int, dict[int, int]]] = {s: _distances(s) for s in SQUARES}
MAX_DIST: Final = max(max(d.values()) for d in DIST.values())
# RING[s][d]: squares at exactly distance d from s; WITHIN[s][d]: squares at distance 0..d.
RING: Final[dict[int, list[int]]] = {
    s: [mask_of([t for t, dd in DIST[s].items() if dd == d]) for d in range(MAX_DIST + 1)] for s in SQUARES
}
#: WITHIN is indexed by square (() off the board)
WITHIN: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(mask_of([t for t, dd in DIST[s].items() if dd <= d]) for d in range(MAX_DIST + 1)) if s in DIST else ()
    for s in range(N_INDEX)
)


def distance_mask(ref: int, lo: int, hi: int) -> int:
    """Squares whose distance from ``ref`` is in ``lo..hi``."""
    hi = min(hi, MAX_DIST)
    if lo > hi:
        return 0
    inner = WITHIN[ref][lo - 1] if lo > 0 else 0
    return WITHIN[ref][hi] & ~inner


# Straight lines: the 8 directions as square steps (rows are 16 wide): orthogonal N E S W, then diagonal.
ORTHOGONAL: Final = (WIDTH, 1, -WIDTH, -1)
DIAGONAL: Final = (WIDTH + 1, 1 - WIDTH, -WIDTH - 1, WIDTH - 1)
DIRECTIONS: Final[dict[str, tuple[int, ...]]] = {
    "orthogonal": ORTHOGONAL,
    "diagonal": DIAGONAL,
    "any": ORTHOGONAL + DIAGONAL,
}


def _line(sq: int, step: int) -> tuple[int, ...]:
    x, y = sq_x(sq), sq_y(sq)
    dx = (step + 1) % WIDTH - 1  # -1, 0 or 1
    dy = (step - dx) // WIDTH
    out = []
    x, y = x + dx, y + dy
    while on_board(x, y):
        out.append(square(x, y))
        x, y = x + dx, y + dy
    return tuple(out)


# LINES[s][d]: the squares from s (excluded) outwards in direction d, in order, to the edge of the board
LINES: Final[dict[int, dict[int, tuple[int, ...]]]] = {
    s: {d: _line(s, d) for d in ORTHOGONAL + DIAGONAL} for s in SQUARES
}
LINE_MASK: Final[dict[int, dict[int, int]]] = {s: {d: mask_of(t) for d, t in ls.items()} for s, ls in LINES.items()}


def ray_mask(ref: int, kind: str, *, first: bool = False, occupied: int = 0) -> int:
    """Squares on straight lines from ``ref`` (``kind``: orthogonal, diagonal, any); ``first``: only the first
    square of each line in ``occupied`` (the first piece in each direction).

    >>> sorted(SQ_NAME[s] for s in bits(ray_mask(NAME_SQ["e5"], "orthogonal", first=True, occupied=ONBOARD)))
    ['d5', 'e4', 'e6', 'f5']
    """
    m = 0
    for d in DIRECTIONS[kind]:
        if first:
            for s in LINES[ref][d]:
                if occupied >> s & 1:
                    m |= 1 << s
                    break
        else:
            m |= LINE_MASK[ref][d]
    return m


def _sq(x: int, y: int) -> int:
    """A square from the 1-based coordinates of the board facts."""
    return square(x - 1, y - 1)


CENTRAL: Final = mask_of([square(x, y) for x in (3, 4, 5) for y in (3, 4, 5)])
RED: Final = mask_of([_sq(3, 8), _sq(4, 2), _sq(5, 5), _sq(8, 6)])
GREEN: Final = mask_of([_sq(1, 5), _sq(3, 3), _sq(6, 8), _sq(7, 3), _sq(9, 4)])
DUEL_SETUP: Final = (_sq(3, 5), _sq(7, 5))

AREAS: Final[dict[str, int]] = {
    "central": CENTRAL,
    "red": RED,
    "green": GREEN,
    "colored": RED | GREEN,
    "edge": mask_of([s for s in SQUARES if popcount(ADJ[s]) < 8]),
}
