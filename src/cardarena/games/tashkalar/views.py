"""What a seat may know (``observation``) and the worlds consistent with it (``resample``).

Hidden: the hands, the order of every deck (a player knows the cards they put under their own school deck; a
card taken from a public discard pile is known to every seat while it stays in the hand; a team's legends are
known to both teammates).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ...engine import Rng
from .board import SQ_NAME, bits
from .constants import OVER, PHASE_NAMES
from .rules import effects
from .rules.decks import sideways
from .rules.modes import points
from .rules.pieces import all_pieces
from .rules.summoning import legal_summons

if TYPE_CHECKING:
    from .state import TashKalarState


def resample(st: TashKalarState, seat: int, rng: Rng | random.Random | int) -> TashKalarState:
    """A world that ``seat`` cannot tell from ``st``: hidden hands and deck orders redrawn, chance reseeded.

    Canonical: the world is a function of what ``seat`` may know and of ``rng`` alone. Every pool of unseen
    cards is sorted before it is shuffled (its contents are public: a school's cards less its discard pile and
    the known cards), the known cards of a hand come first in the order every seat saw them taken, and the
    world's own chance is a fork of ``rng``.
    """
    r = Rng.coerce(rng)
    c = st.clone()
    n = st.game.seats
    # only the known cards still held are known (a card that left the hand may be redrawn unseen)
    c.known_hand = [[x for x in c.known_hand[p] if x in _held(c, p)] for p in range(n)]
    for p in range(n):
        if p == seat:
            # own deck: the order above the cards you put under it is unknown to you too
            k = c.known_bottom[p]
            top = sorted(c.deck_s[p][k:])
            r.shuffle(top)
            c.deck_s[p][k:] = top
            continue
        keep, unseen = _split_known(c.hand_b[p], c.known_hand[p])  # known: taken from the discard pile in sight
        pool = sorted(unseen + c.deck_s[p])
        r.shuffle(pool)
        h = len(unseen)
        c.hand_b[p] = keep + pool[:h]
        c.deck_s[p] = pool[h:]
    mate = st.game.mate(seat) if st.game.teams else -1
    for hands, deck_name, team_shared in ((c.hand_l, "deck_l", True), (c.hand_f, "deck_f", False)):
        # a team's legends are shared: the teammate's legends are known
        hidden = [p for p in range(n) if p != seat and not (team_shared and p == mate)]
        pool = list(getattr(c, deck_name))
        kept: dict[int, list[int]] = {}
        for p in hidden:
            kept[p], unseen = _split_known(hands[p], c.known_hand[p])
            pool += unseen
        pool.sort()
        r.shuffle(pool)
        for p in hidden:
            h = len(hands[p]) - len(kept[p])
            hands[p] = kept[p] + pool[:h]
            del pool[:h]
        setattr(c, deck_name, pool)
    if c.deck_t:
        k = c.t_bottom
        top = sorted(c.deck_t[k:])
        r.shuffle(top)
        c.deck_t = c.deck_t[:k] + top
    c.rng = r.fork()
    return c


def _split_known(hand: list[int], known: list[int]) -> tuple[list[int], list[int]]:
    """The known cards of ``hand`` (in the order of ``known``, which every seat saw) and the others."""
    if not known:
        return [], hand.copy()
    rest = hand.copy()
    keep = []
    for x in known:
        if x in rest:
            rest.remove(x)
            keep.append(x)
    return keep, rest


def _held(st: TashKalarState, p: int) -> list[int]:
    return st.hand_b[p] + st.hand_l[p] + st.hand_f[p]


def _names(st: TashKalarState, cards: list[int]) -> list[str]:
    cs = st.game.cards.cards
    return [cs[c].id for c in cards]


def observation(st: TashKalarState, seat: int | None) -> dict[str, Any]:
    cs = st.game.cards.cards
    n = st.game.seats
    obs: dict[str, Any] = {
        "turn": st.turn_no,
        "phase": PHASE_NAMES[st.phase],
        "player": st.player,
        "actions": st.actions,
        "discarded": st.discarded,
        "board": {SQ_NAME[sq]: [st.board[sq] >> 2, st.board[sq] & 3] for sq in bits(all_pieces(st.bb))},
        "supply_two_sided": st.supply_two.copy(),
        "supply_legendary": st.supply_leg.copy(),
        "score": st.score.copy(),
        "schools": list(st.school),
        "hand_sizes": [[len(st.hand_b[p]), len(st.hand_l[p]), len(st.hand_f[p])] for p in range(n)],
        "school_deck_sizes": [len(d) for d in st.deck_s],
        "cards_put_under": st.known_bottom.copy(),
        "legend_deck": len(st.deck_l),
        "flare_deck": len(st.deck_f),
        "school_discards": [_names(st, d) for d in st.disc_s],
        "legend_discard": _names(st, st.disc_l),
        "flare_discard": _names(st, st.disc_f),
        "destroyed_this_turn": st.destroyed.copy(),
        "destroyed_by_colour": st.dest.copy(),
        "extra_draws": st.extra.copy(),
        "extra_turns": st.extra_turns,
        "known_hand_cards": [_names(st, [c for c in st.known_hand[p] if c in _held(st, p)]) for p in range(n)],
        "extra_turn_now": st.in_extra,
        "drew_last_school_card": st.deck_out.copy(),
        "final_turns_left": st.final_left,
        "trigger": st.trigger,
        "resolving": cs[st.resolving].id if st.resolving >= 0 else None,
        "effect": effects.describe_progress(st),
        "pending_summon": (
            None
            if st.pending_summon is None
            else [cs[st.pending_summon[0]].id, SQ_NAME[st.pending_summon[1]], st.pending_summon[2]]
        ),
        "recall_choices": [SQ_NAME[s] for s in bits(st.recall_mask)],
        "result": st.returns() if st.phase == OVER else None,
    }
    _mode_view(st, obs)
    if seat is not None:
        _seat_view(st, seat, obs)
    return obs


def _mode_view(st: TashKalarState, obs: dict[str, Any]) -> None:
    """The public facts of teams, melee and High Form."""
    n = st.game.seats
    g = st.game
    if g.teams:
        obs["school_deck_sideways"] = [min(sideways(st), len(d)) for d in st.deck_s]
        obs["turn_seat"] = st.active
        obs["handed_over"] = st.handed
        obs["colour_of_seat"] = list(g.colour_of)
    if g.mode == "melee":
        obs["colour_scores"] = [row.copy() for row in st.mscore]
        obs["improvised_colours"] = [[o for o in range(n) if st.improv[p] >> o & 1] for p in range(n)]
        obs["pick_colours"] = list(bits(st.pick_mask))
        obs["setup_done"] = st.msetup & 0xFF
    if g.tasks is not None:
        ts = g.tasks.tasks
        obs["tasks"] = [ts[t].id for t in st.cur_t]
        obs["next_task"] = ts[st.next_t].id if st.next_t >= 0 else None
        obs["task_deck"] = len(st.deck_t)
        obs["task_deck_bottom"] = [ts[t].id for t in st.deck_t[: st.t_bottom]]
        obs["claimed"] = [[ts[t].id for t in cl] for cl in st.claimed]
        obs["points"] = [points(st, c) for c in range(g.n_col)]
        obs["summoned_this_turn"] = [[SQ_NAME[e >> 2] for e in st.summoned if e & 3 == r] for r in (1, 2, 3)]


def _seat_view(st: TashKalarState, seat: int, obs: dict[str, Any]) -> None:
    """What only ``seat`` knows: its hand, the cards it put under its school deck, its team's legends."""
    g = st.game
    k = st.known_bottom[seat]
    obs["seat"] = seat
    obs["hand"] = {
        "beings": _names(st, st.hand_b[seat]),
        "legends": _names(st, st.hand_l[seat]),
        "flares": _names(st, st.hand_f[seat]),
    }
    obs["my_deck_bottom"] = _names(st, st.deck_s[seat][:k])
    obs["my_deck_cards"] = sorted(_names(st, st.deck_s[seat]))
    if g.teams:
        obs["team_legends"] = _names(st, st.hand_l[g.mate(seat)])


