"""What a player with priority may do (rulebook メインフェイズ, 魔法, 兵士の能力): set mana, cast a spell or summon a
soldier, use a soldier's ability, take a card back from the discard pile.

Each action has one check (``why_not_*``: ``None`` or the reason) and, for cards with targets, one list of the
targets allowed; the legal actions are built from them and a refusal is explained by them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..actions import MANA_A, PLAY_A, RECUR_A, T0, USE_A, ToraBatoAction
from ..cards import NAMES
from ..constants import (
    ABILITY,
    MAIN,
    NO_TARGET,
    OPPONENT,
    RECURSION,
    SPELL,
    UNBLOCKABLE_FLAG,
    Ability,
    Effect,
    Timing,
)
from . import knowledge
from .board import Reason, pay, soldiers
from .effects import after_effect, resolve_spell
from .table import CardTable

if TYPE_CHECKING:
    from ..state import ToraBatoState

NO_TARGETS: tuple[int, ...] = (NO_TARGET,)
NONE: tuple[int, ...] = ()


#: The facts the checks of a priority action read: ``(seat, mana, own_turn, sorcery)``: the seat with priority, its
#: available mana, whether it is its own turn, and whether it acts at sorcery speed (own main phase, outside an
#: attack, with an empty stack). A plain tuple: it is built for every list of legal actions.
Priority = tuple[int, int, bool, bool]


def priority_facts(st: ToraBatoState, seat: int) -> Priority:
    own_turn = seat == st.active
    mana = st.pool[seat] + len(st.mana[seat]) - st.tapped_mana[seat]  # available_mana, inlined: a hot path
    return seat, mana, own_turn, own_turn and st.phase == MAIN and not st.stack


# -- setting mana ------------------------------------------------------------------------------------------------
def why_not_mana_now(st: ToraBatoState, sorcery: bool) -> Reason | None:
    """Once a turn, at sorcery speed."""
    if st.mana_set:
        return "you have already set mana this turn"
    if not sorcery:
        return "mana can be set only in your own main phase, outside an attack, with an empty stack"
    return None


def why_not_mana(st: ToraBatoState, p: Priority, card: int) -> Reason | None:
    """Any hand card, face down."""
    if card not in st.hand[p[0]]:
        return ("{} is not in your hand", NAMES[card])
    return why_not_mana_now(st, p[3])


def set_mana(st: ToraBatoState, card: int) -> None:
    seat = st.priority
    known = st.known[seat]
    st.placements[seat] = knowledge.after_mana_set(st.placements[seat], known, len(st.hand[seat]) - len(known))
    st.hand[seat].remove(card)
    st.mana[seat].append(card)
    st.mana_set = True
    st.passes = 0


# -- casting and summoning ---------------------------------------------------------------------------------------
def _card_reason(tb: CardTable, card: int, mana: int, own_turn: bool, sorcery: bool) -> Reason | None:
    """Why a hand card cannot be played now, whatever its target (``None``: it can)."""
    cost = tb.cost[card]
    if cost > mana:
        return ("{} costs {} mana and you have {}", NAMES[card], cost, mana)
    if tb.soldier[card]:
        if not sorcery:
            return "soldiers are summoned only in your own main phase, outside an attack, with an empty stack"
    elif tb.own_turn_only[card] and not own_turn:
        return ("{} cannot be cast on the opponent's turn (相手ターンで使用不可)", NAMES[card])
    return None


def play_targets(st: ToraBatoState, seat: int, card: int) -> Sequence[int]:
    """The targets a card may be played with (``NO_TARGET`` for none): a spell's effect decides them."""
    tb = st.game.table
    if tb.untargeted[card]:
        return NO_TARGETS
    effect = tb.effect[card]
    if effect == Effect.RETURN_MANA:
        return NO_TARGETS if st.mana[seat] else NONE
    on_field = soldiers(st)
    if effect == Effect.DAMAGE:
        return [OPPONENT, *on_field]
    if effect == Effect.PREVENT:  # a soldier, or a damage spell on the stack
        on_field.extend(item[1] for item in st.stack if item[0] == SPELL and tb.effect[item[1]] == Effect.DAMAGE)
    return on_field


def why_not_play(st: ToraBatoState, p: Priority, card: int, target: int) -> Reason | None:
    seat, mana, own_turn, sorcery = p
    if card not in st.hand[seat]:
        return ("{} is not in your hand", NAMES[card])
    reason = _card_reason(st.game.table, card, mana, own_turn, sorcery)
    if reason is None and target not in play_targets(st, seat, card):
        reason = "that target is not allowed for this card (see the list of choices)"
    return reason


def play(st: ToraBatoState, card: int, target: int) -> None:
    seat = st.priority
    tb = st.game.table
    known = st.known[seat]
    st.placements[seat] = knowledge.after_play(st.placements[seat], known, card, len(st.hand[seat]) - len(known))
    if card in known:
        known.remove(card)
    st.hand[seat].remove(card)
    pay(st, seat, tb.cost[card])
    st.passes = 0
    if tb.soldier[card]:
        st.field[seat].append(card)
        st.entered[card] = st.turn_no
    elif (
        tb.timing[card] == Timing.INSTANT_OFF_STACK
    ):  # 5: takes effect at once, off the stack; the caster keeps priority
        resolve_spell(st, tb, card, seat, target)
        st.discard[seat].append(card)
        after_effect(st)
    else:
        st.stack.append((SPELL, card, seat, target))


