"""What each seat may know (``observation``) and worlds it cannot tell apart (``resample``).

Hidden: hands, deck order, the face-down circle piles and item pile, face-down items and battle sets before the
reveal (a set's size included: until both have set, another seat sees only that a set was made, and the setter's
hand size as it was before setting). Public: discard piles, fields, HP, removed cards, supply, sizes, and whatever
was revealed or used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...engine import Rng
from .actions import LyabiAction
from .constants import AUTO_ITEMS, BEATS, COLOURS, ITEM_IDS, NO_ITEM, PHASE_NAMES

if TYPE_CHECKING:
    from .game import LyabiGame
    from .state import LyabiState


def dummy_in_hand(st: LyabiState, s: int) -> bool:
    """1_1: a battling player takes the dummy into hand; it leaves the hand only if set."""
    return st.battling[s] and st.sets[s] != ()


def set_pending(st: LyabiState, s: int) -> bool:
    """Seat ``s`` has set face down and the sets are not yet revealed (バトルステップ 2_1: revealed together)."""
    return st.sets[s] is not None and not st.revealed


def hand_size_seen(st: LyabiState, s: int, seat: int | None) -> int:
    """The size of seat ``s``'s hand (the dummy counted while it is there) as ``seat`` sees it.

    While a set is pending, other seats see the hand as it was before setting (ryabi and the dummy): the cards
    that left it, one, two or the dummy, would tell them the set's size.
    """
    if s != seat and set_pending(st, s):
        return len(st.hand[s]) + len(st.sets[s] or ()) + 1
    return len(st.hand[s]) + dummy_in_hand(st, s)


def _names(names: tuple[str, ...], cards: list[int] | tuple[int, ...]) -> list[str]:
    return [names[k] for k in sorted(cards)]


def observation(st: LyabiState, seat: int | None) -> dict[str, Any]:
    c = st.game.cards
    rn, cn = c.r_names, c.c_names
    players = []
    for s in (0, 1):
        sets = st.sets[s]
        if sets is None:
            shown_set: Any = None
        elif st.revealed:
            shown_set = "dummy" if not sets else _names(rn, sets)
        else:
            shown_set = "face down"  # one ryabi, a double charge or the dummy: nothing tells which
        p: dict[str, Any] = {
            "hp": st.hp[s],
            "hand_size": hand_size_seen(st, s, seat),
            "hand_known": _names(rn, st.public_hand[s]),
            "deck_size": len(st.deck[s]),
            "discard": _names(rn, st.discard[s]),
            "field": [cn[k] for k in st.field[s]],
            "item": "face down" if st.item[s] != NO_ITEM else None,
            "draw_to": st.draw_to[s],
            "battling": st.battling[s],
            "set": shown_set,
        }
        if s == seat:
            p["hand"] = _names(rn, st.hand[s])
            p["dummy_in_hand"] = dummy_in_hand(st, s)
            p["item"] = ITEM_IDS[st.item[s]] if st.item[s] != NO_ITEM else None
            k = st.known_top[s]
            p["deck_top"] = [rn[x] for x in reversed(st.deck[s][len(st.deck[s]) - k :])] if k else []
            if sets is not None:
                p["set"] = "dummy" if not sets else _names(rn, sets)
        players.append(p)
    obs: dict[str, Any] = {
        "turn": st.turn_no,
        "phase": PHASE_NAMES[st.phase],
        "to_act": st.current_player,
        "first_player": st.first,
        "players": players,
        "supply": {rn[k]: n for k, n in enumerate(st.supply)},
        "circle_piles": {str(lv): len(p) for lv, p in zip(c.levels, st.piles)},
        "item_pile": len(st.item_pile),
        "removed": {
            "ryabi": {rn[k]: n for k, n in enumerate(st.removed_ryabi) if n},
            "circles": [cn[k] for k in st.removed_circles],
            "items": [ITEM_IDS[i] for i in st.removed_items],
        },
        "actions_left": st.actions_left,
        "battle_colours": [COLOURS[x] if x >= 0 else None for x in st.colour] if st.revealed else None,
        "pending_damage": st.pending,
        "last_battle": st.last_battle,
        "result": st.result,
        "end_reason": st.end_reason,
    }
    if seat is not None:
        obs["seat"] = seat
        seen = st.eye_seen[seat]
        if seen is not None:
            obs["seen_opponent_hand"] = _names(rn, seen)
    return obs


def resample(st: LyabiState, seat: int, r: Rng) -> LyabiState:
    """Redraw what ``seat`` cannot see: its own deck below the known top, the opponent's hand, deck, unrevealed
    set and face-down item, the order of the face-down piles, and the future chance.

    Canonical: every pool of unseen cards is sorted before the rng shuffles or deals it, so the world is a
    function of what ``seat`` knows and of ``r`` alone (two states the seat cannot tell apart, a state and any
    of its resamples included, give the same world with the same rng).
    """
    w = st.clone()
    deck = w.deck[seat]
    n = len(deck) - w.known_top[seat]
    if n > 1:
        below = sorted(deck[:n])
        r.shuffle(below)
        deck[:n] = below
    _resample_opponent_ryabi(w, seat, r)
    o = 1 - seat
    if w.item[o] != NO_ITEM:
        # Auto items resolve on acquisition, so a face-down item is never one of them.
        pool = sorted([*w.item_pile, w.item[o]])
        choices = [i for i, x in enumerate(pool) if x not in AUTO_ITEMS]
        w.item[o] = pool.pop(choices[r.randbelow(len(choices))])
        r.shuffle(pool)
        w.item_pile = pool
    else:
        w.item_pile.sort()
        r.shuffle(w.item_pile)
    for pile in w.piles:
        pile.sort()
        r.shuffle(pile)
    w.rng = Rng(r.next64())
    return w


def _resample_opponent_ryabi(w: LyabiState, seat: int, r: Rng) -> None:
    """Redraw the opponent's hand (and unrevealed set) from the cards ``seat`` cannot place: the hand's unknown
    cards and the deck. Cards known to be in the hand (``public_hand``, or all of it after the Mystic Eye) stay.

    An unrevealed set shows nothing, its size included, so it is redrawn as any set the redrawn hand allows
    (one ryabi, a double charge or the dummy), each equally likely. The pool is sorted before it is shuffled and
    the known cards are put first in sorted order, so no order comes from the true state.
    """
    o = 1 - seat
    hidden_set = set_pending(w, o)
    # The hand and an unrevealed set together: the hand as it was before setting.
    held = [*w.hand[o], *(w.sets[o] or ())] if hidden_set else list(w.hand[o])
    seen = w.eye_seen[seat] is not None  # the Mystic Eye showed this seat the opponent's whole hand
    known = held.copy() if seen else list(w.public_hand[o])
    unknown = held.copy()
    for k in known:
        unknown.remove(k)
    pool = sorted([*unknown, *w.deck[o]])
    u = len(unknown)
    r.shuffle(pool)
    hand = [*sorted(known), *pool[:u]]  # the known cards, then the unknown ones as dealt
    w.deck[o] = pool[u:]
    if hidden_set:
        sets = w.game.set_choices(tuple(sorted(hand)))
        chosen = sets[r.randbelow(len(sets))]
        kind_of = w.game.codec.kind_of
        kinds = () if chosen[1] == "dummy" else tuple(kind_of[n] for n in chosen[1:])
        for k in kinds:
            hand.remove(k)
        w.sets[o] = kinds
    w.hand[o] = hand


# -- what search and the odds advisor ask about the unseen -----------------------------------------------------
def _held_unknown(st: LyabiState, seat: int) -> list[int]:
    """The opponent's cards in hand (and under an unrevealed set) that ``seat`` cannot name, in the hand's order."""
    o = 1 - seat
    held = [*st.hand[o], *(st.sets[o] or ())] if set_pending(st, o) else list(st.hand[o])
    if st.eye_seen[seat] is not None:
        return []
    for k in st.public_hand[o]:
        held.remove(k)
    return held


def hidden_cards(st: LyabiState, seat: int) -> dict[str, dict[str, Any]]:
    """Every place ``seat`` cannot see, pooled as resample redraws them: the opponent's unknown hand cards (with an
    unrevealed set, as held before setting) and deck; the seat's own deck below the known top; the opponent's
    face-down item with the item pile; each face-down circle pile. The hand's places are its unknown cards in the
    hand's order (resample deals them in a random order after the known ones)."""
    c = st.game.cards
    o = 1 - seat
    pools: dict[str, dict[str, Any]] = {}
    opponent = {f"hand {i}": c.r_names[k] for i, k in enumerate(_held_unknown(st, seat))}
    opponent.update({f"deck {i}": c.r_names[k] for i, k in enumerate(st.deck[o])})
    pools["opponent's hand and deck"] = opponent
    n = len(st.deck[seat]) - st.known_top[seat]
    pools["your deck"] = {f"deck {i}": c.r_names[k] for i, k in enumerate(st.deck[seat][:n])}
    items = {f"pile {i}": ITEM_IDS[x] for i, x in enumerate(st.item_pile)}
    pools["items"] = items
    if st.item[o] != NO_ITEM:
        # A face-down item is never an auto item: when every other item it could be is alike, the seat knows it.
        could_be = {x for x in (*st.item_pile, st.item[o]) if x not in AUTO_ITEMS}
        pool = "items" if len(could_be) > 1 else "opponent's item (known: the only kind it can be)"
        pools.setdefault(pool, {})["opponent's item"] = ITEM_IDS[st.item[o]]
    for lv, pile in zip(c.levels, st.piles):
        pools[f"Lv{lv} circle pile"] = {f"pile {i}": c.c_names[k] for i, k in enumerate(pile)}
    return {name: places for name, places in pools.items() if places}


