"""The penalty decision of デッキが無くなった場合の処理: the opponent of a player whose deck ran out draws 1 card or
declines, in the middle of whatever emptied the deck; then the interrupted work goes on, frame by frame."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import DECLINE, PENALTY_DRAW
from ..constants import (
    DICE,
    PENALTY,
    RESOLVING,
    STEP_ADVANCE,
    STEP_DRAW,
    STEP_DRAW_PHASE,
    STEP_MILL,
    STEP_OPS,
    Frame,
    Kind,
)
from .battle import advance
from .deck import draw, take_top
from .effects import run_ops
from .log import event
from .turns import draw_phase, not_now

if TYPE_CHECKING:
    from ..actions import DiceBattleAction
    from ..state import DiceBattleState


def penalty_actions(st: DiceBattleState) -> list[DiceBattleAction]:
    return [PENALTY_DRAW, DECLINE]


def why_not_penalty(st: DiceBattleState, kind: Kind) -> str | None:
    return None if st.phase == PENALTY else not_now(st, kind)


def decide_penalty(st: DiceBattleState, take: bool) -> None:
    """The opponent draws the penalty card or declines; then the interrupted work goes on."""
    seat = st.actor
    frames = st.after
    st.after = ()
    st.phase = RESOLVING
    event(st, "penalty", seat, take)
    if take:
        draw(st, seat, 1)
    for k, frame in enumerate(frames):
        if st.phase == PENALTY:  # interrupted again: the new frames come before the rest
            st.after += frames[k:]
            return
        resume(st, frame)
    assert st.phase != RESOLVING, "a penalty decision interrupted nothing that sets the next decision"


def resume(st: DiceBattleState, frame: Frame) -> None:
    step = frame[0]
    if step in (STEP_DRAW, STEP_MILL):
        take_top(st, step, frame[1], frame[2])
    elif step == STEP_OPS:
        run_ops(st, frame[1], frame[2])
    elif step == STEP_ADVANCE:
        advance(st)
    elif step == STEP_DRAW_PHASE:
        draw_phase(st, frame[1])
    else:  # DICE
        st.phase = DICE
        st.actor = frame[1]
