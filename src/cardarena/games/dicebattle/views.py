"""What each seat may know: the observation (default deny), the public events in words, and resampling.

Hidden from a seat: the order of both decks, the opponent's hand, and the opponent's face-down set cards
(until the battle phase reveals them). Known to it: cards publicly returned to the opponent's hand (revived,
salvaged, kept), which stay in that hand (or among its face-down set cards) in every resample.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from cardarena.engine import Rng

from .constants import CHOICE, KIND_HUMAN, KIND_MAGIC, KIND_MONSTER, ORDER, OVER, PENALTY, STOCK
from .rules.battle import order_group
from .rules.levels import unit_level
from .rules.log import events
from .rules.turns import in_battle, setter
from .tables import Tables

if TYPE_CHECKING:
    from .state import DiceBattleState, Side

__all__ = ["events", "hidden_cards", "observation", "resample"]


def hidden_set(st: DiceBattleState, seat: int) -> bool:
    """The cards ``seat`` set this round are still face down (the dice phase is not over)."""
    who = setter(st)
    return who >= 0 and (who == seat or (seat == st.first and who != st.first))


def waiting(st: DiceBattleState) -> dict[str, Any]:
    """What the game waits on, public facts only."""
    if st.phase == OVER:
        return {"kind": "nothing", "seat": None}
    out: dict[str, Any] = {"kind": st.phase.label, "seat": st.actor}
    if st.phase == CHOICE:
        assert st.current is not None
        out["card"] = st.game.tables.card_id[st.current[2]]
        out["zone"] = st.current[3].label
    if st.phase == ORDER:
        out["cards"] = sorted(st.game.tables.card_id[c] for c in order_group(st))
    if st.phase == PENALTY:
        out["deck_out"] = 1 - st.actor  # whose deck ran out and was refilled from the graveyard
    return out


def observation(st: DiceBattleState, seat: int | None) -> dict[str, Any]:
    t = st.game.tables
    battle = in_battle(st)
    players = []
    for s, side in enumerate(st.sides):
        hidden = hidden_set(st, s) and seat != s
        p: dict[str, Any] = {
            "stars": side.stars,
            "miracle": side.miracle,
            "revival": side.revival,
            "hand_count": len(side.hand),
            "deck_count": len(side.deck),
            "graveyard": t.ids(side.grave),
            "stock": t.ids(side.stock),
            "roll": side.roll,
            "redraws": side.redraws,
            "token": side.token,
            "known_in_hand": t.ids(side.known),
            "used_last_battle": t.ids(side.used),
        }
        if hidden:
            p["main"] = len(side.main)
            p["circle"] = len(side.circle)
            p["grant"] = 1 if side.grant >= 0 else 0
        else:
            p["main"] = t.ids(side.main)
            p["circle"] = t.ids(side.circle)
            p["grant"] = t.card_id[side.grant] if side.grant >= 0 else None
        if seat == s:
            p["hand"] = t.ids(side.hand)
        if battle:
            p["level"] = unit_level(st, s)
            p["cancelled"] = side.cancelled
            p["tie_win"] = side.tie_win
        players.append(p)
    obs: dict[str, Any] = {
        "seat": seat,
        "round": st.round,
        "first": st.first,
        "phase": st.phase.label,
        "waiting": waiting(st),
        "players": players,
        "queue": [[lv, o, t.card_id[c], z.label] for lv, o, c, z in st.queue],
        "events": [event_text(st, e) for e in events(st, 12)],
        "result": st.returns() if st.phase == OVER else None,
    }
    return obs


def event_text(st: DiceBattleState, e: tuple[Any, ...]) -> str:
    """One public event in words."""
    t = st.game.tables
    kind: str = e[0]
    if kind == "first":
        return f"coin toss: seat {e[1]} goes first"
    if kind == "round":
        return f"-- round {e[1]}: seat {e[2]} is first --"
    if kind == "roll":
        return f"seat {e[1]} rolls {e[2]}"
    if kind == "miracle":
        return f"seat {e[1]} turns Miracle face down and rerolls: {e[2]}"
    if kind == "redraw":
        shown = ", ".join(t.name(c) for c in e[2]) or "nothing"
        return f"seat {e[1]} can set nothing: shows the hand ({shown}), shuffles it in and redraws"
    if kind == "token":
        return f"seat {e[1]} sets the dice token (Lv1)"
    if kind == "reveal":
        _, seat, main, circle, grant, token = e
        parts = [("dice token" if token else " + ".join(t.name(c) for c in main)) + f" (Lv{revealed_level(st, e)})"]
        if circle:
            parts.append("magic: " + ", ".join(t.name(c) for c in circle))
        if grant >= 0:
            parts.append(f"grant: {t.name(grant)}")
        return f"seat {seat} reveals " + "; ".join(parts)
    if kind == "effect":
        where = " (grant)" if e[3] == STOCK else ""
        return f"seat {e[1]}: {t.name(e[2])}{where} takes effect"
    if kind == "skip":
        return f"seat {e[1]} does not use {t.name(e[2])}"
    if kind == "unmet":
        where = " (grant)" if e[3] == STOCK else ""
        return f"seat {e[1]}: {t.name(e[2])}{where} has no effect (its condition does not hold)"
    if kind == "cancelled":
        where = " (grant)" if e[3] == STOCK else ""
        return f"seat {e[1]}: {t.name(e[2])}{where} does not resolve (cancelled)"
    if kind == "levels":
        return f"levels now: seat 0 Lv{e[1]}, seat 1 Lv{e[2]}"
    if kind == "cancel":
        return f"seat {e[1]}'s effects still to resolve this battle are cancelled"
    if kind == "tie_win":
        return f"seat {e[1]} wins this battle if it is a tie"
    if kind == "keep":
        return f"seat {e[1]} takes {t.name(e[2])} back to the hand instead of the graveyard"
    if kind == "draw":
        return f"seat {e[1]} draws {e[2]} card{'s' if e[2] != 1 else ''}"
    if kind == "discard":
        return f"seat {e[1]} discards {t.name(e[2])}"
    if kind == "mill":
        return f"{t.name(e[2])} goes from seat {e[1]}'s deck to the graveyard"
    if kind == "salvage":
        return f"seat {e[1]} takes {t.name(e[2])} back from the graveyard to the hand"
    if kind == "stars":
        return f"seat {e[1]} now has {e[2]} star{'' if e[2] == 1 else 's'}"
    if kind == "battle":
        result = "a tie" if e[3] < 0 else f"seat {e[3]} wins"
        return f"battle: seat 0 level {e[1]} vs seat 1 level {e[2]}: {result}"
    if kind == "both_three":
        return "both players reached 3 stars at once: both go back to 2"
    if kind == "win":
        return f"seat {e[1]} has 3 stars and wins the game"
    if kind == "revive":
        return f"seat {e[1]} turns Revival face down and takes {t.name(e[2])} back to the hand"
    if kind == "reshuffle":
        return f"seat {e[1]}'s deck is empty: the graveyard ({e[2]} cards) becomes the deck"
    if kind == "penalty":
        if e[2]:
            return f"seat {e[1]} draws 1 card (the penalty for the opponent's empty deck)"
        return f"seat {e[1]} declines the penalty draw"
    if kind == "cap":
        return f"round {e[1]} was the last allowed (max_turns): the game is a draw"
    return " ".join(map(str, e))


def revealed_level(st: DiceBattleState, e: tuple[Any, ...]) -> int:
    """The printed level of a main unit at its reveal: the dice token 1, a human its level, monsters their sum."""
    _, _, main, _, _, token = e
    t = st.game.tables
    if token or not main:
        return 1 if token else 0
    if t.kind[main[0]] == KIND_MONSTER:
        return sum(t.level[c] for c in main)
    return t.level[main[0]]


# -- what a seat cannot see
def hidden_cards(st: DiceBattleState, seat: int) -> dict[str, dict[str, str]]:
    """Every place whose card ``seat`` cannot see, by pool (see ``Game.hidden_cards``).

    ``your deck``: the order of the seat's own deck. ``seat N hand and deck``: the opponent's hand (but the cards
    known to be in it) and deck, which trade places freely. ``seat N face-down main zone`` / ``magic`` / ``grant``:
    the opponent's set cards before the reveal, which resample redraws from the unseen cards within the setting
    rules on the public die (one pool per zone: each zone's rules narrow its cards differently; combined monsters
    one pool each, as the die may leave a place a single possible card). A card known to
    be in the opponent's hand may have been set face down: the hand's places are then its first ``hand size -
    known cards`` cards other than the known ones still in it, as many in every world.
    """
    t = st.game.tables
    other = 1 - seat
    opp = st.sides[other]
    pools: dict[str, dict[str, str]] = {
        "your deck": {f"deck {k}": t.cards[c].id for k, c in enumerate(st.sides[seat].deck)}
    }
    face_down: list[int] = []
    if hidden_set(st, other) and opp.main:
        face_down = [*opp.main, *opp.circle, *([opp.grant] if opp.grant >= 0 else [])]
        if len(opp.main) == 1:
            pools[f"seat {other} face-down main zone"] = {"main 0": t.cards[opp.main[0]].id}
        else:  # monsters combined on the die narrow one another (two on a 1: the second is a Slime)
            for k, c in enumerate(opp.main):
                pools[f"seat {other} face-down main zone {k}"] = {f"main {k}": t.cards[c].id}
        pools[f"seat {other} face-down magic"] = {f"circle {k}": t.cards[c].id for k, c in enumerate(opp.circle)}
        if opp.grant >= 0:
            pools[f"seat {other} face-down grant"] = {"grant": t.cards[opp.grant].id}
    known_in_hand = _without(face_down, opp.known)
    unknown = _without(known_in_hand, opp.hand)[: max(0, len(opp.hand) - len(opp.known))]
    cards = {f"hand {k}": t.cards[c].id for k, c in enumerate(unknown)}
    cards.update({f"deck {k}": t.cards[c].id for k, c in enumerate(opp.deck)})
    pools[f"seat {other} hand and deck"] = cards
    return {name: places for name, places in pools.items() if places}


def _without(remove: list[int], cards: list[int]) -> list[int]:
    """``cards`` less one copy of each card of ``remove`` (the first), in order."""
    rest = list(cards)
    for k in remove:
        if k in rest:
            rest.remove(k)
    return rest


# -- resampling
ATTEMPTS = 64  # random draws of a face-down set before the exhaustive search (not Final: tests set it)

_Next = Callable[[int, list[int]], "tuple[list[int], list[int], int] | None"]


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
    join = t.join[roll]
    total = cost[main[0]] + sum(join[c] for c in main[1:]) + sum(t.level[c] for c in circle)
    if grant >= 0:
        total += t.grant_level[grant]
    return total <= roll


def resample(st: DiceBattleState, seat: int, rng: Rng) -> DiceBattleState:
    """A world ``seat`` cannot tell from ``st``, drawn from what the seat may know and ``rng`` alone.

    Every pool of unseen cards is sorted before it is shuffled or drawn from (its true order is hidden), and the
    world's own chance is reseeded from ``rng``: two states that look alike to ``seat`` give the same world.
    """
    c = st.clone()
    c._legal = None  # the cached legal actions may name the true cards of the opponent's hand
    c.rng = rng.fork()
    mine = c.sides[seat]
    mine.deck.sort()
    rng.shuffle(mine.deck)
    other = 1 - seat
    opp = c.sides[other]
    setting = hidden_set(st, other)
    _redeal(st.game.tables, opp, rng, hidden_set=setting and bool(opp.main))
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
    pool.sort()  # the unseen cards in an order the observer knows, not in their true order
    if not hidden_set:
        rng.shuffle(pool)
        fill = hand_n - len(known)
        if side.stuck:
            # The hand that set the dice token held no unit fitting its die: keep that many such cards.
            roll = side.stuck_roll
            stuck = [k for k, c in enumerate(pool) if not t.fits(c, roll)][: side.stuck]
            picked = set(stuck)
            pool = [pool[k] for k in stuck] + [c for k, c in enumerate(pool) if k not in picked]
        side.hand = [*known, *pool[:fill]]
        side.deck = pool[fill:]
        return
    main_n, circle_n, has_grant = len(side.main), len(side.circle), side.grant >= 0
    for _ in range(ATTEMPTS):
        # Known cards may be among the set cards: draw the set from known + unknown alike.
        candidates = [*known, *pool]
        drawn = _draw_set(t, candidates, main_n, circle_n, has_grant, side.roll, rng)
        if drawn is not None and _place(side, drawn, candidates, hand_n, rng):
            return
    # Random draws kept failing (a rare combination): search all sets, in a random order, for one that fits.
    # The true set is one, so this always finds a set in a position reached by the rules.
    candidates = [*known, *pool]
    found = search_set(t, candidates, main_n, circle_n, has_grant, side.roll, rng, known=known, hand_n=hand_n)
    if found is None:
        raise AssertionError("the face-down cards break the setting rules: no set can be redrawn")
    for x in [*found[0], *found[1], found[2]]:
        if x >= 0:
            candidates.remove(x)
    placed = _place(side, found, candidates, hand_n, rng)
    assert placed


def _place(side: Side, drawn: tuple[list[int], list[int], int], rest: list[int], hand_n: int, rng: Rng) -> bool:
    """Put a drawn set on ``side``; ``rest`` (the candidates left, known cards among them) fills hand and deck.

    False (and ``side`` unchanged) if the known cards left out of the set do not fit in the hand.
    """
    main, circle, grant = drawn
    known_left = list(side.known)
    for x in [*main, *circle, grant]:
        if x in known_left:
            known_left.remove(x)
    if len(known_left) > hand_n:
        return False
    for x in known_left:
        rest.remove(x)
    rng.shuffle(rest)
    fill = hand_n - len(known_left)
    side.main, side.circle, side.grant = main, circle, grant
    side.hand = [*known_left, *rest[:fill]]
    side.deck = rest[fill:]
    return True


def _pick(rng: Rng, cards: list[int], ok: list[int]) -> int | None:
    """Remove and return a random card of ``cards`` at one of the positions ``ok`` (None if there is none)."""
    if not ok:
        return None
    return cards.pop(ok[rng.randbelow(len(ok))])


def _draw_set(
    t: Tables, cards: list[int], main_n: int, circle_n: int, has_grant: bool, roll: int, rng: Rng
) -> tuple[list[int], list[int], int] | None:
    """Draw random face-down cards that obey the setting rules on ``roll``; they are removed from ``cards``."""
    kind, level = t.kind, t.level
    room = roll
    main: list[int] = []
    cost = t.cost[roll]  # the first unit's cost; monsters joining it use their join cost
    for _ in range(main_n):
        want_monster = main_n > 1
        ok = [
            k
            for k, c in enumerate(cards)
            if (kind[c] == KIND_MONSTER if want_monster else kind[c] != KIND_MAGIC) and cost[c] <= room
        ]
        c = _pick(rng, cards, ok)
        if c is None:
            return None
        main.append(c)
        room -= cost[c]
        cost = t.join[roll]
    human = kind[main[0]] == KIND_HUMAN
    circle: list[int] = []
    for _ in range(circle_n):
        ok = [
            k
            for k, c in enumerate(cards)
            if kind[c] == KIND_MAGIC and (human or t.with_monster[c]) and level[c] <= room
        ]
        c = _pick(rng, cards, ok)
        if c is None:
            return None
        circle.append(c)
        room -= level[c]
    grant = -1
    if has_grant:
        ok = [k for k, c in enumerate(cards) if 0 < t.grant_level[c] <= room]
        picked = _pick(rng, cards, ok)
        if picked is None:
            return None
        grant = picked
    return main, circle, grant


def search_set(
    t: Tables,
    cards: list[int],
    main_n: int,
    circle_n: int,
    has_grant: bool,
    roll: int,
    rng: Rng,
    *,
    known: list[int],
    hand_n: int,
) -> tuple[list[int], list[int], int] | None:
    """A set of face-down cards from ``cards`` that obeys the setting rules on ``roll``, or None if none does.

    Depth-first over the distinct cards in a random order, so it is exhaustive (it cannot miss a set that
    exists) yet does not favour one answer. Known cards left out of the set must still fit in the hand of
    ``hand_n`` cards. ``cards`` is not changed.
    """
    kind, level, grant_level, with_monster = t.kind, t.level, t.grant_level, t.with_monster
    cost, join = t.cost[roll], t.join[roll]
    counts: dict[int, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    distinct = list(counts)
    rng.shuffle(distinct)
    must_set_known = len(known) - hand_n  # known cards that cannot be in the hand any more

    def known_used(chosen: list[int]) -> int:
        left = list(known)
        for x in chosen:
            if x in left:
                left.remove(x)
        return len(known) - len(left)

    def pick(
        n: int, start: int, room: int, ok: list[int], use: Sequence[int], chosen: list[int], then: _Next
    ) -> tuple[list[int], list[int], int] | None:
        if n == 0:
            return then(room, chosen)
        for k in range(start, len(ok)):
            c = ok[k]
            need = use[c]
            if need > room or counts[c] == 0:
                continue
            counts[c] -= 1
            chosen.append(c)
            found = pick(n - 1, k, room - need, ok, use, chosen, then)
            chosen.pop()
            counts[c] += 1
            if found is not None:
                return found
        return None

    def with_grant(room: int, chosen: list[int]) -> tuple[list[int], list[int], int] | None:
        main, circle = chosen[:main_n], chosen[main_n:]
        options = [-1]
        if has_grant:
            options = [c for c in distinct if counts[c] > 0 and 0 < grant_level[c] <= room]
        for g in options:
            if known_used([*chosen, g]) >= must_set_known:
                return list(main), list(circle), g
        return None

    def with_first(room: int, chosen: list[int]) -> tuple[list[int], list[int], int] | None:
        # The units were picked at their join cost; the one set first pays its full cost. A unit whose cost is
        # its join cost goes first when there is one (any order of the others is as good), else the cheapest.
        extra = [cost[c] - join[c] for c in chosen]
        first = extra.index(min(extra))
        if extra[first] > room:
            return None
        main = [chosen[first], *chosen[:first], *chosen[first + 1 :]]
        return with_circle(room - extra[first], main)

    def with_circle(room: int, chosen: list[int]) -> tuple[list[int], list[int], int] | None:
        human = kind[chosen[0]] == KIND_HUMAN
        magic = [c for c in distinct if kind[c] == KIND_MAGIC and (human or with_monster[c])]
        return pick(circle_n, 0, room, magic, level, chosen, with_grant)

    if main_n == 1:
        units = [c for c in distinct if kind[c] != KIND_MAGIC]
    else:
        units = [c for c in distinct if kind[c] == KIND_MONSTER]
    return pick(main_n, 0, roll, units, join, [], with_first)
