"""Resolving effects: a stack of step lists held as data in the state, advanced one choice at a time.

Automatic steps (gain an action, draw an extra card, "all" targets) run at once; a step that needs a choice
stops the resolution with the choices as the legal actions. A step with nothing it can do ends at once: "if not
all of an effect can be done, do what can be done". Progress of the current step lives in the state:
``prog_n`` (pieces done), ``prog_picked`` (squares already chosen), ``mover``/``mover_left`` (a piece in the
middle of several moves) and ``pool`` (the pieces an "all of them move" step still has to move).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...engine import Action
from .actions import CHOOSE, PLACE, SKIP, move_action, option_action
from .board import ADJ, AREAS, ONBOARD, SQ_NAME, bits, distance_mask
from .cards import ALL, ANY, ENEMY, LEGENDARY, OWN, TARGET_OPS, Step
from .pieces import all_pieces, pieces_mask

if TYPE_CHECKING:
    from .state import TashState

DECK_INDEX = {"school": 0, "legend": 1, "flare": 2}


def start(st: TashState, steps: tuple[Step, ...]) -> None:
    st.frames = [(steps, 0, 0)]
    st.prev_done = True  # a summon (or invoking a flare) has just been done
    _reset(st)
    advance(st)


def _reset(st: TashState) -> None:
    st.prog_n = 0
    st.prog_picked = 0
    st.mover = -1
    st.mover_left = 0
    st.pool = -1


def _next(st: TashState) -> None:
    """The current step is over; whether it did anything is kept for a following ``only_if`` step."""
    steps, idx, opt = st.frames[-1]
    st.frames[-1] = (steps, idx + 1, opt)
    st.prev_done = st.prog_n > 0
    _reset(st)


def _pass(st: TashState) -> None:
    """Skip a step whose ``only_if`` condition fails (the previous result stays for the next step)."""
    steps, idx, opt = st.frames[-1]
    st.frames[-1] = (steps, idx + 1, opt)
    _reset(st)


def current_step(st: TashState) -> Step:
    steps, idx, _ = st.frames[-1]
    return steps[idx]


def advance(st: TashState) -> None:
    """Run automatic steps until a choice is needed (its choices become the legal actions) or the effect ends."""
    while st.frames:
        steps, idx, _ = st.frames[-1]
        if idx >= len(steps):
            st.frames.pop()
            _reset(st)
            continue
        step: Step = steps[idx]
        op = step.op
        if step.only_if is not None and st.prev_done != (step.only_if == "done"):
            _pass(st)
            continue
        if op == "gain_action":
            st.actions += step.n
            st.prog_n = 1
        elif op == "draw_extra":
            st.extra[DECK_INDEX[step.deck]] += 1
            st.prog_n = 1
        elif op in TARGET_OPS and step.count == ALL:
            _apply_all(st, step)
        elif op == "place" and step.count == ALL:
            for sq in bits(place_squares(st, step)):
                if place_squares(st, step) >> sq & 1:
                    st.put(sq, _place_owner(st, step), step.place_rank)
                    st.ctx_last = sq
                    st.prog_n += 1
        else:
            if op in ("move", "leap") and step.count == ALL and st.pool < 0:
                st.pool = _movers(st, step)
            if choices(st):
                return
        _next(st)
    st.finish_effect()


# -- the choices of the current step ------------------------------------------------------------------------


def choices(st: TashState) -> list[Action]:
    """The legal actions while an effect waits for a choice (a pure function of the state)."""
    step = current_step(st)
    op = step.op
    acts: list[Action]
    if op == "choose_one":
        return [option_action(k) for k in range(1, len(step.options) + 1)]
    if op in TARGET_OPS:
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


def _ref(st: TashState, step: Step) -> int:
    ref = step.ref
    if ref == "self":
        return st.ctx_self
    return st.ctx_last if ref == "last" else st.ctx_summon


def _area_mask(st: TashState, area: str) -> int:
    return st.ctx_marked if area == "marked" else AREAS[area]


def area(st: TashState, step: Step) -> int:
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
    return m


def feasible(st: TashState, op: str, owners: tuple[int, ...], ranks: int, as_rank: int = 0) -> int:
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
                if st.has_supply(p, as_rank):
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


def targets(st: TashState, step: Step) -> int:
    owners = _owners(step.who, st.side, st.game.n_col)
    if step.target_self:
        if st.ctx_self < 0:
            return 0
        m = 1 << st.ctx_self
    else:
        m = area(st, step) & ~st.prog_picked
    return m & feasible(st, step.op, owners, step.ranks, step.place_rank if step.op == "convert" else 0)


def _place_owner(st: TashState, step: Step) -> int:
    return st.side if step.who == OWN else (st.side + 1) % st.game.n_col


def place_squares(st: TashState, step: Step) -> int:
    owner = _place_owner(st, step)
    if not st.has_supply(owner, step.place_rank):
        return 0
    return area(st, step) & st.empty_mask()


def _movers(st: TashState, step: Step) -> int:
    if step.target_self:
        return 1 << st.ctx_self if st.ctx_self >= 0 and st.prog_n == 0 else 0
    owners = _owners(step.who, st.side, st.game.n_col)
    m = pieces_mask(st.bb, owners, step.ranks) & area(st, step) & ~st.prog_picked
    if st.pool >= 0:
        m &= st.pool
    return m


def destinations(st: TashState, step: Step, src: int) -> int:
    """Where the piece on ``src`` may go: a move to an adjacent square, a leap anywhere the step allows.

    A standard move or leap goes to an empty square or one with a lower-rank piece; a combat one to an empty
    square or one with a piece of the same or lower rank (the piece there is destroyed).
    """
    rank = st.board[src] & 3
    if step.op == "move":
        m = ADJ[src]
    else:
        m = ONBOARD & ~(1 << src)
        if step.to_dist is not None:
            m &= distance_mask(src, step.to_dist[0], step.to_dist[1])
    if step.to_near:
        ref = _ref(st, step)
        m = m & ADJ[ref] if ref >= 0 else 0
    if step.to_area is not None:
        m &= _area_mask(st, step.to_area)
    bb = st.bb
    top = rank if step.combat else rank - 1
    ok = ONBOARD & ~all_pieces(bb)
    for r in range(1, top + 1):
        ok |= bb[r] | bb[4 | r] | bb[8 | r] | bb[12 | r]
    return m & ok


# -- carrying out a choice ----------------------------------------------------------------------------------


def apply_choice(st: TashState, action: Action) -> None:
    kind = action[0]
    step = current_step(st)
    if kind == "skip":
        if step.op in ("move", "leap") and st.mover >= 0:
            _end_chain(st, step)
        else:
            _next(st)
    elif kind == "option":
        st.prog_n = 1
        _next(st)
        st.frames.append((step.options[action[1] - 1], 0, action[1]))
    elif kind == "choose":
        sq = action[1]
        do_target(st, step, sq)
        st.prog_picked |= 1 << sq
        st.prog_n += 1
        st.ctx_last = sq
        if step.target_self or st.prog_n >= step.count:
            _next(st)
    elif kind == "place":
        sq = action[1]
        st.put(sq, _place_owner(st, step), step.place_rank)
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
        do_move(st, src, dst)
        st.mover = dst
        st.mover_left -= 1
        if st.mover_left <= 0 or not destinations(st, step, dst):
            _end_chain(st, step)
    advance(st)


def _end_chain(st: TashState, step: Step) -> None:
    if st.mover >= 0:
        st.prog_picked |= 1 << st.mover
    st.mover = -1
    st.mover_left = 0
    st.prog_n += 1
    if step.target_self or (step.count != ALL and st.prog_n >= step.count):
        _next(st)


def _apply_all(st: TashState, step: Step) -> None:
    for sq in bits(targets(st, step)):
        if targets(st, step) >> sq & 1:
            do_target(st, step, sq)
            st.ctx_last = sq
            st.prog_n += 1


def do_target(st: TashState, step: Step, sq: int) -> None:
    op = step.op
    c = st.board[sq]
    owner, rank = c >> 2, c & 3
    if op == "destroy":
        st.remove(sq, destroyed=True)
    elif op == "convert":
        st.remove(sq, destroyed=True)
        st.put(sq, st.side, step.place_rank or rank)
    elif op == "upgrade":
        if rank == 1:
            st.flip(sq, 2)
        else:
            _swap(st, sq, owner, LEGENDARY)
    elif op == "downgrade":
        if rank == 2:
            st.flip(sq, 1)
        else:
            _swap(st, sq, owner, 2)


def _swap(st: TashState, sq: int, owner: int, rank: int) -> None:
    """Replace a piece by one of another kind (upgrade to / downgrade from legendary); not a destruction."""
    keep_self = sq == st.ctx_self
    st.remove(sq, destroyed=False)
    st.put(sq, owner, rank)
    if keep_self:
        st.ctx_self = sq


def do_move(st: TashState, src: int, dst: int) -> None:
    if st.board[dst]:
        st.remove(dst, destroyed=True)
    c = st.board[src]
    bit_src, bit_dst = 1 << src, 1 << dst
    st.board[src] = 0
    st.board[dst] = c
    st.bb[c] = (st.bb[c] & ~bit_src) | bit_dst
    if st.ctx_self == src:
        st.ctx_self = dst
    st.ctx_last = dst


# -- the public view of an effect in progress --------------------------------------------------------------


def describe_progress(st: TashState) -> dict[str, Any] | None:
    if not st.frames:
        return None
    step = current_step(st)
    return {
        "frames": [[opt, idx] for _, idx, opt in st.frames],
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
