"""What a seat may know: the observation, and ``resample`` (a world consistent with it).

Hidden: hands, mana cards and deck orders, and a reveal committed but not yet shown. Public besides the table:
the *known* cards (shown in the reveal, or taken back from the discard pile) and where they can be
(:mod:`.rules.knowledge`).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ...engine import Rng
from .cards import NAMES
from .constants import NO_TARGET, OPPONENT, PRIORITY_PHASES, TAPPED_THIS_TURN, UNBLOCKABLE_FLAG, ZEROED
from .rules import knowledge
from .rules.board import attack_of, available_mana, health_of, is_sick

if TYPE_CHECKING:
    from .state import ToraBatoState


def known_in_hand(st: ToraBatoState, seat: int) -> list[int]:
    """Known cards that every player can tell are in ``seat``'s hand."""
    return knowledge.surely_in_hand(st.placements[seat], st.known[seat])


def known_in_mana(st: ToraBatoState, seat: int) -> list[int]:
    """Known cards that every player can tell are among ``seat``'s mana cards."""
    return knowledge.surely_in_mana(st.placements[seat], st.known[seat])


def observation(st: ToraBatoState, seat: int | None) -> dict[str, Any]:
    players = []
    for s in (0, 1):
        p: dict[str, Any] = {
            "deck": len(st.deck[s]),
            "hand_size": len(st.hand[s]),
            "discard": [NAMES[c] for c in st.discard[s]],
            "mana_count": len(st.mana[s]),
            "mana_tapped": st.tapped_mana[s],
            "mana_pool": st.pool[s],
            "available_mana": available_mana(st, s),
            "known_in_hand_or_mana": [NAMES[c] for c in st.known[s]],
            "known_in_hand": [NAMES[c] for c in known_in_hand(st, s)],
            "known_in_mana": [NAMES[c] for c in known_in_mana(st, s)],
            "soldiers": [_soldier(st, c) for c in st.field[s]],
        }
        if seat == s:
            p["hand"] = [NAMES[c] for c in sorted(st.hand[s])]
            p["mana"] = [NAMES[c] for c in sorted(st.mana[s])]
        players.append(p)
    n = min(len(st.reveals[0]), len(st.reveals[1]))
    reveals = [[NAMES[c] for c in st.reveals[s][:n]] for s in (0, 1)]
    if seat is not None and len(st.reveals[seat]) > n:
        reveals[seat].append(NAMES[st.reveals[seat][-1]])
    return {
        "seat": seat,
        "turn": st.turn_no,
        "phase": st.phase.text,
        "active": st.active if st.turn_no else None,
        "first_player": st.first if st.first >= 0 else None,
        "to_act": st.current_player,
        "priority": st.priority if st.phase in PRIORITY_PHASES else None,
        "passes": st.passes,
        "mana_set_this_turn": st.mana_set,
        "attacked_this_turn": st.attacked,
        "reveals": reveals,
        "redeals": st.redeals,
        "players": players,
        "stack": [_stack_item(st, item) for item in st.stack],
        "attack": {
            "attackers": [NAMES[a] for a in st.attackers],
            "blocks": [[NAMES[b], NAMES[a]] for b, a in st.blocks],
            "assigned": [[NAMES[a], NAMES[b]] for a, b in st.assigned],
        },
        "pending": [st.pending[0].value, st.pending[1]] if st.pending else None,
        "result": st.returns() if st.result is not None else None,
        "end_reason": st.end_reason,
    }


def _soldier(st: ToraBatoState, c: int) -> dict[str, Any]:
    return {
        "card": NAMES[c],
        "attack": attack_of(st, c),
        "health": health_of(st, c),
        "damage": st.damage[c],
        "tapped": st.tapped[c],
        "sick": is_sick(st, c),
        "unblockable": bool(st.flags[c] & UNBLOCKABLE_FLAG),
        "zeroed": bool(st.flags[c] & ZEROED),
        "tapped_this_turn": bool(st.flags[c] & TAPPED_THIS_TURN),
    }


