"""The turn: the legal actions of each phase, carrying out an action, summons and flares, the end of a turn.

Seats and colours: pieces belong to a colour. Outside team games a seat's colour is its own number; in team games
(4 seats) seats 0 and 2 share colour 0 and seats 1 and 3 colour 1. ``player`` is the seat to decide now,
``active`` the seat whose turn it is (they differ once the turn was handed over to the teammate), ``side`` the
colour of the turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....engine import Action
from ..board import DUEL_SETUP, ONBOARD
from ..cards.data import LEGENDARY, Card, Step
from ..constants import (
    BOTTOM,
    CLAIM,
    CLAIM_K,
    DISCARD_K,
    EFFECT,
    END_K,
    FLARE_K,
    HANDOVER_K,
    MAIN,
    MELEE_SETUP,
    OVER,
    PICK,
    PICK_END,
    PICK_LEGEND,
    PLACE_K,
    RECALL_K,
    RECALL_PLACE,
    RESIGN_K,
    SETUP,
    SKIP_K,
    SUMMON_K,
    SUMMON_RECALL,
)
from . import effects, modes, summoning
from .decks import put_under, refill
from .flares import flare_actions, flare_halves
from .pieces import has_supply, put, remove

if TYPE_CHECKING:
    from ..state import TashKalarState


def run_effect(st: TashKalarState, steps: tuple[Step, ...]) -> None:
    """Start resolving ``steps``: automatic steps run at once; with no choice left the effect is over."""
    effects.start(st, steps)
    if not st.frames:
        finish_effect(st)


def apply(st: TashKalarState, action: Action) -> None:
    kind = action[0]
    ph = st.phase
    if kind == RESIGN_K:
        resign(st)
        return
    if kind == HANDOVER_K:
        hand_over(st)
        return
    if ph == EFFECT:
        effects.apply_choice(st, action)
        if not st.frames:
            finish_effect(st)
        return
    if ph == SETUP:
        own = action[1]
        other = DUEL_SETUP[1] if own == DUEL_SETUP[0] else DUEL_SETUP[0]
        put(st, own, st.side, 1)
        put(st, other, 1 - st.side, 1)
        start_turn(st, 0)
        return
    if ph == MELEE_SETUP:
        modes.apply_melee_setup(st, action)
        if st.msetup & 0xFF == len(modes.MELEE_SETUP_PAIRS):
            start_turn(st, 0)
        return
    if ph == PICK:
        st.mscore[st.active][action[1]] += 1
        st.pick_mask = 0
        if st.pick_then == PICK_LEGEND:
            st.phase = EFFECT
            run_effect(st, st.game.cards.cards[st.resolving].steps)
        else:
            end_turn_claim(st)
        return
    if ph == CLAIM:
        if kind == CLAIM_K:
            modes.claim(st, st.game.tasks.by_id[action[1]].index)  # type: ignore[union-attr]
        end_turn_finish(st)
        return
    if ph == BOTTOM:
        if kind == SKIP_K:
            back_to_main(st)
            return
        put_under(st, st.game.cards.by_id[action[1]])
        p = st.player
        if not (st.hand_b[p] or st.hand_l[p] or st.hand_f[p]):
            back_to_main(st)
        return
    if ph == RECALL_PLACE:
        put(st, action[1], st.side, 1)
        back_to_main(st)
        return
    if ph == SUMMON_RECALL:
        assert st.pending_summon is not None
        remove(st, action[1], destroyed=False)
        c, sq, oi = st.pending_summon
        st.pending_summon = None
        st.recall_mask = 0
        summon_place(st, c, sq, oi)
        return
    apply_main(st, action)


def resign(st: TashKalarState) -> None:
    """投了: the resigning seat (in team games its team) loses at once, whatever the points."""
    p = st.player
    st.resigned = p
    col = st.game.colour_of
    losers = [s for s in range(st.game.seats) if col[s] == col[p]]
    st.trigger = f"seat {p} resigned" + (f": seats {losers[0]} and {losers[1]} lose" if len(losers) > 1 else "")
    st.phase = OVER


def hand_over(st: TashKalarState) -> None:
    """チーム戦: the teammate takes the turn on with the hand's legends (手札の伝説級カードをチームメイトに渡す)."""
    mate = st.game.mate(st.active)
    st.hand_l[mate].extend(st.hand_l[st.active])
    st.hand_l[st.active] = []
    st.handed = True
    st.player = mate