def hidden_facts(world: LyabiState, seat: int) -> dict[str, str]:
    """Facts worth odds, read from a world ``resample(seat)`` drew: does the opponent hold a ryabi of each colour
    (an unrevealed set counts as held), the colour of its set while it is face down, its strongest card."""
    c = world.game.cards
    o = 1 - seat
    pending = set_pending(world, o)
    held = [*world.hand[o], *(world.sets[o] or ())] if pending else list(world.hand[o])
    facts = {
        f"opponent holds a {colour} ryabi": "yes" if any(c.r_colour[k] == ci for k in held) else "no"
        for ci, colour in enumerate(COLOURS)
    }
    if pending:
        cards = world.sets[o]
        facts["opponent's face-down set"] = (
            "the dummy" if not cards else COLOURS[c.r_colour[cards[0]]] + (" double charge" if len(cards) > 1 else "")
        )
    best = max(held, key=lambda k: (c.r_cost[k], c.r_times[k]), default=None)
    facts["opponent's strongest card"] = "none" if best is None else f"Lv{c.r_level[best]} ({c.r_names[best]})"
    return facts


# -- a good player's rules of thumb, from one seat's observation only ------------------------------------------
#: How much a ryabi of a colour none of your circles has is worth, next to one that feeds a circle.
OFF_COLOUR = 0.35
#: What setting a ryabi costs, per point of its cost: battle ryabi are removed from the game.
SPENT = 0.12
#: How likely an opponent who battles is thought to set the dummy.
DUMMY_ODDS = 0.2


