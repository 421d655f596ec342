"""The turn structure: rounds, the roll that opens a dice phase, the Revival phase (リボーンフェイズ) and the draw
phase (ドローフェイズ); where the game is (whose setting is under way, whether a battle is)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import PASS
from ..constants import (
    CHOICE,
    DICE,
    DRAWS_LOSER,
    DRAWS_TIE,
    DRAWS_WINNER,
    ORDER,
    OVER,
    PENALTY,
    REVIVE,
    STEP_ADVANCE,
    STEP_DICE,
    STEP_DRAW_PHASE,
    Kind,
)
from .deck import defer, draw
from .log import event

if TYPE_CHECKING:
    from ..actions import DiceBattleAction
    from ..state import DiceBattleState


def not_now(st: DiceBattleState, kind: Kind) -> str:
    """The reason for an action of a kind that the phase does not offer."""
    return f"'{kind}' is not possible now (waiting on seat {st.actor}: {st.phase.label})"


def start_round(st: DiceBattleState) -> None:
    for side in st.sides:
        side.roll = 0
    event(st, "round", st.round, st.first)
    start_dice(st, st.first)


def start_dice(st: DiceBattleState, seat: int) -> None:
    side = st.sides[seat]
    side.roll = st.rng.randint(1, 6)
    side.redraws = 0
    side.stuck = 0
    st.phase = DICE
    st.actor = seat
    event(st, "roll", seat, side.roll)


def setter(st: DiceBattleState) -> int:
    """The seat whose dice phase is under way (also while a penalty decision interrupts it), else -1."""
    if st.phase == DICE:
        return st.actor
    if st.phase == PENALTY:
        for frame in st.after:
            if frame[0] == STEP_DICE:
                return int(frame[1])
    return -1


def in_battle(st: DiceBattleState) -> bool:
    """Effects are resolving (set cards face up, battle levels in play), possibly waiting on a penalty."""
    phase = st.phase
    if phase in (ORDER, CHOICE):
        return True
    return phase == PENALTY and any(frame[0] == STEP_ADVANCE for frame in st.after)


# -- リボーンフェイズ
def revive_actions(st: DiceBattleState) -> list[DiceBattleAction]:
    """Take back one of the cards used in the battle (in card order), or pass."""
    revive = st.game.card_actions.revive
    return [*(revive[c] for c in sorted(set(st.sides[st.actor].used))), PASS]


def why_not_revive(st: DiceBattleState, kind: Kind, card: int) -> str | None:
    if st.phase != REVIVE:
        return not_now(st, kind)
    if card >= 0 and card not in st.sides[st.actor].used:
        return f"{st.game.tables.name(card)} is not among the cards you used in the battle"
    return None


def revive(st: DiceBattleState, card: int) -> None:
    """リボーンフェイズ: the loser may turn Revival face down to take one card used in the battle back (-1: pass)."""
    seat = st.actor
    side = st.sides[seat]
    if card >= 0:
        side.revival = False
        side.grave.remove(card)
        side.hand.append(card)
        side.known.append(card)
        event(st, "revive", seat, card)
    draw_phase(st)


# -- ドローフェイズ
def draw_phase(st: DiceBattleState, start: int = 0) -> None:
    """Loser draws 3, winner 2 (tie: both 2); then first and second swap and the next round begins.

    ``start``: the draw phase goes on with the first player (0) or the second (1) after a penalty decision.
    """
    winner = st.battle_winner
    order = (st.first, 1 - st.first)
    for k in range(start, 2):
        seat = order[k]
        if winner < 0:
            n = DRAWS_TIE
        else:
            n = DRAWS_WINNER if seat == winner else DRAWS_LOSER
        draw(st, seat, n)
        st.sides[seat].used = []
        if st.phase == PENALTY:
            defer(st, (STEP_DRAW_PHASE, k + 1))
            return
    if st.round >= st.game.options["max_turns"]:
        st.phase = OVER
        st.winner = None
        event(st, "cap", st.round)
        return
    st.round += 1
    st.first = 1 - st.first
    start_round(st)
