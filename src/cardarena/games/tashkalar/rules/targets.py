"""Which squares an effect step may choose: references, areas, filters, targets, places and moves."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..board import ADJ, AREAS, ONBOARD, bits, distance_mask, ray_mask
from ..cards.data import ENEMY, OWN, Cond, Step
from .pieces import all_pieces, empty_mask, has_supply, pieces_mask

if TYPE_CHECKING:
    from ..state import TashKalarState


def owners_of(who: int, p: int, n: int) -> tuple[int, ...]:
    if who == OWN:
        return (p,)
    if who == ENEMY:
        return tuple(o for o in range(n) if o != p)
    return tuple(range(n))


def step_ref(st: TashKalarState, step: Step) -> int:
    return ref_square(st, step.ref)


def ref_square(st: TashKalarState, ref: str) -> int:
    """The square a reference names now (-1: none, e.g. the being's piece was destroyed)."""
    if ref == "self":
        return st.ctx_self
    if ref == "last":
        return st.ctx_last
    if ref == "each":
        return each_square(st)
    return st.ctx_summon


def each_square(st: TashKalarState) -> int:
    """The square of the innermost ``for_each`` being run (-1 outside one)."""
    for _, _, tag in reversed(st.frames):
        if tag < 0:
            return -1 - tag
    return -1


def fixed_square(st: TashKalarState, step: Step) -> int:
    """The one square a ``target`` other than "choose" names: this piece, the last piece, the for_each square."""
    t = step.target
    return st.ctx_self if t == "self" else st.ctx_last if t == "last" else each_square(st)


def near_pieces(st: TashKalarState, who: int, *, but: int = -1) -> int:
    """Squares adjacent to a piece of ``who`` (relative to the turn's colour), that piece's own square aside."""
    m = 0
    for s in bits(pieces_mask(st.bb, owners_of(who, st.side, st.game.n_col), 0b1110) & ~(1 << but if but >= 0 else 0)):
        m |= ADJ[s]
    return m


def group(st: TashKalarState, ref: int, members: int) -> int:
    """The pieces of ``members`` joined to ``ref`` through adjacent squares (on it or touching it, and so on)."""
    grp = (ADJ[ref] | 1 << ref) & members
    frontier = grp
    while frontier:
        grow = 0
        for s in bits(frontier):
            grow |= ADJ[s]
        frontier = grow & members & ~grp
        grp |= frontier
    return grp


def area_mask(st: TashKalarState, area: str) -> int:
    return st.ctx_marked if area == "marked" else AREAS[area]


def area(st: TashKalarState, step: Step) -> int:
    """The squares a step's location words allow (adjacent, distance, marked or named squares, not itself)."""
    m = ONBOARD
    if step.near or step.dist is not None:
        ref = step_ref(st, step)
        if ref < 0:
            return 0
        if step.near:
            m &= ADJ[ref]
        if step.dist is not None:
            m &= distance_mask(ref, step.dist[0], step.dist[1])
    if step.area is not None:
        m &= area_mask(st, step.area)
    if step.other and st.ctx_self >= 0:
        m &= ~(1 << st.ctx_self)
    if step.ray is not None or step.connected:
        ref = step_ref(st, step)
        if ref < 0:
            return 0
        if step.ray is not None:
            m &= ray_mask(ref, step.ray, first=step.first, occupied=all_pieces(st.bb))
        if step.connected:
            m &= group(st, ref, pieces_mask(st.bb, owners_of(step.who, st.side, st.game.n_col), step.ranks))
    if step.next_to:
        m &= near_pieces(st, step.next_to)
    return m


def holds(st: TashKalarState, cond: Cond) -> bool:
    """Whether an ``if`` holds now."""
    if cond.kind == "destroyed":
        n = (
            st.prev_destroyed
            if cond.by == "previous"
            else st.eff_destroyed
            if cond.by == "effect"
            else sum(st.destroyed)
        )
        return n >= cond.lo
    f = cond.filt
    assert f is not None
    n = (area(st, f) & pieces_mask(st.bb, owners_of(f.who, st.side, st.game.n_col), f.ranks)).bit_count()
    return cond.lo <= n <= cond.hi


def each_squares(st: TashKalarState, step: Step) -> int:
    """The squares a ``for_each`` runs on: those of its location words (holding a matching piece if it names
    ``who`` or ``rank``)."""
    m = area(st, step)
    if step.pieces_only:
        m &= pieces_mask(st.bb, owners_of(step.who, st.side, st.game.n_col), step.ranks)
    return m


def pile(st: TashKalarState, step: Step) -> list[int]:
    """The discard pile a ``recover`` step takes from: the turn player's school discard, or the shared ones."""
    if step.deck == "school":
        return st.disc_s[st.active]
    return st.disc_l if step.deck == "legend" else st.disc_f


def feasible(st: TashKalarState, op: str, owners: tuple[int, ...], ranks: int, as_rank: int = 0) -> int:
    """Pieces of ``owners`` with a rank in ``ranks`` on which ``op`` can be done now (supply permitting)."""
    bb = st.bb
    if op == "destroy":
        return pieces_mask(bb, owners, ranks)
    m = 0
    p = st.side
    for o in owners:
        base = o << 2
        if op == "upgrade":
            if ranks & 2:
                m |= bb[base | 1]
            if ranks & 4 and st.supply_leg[o] > 0:
                m |= bb[base | 2]
        elif op == "downgrade":
            if ranks & 4:
                m |= bb[base | 2]
            if ranks & 8 and st.supply_two[o] > 0:
                m |= bb[base | 3]
        elif op == "convert":
            if as_rank:
                if has_supply(st, p, as_rank):
                    m |= pieces_mask(bb, (o,), ranks)
                continue
            if st.supply_two[p] > 0:
                if ranks & 2:
                    m |= bb[base | 1]
                if ranks & 4:
                    m |= bb[base | 2]
            if ranks & 8 and st.supply_leg[p] > 0:
                m |= bb[base | 3]
    return m


def targets(st: TashKalarState, step: Step) -> int:
    owners = owners_of(step.who, st.side, st.game.n_col)
    if step.target != "choose":
        sq = fixed_square(st, step)
        if sq < 0:
            return 0
        m = 1 << sq & ~st.prog_picked
    else:
        m = area(st, step) & ~st.prog_picked
    return m & feasible(st, step.op, owners, step.ranks, step.place_rank if step.op == "convert" else 0)


def place_owner(st: TashKalarState, step: Step) -> int:
    return st.side if step.who == OWN else (st.side + 1) % st.game.n_col


def place_squares(st: TashKalarState, step: Step) -> int:
    owner = place_owner(st, step)
    if not has_supply(st, owner, step.place_rank):
        return 0
    return area(st, step) & empty_mask(st)


def movers(st: TashKalarState, step: Step) -> int:
    if step.target != "choose":
        sq = fixed_square(st, step)
        return 1 << sq if sq >= 0 and st.board[sq] and st.prog_n == 0 else 0
    owners = owners_of(step.who, st.side, st.game.n_col)
    m = pieces_mask(st.bb, owners, step.ranks) & area(st, step) & ~st.prog_picked
    if st.pool >= 0:
        m &= st.pool
    return m


def destinations(st: TashKalarState, step: Step, src: int) -> int:
    """Where the piece on ``src`` may go: a move to an adjacent square, a leap anywhere the step allows.

    A standard move or leap goes to an empty square or one with a lower-rank piece; a combat one to an empty
    square or one with a piece of the same or lower rank (the piece there is destroyed). A move "in one
    direction" (``to_ray``) keeps the direction of its first move; a leap along ``to_ray`` lands on a straight
    line from its start (``to_first``: on the first piece of the line).
    """
    rank = st.board[src] & 3
    bb = st.bb
    if step.op == "move":
        if step.to_ray is None:
            m = ADJ[src]
        elif st.mover_dir:
            nxt = src + st.mover_dir
            m = 1 << nxt & ONBOARD if nxt >= 0 else 0
        else:
            m = ray_mask(src, step.to_ray) & ADJ[src]
    else:
        m = ONBOARD & ~(1 << src)
        if step.to_ray is not None:
            m &= ray_mask(src, step.to_ray, first=step.to_first, occupied=all_pieces(bb))
        if step.to_dist is not None and step.to_ref is None:
            m &= distance_mask(src, step.to_dist[0], step.to_dist[1])
    if step.to_ref is not None:
        base = ref_square(st, step.to_ref)
        if base < 0:
            return 0
        if step.to_dist is not None:
            m &= distance_mask(base, step.to_dist[0], step.to_dist[1])
        if step.to_near:
            m &= ADJ[base]
    elif step.to_near:
        ref = step_ref(st, step)
        m = m & ADJ[ref] if ref >= 0 else 0
    if step.to_area is not None:
        m &= area_mask(st, step.to_area)
    if step.to_empty:
        m &= ~all_pieces(bb)
    if step.to_who:
        m &= pieces_mask(bb, owners_of(step.to_who, st.side, st.game.n_col), step.to_ranks)
    if step.to_next_to:
        m &= near_pieces(st, step.to_next_to, but=src)
    top = rank if step.combat else rank - 1
    ok = ONBOARD & ~all_pieces(bb)
    for r in range(1, top + 1):
        ok |= bb[r] | bb[4 | r] | bb[8 | r] | bb[12 | r]
    return m & ok