class _Seen:
    """The parts of an observation the rules of thumb read, as card indices."""

    def __init__(self, game: LyabiGame, obs: dict[str, Any], seat: int) -> None:
        c = game.cards
        self.c = c
        kind_of, circle_of = game.codec.kind_of, game.codec.circle_of
        me, op = obs["players"][seat], obs["players"][1 - seat]
        self.me, self.op = me, op
        self.hand = [kind_of[n] for n in me.get("hand", [])]
        self.field = [circle_of[n] for n in me["field"]]
        self.op_field = [circle_of[n] for n in op["field"]]
        self.colours = {c.c_colour[k] for k in self.field}
        self.op_colours = {c.c_colour[k] for k in self.op_field}
        self.kind_of = kind_of
        self._damage: dict[tuple[int, ...], int] = {}
        self._battle_card: tuple[int | None] | None = None

    def value(self, k: int) -> float:
        """A ryabi's worth in a deck: its multiplier, less when no circle of yours has its colour."""
        c = self.c
        return c.r_times_float[k] * (1.0 if c.r_colour[k] in self.colours else OFF_COLOUR) + 0.02 * c.r_cost[k]

    def damage(self, kinds: tuple[int, ...]) -> int:
        """The damage a winning set deals with your circles."""
        if not kinds:
            return 0
        known = self._damage.get(kinds)
        if known is None:
            c = self.c
            second = kinds[1] if len(kinds) > 1 else None
            colour = c.r_colour[kinds[0]]
            known = self._damage[kinds] = sum(
                c.damage(k, kinds[0], second) for k in self.field if c.c_colour[k] == colour
            )
        return known

    def battle_card(self) -> int | None:
        """The ryabi you would most like to battle with this turn (one feeding a circle, the strongest)."""
        if self._battle_card is None:
            fed = [k for k in self.hand if self.damage((k,)) > 0]
            self._battle_card = (max(fed, key=lambda k: (self.damage((k,)), -self.c.r_cost[k]), default=None),)
        return self._battle_card[0]

    def op_damage(self, colour: int) -> float:
        """What the opponent deals winning with ``colour`` (one ryabi of average times)."""
        c = self.c
        return sum(1.25 * c.c_atk[k] for k in self.op_field if c.c_colour[k] == colour)

    def kinds(self, names: tuple[str, ...] | list[str]) -> tuple[int, ...]:
        return tuple(self.kind_of[n] for n in names)