def hidden_cards(st: TashKalarState, seat: int) -> dict[str, dict[str, Any]]:
    """Every place whose card ``seat`` cannot see, by pool (cards that may trade places in a resample):

    - ``your school deck``: the order above the cards you put under it;
    - ``seat P beings``: another seat's beings in hand (less those every seat saw it take) and its school deck;
    - ``legends``: the legend deck and the legends of the seats whose legends you do not hold or share;
    - ``flares``: the flare deck and the other seats' flares;
    - ``task deck``: the High Form task deck above the tasks put under it face up.
    """
    cs = st.game.cards.cards
    n = st.game.seats
    out: dict[str, dict[str, Any]] = {}
    k = st.known_bottom[seat]
    out["your school deck"] = {f"deck {i}": cs[c].id for i, c in enumerate(st.deck_s[seat]) if i >= k}
    known = [[x for x in st.known_hand[p] if x in _held(st, p)] for p in range(n)]
    mate = st.game.mate(seat) if st.game.teams else -1
    for p in range(n):
        if p == seat:
            continue
        unseen = _split_known(st.hand_b[p], known[p])[1]
        places = {f"hand {i}": cs[c].id for i, c in enumerate(unseen)}
        places.update({f"deck {i}": cs[c].id for i, c in enumerate(st.deck_s[p])})
        out[f"seat {p} beings"] = places
    for name, hands, deck, team_shared in (
        ("legends", st.hand_l, st.deck_l, True),
        ("flares", st.hand_f, st.deck_f, False),
    ):
        places = {f"deck {i}": cs[c].id for i, c in enumerate(deck)}
        for p in range(n):
            if p == seat or (team_shared and p == mate):
                continue
            unseen = _split_known(hands[p], known[p])[1]
            places.update({f"seat {p} hand {i}": cs[c].id for i, c in enumerate(unseen)})
        out[name] = places
    if st.deck_t:
        assert st.game.tasks is not None
        ts = st.game.tasks.tasks
        out["task deck"] = {f"deck {i}": ts[t].id for i, t in enumerate(st.deck_t) if i >= st.t_bottom}
    return {pool: places for pool, places in out.items() if places}


