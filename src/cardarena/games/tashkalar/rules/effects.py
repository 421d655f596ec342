"""Resolving effects: a stack of step lists held as data in the state, advanced one choice at a time.

Automatic steps (gain an action, draw an extra card, "all" targets) run at once; a step that needs a choice
stops the resolution with the choices as the legal actions. A step with nothing it can do ends at once: "if not
all of an effect can be done, do what can be done". Progress of the current step lives in the state:
``prog_n`` (pieces done), ``prog_picked`` (squares already chosen), ``mover``/``mover_left``/``mover_dir`` (a
piece in the middle of several moves, and the direction of a move "in one direction"), ``pool`` (the pieces an
"all of them move" step still has to move), ``reps`` (how often the step was repeated) and the counts of pieces
destroyed by the current step, the previous step and the whole effect (for ``if = { destroyed = N }``).

A frame is ``(steps, next index, tag)``: the tag is 0 for the card's own list, ``k`` for option ``k`` of a
"choose one", and ``-1 - square`` for the steps a ``for_each`` runs on ``square``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ....engine import Action
from ..actions import CHOOSE, PLACE, SKIP, card_action, move_action, option_action
from ..board import ADJ, AREAS, ONBOARD, SQ_NAME, bits, distance_mask, ray_mask
from ..cards.model import ALL, ANY, ENEMY, LEGENDARY, OWN, TARGET_OPS, Cond, Step
from .pieces import all_pieces, empty_mask, flip, has_supply, pieces_mask, put, remove

if TYPE_CHECKING:
    from ..state import TashKalarState

DECK_INDEX = {"school": 0, "legend": 1, "flare": 2}


def start(st: TashKalarState, steps: tuple[Step, ...]) -> None:
    st.frames = [(steps, 0, 0)]
    st.prev_done = True  # a summon (or invoking a flare) has just been done
    st.prev_destroyed = 0
    st.eff_destroyed = 0
    st.reps = 0
    _reset(st)
    advance(st)


def _reset(st: TashKalarState) -> None:
    st.prog_n = 0
    st.prog_picked = 0
    st.mover = -1
    st.mover_left = 0
    st.mover_dir = 0
    st.pool = -1
    st.step_destroyed = 0


def _next(st: TashKalarState, *, stop: bool = False) -> None:
    """The current step is over; whether it did anything is kept for a following ``only_if`` step.

    A step with ``repeat`` runs again (same index, fresh progress) while it did something (or destroyed
    something) and repetitions are left; ``stop`` (the player's ``skip``) ends it.
    """
    steps, idx, opt = st.frames[-1]
    step: Step = steps[idx]
    st.prev_done = st.prog_n > 0
    st.prev_destroyed = st.step_destroyed
    did = st.step_destroyed > 0 if step.repeat_destroyed else st.prog_n > 0
    if step.repeat and did and not stop and st.reps < step.repeat:
        st.reps += 1
    else:
        st.reps = 0
        st.frames[-1] = (steps, idx + 1, opt)
    _reset(st)


def _pass(st: TashKalarState) -> None:
    """Skip a step whose ``only_if`` condition fails (the previous result stays for the next step)."""
    steps, idx, opt = st.frames[-1]
    st.frames[-1] = (steps, idx + 1, opt)
    _reset(st)


def current_step(st: TashKalarState) -> Step:
    steps, idx, _ = st.frames[-1]
    return steps[idx]


def advance(st: TashKalarState) -> None:
    """Run automatic steps until a choice is needed (its choices become the legal actions) or the effect ends."""
    while st.frames:
        steps, idx, _ = st.frames[-1]
        if idx >= len(steps):
            st.frames.pop()
            _reset(st)
            continue
        step: Step = steps[idx]
        op = step.op
        if st.reps == 0 and (
            (step.only_if is not None and st.prev_done != (step.only_if == "done"))
            or (step.cond is not None and not holds(st, step.cond))
        ):
            _pass(st)
            continue
        if op == "for_each":
            squares = list(bits(each_squares(st, step)))
            _next(st)
            for sq in reversed(squares):  # the lowest square first
                st.frames.append((step.sub, 0, -1 - sq))
            continue
        if op == "gain_action":
            st.actions += step.n
            st.prog_n = 1
        elif op == "draw_extra":
            st.extra[DECK_INDEX[step.deck]] += 1
            st.prog_n = 1
        elif op == "extra_turn":
            st.extra_turns += step.n
            st.prog_n = 1
        elif op in TARGET_OPS and step.count == ALL:
            _apply_all(st, step)
        elif op == "place" and step.count == ALL:
            for sq in bits(place_squares(st, step)):
                if place_squares(st, step) >> sq & 1:
                    put(st, sq, _place_owner(st, step), step.place_rank)
                    st.ctx_last = sq
                    st.prog_n += 1
        else:
            if op in ("move", "leap") and step.count == ALL and st.pool < 0:
                st.pool = _movers(st, step)
            if choices(st):
                return
        _next(st)


# -- the choices of the current step ------------------------------------------------------------------------


def choices(st: TashKalarState) -> list[Action]:
    """The legal actions while an effect waits for a choice (a pure function of the state)."""
    step = current_step(st)
    op = step.op
    acts: list[Action]
    if op == "choose_one":
        return [option_action(k) for k in range(1, len(step.options) + 1)]
    if op == "recover":
        cs = st.game.cards.cards
        acts = [card_action("take", cs[c].id) for c in sorted(set(pile(st, step)))]
    elif op in TARGET_OPS:
        acts = [CHOOSE[s] for s in bits(targets(st, step))]
    elif op == "place":
        acts = [PLACE[s] for s in bits(place_squares(st, step))]
    else:
        if st.mover >= 0:
            acts = [move_action(st.mover, d) for d in bits(destinations(st, step, st.mover))]
        else:
            acts = [move_action(s, d) for s in bits(_movers(st, step)) for d in bits(destinations(st, step, s))]
    if acts and step.optional:
        acts.append(SKIP)
    return acts


def _owners(who: int, p: int, n: int) -> tuple[int, ...]:
    if who == OWN:
        return (p,)
    if who == ENEMY:
        return tuple(o for o in range(n) if o != p)
    return tuple(range(n))


def _ref(st: TashKalarState, step: Step) -> int:
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


def _fixed(st: TashKalarState, step: Step) -> int:
    """The one square a ``target`` other than "choose" names: this piece, the last piece, the for_each square."""
    t = step.target
    return st.ctx_self if t == "self" else st.ctx_last if t == "last" else each_square(st)


def _near_pieces(st: TashKalarState, who: int, *, but: int = -1) -> int:
    """Squares adjacent to a piece of ``who`` (relative to the turn's colour), that piece's own square aside."""
    m = 0
    for s in bits(pieces_mask(st.bb, _owners(who, st.side, st.game.n_col), 0b1110) & ~(1 << but if but >= 0 else 0)):
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


def _area_mask(st: TashKalarState, area: str) -> int:
    return st.ctx_marked if area == "marked" else AREAS[area]


def area(st: TashKalarState, step: Step) -> int:
    """The squares a step's location words allow (adjacent, distance, marked or named squares, not itself)."""
    m = ONBOARD
    if step.near or step.dist is not None:
        ref = _ref(st, step)
        if ref < 0:
            return 0
        if step.near:
            m &= ADJ[ref]
        if step.dist is not None:
            m &= distance_mask(ref, step.dist[0], step.dist[1])
    if step.area is not None:
        m &= _area_mask(st, step.area)
    if step.other and st.ctx_self >= 0:
        m &= ~(1 << st.ctx_self)
    if step.ray is not None or step.connected:
        ref = _ref(st, step)
        if ref < 0:
            return 0
        if step.ray is not None:
            m &= ray_mask(ref, step.ray, first=step.first, occupied=all_pieces(st.bb))
        if step.connected:
            m &= group(st, ref, pieces_mask(st.bb, _owners(step.who, st.side, st.game.n_col), step.ranks))
    if step.next_to:
        m &= _near_pieces(st, step.next_to)
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
    n = (area(st, f) & pieces_mask(st.bb, _owners(f.who, st.side, st.game.n_col), f.ranks)).bit_count()
    return cond.lo <= n <= cond.hi


def each_squares(st: TashKalarState, step: Step) -> int:
    """The squares a ``for_each`` runs on: those of its location words (holding a matching piece if it names
    ``who`` or ``rank``)."""
    m = area(st, step)
    if step.pieces_only:
        m &= pieces_mask(st.bb, _owners(step.who, st.side, st.game.n_col), step.ranks)
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
    owners = _owners(step.who, st.side, st.game.n_col)
    if step.target != "choose":
        sq = _fixed(st, step)
        if sq < 0:
            return 0
        m = 1 << sq & ~st.prog_picked
    else:
        m = area(st, step) & ~st.prog_picked
    return m & feasible(st, step.op, owners, step.ranks, step.place_rank if step.op == "convert" else 0)


def _place_owner(st: TashKalarState, step: Step) -> int:
    return st.side if step.who == OWN else (st.side + 1) % st.game.n_col


def place_squares(st: TashKalarState, step: Step) -> int:
    owner = _place_owner(st, step)
    if not has_supply(st, owner, step.place_rank):
        return 0
    return area(st, step) & empty_mask(st)


def _movers(st: TashKalarState, step: Step) -> int:
    if step.target != "choose":
        sq = _fixed(st, step)
        return 1 << sq if sq >= 0 and st.board[sq] and st.prog_n == 0 else 0
    owners = _owners(step.who, st.side, st.game.n_col)
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
        ref = _ref(st, step)
        m = m & ADJ[ref] if ref >= 0 else 0
    if step.to_area is not None:
        m &= _area_mask(st, step.to_area)
    if step.to_empty:
        m &= ~all_pieces(bb)
    if step.to_who:
        m &= pieces_mask(bb, _owners(step.to_who, st.side, st.game.n_col), step.to_ranks)
    if step.to_next_to:
        m &= _near_pieces(st, step.to_next_to, but=src)
    top = rank if step.combat else rank - 1
    ok = ONBOARD & ~all_pieces(bb)
    for r in range(1, top + 1):
        ok |= bb[r] | bb[4 | r] | bb[8 | r] | bb[12 | r]
    return m & ok


# -- carrying out a choice ----------------------------------------------------------------------------------


def apply_choice(st: TashKalarState, action: Action) -> None:
    kind = action[0]
    step = current_step(st)
    if kind == "skip":
        if step.op in ("move", "leap") and st.mover >= 0:
            _end_chain(st, step, stop=True)
        else:
            _next(st, stop=True)
    elif kind == "option":
        st.prog_n = 1
        _next(st)
        st.frames.append((step.options[action[1] - 1], 0, action[1]))
    elif kind == "take":
        c = st.game.cards.by_id[action[1]].index
        pile(st, step).remove(c)
        owner = st.active if step.deck == "school" else st.player
        (st.hand_b if step.deck == "school" else st.hand_l if step.deck == "legend" else st.hand_f)[owner].append(c)
        if c not in st.known_hand[owner]:
            st.known_hand[owner].append(c)  # the pile is public: every seat saw which card was taken
        st.prog_n += 1
        if st.prog_n >= step.count:
            _next(st)
    elif kind == "choose":
        sq = action[1]
        do_target(st, step, sq)
        st.prog_picked |= 1 << sq
        st.prog_n += 1
        st.ctx_last = sq
        if step.target != "choose" or st.prog_n >= step.count:
            _next(st)
    elif kind == "place":
        sq = action[1]
        put(st, sq, _place_owner(st, step), step.place_rank)
        st.prog_picked |= 1 << sq
        st.prog_n += 1
        st.ctx_last = sq
        if st.prog_n >= step.count:
            _next(st)
    else:  # move
        src, dst = action[1], action[2]
        if st.mover < 0:
            st.mover_left = step.times
            if st.pool > 0:
                st.pool &= ~(1 << src)
            if step.to_ray is not None and step.op == "move":
                st.mover_dir = dst - src  # "in one direction": every further move goes the same way
        hit = do_move(st, src, dst, step)
        st.mover = dst
        st.mover_left -= 1
        if step.far:
            # as far as it can: on in the same direction until it cannot, or it has destroyed a piece
            while not hit and destinations(st, step, st.mover):
                nxt = st.mover + st.mover_dir
                hit = do_move(st, st.mover, nxt, step)
                st.mover = nxt
            _end_chain(st, step)
        elif st.mover_left <= 0 or not destinations(st, step, dst):
            _end_chain(st, step)
    advance(st)


def _end_chain(st: TashKalarState, step: Step, *, stop: bool = False) -> None:
    if st.mover >= 0:
        st.prog_picked |= 1 << st.mover
    st.mover = -1
    st.mover_left = 0
    st.mover_dir = 0
    st.prog_n += 1
    if stop or step.target != "choose" or (step.count != ALL and st.prog_n >= step.count):
        _next(st, stop=stop)


def _apply_all(st: TashKalarState, step: Step) -> None:
    """ "All" targets: the pieces that qualify when the step begins, each while it still can be acted on."""
    owners = _owners(step.who, st.side, st.game.n_col)
    as_rank = step.place_rank if step.op == "convert" else 0
    for sq in bits(targets(st, step)):
        if feasible(st, step.op, owners, step.ranks, as_rank) >> sq & 1:
            do_target(st, step, sq)
            st.ctx_last = sq
            st.prog_n += 1


def do_target(st: TashKalarState, step: Step, sq: int) -> None:
    op = step.op
    c = st.board[sq]
    owner, rank = c >> 2, c & 3
    if op == "destroy":
        _destroy(st, sq, step.scores)
    elif op == "convert":
        _destroy(st, sq, step.scores)
        put(st, sq, st.side, step.place_rank or rank)
    elif op == "upgrade":
        if rank == 1:
            flip(st, sq, 2)
        else:
            _swap(st, sq, owner, LEGENDARY)
    elif op == "downgrade":
        if rank == 2:
            flip(st, sq, 1)
        else:
            _swap(st, sq, owner, 2)


def _swap(st: TashKalarState, sq: int, owner: int, rank: int) -> None:
    """Replace a piece by one of another kind (upgrade to / downgrade from legendary); not a destruction."""
    keep_self = sq == st.ctx_self
    remove(st, sq, destroyed=False)
    put(st, sq, owner, rank)
    if keep_self:
        st.ctx_self = sq


def _destroy(st: TashKalarState, sq: int, scores: bool) -> None:
    """Destroy the piece on ``sq`` (counted for ``if = { destroyed = N }``); ``scores = false``: it goes straight
    back to its owner and counts for no score."""
    remove(st, sq, destroyed=scores)
    st.step_destroyed += 1
    st.eff_destroyed += 1


def do_move(st: TashKalarState, src: int, dst: int, step: Step) -> bool:
    """Move the piece on ``src`` to ``dst``, destroying the piece there; whether one was destroyed."""
    hit = bool(st.board[dst])
    if hit:
        _destroy(st, dst, step.scores)
    c = st.board[src]
    bit_src, bit_dst = 1 << src, 1 << dst
    st.board[src] = 0
    st.board[dst] = c
    st.bb[c] = (st.bb[c] & ~bit_src) | bit_dst
    if st.ctx_self == src:
        st.ctx_self = dst
    st.ctx_last = dst
    return hit


# -- the public view of an effect in progress --------------------------------------------------------------


def describe_progress(st: TashKalarState) -> dict[str, Any] | None:
    if not st.frames:
        return None
    step = current_step(st)
    each = each_square(st)
    return {
        "frames": [[opt, idx] for _, idx, opt in st.frames],
        "each": SQ_NAME[each] if each >= 0 else None,
        "repeated": st.reps,
        "direction": st.mover_dir,
        "destroyed_by_step": st.step_destroyed,
        "destroyed_by_previous_step": st.prev_destroyed,
        "destroyed_by_effect": st.eff_destroyed,
        "flare_parts": list(st.flare_parts),
        "step": step.text,
        "done": st.prog_n,
        "picked": [SQ_NAME[s] for s in bits(st.prog_picked)],
        "mover": SQ_NAME[st.mover] if st.mover >= 0 else None,
        "moves_left": st.mover_left,
        "previous_step_done": st.prev_done,
        "pool": None if st.pool < 0 else [SQ_NAME[s] for s in bits(st.pool)],
        "self": SQ_NAME[st.ctx_self] if st.ctx_self >= 0 else None,
        "last": SQ_NAME[st.ctx_last] if st.ctx_last >= 0 else None,
        "summon": SQ_NAME[st.ctx_summon] if st.ctx_summon >= 0 else None,
        "marked": [SQ_NAME[s] for s in bits(st.ctx_marked)],
    }


__all__ = ["ANY", "advance", "apply_choice", "choices", "start"]