def evaluate(game: LyabiGame, obs: dict[str, Any], seat: int) -> float:
    """How well ``seat`` stands in [-1, 1]: the HP race first, then the damage its circles can deal and how well
    its ryabi feed them, against the opponent's."""
    if obs["result"] is not None:
        return float(obs["result"][seat])
    c = game.cards
    me, op = obs["players"][seat], obs["players"][1 - seat]
    hp = (me["hp"] - op["hp"]) / c.starting_hp
    circle_of, kind_of = game.codec.circle_of, game.codec.kind_of

    def power(p: dict[str, Any]) -> float:
        atk = sum(c.c_atk[circle_of[n]] for n in p["field"])
        colours = {c.c_colour[circle_of[n]] for n in p["field"]}
        cards = [kind_of[n] for n in (*p["discard"], *p.get("hand", p["hand_known"]))]
        times = c.r_times_float
        fed = sum(times[k] for k in cards if c.r_colour[k] in colours) / max(len(cards), 1)
        return atk * (0.5 + fed)

    edge = (power(me) - power(op)) / 6
    low = 0.1 * ((me["hp"] <= 5) * -1 + (op["hp"] <= 5))
    return max(-0.95, min(0.95, 0.75 * hp + 0.2 * max(-1.0, min(1.0, edge)) + low))


def heuristic_action(game: LyabiGame, obs: dict[str, Any], legal: list[LyabiAction], seat: int, rng: Rng) -> Any:
    """Rules of thumb: place circles, buy the strongest ryabi of your circles' colours paying with the cards you
    would not battle with, take an item with spare cards, set what beats what the opponent likely sets (from its
    circles, the cards it showed and any Mystic Eye look), use items at their timing."""
    if len(legal) == 1:
        return legal[0]
    seen = _Seen(game, obs, seat)
    phase = obs["phase"]
    if phase == "main":
        return _best(legal, lambda a: _main_score(seen, a), rng)
    if phase == "item":
        return _best(legal, lambda a: _item_score(seen, a), rng)
    if phase == "set":
        odds = _set_odds(seen, obs)
        return _best(legal, lambda a: _set_score(seen, odds, a), rng)
    if phase == "crystal":  # the best card on top: it is drawn next turn
        return _best(legal, lambda a: sum(seen.value(seen.kind_of[n]) / (i + 1) for i, n in enumerate(a[1:])), rng)
    if phase == "brush":
        return _best(legal, lambda a: _brush_score(seen, obs, seat, a), rng)
    if phase == "mirror":
        use = obs["pending_damage"] >= 2
        return next(a for a in legal if (a[0] == "use") == use)
    return next(a for a in legal if a[0] == "use")  # the orb, the eye and the sword are always worth it


def _best(legal: list[LyabiAction], score: Any, rng: Rng) -> LyabiAction:
    best, top = [], float("-inf")
    for a in legal:
        v = score(a)
        if v > top + 1e-9:
            best, top = [a], v
        elif v > top - 1e-9:
            best.append(a)
    return best[rng.randbelow(len(best))] if len(best) > 1 else best[0]


def _payment_cost(seen: _Seen, paid: tuple[int, ...], need: int) -> float:
    """Paying keeps the cards (they go to the discard pile) but not for this turn's battle; overpaying wastes."""
    c = seen.c
    cost = 0.05 * (sum(c.r_cost[k] for k in paid) - need) + 0.02 * len(paid)
    keep = seen.battle_card()
    if keep is not None and keep in paid and seen.hand.count(keep) <= paid.count(keep):
        cost += 0.6 * seen.damage((keep,))
    return cost


