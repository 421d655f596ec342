"""The attack (rulebook 攻撃): declaration, choosing attackers, blocks, dividing damage, and combat damage.

Each choice has one check (``why_not_*``: ``None`` or the reason) used both to list the choices and to explain a
refusal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import ASSIGN_A, ATTACKER_A, BLOCK_A, DONE, ToraBatoAction
from ..cards import NAMES
from ..constants import BLOCK, DECLARE, EXECUTE, MAIN, SELECT_ATTACKERS, UNBLOCKABLE_FLAG, ZEROED
from .board import Reason, attack_of, check_deaths, mill, on_field, open_priority

if TYPE_CHECKING:
    from ..state import ToraBatoState


# -- declaring the attack ----------------------------------------------------------------------------------------
def why_not_attack(st: ToraBatoState, sorcery: bool) -> Reason | None:
    """Once a turn, at sorcery speed (own main phase, empty stack), with a soldier able to attack."""
    if st.attacked:
        return "you have already attacked this turn"
    if not sorcery:
        return "an attack is declared in your own main phase with an empty stack"
    if not eligible_attackers(st):
        return "you have no untapped soldier that can attack (soldiers that entered this turn cannot)"
    return None


def declare(st: ToraBatoState) -> None:
    st.attacked = True
    open_priority(st, DECLARE)


# -- choosing attackers ------------------------------------------------------------------------------------------
def why_not_attacker(st: ToraBatoState, card: int) -> Reason | None:
    if card not in st.field[st.active]:
        return ("{} is not one of your soldiers on the field", NAMES[card])
    return _attacker_reason(st, card)


def _attacker_reason(st: ToraBatoState, card: int) -> Reason | None:
    """Why a soldier of the attacker cannot attack now (``None``: it can)."""
    if card in st.attackers:
        return ("{} is already attacking", NAMES[card])
    if st.tapped[card]:
        return ("{} is tapped", NAMES[card])
    if st.entered[card] == st.turn_no:
        return ("{} entered this turn and cannot attack yet", NAMES[card])
    return None


def eligible_attackers(st: ToraBatoState) -> list[int]:
    return [c for c in st.field[st.active] if _attacker_reason(st, c) is None]


def why_not_done(st: ToraBatoState) -> Reason | None:
    """Ending the choice of attackers needs one attacker at least; blockers may be none."""
    if st.phase == SELECT_ATTACKERS and not st.attackers:
        return "choose at least one attacker first ('attacker CARD')"
    return None


def attacker_choices(st: ToraBatoState) -> list[ToraBatoAction]:
    acts = [ATTACKER_A[c] for c in eligible_attackers(st)]
    if why_not_done(st) is None:
        acts.append(DONE)
    return acts


def add_attacker(st: ToraBatoState, card: int) -> None:
    st.attackers.append(card)
    st.tapped[card] = True
    if not eligible_attackers(st):
        open_priority(st, EXECUTE)


def done(st: ToraBatoState) -> None:
    """The attacker or the defender ends their choice."""
    open_priority(st, EXECUTE if st.phase == SELECT_ATTACKERS else BLOCK)


# -- blocks ------------------------------------------------------------------------------------------------------
def why_not_blocker(st: ToraBatoState, card: int) -> Reason | None:
    """A blocker is an untapped soldier of the defender, blocking one attacker at most."""
    if card not in st.field[1 - st.active]:
        return ("{} is not one of your soldiers on the field", NAMES[card])
    return _blocker_reason(st, card)


def _blocker_reason(st: ToraBatoState, card: int) -> Reason | None:
    """Why a soldier of the defender cannot block now (``None``: it can)."""
    if st.tapped[card]:
        return ("{} is tapped", NAMES[card])
    for b, _ in st.blocks:
        if b == card:
            return ("{} is already blocking", NAMES[card])
    return None


def why_not_blocked(st: ToraBatoState, card: int) -> Reason | None:
    """An attacker can be blocked while it is on the field, unless it is unblockable this turn (K)."""
    if card not in st.attackers:
        return ("{} is not attacking", NAMES[card])
    if not on_field(st, card):
        return ("{} has left the field", NAMES[card])
    if st.flags[card] & UNBLOCKABLE_FLAG:
        return ("{} cannot be blocked this turn", NAMES[card])
    return None


def possible_blocks(st: ToraBatoState) -> list[ToraBatoAction]:
    targets = [a for a in st.attackers if why_not_blocked(st, a) is None]
    acts: list[ToraBatoAction] = []
    for b in st.field[1 - st.active]:
        if _blocker_reason(st, b) is None:
            row = BLOCK_A[b]
            acts.extend(row[a] for a in targets)
    return acts


def block_choices(st: ToraBatoState) -> list[ToraBatoAction]:
    return [*possible_blocks(st), DONE]


def block(st: ToraBatoState, blocker: int, attacker: int) -> None:
    st.blocks.append((blocker, attacker))
    if not possible_blocks(st):
        open_priority(st, BLOCK)


# -- damage ------------------------------------------------------------------------------------------------------
def power(st: ToraBatoState, card: int) -> int:
    return 0 if st.flags[card] & ZEROED else max(0, attack_of(st, card))


def blockers_of(st: ToraBatoState, attacker: int) -> list[int]:
    return [b for b, a in st.blocks if a == attacker]


def assignment_needed(st: ToraBatoState) -> tuple[int, list[int], int]:
    """The first attacker whose damage the attacker must still divide: (attacker, living blockers, left)."""
    for a in st.attackers:
        if not on_field(st, a):
            continue
        living = [b for b in blockers_of(st, a) if on_field(st, b)]
        pw = power(st, a)
        if len(living) < 2 or pw == 0:
            continue
        left = pw - sum(1 for x, _ in st.assigned if x == a)
        if left > 0:
            return a, living, left
    return -1, [], 0


def why_not_assign(st: ToraBatoState, attacker: int, blocker: int) -> Reason | None:
    """One point at a time of the first attacker still to divide, to one of its living blockers."""
    now, living, _ = assignment_needed(st)
    if attacker != now:
        return ("now {}'s damage is divided among its blockers", NAMES[now])
    if blocker not in living:
        return ("{} is not a living blocker of {}", NAMES[blocker], NAMES[attacker])
    return None


def assign_choices(st: ToraBatoState) -> list[ToraBatoAction]:
    attacker, living, _ = assignment_needed(st)
    row = ASSIGN_A[attacker]
    return [row[b] for b in living]


def assign(st: ToraBatoState, attacker: int, blocker: int) -> None:
    st.assigned.append((attacker, blocker))
    if assignment_needed(st)[0] < 0:
        combat_damage(st)


def combat_damage(st: ToraBatoState) -> None:
    """Step 4: all combat damage at once; unblocked damage mills the defender's deck."""
    defender = 1 - st.active
    hits: list[tuple[int, int]] = []
    milled = 0
    for a in st.attackers:
        if not on_field(st, a):
            continue
        blockers = blockers_of(st, a)
        pw = power(st, a)
        if not blockers:
            milled += pw
            continue
        living = [b for b in blockers if on_field(st, b)]
        if len(living) == 1:
            hits.append((living[0], pw))
        elif living:
            hits.extend((b, 1) for x, b in st.assigned if x == a and b in living)
    for b, a in st.blocks:
        if on_field(st, b) and on_field(st, a):
            hits.append((a, power(st, b)))
    for card, amount in hits:
        st.damage[card] += amount
    mill(st, defender, milled)
    check_deaths(st)
    end_attack(st)


def end_attack(st: ToraBatoState) -> None:
    st.attackers = []
    st.blocks = []
    st.assigned = []
    open_priority(st, MAIN)
