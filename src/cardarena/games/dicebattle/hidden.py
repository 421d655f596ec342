"""Resampling: a full state that one seat cannot tell from the true one.

Hidden from a seat: the order of both decks, the opponent's hand, and the opponent's face-down set cards
(until the battle phase reveals them). Known to it: cards publicly returned to the opponent's hand (revived,
salvaged, kept), which stay in that hand (or among its face-down set cards) in every resample.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardarena.engine import Rng

from .constants import DICE
from .tables import KIND_HUMAN, KIND_MAGIC, KIND_MONSTER, Tables

if TYPE_CHECKING:
    from .state import DiceBattleState, Side

ATTEMPTS = 64


def set_is_valid(t: Tables, main: list[int], circle: list[int], grant: int, roll: int) -> bool:
    """Whether face-down cards could have been set together on a die of ``roll`` (the dice-phase rules)."""
    if not main:
        return not circle and grant < 0
    kind = t.kind
    cost = t.cost[roll]
    first = kind[main[0]]
    if first == KIND_MAGIC:
        return False
    if first == KIND_HUMAN:
        if len(main) > 1:
            return False
        if any(kind[c] != KIND_MAGIC for c in circle):
            return False
    else:
        if any(kind[c] != KIND_MONSTER for c in main):
            return False
        if any(not t.with_monster[c] for c in circle):
            return False
    if grant >= 0 and t.grant_level[grant] == 0:
        return False
    total = sum(cost[c] for c in main) + sum(t.level[c] for c in circle)
    if grant >= 0:
        total += t.grant_level[grant]
    return total <= roll


def resample(st: DiceBattleState, seat: int, rng: Rng) -> DiceBattleState:
    c = st.clone()
    c.rng = rng.fork()
    mine = c.sides[seat]
    rng.shuffle(mine.deck)
    other = 1 - seat
    opp = c.sides[other]
    setting = st.phase == DICE and (st.actor == other or (other == st.first and st.actor != st.first))
    _redeal(c.t, opp, rng, hidden_set=setting and bool(opp.main))
    return c


def _redeal(t: Tables, side: Side, rng: Rng, *, hidden_set: bool) -> None:
    """Redraw the hand (and the face-down set cards) of ``side`` from everything the observer cannot see."""
    hand_n = len(side.hand)
    pool = [*side.hand, *side.deck]
    if hidden_set:
        pool += [*side.main, *side.circle]
        if side.grant >= 0:
            pool.append(side.grant)
    known = side.known
    for k in known:
        pool.remove(k)
    if hidden_set:
        main_n, circle_n, has_grant = len(side.main), len(side.circle), side.grant >= 0
        for _ in range(ATTEMPTS):
            rng.shuffle(pool)
            candidates = [*known, *pool]
            # Known cards may be among the set cards: draw the set from known + unknown alike.
            rng.shuffle(candidates)
            take = main_n + circle_n + (1 if has_grant else 0)
            chosen = candidates[:take]
            main = chosen[:main_n]
            circle = chosen[main_n : main_n + circle_n]
            grant = chosen[-1] if has_grant else -1
            known_left = list(known)
            for x in chosen:
                if x in known_left:
                    known_left.remove(x)
            if len(known_left) > hand_n or not set_is_valid(t, main, circle, grant, side.roll):
                continue
            rest = candidates[take:]
            for x in known_left:
                rest.remove(x)
            rng.shuffle(rest)
            fill = hand_n - len(known_left)
            side.main, side.circle, side.grant = main, circle, grant
            side.hand = [*known_left, *rest[:fill]]
            side.deck = rest[fill:]
            return
        # No consistent redraw found: keep the true set cards and redraw only hand and deck.
        known = list(known)
        for x in [*side.main, *side.circle, *([side.grant] if has_grant else [])]:
            if x in pool:
                pool.remove(x)
            else:
                known.remove(x)  # a known card that was set: it no longer has to be in the hand
    rng.shuffle(pool)
    fill = hand_n - len(known)
    side.hand = [*known, *pool[:fill]]
    side.deck = pool[fill:]
