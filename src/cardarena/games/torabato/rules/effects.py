"""The stack and what its items do: spells, soldiers' abilities, recursion, and choices made while they resolve.

Stack items are tuples ``(Source, card, controller, target)``; the top is the last. A choice in the middle of an
effect (A's ability, 9) is ``pending = (Pending, seat)``: that seat must ``choose`` a card before anything else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import CHOOSE_A, ToraBatoAction
from ..cards import NAMES
from ..constants import (
    ABILITY,
    OPPONENT,
    REGROW,
    RETURN_MANA,
    SPELL,
    TAPPED_THIS_TURN,
    UNBLOCKABLE_FLAG,
    ZEROED,
    Ability,
    Effect,
)
from . import knowledge
from .board import Reason, check_deaths, draw, leave_field, make_known, mill, on_field
from .table import CardTable

if TYPE_CHECKING:
    from ..state import ToraBatoState


# -- choices while an effect resolves ---------------------------------------------------------------------------
def _choice_zone(st: ToraBatoState) -> list[int]:
    assert st.pending is not None
    kind, seat = st.pending
    return st.discard[seat] if kind == REGROW else st.mana[seat]


def why_not_choose(st: ToraBatoState, card: int) -> Reason | None:
    """A card chosen for the pending effect must be in the zone it takes from."""
    if card in _choice_zone(st):
        return None
    assert st.pending is not None
    where = "discard pile" if st.pending[0] == REGROW else "mana cards"
    return ("{} is not among your {}", NAMES[card], where)


def choices(st: ToraBatoState) -> list[ToraBatoAction]:
    """The pending effect's choices: each card of its zone once, in card order."""
    return [CHOOSE_A[c] for c in sorted(set(_choice_zone(st))) if why_not_choose(st, c) is None]


def choose(st: ToraBatoState, card: int) -> None:
    assert st.pending is not None
    kind, seat = st.pending
    st.pending = None
    if kind == REGROW:
        st.discard[seat].remove(card)
        make_known(st, seat, card)
    else:
        # Mana cards are interchangeable when paying: the player is taken to have tapped the card they
        # now take back, so a tapped card returns first (RULINGS-style reading, see rules.md).
        st.placements[seat] = knowledge.after_mana_return(st.placements[seat], st.known[seat], len(st.mana[seat]))
        st.mana[seat].remove(card)
        if st.tapped_mana[seat] > 0:
            st.tapped_mana[seat] -= 1
    st.hand[seat].append(card)
    st.passes = 0  # priority stays where it was: the active player's after a resolution


# -- resolving ---------------------------------------------------------------------------------------------------
def resolve_top(st: ToraBatoState) -> None:
    """Both players passed: the top of the stack resolves."""
    kind, card, seat, target = st.stack.pop()
    tb = st.game.table
    if kind == SPELL:
        resolve_spell(st, tb, card, seat, target)
        st.discard[seat].append(card)
        st.flags[card] = 0
    elif kind == ABILITY:
        _resolve_ability(st, tb, card, seat, target)
    elif card in st.discard[seat]:  # recursion: the card must still be in the discard pile
        st.discard[seat].remove(card)
        st.hand[seat].append(card)
        make_known(st, seat, card)
    after_effect(st)


def _resolve_ability(st: ToraBatoState, tb: CardTable, card: int, seat: int, target: int) -> None:
    ability = tb.ability[card]
    if ability == Ability.REGROW:
        if st.discard[seat]:
            st.pending = (REGROW, seat)
    elif ability == Ability.FORTIFY:
        if on_field(st, card):
            st.hp_boost[card] += tb.health_boost[card]
    elif ability == Ability.TAP:
        # 「このターン兵士1体を使用済みにする」: the target untaps when this turn's effects end. A target that
        # is already tapped (it attacked, or paid for its own Q meanwhile) is left as it is.
        if on_field(st, target) and not st.tapped[target]:
            st.tapped[target] = True
            st.flags[target] |= TAPPED_THIS_TURN
    elif ability == Ability.UNBLOCKABLE and on_field(st, card):
        st.flags[card] |= UNBLOCKABLE_FLAG


def after_effect(st: ToraBatoState) -> None:
    """Soldiers at 0 health die; a choice with a single possibility is taken at once."""
    check_deaths(st)
    if st.pending is not None:
        only = choices(st)
        if len(only) == 1:
            choose(st, only[0][1])


def resolve_spell(st: ToraBatoState, tb: CardTable, card: int, seat: int, target: int) -> None:
    effect = tb.effect[card]
    if effect == Effect.DAMAGE:
        amount = 0 if st.flags[card] & ZEROED else tb.amount[card]
        if target == OPPONENT:
            mill(st, 1 - seat, amount)
        elif on_field(st, target):
            st.damage[target] += amount
    elif effect == Effect.DESTROY:
        if on_field(st, target):
            leave_field(st, target)
    elif effect == Effect.GAIN_MANA:
        st.pool[seat] += tb.amount[card]
    elif effect == Effect.DRAW:
        draw(st, seat, tb.amount[card])
    elif effect == Effect.PREVENT:
        if on_field(st, target) or any(item[1] == target for item in st.stack):
            st.flags[target] |= ZEROED
    elif effect == Effect.BOOST:
        if on_field(st, target):
            st.atk_boost[target] += tb.attack[card]
            st.hp_boost[target] += tb.health[card]
    elif effect == Effect.RETURN_MANA:
        if st.mana[seat]:
            st.pending = (RETURN_MANA, seat)
    elif effect == Effect.DESTROY_ALL:
        for seat_ in (0, 1):
            for c in list(st.field[seat_]):
                leave_field(st, c)
