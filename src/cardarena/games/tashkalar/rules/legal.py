"""What the seat to act may do now, and why an action is not allowed: one source for both.

Each condition on a group of actions is written once, as a ``verify_*`` check that returns ``None`` (allowed) or
the reason in plain words. ``legal_actions`` lists the candidates of every group whose check passes; ``why_not``
reports the first failing check, and for a candidate the list does not hold (an occupied square, a card not in
hand, a pattern that does not match) says which fact about the position rules it out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....engine import Action
from ..actions import (
    CHOOSE,
    END,
    HANDOVER,
    PLACE,
    RECALL,
    RESIGN,
    SCORE,
    SKIP,
    card_action,
    improv_action,
    summon_action,
)
from ..board import DUEL_SETUP, NAME_SQ, SQ_NAME, bits
from ..cards.data import RANK_NAMES, Card
from ..constants import (
    BOTTOM,
    BOTTOM_K,
    CHOOSE_K,
    CLAIM,
    CLAIM_K,
    DISCARD_K,
    EFFECT,
    FLARE_K,
    HANDOVER_K,
    MAIN,
    MELEE_SETUP,
    MOVE_K,
    OPTION_K,
    OVER,
    PICK,
    PLACE_K,
    RECALL_K,
    RECALL_PLACE,
    RESIGN_K,
    SCORE_K,
    SETUP,
    SETUP_K,
    SKIP_K,
    SUMMON_K,
    SUMMON_RECALL,
    TAKE_K,
)
from . import effects, modes, summoning
from .flares import flare_actions
from .pieces import empty_mask

if TYPE_CHECKING:
    from ..state import TashKalarState

NO_ACTION_LEFT = "no action is left this turn"
AFTER_HANDOVER = "after a handover the teammate may only place commons with the remaining actions (or end)"
#: the kinds of action that answer a pending choice (an effect, the cards put under the decks)
CHOICE_KINDS = frozenset((CHOOSE_K, MOVE_K, OPTION_K, SKIP_K, BOTTOM_K, TAKE_K))
#: what each phase other than the main phase asks for, as the reason given for any other action
PHASE_ASKS: dict[int, str] = {
    PICK: "choose the colour to score 1 point in ('score <seat>')",
    CLAIM: "claim one task whose condition holds ('claim <task>') or 'skip'",
    MELEE_SETUP: "put the setup commons: 'setup <square> <seat>' on a square of the next setup pair",
    SETUP: "the second player first chooses the setup square of their own common: choose c5 or choose g5",
    BOTTOM: (
        "after the discard action, put any of your remaining cards under their decks ('bottom <card>': beings"
        " under your school deck, legends and flares under theirs) or 'skip'"
    ),
    RECALL_PLACE: "place the piece you took back on an empty square ('place <square>')",
    SUMMON_RECALL: "choose which of your pieces outside the pattern to take back for this summon ('recall <square>')",
}


# -- the checks --------------------------------------------------------------------------------------------------


def verify_resign(st: TashKalarState) -> str | None:
    if st.game.resign:
        return None
    if st.game.mode == "melee":
        return "resignation is not allowed in melee (free-for-all)"
    return "resignation is off in this game (option resign=false)"


def verify_handover(st: TashKalarState) -> str | None:
    """チーム戦: the turn may be handed over to the teammate once, before an action or during an effect."""
    if not st.game.teams:
        return "handing the turn over is for team games (teams=true)"
    if st.handed:
        return "the turn was already handed over"
    if st.phase == EFFECT or (st.phase == MAIN and st.actions > 0):
        return None
    return "the turn may be handed over only before an action or during an effect, with an action left"


def verify_place(st: TashKalarState) -> str | None:
    """The place action: an action left and a two-sided piece in the supply."""
    if st.actions <= 0:
        return NO_ACTION_LEFT
    if st.supply_two[st.side] == 0:
        return "you are out of units: first take back one of your commons or heroics ('recall <square>')"
    return None


def verify_recall(st: TashKalarState) -> str | None:
    """Out of units: an action left and no two-sided piece in the supply."""
    if st.actions <= 0:
        return NO_ACTION_LEFT
    if st.supply_two[st.side] > 0:
        return "you still have pieces to place: recall is only for when you are out of units"
    return None


def verify_summon(st: TashKalarState) -> str | None:
    if st.handed:
        return AFTER_HANDOVER
    if st.actions <= 0:
        return NO_ACTION_LEFT
    return None


def verify_discard(st: TashKalarState) -> str | None:
    reason = verify_summon(st)
    if reason is None and st.discarded:
        return "the discard action is allowed once per turn"
    return reason


def verify_flare(st: TashKalarState) -> str | None:
    """Flares are not actions: any number, at any moment of the main phase, but not by the teammate."""
    return AFTER_HANDOVER if st.handed else None


MAIN_CHECKS = {
    PLACE_K: verify_place,
    RECALL_K: verify_recall,
    SUMMON_K: verify_summon,
    DISCARD_K: verify_discard,
    FLARE_K: verify_flare,
}


# -- the legal actions ---------------------------------------------------------------------------------------------


def legal_actions(st: TashKalarState) -> list[Action]:
    acts = decisions(st)
    if st.phase == EFFECT and verify_handover(st) is None:
        acts.append(HANDOVER)  # チーム戦: the turn may be handed over during an effect
    if verify_resign(st) is None:
        acts.append(RESIGN)  # 2人ゲーム…プレイヤーはいつでも投了することができる (last: see playout_actions)
    return acts


def decisions(st: TashKalarState) -> list[Action]:
    ph = st.phase
    if ph == MAIN:
        return main_actions(st)
    if ph == EFFECT:
        return effects.choices(st)
    if ph == SETUP:
        return [CHOOSE[DUEL_SETUP[0]], CHOOSE[DUEL_SETUP[1]]]
    if ph == BOTTOM:
        # 残りのそのほかのカードを望む枚数だけ山札の底に戻す: any remaining card, each under its own deck
        cs = st.game.cards.cards
        p = st.player
        return [
            *(card_action("bottom", cs[c].id) for hand in (st.hand_b, st.hand_l, st.hand_f) for c in hand[p]),
            SKIP,
        ]
    if ph == RECALL_PLACE:
        return [PLACE[sq] for sq in bits(empty_mask(st))]
    if ph == SUMMON_RECALL:
        return [RECALL[sq] for sq in bits(st.recall_mask)]
    if ph == PICK:
        return [SCORE[c] for c in bits(st.pick_mask)]
    if ph == CLAIM:
        return [*modes.claim_actions(st), SKIP]
    if ph == MELEE_SETUP:
        return modes.melee_setup_actions(st)
    return []


def main_actions(st: TashKalarState) -> list[Action]:
    p = st.player
    side = st.side
    out: list[Action] = []
    cs = st.game.cards.cards
    if verify_place(st) is None:
        out.extend([PLACE[sq] for sq in bits(empty_mask(st))])
    elif verify_recall(st) is None:
        base = side << 2
        out.extend([RECALL[sq] for sq in bits(st.bb[base | 1] | st.bb[base | 2])])
    if verify_summon(st) is None:
        for c, sq, o in summoning.legal_summons(st):
            out.append(summon_action(cs[c].id, sq, cs[c].orients[o].name))
        if st.game.mode == "melee":
            for c, sq, o, using in summoning.improvised_summons(st):
                out.append(improv_action(cs[c].id, sq, cs[c].orients[o].name, using))
    if verify_discard(st) is None:
        out.extend([card_action("discard", cs[c].id) for c in st.hand_b[p]])
    if verify_handover(st) is None:
        out.append(HANDOVER)
    if verify_flare(st) is None:
        out.extend(flare_actions(st))
    out.append(END)
    return out


# -- why not -------------------------------------------------------------------------------------------------------


def why_not(st: TashKalarState, action: Action) -> str | None:
    """``None`` when ``action`` is legal now, else the first check that fails, in plain words."""
    if st.phase == OVER:
        return "the game is over"
    if action in st.legal_actions():
        return None
    if not isinstance(action, Action) or not action:
        return f"expected an action of {st.game.id}"
    kind = action[0]
    for a in action[1:]:
        if isinstance(a, int) and not isinstance(a, bool) and kind != OPTION_K and SQ_NAME.get(a) not in NAME_SQ:
            return f"{SQ_NAME.get(a, a)} is not a square of the board"
    if kind == RESIGN_K:
        return verify_resign(st) or NOT_NOW
    if kind == HANDOVER_K:
        return verify_handover(st) or NOT_NOW
    ph = st.phase
    if ph in (PICK, CLAIM, MELEE_SETUP):
        return PHASE_ASKS[ph]
    if kind in (SCORE_K, SETUP_K, CLAIM_K):
        return f"'{kind}' is not a decision of this moment"
    if ph == EFFECT:
        return f"an effect waits for a choice ({effects.current_step(st).text}); '?' lists the choices"
    if ph != MAIN:
        return PHASE_ASKS[ph]
    if kind in CHOICE_KINDS:
        return f"'{kind}' is only for a pending choice; none is pending"
    check = MAIN_CHECKS.get(kind)
    if check is None:
        return NOT_NOW
    return check(st) or _candidate_reason(st, action)


NOT_NOW = "it is not one of the legal actions now"


def _candidate_reason(st: TashKalarState, action: Action) -> str:
    """Why a main-phase action whose group is allowed is not among the candidates: a fact of the position."""
    kind = action[0]
    cs = st.game.cards
    p = st.player
    if kind == PLACE_K:
        return f"{SQ_NAME[action[1]]} is not empty"
    if kind == RECALL_K:
        return f"there is none of your commons or heroics on {SQ_NAME[action[1]]}"
    if kind == DISCARD_K:
        return f"{action[1]} is not a being in your hand"
    card = cs.by_id[action[1]]
    if kind == FLARE_K:
        if card.index not in st.hand_f[p]:
            return f"{action[1]} is not a flare in your hand"
        if st.game.mode == "melee" and len(action) != 3:
            return f"in melee, choose the opponent to compare with: 'flare {action[1]} against <seat>'"
        if st.game.mode != "melee" and len(action) == 3:
            return "'against' is for melee; here the flare compares with every opponent"
        if len(action) == 3 and (action[2] == p or action[2] >= st.game.seats):
            return f"seat {action[2]} is not an opponent"
        return (
            f"neither condition holds: an opponent needs {card.upper}+ more upgraded pieces or "
            f"{card.lower}+ more pieces than you"
        )
    if card.kind == FLARE_K or (card.index not in st.hand_b[p] and card.index not in st.hand_l[p]):
        return f"{action[1]} is not a being or legend in your hand"
    names = [o.name for o in card.orients]
    if action[3] not in names:
        return f"orientation {action[3]} repeats another one of this pattern; use one of {', '.join(names)}"
    if len(action) == 5:
        return _improv_reason(st, action)
    return _summon_reason(st, card, action[2], names.index(action[3]))


def _improv_reason(st: TashKalarState, action: Action) -> str:
    if st.game.mode != "melee":
        return "improvised summons ('using <square>') are for melee (free-for-all)"
    piece = st.board[action[4]]
    if not piece or piece >> 2 == st.side:
        return f"{SQ_NAME[action[4]]} holds no enemy piece"
    if st.improv[st.player] >> (piece >> 2) & 1:
        return f"you already improvised with colour {piece >> 2} this game"
    return f"the pattern does not match with the enemy piece on {SQ_NAME[action[4]]} standing in for one of yours"


def _summon_reason(st: TashKalarState, card: Card, sq: int, oi: int) -> str:
    o = card.orients[oi]
    where = f"{SQ_NAME[sq]} {o.name}"
    p = st.side
    for shift, rank in o.reqs:
        t = sq + shift
        piece = st.board[t] if 0 <= t < len(st.board) else 0
        name = SQ_NAME.get(t)
        if name not in NAME_SQ:
            return f"the pattern of {card.name} at {where} runs off the board"
        if not piece or piece >> 2 != p or piece & 3 < rank:
            return f"the pattern of {card.name} at {where} needs your {RANK_NAMES[rank]} (or better) on {name}"
    here = st.board[sq]
    if here and here & 3 > card.rank:
        return f"{SQ_NAME[sq]} holds a piece of a higher rank than {card.name}"
    if o.summon_req and not (here and here >> 2 == p and here & 3 >= o.summon_req):
        return f"{card.name} must be summoned onto your {RANK_NAMES[o.summon_req]} (or better) on {SQ_NAME[sq]}"
    return f"out of units: no piece of yours for {card.name} (none on the summon square, none outside the pattern)"
