"""The battle phase (reveal, effects in order, levels compared) and the reward phase (リワードフェイズ).

Effect order: highest level first over both fields (a grant by its grant level); equal levels, the first
player's first; equal level and owner, the owner chooses (an ``order`` decision). A choice effect (選択)
asks its owner ``use`` or ``skip``; a forced one (強制) fires when its condition holds; a permanent grant
(永続) fires every battle and stays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..constants import (
    A_FIRST,
    CHOICE,
    CHOICE_EFFECT,
    CIRCLE,
    MAIN,
    ORDER,
    OVER,
    PENALTY,
    REVIVE,
    STARS_TO_WIN,
    STEP_ADVANCE,
    STOCK,
    Entry,
    Kind,
)
from .deck import defer
from .effects import effect_of, fire, holds
from .levels import unit_level
from .log import event
from .turns import draw_phase, not_now

if TYPE_CHECKING:
    from ..actions import DiceBattleAction
    from ..state import DiceBattleState

ADVANCE = (STEP_ADVANCE,)


def begin(st: DiceBattleState) -> None:
    """両プレイヤーがセットを終了後: turn every set card face up and queue their effects."""
    t = st.game.tables
    first = st.first
    queue: list[Entry] = []
    for seat in (first, 1 - first):
        side = st.sides[seat]
        event(st, "reveal", seat, tuple(side.main), tuple(side.circle), side.grant, side.token)
        if side.grant >= 0:
            side.stock.append(side.grant)
            revealed = [*side.main, *side.circle, side.grant]
            side.grant = -1
        else:
            revealed = [*side.main, *side.circle]
        known = side.known
        for c in revealed:
            if c in known:
                known.remove(c)
        effect = t.effect
        level = t.level
        for c in side.main:
            if effect[c] is not None:
                queue.append((level[c], seat, c, MAIN))
        for c in side.circle:
            if effect[c] is not None:
                queue.append((level[c], seat, c, CIRCLE))
        grant_level = t.grant_level
        for c in side.stock:
            queue.append((grant_level[c], seat, c, STOCK))
    # Stable sort: level down, then the first player's before the second's.
    queue.sort(key=lambda e: (-e[0], e[1] != first))
    st.queue = queue
    advance(st)


def order_group(st: DiceBattleState) -> set[int]:
    """The distinct cards tied at the head of the queue (same level, same owner)."""
    q = st.queue
    level, owner = q[0][0], q[0][1]
    group = set()
    for e in q:
        if e[0] != level or e[1] != owner:
            break
        group.add(e[2])
    return group


def advance(st: DiceBattleState) -> None:
    """Resolve effects until one needs a decision, then stop; at the end of the queue, end the battle."""
    q = st.queue
    sides = st.sides
    while q:
        head = q[0]
        if sides[head[1]].cancelled:
            q.pop(0)
            event(st, "cancelled", head[1], head[2], head[3])
            continue
        if len(q) > 1 and q[1][0] == head[0] and q[1][1] == head[1] and len(order_group(st)) > 1:
            st.phase = ORDER
            st.actor = head[1]
            return
        q.pop(0)
        if start(st, head):
            _then_advance(st)
            return
    end(st)


def _then_advance(st: DiceBattleState) -> None:
    """An effect stopped on a decision: after a penalty decision the battle goes on with the queue."""
    if st.phase == PENALTY:
        defer(st, ADVANCE)


def start(st: DiceBattleState, entry: Entry) -> bool:
    """Begin one entry's effect; True if it now waits on a decision (its owner's choice, a penalty draw)."""
    eff = effect_of(st, entry)
    owner = entry[1]
    if not holds(st, owner, eff.when, eff.when_n):
        event(st, "unmet", owner, entry[2], entry[3])
        return False
    if eff.type == CHOICE_EFFECT:
        st.current = entry
        st.phase = CHOICE
        st.actor = owner
        return True
    fire(st, entry, eff)
    return st.phase == PENALTY


# -- the order of tied effects
def order_actions(st: DiceBattleState) -> list[DiceBattleAction]:
    first = st.game.card_actions.first
    return [first[c] for c in sorted(order_group(st))]


def why_not_first(st: DiceBattleState, card: int) -> str | None:
    if st.phase != ORDER:
        return not_now(st, A_FIRST)
    if card not in order_group(st):
        return f"{st.game.tables.name(card)} is not among the tied effects to order"
    return None


def choose_first(st: DiceBattleState, card: int) -> None:
    """The owner of tied effects picks which resolves next."""
    q = st.queue
    for k, e in enumerate(q):
        if e[2] == card:
            del q[k]
            if start(st, e):
                _then_advance(st)
            else:
                advance(st)
            return
    raise AssertionError("chosen card is not in the tied group")  # legality was checked by apply


# -- a choice effect: use it or not
def choice_actions(st: DiceBattleState) -> list[DiceBattleAction]:
    assert st.current is not None
    c = st.current[2]
    acts = st.game.card_actions
    return [acts.use[c], acts.skip[c]]


def why_not_choice(st: DiceBattleState, kind: Kind, card: int) -> str | None:
    if st.phase != CHOICE:
        return not_now(st, kind)
    assert st.current is not None
    if card != st.current[2]:
        return f"the choice effect waiting is {st.game.tables.name(st.current[2])}'s"
    return None


def choose_effect(st: DiceBattleState, use: bool) -> None:
    entry = st.current
    assert entry is not None
    st.current = None
    if use:
        fire(st, entry, effect_of(st, entry))
        if st.phase == PENALTY:
            _then_advance(st)
            return
    else:
        event(st, "skip", entry[1], entry[2])
    advance(st)


# -- the end of the battle and the reward phase
def end(st: DiceBattleState) -> None:
    """メインユニットのレベルが高いプレイヤーが勝利; then used cards to the graveyard and the reward phase."""
    levels = (unit_level(st, 0), unit_level(st, 1))
    s0, s1 = st.sides
    if levels[0] != levels[1]:
        winner = 0 if levels[0] > levels[1] else 1
    elif s0.tie_win != s1.tie_win:
        winner = 0 if s0.tie_win else 1
    else:
        winner = -1
    st.battle_winner = winner
    event(st, "battle", levels[0], levels[1], winner)
    for seat, side in enumerate(st.sides):
        cards = [*side.main, *side.circle, *side.fired]
        for c in side.keep:
            if c in cards:
                cards.remove(c)
                side.hand.append(c)
                side.known.append(c)
                event(st, "keep", seat, c)
        side.grave.extend(cards)
        side.used = cards
        side.main = []
        side.circle = []
        side.fired = []
        side.keep = []
        side.token = False
        side.mod = 0
        side.cancelled = False
        side.tie_win = False
    # リワードフェイズ
    if winner >= 0:
        st.sides[winner].stars += 1
        event(st, "stars", winner, st.sides[winner].stars)
    three = [s.stars >= STARS_TO_WIN for s in st.sides]
    if three[0] and three[1]:
        s0.stars = s1.stars = STARS_TO_WIN - 1
        event(st, "both_three")
        draw_phase(st)
        return
    if three[0] or three[1]:
        st.winner = 0 if three[0] else 1
        st.phase = OVER
        event(st, "win", st.winner)
        return
    if winner >= 0:
        loser = 1 - winner
        side = st.sides[loser]
        if side.revival and side.used:
            st.phase = REVIVE
            st.actor = loser
            return
    draw_phase(st)