# -- soldiers' abilities -----------------------------------------------------------------------------------------
def _ability_reason(st: ToraBatoState, tb: CardTable, card: int, mana: int) -> Reason | None:
    """Why a soldier of the seat cannot use its ability now, whatever its target (``None``: it can)."""
    cost = tb.ability_cost[card]
    if cost is None:
        return ("{} has no ability", NAMES[card])
    if st.entered[card] == st.turn_no:
        return ("{} entered this turn and cannot use its ability yet", NAMES[card])
    if cost > mana:
        return ("the ability costs {} mana and you have {}", cost, mana)
    return None


def use_targets(st: ToraBatoState, seat: int, card: int) -> Sequence[int]:
    """The targets an ability may be used with (``NO_TARGET`` for none)."""
    ability = st.game.table.ability[card]
    if ability == Ability.TAP:  # Q taps itself to tap another untapped soldier
        tapped = st.tapped
        return NONE if tapped[card] else [t for t in soldiers(st) if t != card and not tapped[t]]
    if ability == Ability.REGROW:
        return NO_TARGETS if st.discard[seat] else NONE
    if ability == Ability.UNBLOCKABLE:
        return NONE if st.flags[card] & UNBLOCKABLE_FLAG else NO_TARGETS
    return NO_TARGETS


def why_not_use(st: ToraBatoState, p: Priority, card: int, target: int) -> Reason | None:
    seat, mana = p[0], p[1]
    if card not in st.field[seat]:
        return ("{} is not one of your soldiers on the field", NAMES[card])
    reason = _ability_reason(st, st.game.table, card, mana)
    if reason is None and target not in use_targets(st, seat, card):
        reason = "that target is not allowed for this ability (see the list of choices)"
    return reason


def use(st: ToraBatoState, card: int, target: int) -> None:
    seat = st.priority
    tb = st.game.table
    pay(st, seat, tb.ability_cost[card] or 0)
    if tb.ability[card] == Ability.TAP:
        st.tapped[card] = True
    st.stack.append((ABILITY, card, seat, target))
    st.passes = 0


# -- taking cards back from the discard pile ---------------------------------------------------------------------
def _recur_reason(st: ToraBatoState, cost: int | None, card: int, mana: int, own_turn: bool) -> Reason | None:
    """Why a card of the seat's discard pile (``cost`` its recursion cost) cannot be taken back now (``None``: it
    can)."""
    if not own_turn:
        return "cards return from the discard pile only on your own turn"
    if cost is None:
        return ("{} has no recursion ability", NAMES[card])
    if cost > mana:
        return ("taking {} back costs {} mana and you have {}", NAMES[card], cost, mana)
    for item in st.stack:
        if item[0] == RECURSION and item[1] == card:
            return ("{} is already on its way back (its recursion is on the stack)", NAMES[card])
    return None


def why_not_recur(st: ToraBatoState, p: Priority, card: int) -> Reason | None:
    if card not in st.discard[p[0]]:
        return ("{} is not in your discard pile", NAMES[card])
    return _recur_reason(st, st.game.table.recur_cost[card], card, p[1], p[2])


def recur(st: ToraBatoState, card: int) -> None:
    seat = st.priority
    pay(st, seat, st.game.table.recur_cost[card] or 0)
    st.stack.append((RECURSION, card, seat, NO_TARGET))
    st.passes = 0


# -- the list ----------------------------------------------------------------------------------------------------
def add_choices(st: ToraBatoState, p: Priority, acts: list[ToraBatoAction]) -> None:
    """Append the seat's mana, play, use and recur actions, in that order, to ``acts``.

    The checks above decide; the cheap skips here only spare calling them for candidates they refuse anyway (the
    conformance harness checks that every action left out has a reason).
    """
    seat, mana, own_turn, sorcery = p
    tb = st.game.table
    untargeted, cost, ability_cost = tb.untargeted, tb.cost, tb.ability_cost
    hand = st.hand[seat]
    if why_not_mana_now(st, sorcery) is None:
        acts.extend(MANA_A[c] for c in hand)
    for c in hand:
        if cost[c] <= mana and _card_reason(tb, c, mana, own_turn, sorcery) is None:  # cheap skip: unaffordable
            row = PLAY_A[c]
            targets = NO_TARGETS if untargeted[c] else play_targets(st, seat, c)
            if targets is NO_TARGETS:
                acts.append(row[T0 + NO_TARGET])
            else:
                acts.extend(row[T0 + t] for t in targets)
    for c in st.field[seat]:
        paid = ability_cost[c]  # cheap skip: no ability, or one the seat cannot pay for
        if paid is not None and paid <= mana and _ability_reason(st, tb, c, mana) is None:
            row = USE_A[c]
            targets = use_targets(st, seat, c)
            if targets is NO_TARGETS:
                acts.append(row[T0 + NO_TARGET])
            else:
                acts.extend(row[T0 + t] for t in targets)
    if own_turn:  # cheap skips: no recursion on the opponent's turn, nor for cards without a recursion cost
        recur_cost = tb.recur_cost
        for c in st.discard[seat]:
            price = recur_cost[c]
            if price is not None and price <= mana and _recur_reason(st, price, c, mana, own_turn) is None:
                acts.append(RECUR_A[c])
