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
from ..board import SQ_NAME, bits
from ..cards.data import ALL, ANY, LEGENDARY, TARGET_OPS, Step
from ..constants import (
    CHOOSE_K,
    OPTION_K,
    PLACE_K,
    SKIP_K,
    TAKE_K,
)
from .pieces import flip, put, remove
from .targets import (
    destinations,
    each_square,
    each_squares,
    feasible,
    holds,
    movers,
    owners_of,
    pile,
    place_owner,
    place_squares,
    targets,
)

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
                    put(st, sq, place_owner(st, step), step.place_rank)
                    st.ctx_last = sq
                    st.prog_n += 1
        else:
            if op in ("move", "leap") and step.count == ALL and st.pool < 0:
                st.pool = movers(st, step)
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
            acts = [move_action(s, d) for s in bits(movers(st, step)) for d in bits(destinations(st, step, s))]
    if acts and step.optional:
        acts.append(SKIP)
    return acts


# -- carrying out a choice ----------------------------------------------------------------------------------


def apply_choice(st: TashKalarState, action: Action) -> None:
    kind = action[0]
    step = current_step(st)
    if kind == SKIP_K:
        if step.op in ("move", "leap") and st.mover >= 0:
            _end_chain(st, step, stop=True)
        else:
            _next(st, stop=True)
    elif kind == OPTION_K:
        st.prog_n = 1
        _next(st)
        st.frames.append((step.options[action[1] - 1], 0, action[1]))
    elif kind == TAKE_K:
        c = st.game.cards.by_id[action[1]].index
        pile(st, step).remove(c)
        owner = st.active if step.deck == "school" else st.player
        (st.hand_b if step.deck == "school" else st.hand_l if step.deck == "legend" else st.hand_f)[owner].append(c)
        if c not in st.known_hand[owner]:
            st.known_hand[owner].append(c)  # the pile is public: every seat saw which card was taken
        st.prog_n += 1
        if st.prog_n >= step.count:
            _next(st)
    elif kind == CHOOSE_K:
        sq = action[1]
        do_target(st, step, sq)
        st.prog_picked |= 1 << sq
        st.prog_n += 1
        st.ctx_last = sq
        if step.target != "choose" or st.prog_n >= step.count:
            _next(st)
    elif kind == PLACE_K:
        sq = action[1]
        put(st, sq, place_owner(st, step), step.place_rank)
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
    owners = owners_of(step.who, st.side, st.game.n_col)
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
