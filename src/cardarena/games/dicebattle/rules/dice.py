"""The dice phase (ダイスフェイズ): roll, Miracle, set cards within the die, redraw or the dice token, done.

Each rule is written once, as a check that returns ``None`` (allowed) or the reason, or as the list of the
cards that may go into a slot; :func:`legal_actions` and :func:`why_not` both use them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

from cardarena.engine import zones

from ..actions import DONE, MIRACLE, REDRAW, TOKEN
from ..constants import (
    A_DONE,
    A_GRANT,
    A_MAGIC,
    A_MIRACLE,
    A_REDRAW,
    A_SET,
    A_TOKEN,
    DICE,
    KIND_MAGIC,
    KIND_MONSTER,
    MAX_REDRAWS,
    PENALTY,
    STEP_DICE,
    Kind,
)
from .battle import begin
from .deck import defer, draw
from .levels import spent
from .log import event
from .turns import not_now, start_dice

if TYPE_CHECKING:
    from cardarena.engine import Action

    from ..actions import DiceBattleAction
    from ..state import DiceBattleState, Side
    from ..tables import Tables

T = TypeVar("T")


# -- the checks
def check_no_unit_set(side: Side) -> str | None:
    """Miracle, a redraw and the dice token come before any card is set."""
    return "cards are already set" if side.main else None


def check_unit_set(side: Side) -> str | None:
    """Magic, a grant and ``done`` need a unit in the main zone."""
    return None if side.main else "you must set a unit in the main zone first"


def check_miracle(side: Side) -> str | None:
    if not side.miracle:
        return "Miracle is used up"
    return "cards are already set" if side.main else None


def room_left(t: Tables, side: Side) -> int:
    """What is left of the die for more cards."""
    return side.roll - spent(t, side) if side.main else side.roll


def units(t: Tables, side: Side, hand: list[int], room: int, into: Sequence[T]) -> list[T]:
    """The cards of ``hand`` that may go into the main zone now (as ``into[card]``: the card's action, or the card
    itself with ``into = t.indices``): the first unit (not magic, its cost within the die), or monsters joining a
    monster (their join cost within the ``room`` left; 異例 free_join: 0)."""
    roll = side.roll
    kind = t.kind
    if not side.main:
        cost = t.cost[roll]
        return [into[c] for c in hand if kind[c] != KIND_MAGIC and cost[c] <= roll]
    if kind[side.main[0]] != KIND_MONSTER:
        return []  # a human stays alone in the main zone
    join = t.join[roll]
    return [into[c] for c in hand if kind[c] == KIND_MONSTER and join[c] <= room]


def magic(t: Tables, side: Side, hand: list[int], room: int, into: Sequence[T]) -> list[T]:
    """Magic that may go into the magic circle: beside a human, or (異例 magic_with_monster) beside a monster;
    its level within the ``room`` left of the die."""
    if room <= 0:
        return []
    level = t.level
    if t.kind[side.main[0]] == KIND_MONSTER:
        with_monster = t.with_monster
        return [into[c] for c in hand if with_monster[c] and level[c] <= room]
    kind = t.kind
    return [into[c] for c in hand if kind[c] == KIND_MAGIC and level[c] <= room]


def check_grant_slot(side: Side) -> str | None:
    return "a grant is already set this round (one per battle phase)" if side.grant >= 0 else None


def grants(t: Tables, side: Side, hand: list[int], room: int, into: Sequence[T]) -> list[T]:
    """Cards with a grant whose grant level fits in the ``room`` left of the die."""
    if room <= 0:
        return []
    grant_level = t.grant_level
    return [into[c] for c in hand if 0 < grant_level[c] <= room]


def check_nothing_to_set(t: Tables, side: Side) -> str | None:
    """A redraw or the dice token only when no unit of the hand can be set (a player who can set one must)."""
    if units(t, side, side.hand, side.roll, t.indices):
        return "a unit of your hand can be set: a player who can set a unit must"
    return None


def check_redraw(side: Side) -> str | None:
    if not side.hand:
        return "the hand is empty: there is nothing to redraw"
    if side.redraws >= MAX_REDRAWS:
        return f"the hand was redrawn {MAX_REDRAWS} times already"
    return None


def distinct(cards: list[int]) -> list[int]:
    """The distinct cards of ``cards`` in card order: ``sorted(set(cards))`` without building a set (compiled, the
    set cost more than the rest of the legal actions)."""
    out = sorted(cards)
    k = 1
    while k < len(out):
        if out[k] == out[k - 1]:
            del out[k]
        else:
            k += 1
    return out


def legal_actions(st: DiceBattleState) -> list[DiceBattleAction]:
    game = st.game
    t = game.tables
    side = st.sides[st.actor]
    hand = distinct(side.hand)
    if not side.main:
        acts: list[DiceBattleAction] = [MIRACLE] if check_miracle(side) is None else []
        fitting = units(t, side, hand, side.roll, game.card_actions.set)
        if not fitting:
            acts.append(REDRAW if check_redraw(side) is None else TOKEN)
            return acts
        return acts + fitting if acts else fitting
    card_actions = game.card_actions
    room = side.roll - spent(t, side)
    acts = units(t, side, hand, room, card_actions.set)
    if room > 0:  # a cheap skip: no magic or grant fits in nothing
        acts += magic(t, side, hand, room, card_actions.magic)
        if check_grant_slot(side) is None:
            acts += grants(t, side, hand, room, card_actions.grant)
    acts.append(DONE)
    return acts


def why_not(st: DiceBattleState, kind: Kind, card: int) -> str | None:
    """The first rule of the dice phase that ``kind`` (with ``card``, for the card kinds) breaks, or ``None``."""
    if st.phase != DICE:
        return not_now(st, kind)
    side = st.sides[st.actor]
    t = st.game.tables
    if kind == A_MIRACLE:
        return check_miracle(side)
    if kind == A_DONE:
        return check_unit_set(side)
    if kind in (A_REDRAW, A_TOKEN):
        reason = check_no_unit_set(side) or check_nothing_to_set(t, side)
        if reason is not None:
            return reason
        redraw = check_redraw(side)
        if kind == A_REDRAW:
            return redraw
        return "you may still redraw the hand" if redraw is None else None
    if kind not in (A_SET, A_MAGIC, A_GRANT):
        return not_now(st, kind)
    if card not in side.hand:
        return f"{t.name(card)} is not in your hand"
    room = room_left(t, side)
    if kind == A_SET:
        ok = units(t, side, [card], room, t.indices)
    else:
        reason = check_unit_set(side) or (check_grant_slot(side) if kind == A_GRANT else None)
        if reason is not None:
            return reason
        ok = (magic if kind == A_MAGIC else grants)(t, side, [card], room, t.indices)
    if not ok:
        return f"{t.name(card)} cannot be set there now (die {side.roll}, {spent(t, side)} already used)"
    return None


# -- carrying out
def apply(st: DiceBattleState, action: Action) -> None:
    kind = action[0]
    seat = st.actor
    side = st.sides[seat]
    if kind == A_MIRACLE:
        side.miracle = False
        side.roll = st.rng.randint(1, 6)
        event(st, "miracle", seat, side.roll)
    elif kind == A_DONE:
        finish_dice(st)
    elif kind == A_REDRAW:
        redraw(st, seat)
    elif kind == A_TOKEN:
        side.token = True
        side.stuck = len(side.hand)  # the hand shown to hold no unit that fits the die
        side.stuck_roll = side.roll
        event(st, "token", seat)
        finish_dice(st)
    else:
        c = st.game.tables.by_id[action[1]]
        side.hand.remove(c)
        if kind == A_SET:
            side.main.append(c)
        elif kind == A_MAGIC:
            side.circle.append(c)
        else:
            side.grant = c


def redraw(st: DiceBattleState, seat: int) -> None:
    """Nothing can be set: show the hand, shuffle it into the deck, draw as many again."""
    side = st.sides[seat]
    shown = sorted(side.hand)
    event(st, "redraw", seat, tuple(shown))
    side.known.clear()
    zones.shuffle_into(side.hand, side.deck, st.rng)
    side.redraws += 1
    draw(st, seat, len(shown))
    if st.phase == PENALTY:
        defer(st, (STEP_DICE, seat))


def finish_dice(st: DiceBattleState) -> None:
    if st.actor == st.first:
        start_dice(st, 1 - st.first)
    else:
        begin(st)
