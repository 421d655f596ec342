"""Plain reasons why an action is not legal now (``State.why_illegal``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine import Action
from .board import NAME_SQ, SQ_NAME
from .cards.model import RANK_NAMES, Card
from .constants import (
    BOTTOM,
    CLAIM,
    EFFECT,
    MAIN,
    MELEE_SETUP,
    OVER,
    PHASE_NAMES,
    PICK,
    RECALL_PLACE,
    SETUP,
    SUMMON_RECALL,
)
from .rules.effects import current_step

if TYPE_CHECKING:
    from .state import TashKalarState


def why_illegal(st: TashKalarState, action: Action) -> str:

    if st.phase == OVER:
        return "the game is over"
    kind = action[0]
    for a in action[1:]:
        if isinstance(a, int) and not isinstance(a, bool) and kind != "option" and SQ_NAME.get(a) not in NAME_SQ:
            return f"{SQ_NAME.get(a, a)} is not a square of the board"
    if kind == "resign":
        if st.game.mode == "melee":
            return "resignation is not allowed in melee (free-for-all)"
        return "resignation is off in this game (option resign=false)"
    if kind == "handover":
        if not st.game.teams:
            return "handing the turn over is for team games (teams=true)"
        if st.handed:
            return "the turn was already handed over"
        return "the turn may be handed over only before an action or during an effect, with an action left"
    if st.phase == PICK:
        return "choose the colour to score 1 point in ('score <seat>')"
    if st.phase == CLAIM:
        return "claim one task whose condition holds ('claim <task>') or 'skip'"
    if st.phase == MELEE_SETUP:
        return "put the setup commons: 'setup <square> <seat>' on a square of the next setup pair"
    if kind in ("score", "setup", "claim"):
        return f"'{kind}' is not a decision of this moment"

    if st.phase == SETUP:
        return "the second player first chooses the setup square of their own common: choose c5 or choose g5"
    if st.phase == EFFECT:
        return f"an effect waits for a choice ({current_step(st).text}); '?' lists the choices"
    if st.phase == BOTTOM:
        return (
            "after the discard action, put any of your remaining cards under their decks ('bottom <card>': beings"
            " under your school deck, legends and flares under theirs) or 'skip'"
        )
    if st.phase == RECALL_PLACE:
        return "place the piece you took back on an empty square ('place <square>')"
    if st.phase == SUMMON_RECALL:
        return "choose which of your pieces outside the pattern to take back for this summon ('recall <square>')"
    assert st.phase == MAIN, PHASE_NAMES[st.phase]
    cs = st.game.cards
    p = st.player
    side = st.side
    if kind in ("choose", "move", "option", "skip", "bottom", "take"):
        return f"'{kind}' is only for a pending choice; none is pending"
    if st.handed and kind not in ("place", "recall", "end"):
        return "after a handover the teammate may only place commons with the remaining actions (or end)"
    if kind in ("place", "recall", "summon", "discard") and st.actions <= 0:
        return "no action is left this turn"
    if kind == "place":
        if st.supply_two[side] == 0:
            return "you are out of units: first take back one of your commons or heroics ('recall <square>')"
        return f"{SQ_NAME[action[1]]} is not empty"
    if kind == "recall":
        if st.supply_two[side] > 0:
            return "you still have pieces to place: recall is only for when you are out of units"
        return f"there is none of your commons or heroics on {SQ_NAME[action[1]]}"
    if kind == "discard":
        if st.discarded:
            return "the discard action is allowed once per turn"
        return f"{action[1]} is not a being in your hand"
    if kind == "flare":
        card = cs.by_id[action[1]]
        if card.index not in st.hand_f[p]:
            return f"{action[1]} is not a flare in your hand"
        if st.game.mode == "melee" and len(action) != 3:
            return f"in melee, choose the opponent to compare with: 'flare {action[1]} against <seat>'"
        if st.game.mode != "melee" and len(action) == 3:
            return "'against' is for melee; here the flare compares with every opponent"
        if len(action) == 3 and (action[2] == p or action[2] >= st.game.num_players):
            return f"seat {action[2]} is not an opponent"
        return (
            f"neither condition holds: an opponent needs {card.upper}+ more upgraded pieces or "
            f"{card.lower}+ more pieces than you"
        )
    if kind == "summon":
        card = cs.by_id[action[1]]
        if card.kind == "flare" or card.index not in (*st.hand_b[p], *st.hand_l[p]):
            return f"{action[1]} is not a being or legend in your hand"
        names = [o.name for o in card.orients]
        if action[3] not in names:
            return f"orientation {action[3]} repeats another one of this pattern; use one of {', '.join(names)}"
        if len(action) == 5:
            return _improv_reason(st, action)
        return _summon_reason(st, card, action[2], names.index(action[3]))
    return "it is not one of the legal actions now"


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