def hidden_facts(world: TashKalarState, seat: int) -> dict[str, str]:
    """What a player would like odds on, read from a world drawn for ``seat``: for each other seat whose cards are
    hidden, its flare, its legends (not for your teammate: the team's legends are shared), whether it holds a heroic
    being, whether one of its beings or legends fits the board now (for its colour), and the next card of its school
    deck."""
    g = world.game
    cs = g.cards.cards
    mate = g.mate(seat) if g.teams else -1
    facts: dict[str, str] = {}
    for p in range(g.seats):
        if p == seat:
            continue
        facts[f"seat {p}'s flare"] = ", ".join(sorted(cs[c].name for c in world.hand_f[p])) or "none"
        if p != mate:
            facts[f"seat {p}'s legends"] = ", ".join(sorted(cs[c].name for c in world.hand_l[p])) or "none"
        facts[f"seat {p} holds a heroic being"] = "yes" if any(cs[c].rank >= 2 for c in world.hand_b[p]) else "no"
        facts[f"seat {p} could summon on this board"] = "yes" if _could_summon(world, p) else "no"
        deck = world.deck_s[p]
        facts[f"seat {p}'s next school card"] = cs[deck[-1]].name if deck else "none (deck empty)"
    return facts


def _could_summon(world: TashKalarState, p: int) -> bool:
    """Whether a being or legend of ``p``'s hand matches ``p``'s pieces on the board now (whatever the actions)."""
    probe = world.clone()
    probe.player = p
    probe.side = world.game.colour_of[p]
    return bool(legal_summons(probe))
