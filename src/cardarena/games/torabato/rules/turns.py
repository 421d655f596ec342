"""The turn (rulebook ゲームの流れ): the first-player reveal, recovery → draw → main → end, priority and passing.

Priority (RULINGS torabato): the active player gets it first in every priority step; a player who acts keeps it;
when both pass in succession the top of the stack resolves (then the active player gets priority again) or, with
an empty stack, the step ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....engine import zones
from ..actions import REVEAL_A, ToraBatoAction
from ..cards import NAMES
from ..constants import (
    ASSIGN,
    BLOCK,
    DAMAGE,
    DECLARE,
    DRAW,
    END,
    EXECUTE,
    HAND_SIZE,
    MAIN,
    MAX_REDEALS,
    NUM_CARDS,
    OVER,
    PRIORITY_PHASES,
    RECOVERY,
    REVEAL,
    SELECT_ATTACKERS,
    SELECT_BLOCKERS,
    TAPPED_THIS_TURN,
)
from . import knowledge
from .board import Reason, check_deaths, draw, finish, make_known, on_field, open_priority
from .combat import assignment_needed, combat_damage, eligible_attackers, end_attack, possible_blocks
from .effects import resolve_top

if TYPE_CHECKING:
    from ..state import ToraBatoState


def to_act(st: ToraBatoState) -> int | None:
    """The seat to act: the chooser of a pending effect, the seat with priority, or the seat whose choice it is."""
    phase = st.phase
    if phase == OVER:
        return None
    if st.pending is not None:
        return st.pending[1]
    if phase in PRIORITY_PHASES:
        return st.priority
    if phase == REVEAL:
        return revealing_seat(st)
    if phase == SELECT_BLOCKERS:
        return 1 - st.active
    return st.active


# -- the first-player reveal (先攻後攻) ---------------------------------------------------------------------------
def revealing_seat(st: ToraBatoState) -> int:
    """Seat 0 puts a card face down, then seat 1; both are then shown."""
    return 0 if len(st.reveals[0]) == len(st.reveals[1]) else 1


def why_not_reveal(st: ToraBatoState, card: int) -> Reason | None:
    """A hand card not shown yet in this round of reveals."""
    seat = revealing_seat(st)
    if card not in st.hand[seat]:
        return ("{} is not in your hand", NAMES[card])
    if card in st.reveals[seat]:
        return ("{} has already been shown", NAMES[card])
    return None


def reveal_choices(st: ToraBatoState) -> list[ToraBatoAction]:
    return [REVEAL_A[c] for c in sorted(st.hand[revealing_seat(st)]) if why_not_reveal(st, c) is None]


def reveal(st: ToraBatoState, card: int) -> None:
    seat = revealing_seat(st)
    st.reveals[seat].append(card)
    if seat == 0:
        return
    for s in (0, 1):
        make_known(st, s, st.reveals[s][-1])
    value = st.game.table.value
    v0 = value[st.reveals[0][-1]]
    v1 = value[st.reveals[1][-1]]
    if v0 != v1:
        begin_turn(st, 0 if v0 < v1 else 1, first=True)
    elif len(st.reveals[0]) == HAND_SIZE:
        # Every card tied: hands go back, decks are shuffled and five cards dealt again.
        st.redeals += 1
        if st.redeals >= MAX_REDEALS:
            begin_turn(st, st.rng.randbelow(2), first=True)
            return
        for s in (0, 1):
            zones.shuffle_into(st.hand[s], st.deck[s], st.rng)
            draw(st, s, HAND_SIZE)
        st.reveals = [[], []]
        st.known = [[], []]
        st.placements = [knowledge.NOTHING_KNOWN, knowledge.NOTHING_KNOWN]


# -- the turn ----------------------------------------------------------------------------------------------------
def begin_turn(st: ToraBatoState, seat: int, *, first: bool = False) -> None:
    if first:
        st.first = seat
    st.turn_no += 1
    max_turns = st.game.max_turns
    if st.turn_no > max_turns:
        finish(st, [0.0, 0.0], f"the turn cap ({max_turns}) was reached")
        return
    st.active = seat
    st.mana_set = False
    st.attacked = False
    st.pool = [0, 0]
    # Recovery phase: the previous turn's "this turn" effects end together with the healing (option
    # lasting_boosts; with lasting_boosts=false they have already ended with that turn); your mana and
    # soldiers untap; every soldier of both players heals.
    end_this_turn(st)
    st.tapped_mana[seat] = 0
    for c in st.field[seat]:
        st.tapped[c] = False
    st.damage = [0] * NUM_CARDS
    if st.game.recovery_priority:
        open_priority(st, RECOVERY)
    else:
        draw_phase(st)


def draw_phase(st: ToraBatoState) -> None:
    """Draw 1 card, then priority; skipped on the first player's first turn."""
    if st.turn_no == 1:
        open_priority(st, MAIN)
    else:
        draw(st, st.active, 1)
        open_priority(st, DRAW)