def apply_main(st: TashKalarState, action: Action) -> None:
    """An action of the main phase: one of the two actions, a flare, or the end of the turn."""
    kind = action[0]
    p = st.player
    if kind == PLACE_K:
        st.actions -= 1
        put(st, action[1], st.side, 1)
        after_action(st)
    elif kind == RECALL_K:
        st.actions -= 1
        remove(st, action[1], destroyed=False)
        st.phase = RECALL_PLACE
    elif kind == SUMMON_K:
        summon(st, action)
    elif kind == DISCARD_K:
        st.actions -= 1
        st.discarded = True
        c = st.game.cards.by_id[action[1]].index
        st.hand_b[p].remove(c)
        st.disc_s[p].append(c)
        st.phase = BOTTOM
        if not (st.hand_b[p] or st.hand_l[p] or st.hand_f[p]):
            back_to_main(st)
    elif kind == FLARE_K:
        invoke_flare(st, st.game.cards.by_id[action[1]], action[2] if len(action) == 3 else -1)
    elif kind == END_K:
        end_turn(st)
    else:  # pragma: no cover - legal_actions never lists anything else
        raise AssertionError(f"unexpected action {action!r}")


def summon(st: TashKalarState, action: Action) -> None:
    card = st.game.cards.by_id[action[1]]
    sq = action[2]
    oi = next(i for i, o in enumerate(card.orients) if o.name == action[3])
    p = st.player
    st.actions -= 1
    if len(action) == 5:
        # 即興召喚: this enemy colour cannot be used again for an improvised summon
        st.improv[p] |= 1 << (st.board[action[4]] >> 2)
    (st.hand_l if card.kind == "legend" else st.hand_b)[p].remove(card.index)
    st.resolving = card.index
    if st.board[sq]:
        remove(st, sq, destroyed=True)
    if not has_supply(st, st.side, card.rank):
        mask = summoning.recall_mask(st, card, card.orients[oi], sq)
        st.pending_summon = (card.index, sq, oi)
        st.recall_mask = mask
        st.phase = SUMMON_RECALL
        return
    summon_place(st, card.index, sq, oi)


def summon_place(st: TashKalarState, c: int, sq: int, oi: int) -> None:
    card = st.game.cards.cards[c]
    put(st, sq, st.side, card.rank)
    st.summoned.append(sq << 2 | card.rank)
    legend_point = card.rank == LEGENDARY and st.game.mode != "highform"
    if legend_point and st.game.mode == "deathmatch":
        st.score[st.side] += 1
    o = card.orients[oi]
    marked = 0
    for shift in o.marked:
        t = sq + shift
        if t >= 0:
            marked |= 1 << t
    st.ctx_marked = marked & ONBOARD
    st.ctx_self = sq
    st.ctx_last = sq
    st.ctx_summon = sq
    if legend_point and st.game.mode == "melee":
        # 乱戦: a legend summon scores 1 in a colour of the player's choice
        st.phase = PICK
        st.pick_then = PICK_LEGEND
        st.pick_mask = modes.enemy_mask(st)
        return
    st.phase = EFFECT
    run_effect(st, card.steps)


def invoke_flare(st: TashKalarState, card: Card, against: int = -1) -> None:
    p = st.player
    up, low = flare_halves(st, p, card, against)
    st.hand_f[p].remove(card.index)
    mode = st.game.mode
    if mode == "melee":
        st.mscore[against][p] += 1  # the chosen opponent scores 1 in the invoker's colour
    elif mode == "deathmatch":
        for o in range(st.game.n_col):
            if o != st.side:
                st.score[o] += 1
    st.resolving = card.index
    st.flare_parts = (up, low)
    st.ctx_self = -1
    st.ctx_last = -1
    st.ctx_summon = -1
    st.ctx_marked = 0
    st.phase = EFFECT
    steps = (card.upper_steps if up else ()) + (card.lower_steps if low else ())
    run_effect(st, steps)