def _stack_item(st: ToraBatoState, item: tuple[int, int, int, int]) -> dict[str, Any]:
    kind, card, seat, target = item
    return {
        "kind": ("spell", "ability", "recursion")[kind],
        "card": NAMES[card],
        "controller": seat,
        "target": None if target == NO_TARGET else "opponent" if target == OPPONENT else NAMES[target],
        "zeroed": bool(st.flags[card] & ZEROED),
    }


def resample(st: ToraBatoState, seat: int, rng: Rng | random.Random | int) -> ToraBatoState:
    """Redraw what ``seat`` cannot see: its own deck order, and the opponent's deck, hand and mana cards.

    Cards whose identity is public (``known``: shown in the reveal, or taken back from the discard pile)
    stay among the opponent's hand and mana cards, in one of the placements the public history allows
    (chosen uniformly); the unseen cards are dealt at random. A reveal the opponent has committed but not
    yet shown is redrawn with the rest.

    The world is a function of what ``seat`` may know and of ``rng`` alone (issue 14): every pool of unseen
    cards is sorted before it is shuffled (its contents are public, its true order is not), the known cards
    keep their public order, and the world's own future chance is reseeded from ``rng``. The seat's own hand
    and mana cards stay as they are, in the order it put them there (its legal actions list them in that order).
    """
    r = Rng.coerce(rng)
    c = st.clone()
    c.rng = r.fork()
    own_deck = c.deck[seat]
    own_deck.sort()
    r.shuffle(own_deck)
    o = 1 - seat
    known = st.known[o]
    unknown = sorted(c.hand[o] + c.mana[o] + c.deck[o])
    if known:
        unknown = [k for k in unknown if k not in known]
    r.shuffle(unknown)
    n_mana, n_hand = len(c.mana[o]), len(c.hand[o])
    mana, hand = knowledge.draw_split(st.placements[o], known, n_hand, n_mana, r)
    while len(mana) < n_mana:
        mana.append(unknown.pop())
    while len(hand) < n_hand:
        hand.append(unknown.pop())
    r.shuffle(hand)
    r.shuffle(mana)
    c.hand[o] = hand
    c.mana[o] = mana
    c.deck[o] = unknown
    n_shown = min(len(st.reveals[0]), len(st.reveals[1]))
    if len(st.reveals[o]) > n_shown:  # the opponent's committed, still hidden reveal
        choices = [k for k in c.hand[o] if k not in c.reveals[o][:n_shown]]
        c.reveals[o][-1] = choices[r.randbelow(len(choices))]
    return c


def hidden_cards(st: ToraBatoState, seat: int) -> dict[str, dict[str, Any]]:
    """Every place whose card ``seat`` cannot see, by pool (the harness checks ``resample`` redraws them).

    ``your deck``: the order of the seat's own deck. ``opponent's hand, mana and deck``: the opponent's unseen
    cards, which trade places freely: hand and mana cards (those every player knows to be there left out: they
    are not hidden, only which hand slot they sit in), the deck, and a reveal put down but not yet shown.
    """
    o = 1 - seat
    own = {f"deck {i}": NAMES[c] for i, c in enumerate(st.deck[seat])}
    sure_hand, sure_mana = set(known_in_hand(st, o)), set(known_in_mana(st, o))
    hand = [c for c in st.hand[o] if c not in sure_hand]
    mana = [c for c in st.mana[o] if c not in sure_mana]
    opp = {f"hand {i}": NAMES[c] for i, c in enumerate(hand)}
    opp.update((f"mana {i}", NAMES[c]) for i, c in enumerate(mana))
    opp.update((f"deck {i}", NAMES[c]) for i, c in enumerate(st.deck[o]))
    n_shown = min(len(st.reveals[0]), len(st.reveals[1]))
    if len(st.reveals[o]) > n_shown:
        opp["face-down reveal"] = NAMES[st.reveals[o][-1]]
    return {"your deck": own, "opponent's hand, mana and deck": opp}