def pass_priority(st: ToraBatoState) -> None:
    """The first pass gives priority to the other player; the second resolves the stack's top or ends the step."""
    if st.passes == 0:
        st.passes = 1
        st.priority = 1 - st.priority
    elif st.stack:
        resolve_top(st)
        if st.phase != OVER:
            st.priority = st.active
            st.passes = 0
    else:
        end_step(st)


def end_step(st: ToraBatoState) -> None:
    """Both players passed with an empty stack: the current step or phase ends."""
    phase = st.phase
    if phase == RECOVERY:
        draw_phase(st)
    elif phase == DRAW:
        open_priority(st, MAIN)
    elif phase == MAIN:
        open_priority(st, END)
    elif phase == END:
        end_of_turn(st)
    elif phase == DECLARE:
        if eligible_attackers(st):
            st.phase = SELECT_ATTACKERS
        else:
            end_attack(st)
    elif not any(on_field(st, a) for a in st.attackers):
        end_attack(st)
    elif phase == EXECUTE:
        if possible_blocks(st):
            st.phase = SELECT_BLOCKERS
        else:
            open_priority(st, BLOCK)
    elif phase == BLOCK:
        open_priority(st, DAMAGE)
    elif phase == DAMAGE:
        if assignment_needed(st)[0] >= 0:
            st.phase = ASSIGN
        else:
            combat_damage(st)


def end_of_turn(st: ToraBatoState) -> None:
    """At each end phase a player with no cards in their deck loses; both at once is a draw.

    Then the turn ends. By default (option ``lasting_boosts``) its "this turn" effects (8, 10, K, 7, Q's tap)
    end in the next recovery phase together with the healing, so a soldier saved by a boost stays saved. With
    ``lasting_boosts=false`` they end now, while damage stays until the recovery phase, so a soldier whose
    damage reaches its printed health dies now.
    """
    empty = [not st.deck[0], not st.deck[1]]
    if empty[0] and empty[1]:
        finish(st, [0.0, 0.0], "both decks are empty at the end phase")
    elif empty[0] or empty[1]:
        loser = 0 if empty[0] else 1
        result = [1.0, 1.0]
        result[loser] = -1.0
        finish(st, result, f"seat {loser}'s deck is empty at the end phase")
    else:
        if not st.game.lasting_boosts:
            end_this_turn(st)
            check_deaths(st)
        begin_turn(st, 1 - st.active)


def end_this_turn(st: ToraBatoState) -> None:
    """The "this turn" effects end: 8's and 10's boosts, K's and 7's effects, and Q's tap (its target untaps)."""
    flags = st.flags
    for c in st.field[0] + st.field[1]:
        if flags[c] & TAPPED_THIS_TURN:
            st.tapped[c] = False
    st.atk_boost = [0] * NUM_CARDS
    st.hp_boost = [0] * NUM_CARDS
    st.flags = [0] * NUM_CARDS
