"""The battle phase (reveal, effects in order, levels compared), the reward, Revival and draw phases.

Effect order: highest level first over both fields (a grant by its grant level); equal levels, the first
player's first; equal level and owner, the owner chooses (an ``order`` decision). A choice effect (選択)
asks its owner ``use`` or ``skip``; a forced one (強制) fires when its condition holds; a permanent grant
(永続) fires every battle and stays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import KIND_HUMAN, KIND_MONSTER
from ..constants import (
    CHOICE as CHOICE_PHASE,
)
from ..constants import (
    CIRCLE,
    DRAWS_LOSER,
    DRAWS_TIE,
    DRAWS_WINNER,
    MAIN,
    ORDER,
    OVER,
    PENALTY,
    REVIVE,
    STARS_TO_WIN,
    STOCK,
    Entry,
)
from ..effects import CHOICE, PERMANENT, Effect

if TYPE_CHECKING:
    from ..state import DiceBattleState


def begin(st: DiceBattleState) -> None:
    """両プレイヤーがセットを終了後: turn every set card face up and queue their effects."""
    t = st.t
    first = st.first
    queue: list[Entry] = []
    for seat in (first, 1 - first):
        side = st.sides[seat]
        st.event("reveal", seat, tuple(side.main), tuple(side.circle), side.grant, side.token)
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
        st.defer(ADVANCE)


ADVANCE = ("advance",)


def _effect_of(st: DiceBattleState, entry: Entry) -> Effect:
    eff = st.t.grant[entry[2]] if entry[3] == STOCK else st.t.effect[entry[2]]
    assert eff is not None
    return eff


def start(st: DiceBattleState, entry: Entry) -> bool:
    """Begin one entry's effect; True if it now waits on a decision (its owner's choice, a penalty draw)."""
    eff = _effect_of(st, entry)
    owner = entry[1]
    if not holds(st, owner, eff.when, eff.when_n):
        return False
    if eff.type == CHOICE:
        st.current = entry
        st.phase = CHOICE_PHASE
        st.actor = owner
        return True
    fire(st, entry, eff)
    return st.phase == PENALTY


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


def choose_effect(st: DiceBattleState, use: bool) -> None:
    entry = st.current
    assert entry is not None
    st.current = None
    if use:
        fire(st, entry, _effect_of(st, entry))
        if st.phase == PENALTY:
            _then_advance(st)
            return
    else:
        st.event("skip", entry[1], entry[2])
    advance(st)


def holds(st: DiceBattleState, seat: int, when: str, n: int) -> bool:
    """Whether a condition of the effect language holds for ``seat`` now."""
    if when == "always":
        return True
    me = st.sides[seat]
    opp = st.sides[1 - seat]
    if when == "opp_human":
        return st.main_kind(1 - seat) == KIND_HUMAN
    if when == "opp_monster":
        return st.main_kind(1 - seat) == KIND_MONSTER
    if when == "opp_token":
        return opp.token
    if when == "opp_magic":
        return bool(opp.circle)
    if when == "my_human":
        return st.main_kind(seat) == KIND_HUMAN
    if when == "my_monster":
        return st.main_kind(seat) == KIND_MONSTER
    if when == "behind":
        return me.stars < opp.stars
    if when == "ahead":
        return me.stars > opp.stars
    if when == "losing":
        return st.unit_level(seat) < st.unit_level(1 - seat)
    if when == "first":
        return st.first == seat
    if when == "second":
        return st.first != seat
    if when == "roll_le":
        return me.roll <= n
    if when == "roll_ge":
        return me.roll >= n
    if when == "monsters_ge":
        kind = st.t.kind
        return sum(1 for c in me.main if kind[c] == KIND_MONSTER) >= n
    if when == "hand_le":
        return len(me.hand) <= n
    raise AssertionError(f"unknown condition {when!r}")  # the card loader accepts only known words


def fire(st: DiceBattleState, entry: Entry, eff: Effect) -> None:
    """Carry out an effect's operations; a fired choice/forced grant leaves the stock zone."""
    _, seat, card, zone = entry
    st.event("effect", seat, card, zone)
    if zone == STOCK and eff.type != PERMANENT:
        side = st.sides[seat]
        side.stock.remove(card)
        side.fired.append(card)
    run_ops(st, entry, 0)