def finish_effect(st: TashKalarState) -> None:
    """The effect is over: the card goes to its discard pile and the turn goes on."""
    card = st.game.cards.cards[st.resolving]
    if card.kind == "being":
        st.disc_s[st.active].append(card.index)
    elif card.kind == "legend":
        st.disc_l.append(card.index)
    else:
        st.disc_f.append(card.index)
    st.resolving = -1
    st.flare_parts = (False, False)
    st.ctx_self = st.ctx_last = st.ctx_summon = -1
    st.ctx_marked = 0
    back_to_main(st)


def back_to_main(st: TashKalarState) -> None:
    st.phase = MAIN
    after_action(st)


def after_action(st: TashKalarState) -> None:
    """With no action left and no flare to invoke, the turn ends by itself (at once after a handover)."""
    if st.actions > 0:
        return
    if not st.handed and flare_actions(st):
        return
    end_turn(st)


def start_turn(st: TashKalarState, p: int) -> None:
    st.player = p
    st.active = p
    st.side = st.game.colour_of[p]
    st.handed = False
    st.phase = MAIN
    st.actions = 1 if st.turn_no == 1 else 2
    st.discarded = False
    st.destroyed = [0, 0, 0]
    st.dest = [0] * len(st.dest)
    st.summoned = []
    st.extra = [0, 0, 0]


def end_turn(st: TashKalarState) -> None:
    """End of turn: score destroyed pieces, return them; then (melee) pick, (High Form) claim, and draw."""
    st.player = st.active
    mode = st.game.mode
    if mode == "deathmatch":
        dc, dh, dl = st.destroyed
        st.score[st.side] += 2 * dl + dh + dc // 2
    elif mode == "melee":
        st.pick_mask = modes.score_melee_turn(st)
    if mode != "highform":
        dest = st.dest
        for o in range(st.game.n_col):
            st.supply_two[o] += dest[3 * o] + dest[3 * o + 1]
            st.supply_leg[o] += dest[3 * o + 2]
        st.dest = [0] * len(dest)
    if st.pick_mask:
        # 2 or 3 odd commons of different colours: one point in one of those colours
        st.phase = PICK
        st.pick_then = PICK_END
        return
    end_turn_claim(st)


def end_turn_claim(st: TashKalarState) -> None:
    if st.game.mode == "highform" and modes.claim_actions(st):
        st.phase = CLAIM  # ターン終了時、条件が適合するタスクカードを1枚だけ獲得できる
        return
    end_turn_finish(st)


def end_turn_finish(st: TashKalarState) -> None:
    p = st.active
    g = st.game
    if g.teams:
        mate = g.mate(p)
        st.hand_l[mate].extend(st.hand_l[p])
        st.hand_l[p] = []
        refill(st, p, decks=(0, 2))
        refill(st, mate, decks=(1,))  # the teammate draws legends up to 2 (and any extra legend)
    else:
        refill(st, p)
    n = g.seats
    if st.final_left < 0:
        reasons = modes.end_reasons(st)
        if st.deck_out[p]:
            reasons.append(f"seat {p} drew the last {'upright ' if g.teams else ''}card of their school deck")
        if reasons:
            st.trigger = f"end triggered on turn {st.turn_no} by seat {p}: " + " and ".join(reasons)
            st.final_left = n
    elif not st.in_extra:
        # an extra turn is not one of the final round's turns
        st.final_left -= 1
        if st.final_left == 0:
            st.phase = OVER
            return
    if st.turn_no >= st.game.options["max_turns"]:
        st.capped = True
        st.trigger = f"the safety cap of {st.turn_no} turns was reached (a draw)"
        st.phase = OVER
        return
    st.turn_no += 1
    extra = st.extra_turns > 0
    st.extra_turns -= extra
    start_turn(st, p if extra else (p + 1) % n)
    st.in_extra = extra
