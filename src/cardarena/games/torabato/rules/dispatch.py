"""The rules joined: :func:`legal_actions`, :func:`why_not` and :func:`apply` call each topic's module.

Legality has one source: each action's check in its topic's module both filters the listed actions and gives the
reason for a refusal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....engine import Action
from ..actions import ATTACK, PASS, ToraBatoAction
from ..constants import (
    ASSIGN,
    ASSIGN_K,
    ATTACK_K,
    ATTACKER_K,
    BLOCK_K,
    CHOOSE_K,
    DONE_K,
    MANA_K,
    OVER,
    PASS_K,
    PLAY_K,
    PRIORITY_PHASES,
    RECUR_K,
    REVEAL,
    REVEAL_K,
    SELECT_ATTACKERS,
    SELECT_BLOCKERS,
    USE_K,
    Kind,
)
from . import casting, combat, effects, turns
from .board import Reason, in_words
from .casting import add_choices, priority_facts
from .combat import why_not_attack

if TYPE_CHECKING:
    from ..state import ToraBatoState

#: The kind of action each one-player choice phase takes (besides ``done`` where it ends a selection).
CHOICE_KINDS = {REVEAL: REVEAL_K, SELECT_ATTACKERS: ATTACKER_K, SELECT_BLOCKERS: BLOCK_K, ASSIGN: ASSIGN_K}
#: Actions that only a one-player choice or a pending effect takes, with what they do in words.
_CHOICE_WORDS = {
    REVEAL_K: "reveal",
    ATTACKER_K: "choose an attacker",
    BLOCK_K: "block",
    ASSIGN_K: "assign",
    CHOOSE_K: "choose",
    DONE_K: "end a choice",
}


def legal_actions(st: ToraBatoState) -> list[ToraBatoAction]:
    """The legal actions of the seat to act, in a stable order (not called once the game is over)."""
    if st.pending is not None:
        return effects.choices(st)
    phase = st.phase
    if phase in PRIORITY_PHASES:
        p = priority_facts(st, st.priority)
        acts = [PASS]
        add_choices(st, p, acts)
        if p[3] and why_not_attack(st, True) is None:  # a cheap skip: no attack off sorcery speed
            acts.append(ATTACK)
        return acts
    if phase == REVEAL:
        return turns.reveal_choices(st)
    if phase == SELECT_ATTACKERS:
        return combat.attacker_choices(st)
    if phase == SELECT_BLOCKERS:
        return combat.block_choices(st)
    if phase == ASSIGN:
        return combat.assign_choices(st)
    raise AssertionError(f"no decisions in phase {phase!r}")


def why_not_now(st: ToraBatoState, kind: Kind) -> str | None:
    """Whether an action of this kind can be taken at all in this phase (by the seat to act)."""
    if st.pending is not None:
        if kind == CHOOSE_K:
            return None
        return f"seat {st.pending[1]} must first choose a card for the resolving effect ('choose CARD')"
    phase = st.phase
    if phase in PRIORITY_PHASES:
        if kind in _CHOICE_WORDS:
            return f"there is nothing to {_CHOICE_WORDS[kind]} now: the game is in the {phase.text} ({phase.guide})"
        return None
    expected = CHOICE_KINDS[phase]
    if kind == expected or (kind == DONE_K and phase in (SELECT_ATTACKERS, SELECT_BLOCKERS)):
        return None
    return f"now is the {phase.text}: expected '{expected} ...' ({phase.guide})"


def why_not(st: ToraBatoState, action: Action) -> str | None:
    """``None`` when ``action`` is legal now, else the reason: the same checks that list the legal actions."""
    reason = _refusal(st, action)
    return None if reason is None else in_words(reason)


def _refusal(st: ToraBatoState, action: Action) -> Reason | None:
    if st.phase == OVER:
        return "the game is over"
    if not isinstance(action, ToraBatoAction):
        return f"expected a ToraBato action, got a {type(action).__name__}"
    kind = action[0]
    reason = why_not_now(st, kind)
    if reason is not None or kind == PASS_K:
        return reason
    if kind == CHOOSE_K:
        return effects.why_not_choose(st, action[1])
    if kind == REVEAL_K:
        return turns.why_not_reveal(st, action[1])
    if kind == ATTACKER_K:
        return combat.why_not_attacker(st, action[1])
    if kind == BLOCK_K:
        return combat.why_not_blocker(st, action[1]) or combat.why_not_blocked(st, action[2])
    if kind == ASSIGN_K:
        return combat.why_not_assign(st, action[1], action[2])
    if kind == DONE_K:
        return combat.why_not_done(st)
    p = casting.priority_facts(st, st.priority)
    if kind == MANA_K:
        return casting.why_not_mana(st, p, action[1])
    if kind == PLAY_K:
        return casting.why_not_play(st, p, action[1], action[2])
    if kind == USE_K:
        return casting.why_not_use(st, p, action[1], action[2])
    if kind == RECUR_K:
        return casting.why_not_recur(st, p, action[1])
    if kind == ATTACK_K:
        return combat.why_not_attack(st, p[3])
    raise AssertionError(f"unknown action kind {kind!r}")  # pragma: no cover - every Kind is checked above


def apply(st: ToraBatoState, action: Action) -> None:
    """Carry out a legal action (``State.apply`` has checked it is one of ours, and legal)."""
    kind = action[0]
    if kind == PASS_K:
        turns.pass_priority(st)
    elif kind == PLAY_K:
        casting.play(st, action[1], action[2])
    elif kind == USE_K:
        casting.use(st, action[1], action[2])
    elif kind == MANA_K:
        casting.set_mana(st, action[1])
    elif kind == RECUR_K:
        casting.recur(st, action[1])
    elif kind == CHOOSE_K:
        effects.choose(st, action[1])
    elif kind == REVEAL_K:
        turns.reveal(st, action[1])
    elif kind == ATTACK_K:
        combat.declare(st)
    elif kind == ATTACKER_K:
        combat.add_attacker(st, action[1])
    elif kind == BLOCK_K:
        combat.block(st, action[1], action[2])
    elif kind == ASSIGN_K:
        combat.assign(st, action[1], action[2])
    elif kind == DONE_K:
        combat.done(st)
    else:  # pragma: no cover - parse_action and legality make this unreachable
        raise AssertionError(kind)