def run_ops(st: DiceBattleState, entry: Entry, start: int) -> None:
    """Carry out an effect's operations from the ``start``-th on; a penalty decision interrupts (the rest waits)."""
    _, seat, card, _ = entry
    ops = _effect_of(st, entry).ops
    for k in range(start, len(ops)):
        op, n = ops[k]
        operate(st, seat, card, op, n)
        if st.phase == PENALTY:
            if k + 1 < len(ops):
                st.defer(("ops", entry, k + 1))
            return


def operate(st: DiceBattleState, seat: int, card: int, op: str, n: int) -> None:
    me = st.sides[seat]
    opp_seat = 1 - seat
    opp = st.sides[opp_seat]
    if op == "power":
        st.shift_level(seat, n)
    elif op == "weaken":
        st.shift_level(opp_seat, -n)
    elif op == "halve":
        level = st.unit_level(opp_seat)
        opp.mod -= level - level // 2
    elif op == "swap":
        mine, theirs = st.unit_level(seat), st.unit_level(opp_seat)
        me.mod = theirs - st.base_level(seat)
        opp.mod = mine - st.base_level(opp_seat)
    elif op == "draw":
        st.draw(seat, n)
    elif op == "opp_draw":
        st.draw(opp_seat, n)
    elif op == "discard":
        for _ in range(n):
            if not opp.hand:
                break
            c = opp.hand.pop(st.rng.randbelow(len(opp.hand)))
            opp.grave.append(c)
            if opp.stuck and not st.t.fits(c, opp.stuck_roll):
                opp.stuck -= 1  # it may have been one of the cards that could not be set
            if c in opp.known:
                opp.known.remove(c)
            st.event("discard", opp_seat, c)
    elif op == "mill":
        st.take_top("mill", opp_seat, n)
    elif op == "salvage":
        levels = st.t.level
        for _ in range(n):
            if not me.grave:
                break
            best = max(me.grave, key=lambda c: (levels[c], -c))
            me.grave.remove(best)
            me.hand.append(best)
            me.known.append(best)
            st.event("salvage", seat, best)
    elif op == "star":
        me.stars += n
        st.event("stars", seat, me.stars)
    elif op == "steal":
        opp.stars = max(0, opp.stars - n)
        st.event("stars", opp_seat, opp.stars)
    elif op == "cancel":
        opp.cancelled = True
    elif op == "tie_win":
        me.tie_win = True
    elif op == "keep":
        me.keep.append(card)
    else:  # pragma: no cover - the loader accepts only known words
        raise AssertionError(f"unknown operation {op!r}")


def end(st: DiceBattleState) -> None:
    """メインユニットのレベルが高いプレイヤーが勝利; then used cards to the graveyard and the reward phase."""
    levels = (st.unit_level(0), st.unit_level(1))
    s0, s1 = st.sides
    if levels[0] != levels[1]:
        winner = 0 if levels[0] > levels[1] else 1
    elif s0.tie_win != s1.tie_win:
        winner = 0 if s0.tie_win else 1
    else:
        winner = -1
    st.battle_winner = winner
    st.event("battle", levels[0], levels[1], winner)
    for side in st.sides:
        cards = [*side.main, *side.circle, *side.fired]
        for c in side.keep:
            if c in cards:
                cards.remove(c)
                side.hand.append(c)
                side.known.append(c)
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
        st.event("stars", winner, st.sides[winner].stars)
    three = [s.stars >= STARS_TO_WIN for s in st.sides]
    if three[0] and three[1]:
        s0.stars = s1.stars = STARS_TO_WIN - 1
        st.event("both_three")
        draw_phase(st)
        return
    if three[0] or three[1]:
        st.winner = 0 if three[0] else 1
        st.phase = OVER
        st.event("win", st.winner)
        return
    if winner >= 0:
        loser = 1 - winner
        side = st.sides[loser]
        if side.revival and side.used:
            st.phase = REVIVE
            st.actor = loser
            return
    draw_phase(st)


def revive(st: DiceBattleState, card: int) -> None:
    """リボーンフェイズ: the loser may turn Revival face down to take one card used in the battle back."""
    seat = st.actor
    side = st.sides[seat]
    if card >= 0:
        side.revival = False
        side.grave.remove(card)
        side.hand.append(card)
        side.known.append(card)
        st.event("revive", seat, card)
    draw_phase(st)


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
        st.draw(seat, n)
        st.sides[seat].used = []
        if st.phase == PENALTY:
            st.defer(("draw_phase", k + 1))
            return
    if st.round >= st.game.options["max_turns"]:
        st.phase = OVER
        st.winner = None
        st.event("cap", st.round)
        return
    st.round += 1
    st.first = 1 - st.first
    st.start_round()