def _main_score(seen: _Seen, a: LyabiAction) -> float:
    c = seen.c
    kind = a[0]
    if kind == "use":  # the Space-Time Stone: a second action
        return 100.0
    if kind == "pass":
        return 0.0
    if kind == "buy":
        target = seen.kind_of[a[1]]
        return 2.0 * seen.value(target) - _payment_cost(seen, seen.kinds(a.pay), c.r_cost[target])
    if kind == "split":
        gains = seen.kinds(a[2:])
        paid = seen.kinds(a.pay)
        return 2.0 * sum(seen.value(k) for k in gains) - _payment_cost(seen, paid, c.r_cost[paid[0]])
    # place: a circle is the damage engine; its colour is the top card's, unknown until placed
    li = list(c.levels).index(a[1])
    if len(seen.field) >= c.max_circles and not a[2]:
        return -1.0
    atk = sum(c.c_atk[k] for k in range(len(c.c_names)) if c.c_level_index[k] == li) / c.c_level_index.count(li)
    gain = 3.0 * atk - (3.0 * c.c_atk[seen.c.c_names.index(a[2])] if a[2] else 0.0)
    return gain - _payment_cost(seen, seen.kinds(a.pay), c.level_cost[li])


def _item_score(seen: _Seen, a: LyabiAction) -> float:
    if a[0] == "pass":
        return 0.0
    if seen.me["item"] is not None:  # taking another item would throw yours away
        return -1.0
    return 1.0 - _payment_cost(seen, seen.kinds(a.pay), seen.c.item_cost)


def _set_odds(seen: _Seen, obs: dict[str, Any]) -> list[float]:
    """How likely the opponent's set is blue, green, red, or the dummy (index 3)."""
    c, op = seen.c, seen.op
    if not op["battling"]:
        return [0.0, 0.0, 0.0, 1.0]  # it sets nothing: any ryabi wins
    eye = obs.get("seen_opponent_hand")
    cards = [seen.kind_of[n] for n in (eye if eye is not None else [*op["hand_known"], *op["discard"]])]
    odds = []
    for colour in range(len(COLOURS)):
        have = sum(1 for k in cards if c.r_colour[k] == colour)
        if eye is not None:
            w = (2.0 if colour in seen.op_colours else 0.5) if have else 0.0
        else:
            w = (1.0 + have) * (2.5 if colour in seen.op_colours else 1.0)
        odds.append(w)
    total = sum(odds)
    if total == 0:
        return [0.0, 0.0, 0.0, 1.0]
    return [w / total * (1 - DUMMY_ODDS) for w in odds] + [DUMMY_ODDS]


def _set_score(seen: _Seen, odds: list[float], a: LyabiAction) -> float:
    c = seen.c
    kinds = () if a[1] == "dummy" else seen.kinds(a[1:])
    mine = c.r_colour[kinds[0]] if kinds else -1
    hit = seen.damage(kinds)
    ev = -SPENT * sum(c.r_cost[k] for k in kinds)
    for colour, p in enumerate(odds[:3]):
        if mine >= 0 and BEATS[mine] == colour:
            ev += p * hit
        elif mine < 0 or BEATS[colour] == mine:
            ev -= p * seen.op_damage(colour)
    if mine >= 0:
        ev += odds[3] * hit
    return ev


def _brush_score(seen: _Seen, obs: dict[str, Any], seat: int, a: LyabiAction) -> float:
    """After the reveal: the colour that wins and hits hardest with your circles."""
    c = seen.c
    colours = obs["battle_colours"] or [None, None]
    theirs = colours[1 - seat]
    mine = COLOURS.index(a[2]) if a[0] == "use" else COLOURS.index(colours[seat])
    set_names = seen.me["set"]
    kinds = seen.kinds(set_names) if isinstance(set_names, list) else ()
    if not kinds:
        return 0.0
    second = kinds[1] if len(kinds) > 1 else None
    hit = sum(c.damage(k, kinds[0], second) for k in seen.field if c.c_colour[k] == mine)
    their = COLOURS.index(theirs) if theirs else -1
    if their < 0 or BEATS[mine] == their:
        return hit + (0.01 if a[0] != "use" else 0.0)  # keep the brush when it changes nothing
    if BEATS[their] == mine:
        return -seen.op_damage(their)
    return 0.0 + (0.01 if a[0] != "use" else 0.0)
