"""The battle phase (バトルフェイズ): preparation, the hidden sets revealed together, the triangle, damage and
cleanup. Each step returns True when the battle phase is over (the end phase follows), False when it waits on a
decision or the game ended."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..actions import SET_DUMMY, LyabiAction
from ..cards import CardSet
from ..constants import BEATS, NO_ITEM, P_BRUSH, P_EYE, P_MIRROR, P_SET, P_SWORD, USE_K
from . import items
from .board import check_hp, forget, log, use_item
from .market import held_fault

if TYPE_CHECKING:
    from ..state import LyabiState


# -- the check and the list ---------------------------------------------------------------------------------
def set_fault(c: CardSet, hand: Sequence[int], names: Sequence[str]) -> str | None:
    """One ryabi, or two of one colour (a double charge), from the hand; the dummy is always there."""
    if names == ("dummy",):
        return None
    fault = held_fault(c, hand, names)
    if fault is None and len(names) == 2 and c.r_colour[c.kind(names[0])] != c.r_colour[c.kind(names[1])]:
        return "a double charge needs two ryabi of the same attribute"
    return fault


class SetChoices:
    """The battle sets a hand allows, memoised by hand (kept on the game; the lists are shared)."""

    def __init__(self, cards: CardSet) -> None:
        self.cards = cards
        self._sets: dict[tuple[int, ...], list[LyabiAction]] = {}

    def __call__(self, hand: tuple[int, ...]) -> list[LyabiAction]:
        found = self._sets.get(hand)
        if found is None:
            names = self.cards.r_names
            kinds = sorted(set(hand))
            found = [LyabiAction(("set", names[k])) for k in kinds]
            for i, k1 in enumerate(kinds):
                for k2 in kinds[i:]:
                    if set_fault(self.cards, hand, (names[k1], names[k2])) is None:
                        found.append(LyabiAction(("set", names[k1], names[k2])))
            found.append(SET_DUMMY)
            self._sets[hand] = found
        return found


def why_not_set(st: LyabiState, s: int, a: LyabiAction) -> str | None:
    return set_fault(st.game.cards, st.hand[s], a[1:])


# -- the steps ----------------------------------------------------------------------------------------------
def start_battle(st: LyabiState) -> bool:
    """A player may battle with ≥1 card in hand and a circle on the field; if neither may, skip."""
    hand, field = st.hand, st.field
    st.battling = [bool(hand[0]) and bool(field[0]), bool(hand[1]) and bool(field[1])]
    if not (st.battling[0] or st.battling[1]):
        return True
    st.queue = [s for s in st.order if st.battling[s] and st.item[s] != NO_ITEM]
    return next_eye_window(st)


def next_eye_window(st: LyabiState) -> bool:
    if st.queue:
        st.phase, st.actor = P_EYE, st.queue.pop(0)
        return False
    st.queue = [s for s in st.order if st.battling[s]]
    return next_set(st)


def next_set(st: LyabiState) -> bool:
    if st.queue:
        st.phase, st.actor = P_SET, st.queue.pop(0)
        return False
    return reveal(st)


def set_face_down(st: LyabiState, s: int, action: LyabiAction) -> None:
    if action[1] == "dummy":
        st.sets[s] = ()
    else:
        kind_of = st.game.codec.kind_of
        kinds = tuple(kind_of[n] for n in action[1:])
        for k in kinds:
            st.hand[s].remove(k)
        st.sets[s] = kinds


def reveal(st: LyabiState) -> bool:
    """2_1: the sets are revealed together."""
    st.revealed = True
    r_colour = st.game.cards.r_colour
    for s in (0, 1):
        cards = st.sets[s]
        st.colour[s] = r_colour[cards[0]] if cards else -1
    names = st.game.cards.r_names
    for s in (0, 1):
        cards = st.sets[s]
        if cards:
            forget(st, s, tuple(names[k] for k in cards))
    st.last_battle = {
        "turn": st.turn_no,
        "sets": [None if x is None else ("dummy" if not x else [names[k] for k in x]) for x in st.sets],
    }
    st.queue = [s for s in st.order if st.sets[s] and st.item[s] != NO_ITEM]
    return next_brush_window(st)


def next_brush_window(st: LyabiState) -> bool:
    if st.queue:
        st.phase, st.actor = P_BRUSH, st.queue.pop(0)
        return False
    return resolve(st)


def resolve(st: LyabiState) -> bool:
    """3: the triangle decides; the winner's damage is summed over its circles of the battle attribute."""
    c0, c1 = st.colour
    if c0 >= 0 and c1 >= 0:
        winner = -1 if c0 == c1 else (0 if BEATS[c0] == c1 else 1)
    elif c0 >= 0:
        winner = 0
    elif c1 >= 0:
        winner = 1
    else:
        winner = -1
    st.winner = winner
    if winner < 0:
        log(st, winner=None, damage=0)
        return cleanup(st)
    st.pending = battle_damage(st, winner)
    log(st, winner=winner, damage=st.pending)
    loser = 1 - winner
    if st.pending > 0 and st.item[loser] != NO_ITEM:
        st.phase, st.actor = P_MIRROR, loser
        return False
    return deal(st)


def battle_damage(st: LyabiState, winner: int) -> int:
    """Σ over the winner's circles whose colour is the battle attribute of floor(ATK × times [× times])."""
    cards = st.game.cards
    battle = st.sets[winner]
    assert battle
    second = battle[1] if len(battle) > 1 else None
    colour = st.colour[winner]
    return sum(
        cards.damage(circle, battle[0], second) for circle in st.field[winner] if cards.c_colour[circle] == colour
    )


def deal(st: LyabiState) -> bool:
    winner = st.winner
    st.hp[1 - winner] -= st.pending
    if check_hp(st):
        return False
    if st.pending > 0 and st.item[winner] != NO_ITEM:
        st.phase, st.actor = P_SWORD, winner
        return False
    return cleanup(st)


def cleanup(st: LyabiState) -> bool:
    """4: battle ryabi of both players are removed from the game; the dummy goes back."""
    for s in (0, 1):
        cards = st.sets[s]
        if cards:
            for k in cards:
                st.removed_ryabi[k] += 1
    st.sets = [None, None]
    st.battling = [False, False]
    st.revealed = False
    st.colour = [-1, -1]
    st.winner = -1
    st.pending = 0
    st.eye_seen = [None, None]
    return True


def apply(st: LyabiState, s: int, action: LyabiAction) -> bool:
    """Carry out a decision of the battle phase; True when the battle phase is over."""
    phase = st.phase
    if phase == P_SET:
        set_face_down(st, s, action)
        return next_set(st)
    used = action[0] == USE_K
    if used:
        use_item(st, s)
    if phase == P_EYE:
        if used:
            items.eye(st, s)
        return next_eye_window(st)
    if phase == P_BRUSH:
        if used:
            items.brush(st, s, action[2])
        return next_brush_window(st)
    if phase == P_MIRROR:
        if not used:
            return deal(st)
        return False if items.mirror(st) else cleanup(st)
    assert phase == P_SWORD
    if used and items.sword(st, s):
        return False
    return cleanup(st)
