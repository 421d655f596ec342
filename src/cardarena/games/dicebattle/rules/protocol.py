"""The three entry points the state delegates to (legal actions, why an action is not legal, carrying it out),
dispatching by phase and by action kind to the modules of :mod:`.rules`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..constants import (
    A_DECLINE,
    A_DRAW,
    A_FIRST,
    A_PASS,
    A_REVIVE,
    A_SKIP,
    A_USE,
    CHOICE,
    DICE,
    ORDER,
    OVER,
    PENALTY,
    Kind,
)
from . import battle, dice, penalty, turns

if TYPE_CHECKING:
    from cardarena.engine import Action

    from ..actions import DiceBattleAction
    from ..state import DiceBattleState


#: Each action kind by its word: ``KIND[word]`` is ``Kind(word)`` (compiled, a call of an enum class of another
#: compiled module does not build: mypyc's separate mode emits a constructor the enum does not have).
KIND: Final = {kind.value: kind for kind in Kind}


def legal_actions(st: DiceBattleState) -> list[DiceBattleAction]:
    phase = st.phase
    if phase == DICE:
        return dice.legal_actions(st)
    if phase == CHOICE:
        return battle.choice_actions(st)
    if phase == ORDER:
        return battle.order_actions(st)
    if phase == PENALTY:
        return penalty.penalty_actions(st)
    return turns.revive_actions(st)  # REVIVE


def why_not(st: DiceBattleState, action: Action) -> str | None:
    """``None`` if ``action`` (an action of this game) is legal now, else the first rule it breaks."""
    if st.phase == OVER:
        return "the game is over"
    kind = KIND[action[0]]
    card = st.game.tables.by_id[action[1]] if len(action) > 1 else -1
    if kind in (A_USE, A_SKIP):
        return battle.why_not_choice(st, kind, card)
    if kind == A_FIRST:
        return battle.why_not_first(st, card)
    if kind in (A_DRAW, A_DECLINE):
        return penalty.why_not_penalty(st, kind)
    if kind in (A_REVIVE, A_PASS):
        return turns.why_not_revive(st, kind, card)
    return dice.why_not(st, kind, card)


def apply(st: DiceBattleState, action: Action) -> None:
    """Carry out a legal action."""
    kind = action[0]
    if st.phase == DICE:
        dice.apply(st, action)
    elif kind in (A_DRAW, A_DECLINE):
        penalty.decide_penalty(st, kind == A_DRAW)
    elif kind in (A_USE, A_SKIP):
        battle.choose_effect(st, kind == A_USE)
    elif kind == A_FIRST:
        battle.choose_first(st, st.game.tables.by_id[action[1]])
    elif kind == A_REVIVE:
        turns.revive(st, st.game.tables.by_id[action[1]])
    else:  # pass
        turns.revive(st, -1)
