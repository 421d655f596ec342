"""Flares: which halves a seat may use now, and the flares it may invoke."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....engine import Action
from ..actions import card_action, flare_against
from ..cards.data import Card
from .pieces import count_pieces, count_upgraded

if TYPE_CHECKING:
    from ..state import TashKalarState


def flare_halves(st: TashKalarState, p: int, card: Card, against: int = -1) -> tuple[bool, bool]:
    """Which halves of a flare seat ``p`` may use now: an opponent's upgraded pieces and pieces minus own
    (in melee, the opponent ``against`` that the player chose to compare with)."""
    up = low = False
    g = st.game  # an interpreted object: read once
    me = g.colour_of[p]
    mine_up, mine = count_upgraded(st.bb, me), count_pieces(st.bb, me)
    for o in range(g.n_col) if against < 0 else (against,):
        if o != me:
            up = up or count_upgraded(st.bb, o) - mine_up >= card.upper
            low = low or count_pieces(st.bb, o) - mine >= card.lower
    return up, low


def flare_actions(st: TashKalarState) -> list[Action]:
    """The flares the player to act may invoke now (melee: against each opponent it works against)."""
    p = st.player
    g = st.game  # an interpreted object: read once
    cs = g.cards.cards
    out: list[Action] = []
    if g.mode == "melee":
        seats = g.seats
        for c in st.hand_f[p]:
            for o in range(seats):
                if o != p and any(flare_halves(st, p, cs[c], o)):
                    out.append(flare_against(cs[c].id, o))
        return out
    for c in st.hand_f[p]:
        if any(flare_halves(st, p, cs[c])):
            out.append(card_action("flare", cs[c].id))
    return out
