"""Knowledge for the agents: a position's value from one seat's observation, a good player's rule of thumb for
every decision, and the hidden facts worth odds. Everything here reads an observation (or a world drawn by
``resample``) and the public card tables, never the true state.

The rule of thumb in the dice phase: of every way to finish setting from the cards in hand, take the one whose
main unit is expected to stand highest after the effects (an effect counts by how likely its condition holds,
a choice effect only when it helps), spending a card only for a gain; read what the opponent showed (a second
player knows the first player's die and how many cards it set: two in the main zone are monsters, magic means a
human) to weigh conditions like "if the opponent's main unit is a monster"; reroll with Miracle a die too low to
set anything worth it. In the battle, use a choice effect when it helps now; Revival takes back the best card.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from cardarena.engine import Action, Rng

from .constants import KIND_HUMAN, KIND_MAGIC, KIND_MONSTER, STOCK
from .rules.levels import base_level
from .views import hidden_set

if TYPE_CHECKING:
    from .cards import Effect
    from .state import DiceBattleState
    from .tables import Tables

CARD_COST = 0.15  # what spending a card from the hand is worth, in levels
STAR = 3.0  # what a star gained (or stolen) by an effect is worth, in levels
MIRACLE_BELOW = 2.5  # reroll when the best setting on the die is worth less than this (and the die is low)
REVIVE_AT = 4  # Revival (once a game) takes back a card of at least this level

# Levels worth of one unit of each operation (``n`` times this); conditions are weighed separately.
OP_VALUE = {
    "power": 1.0,
    "weaken": 1.0,
    "draw": 0.3,
    "opp_draw": -0.3,
    "discard": 0.35,
    "mill": 0.05,
    "salvage": 0.3,
    "star": STAR,
    "steal": STAR * 0.8,
}
OP_FLAT = {"halve": 1.5, "cancel": 1.2, "tie_win": 0.5, "keep": 0.6, "swap": 0.3}


class Context:
    """What the seat knows when it weighs an effect: its own setting and what it can tell of the opponent's."""

    __slots__ = (
        "ahead",
        "behind",
        "first",
        "hand_after",
        "opp_human",
        "opp_magic",
        "opp_monster",
        "opp_stars",
        "opp_token",
        "roll",
    )

    def __init__(self, obs: dict[str, Any], seat: int) -> None:
        me, opp = obs["players"][seat], obs["players"][1 - seat]
        self.roll = me["roll"]
        self.first = obs["first"] == seat
        self.behind = me["stars"] < opp["stars"]
        self.ahead = me["stars"] > opp["stars"]
        self.opp_stars = opp["stars"]
        self.hand_after = me["hand_count"]
        # What the opponent showed: a set made before ours (counts only, or the cards once revealed).
        main, circle = opp["main"], opp["circle"]
        count = main if isinstance(main, int) else len(main)
        self.opp_token = 1.0 if opp["token"] else (0.0 if count else 0.05)
        if opp["token"]:
            self.opp_human = self.opp_monster = 0.0
        elif count >= 2:  # a human goes alone: two cards in the main zone are monsters
            self.opp_human, self.opp_monster = 0.0, 1.0
        elif (circle if isinstance(circle, int) else len(circle)) and count:
            self.opp_human, self.opp_monster = 0.85, 0.15  # magic goes beside a human (or a Beast Call)
        else:
            self.opp_human = self.opp_monster = 0.5
        has_circle = circle if isinstance(circle, int) else len(circle)
        self.opp_magic = 1.0 if has_circle else (0.0 if count else 0.3)


def chance(ctx: Context, when: str, n: int, *, my_kind: int, monsters: int) -> float:
    """How likely an effect's condition holds in the battle, as the seat sees it while setting."""
    if when == "always":
        return 1.0
    table = {
        "opp_human": ctx.opp_human,
        "opp_monster": ctx.opp_monster,
        "opp_token": ctx.opp_token,
        "opp_magic": ctx.opp_magic,
        "my_human": float(my_kind == KIND_HUMAN),
        "my_monster": float(my_kind == KIND_MONSTER),
        "behind": float(ctx.behind),
        "ahead": float(ctx.ahead),
        "losing": 0.4,
        "first": float(ctx.first),
        "second": float(not ctx.first),
        "roll_le": float(ctx.roll <= n),
        "roll_ge": float(ctx.roll >= n),
        "monsters_ge": float(monsters >= n),
        "hand_le": float(ctx.hand_after <= n),
    }
    return table.get(when, 0.5)


def effect_value(eff: Effect | None, ctx: Context, *, my_kind: int, monsters: int) -> float:
    """The expected worth of an effect, in levels of the main unit; a choice effect is used only when it helps."""
    if eff is None:
        return 0.0
    total = 0.0
    for op, n in eff.ops:
        if op == "steal" and ctx.opp_stars == 0:
            continue
        total += OP_VALUE[op] * n if op in OP_VALUE else OP_FLAT.get(op, 0.0)
    if eff.type == "choice":
        total = max(0.0, total)
    return chance(ctx, eff.when, eff.when_n, my_kind=my_kind, monsters=monsters) * total


def setting_value(t: Tables, main: list[int], circle: list[int], grant: int, ctx: Context) -> float:
    """What a finished setting is worth: the main unit's level plus its cards' effects, less the cards spent."""
    if not main:
        return float("-inf")
    kind = t.kind[main[0]]
    monsters = sum(1 for c in main if t.kind[c] == KIND_MONSTER)
    level = t.level[main[0]] if kind == KIND_HUMAN else sum(t.level[c] for c in main)
    value = float(level)
    for c in (*main, *circle):
        value += effect_value(t.effect[c], ctx, my_kind=kind, monsters=monsters)
    spent = len(main) + len(circle)
    if grant >= 0:
        eff = t.grant[grant]
        worth = effect_value(eff, ctx, my_kind=kind, monsters=monsters)
        value += worth * (1.5 if eff is not None and eff.type == "permanent" else 0.8)
        spent += 1
    return value - CARD_COST * spent


class Planner:
    """The best way to finish setting on a die, searched over the cards of the hand (the setting rules of
    ``rules/dice.py``, written again over card lists: the planner sees the observation, not a state)."""

    def __init__(self, t: Tables, ctx: Context, roll: int) -> None:
        self.t = t
        self.ctx = ctx
        self.roll = roll

    def room(self, main: list[int], circle: list[int], grant: int) -> int:
        t, roll = self.t, self.roll
        if not main:
            return roll
        used = t.cost[roll][main[0]] + sum(t.join[roll][c] for c in main[1:]) + sum(t.level[c] for c in circle)
        return roll - used - (t.grant_level[grant] if grant >= 0 else 0)

    def additions(self, main: list[int], circle: list[int], grant: int, hand: Counter[int]) -> list[tuple[str, int]]:
        """The cards that may be set next, as (zone, card): the same rules as the dice phase's legal actions."""
        t, roll = self.t, self.roll
        cards = sorted(c for c, n in hand.items() if n > 0)
        if not main:
            return [("set", c) for c in cards if t.kind[c] != KIND_MAGIC and t.cost[roll][c] <= roll]
        room = self.room(main, circle, grant)
        out: list[tuple[str, int]] = []
        if t.kind[main[0]] == KIND_MONSTER:
            out += [("set", c) for c in cards if t.kind[c] == KIND_MONSTER and t.join[roll][c] <= room]
        if room > 0:
            if t.kind[main[0]] == KIND_MONSTER:
                out += [("magic", c) for c in cards if t.with_monster[c] and t.level[c] <= room]
            else:
                out += [("magic", c) for c in cards if t.kind[c] == KIND_MAGIC and t.level[c] <= room]
            if grant < 0:
                out += [("grant", c) for c in cards if 0 < t.grant_level[c] <= room]
        return out

    def best(self, main: list[int], circle: list[int], grant: int, hand: Counter[int], floor: int = -1) -> float:
        """The value of the best finished setting from here (adding cards in a canonical order: no card index
        below ``floor`` once the main unit is set, so each set of cards is tried once)."""
        value = setting_value(self.t, main, circle, grant, self.ctx) if main else float("-inf")
        for zone, c in self.additions(main, circle, grant, hand):
            if main and c < floor:
                continue
            hand[c] -= 1
            if zone == "set":
                v = self.best([*main, c], circle, grant, hand, c if main else -1)
            elif zone == "magic":
                v = self.best(main, [*circle, c], grant, hand, c)
            else:
                v = self.best(main, circle, c, hand, c)
            hand[c] += 1
            value = max(value, v)
        return value


def _card(t: Tables, ident: str) -> int:
    return t.by_id[ident]


def dice_action(t: Tables, obs: dict[str, Any], legal: list[Action], seat: int, rng: Rng) -> Action:
    me = obs["players"][seat]
    ctx = Context(obs, seat)
    planner = Planner(t, ctx, me["roll"])
    main = [_card(t, c) for c in me["main"]]
    circle = [_card(t, c) for c in me["circle"]]
    grant = _card(t, me["grant"]) if me["grant"] else -1
    hand = Counter(_card(t, c) for c in me["hand"])
    kinds = {str(a[0]) for a in legal}
    if not main and ("redraw" in kinds or "token" in kinds):
        # Nothing fits the die: a reroll is better than a new hand on a low die.
        if "miracle" in kinds and me["roll"] <= 3:
            return _pick(legal, "miracle")
        return legal[-1]
    scored: list[tuple[float, int, Action]] = []
    for k, action in enumerate(legal):
        kind = str(action[0])
        if kind == "miracle":
            continue
        if kind == "done":
            value = setting_value(t, main, circle, grant, ctx)
            scored.append((value, -1, action))  # on equal value, stop: keep the cards
            continue
        c = _card(t, action[1])
        hand[c] -= 1
        if kind == "set":
            value = planner.best([*main, c], circle, grant, hand, c if main else -1)
        elif kind == "magic":
            value = planner.best(main, [*circle, c], grant, hand, c)
        else:
            value = planner.best(main, circle, c, hand, c)
        hand[c] += 1
        scored.append((value, k, action))
    best_value = max(s[0] for s in scored)
    if "miracle" in kinds and me["roll"] <= 3 and best_value < MIRACLE_BELOW:
        return _pick(legal, "miracle")
    top = [s for s in scored if s[0] >= best_value - 1e-9]
    top.sort(key=lambda s: s[1])
    return top[0][2]


def _pick(legal: list[Action], kind: str) -> Action:
    """The first action of ``kind``; the first action where ``legal`` holds none: a search may ask the rule of thumb
    about part of the legal actions (ISMCTS's ``candidates`` ranks them by asking again without those chosen)."""
    return next((a for a in legal if a[0] == kind), legal[0])


def choice_action(t: Tables, obs: dict[str, Any], legal: list[Action], seat: int) -> Action:
    """Use a choice effect when it helps now; a grant waiting in the stock zone is kept for a battle it decides."""
    waiting = obs["waiting"]
    card = _card(t, waiting["card"])
    stock = waiting["zone"] == STOCK.label
    eff = t.grant[card] if stock else t.effect[card]
    me, opp = obs["players"][seat], obs["players"][1 - seat]
    mine, theirs = me.get("level", 0), opp.get("level", 0)
    use = True
    if eff is not None:
        ops = {op: n for op, n in eff.ops}
        if "swap" in ops:
            use = mine < theirs
        elif ops.keys() <= {"power", "weaken", "halve", "tie_win"} and stock:
            # A one-shot grant: fire it when it turns the battle now, keep it otherwise.
            gain = ops.get("power", 0) + ops.get("weaken", 0) + (theirs - theirs // 2 if "halve" in ops else 0)
            if "tie_win" in ops:
                use = mine == theirs
            else:
                use = mine <= theirs < mine + gain
        elif set(ops) == {"opp_draw"}:
            use = False
    return _pick(legal, "use" if use else "skip")


def order_action(t: Tables, obs: dict[str, Any], legal: list[Action], seat: int) -> Action:
    """Tied effects: when losing, an effect that needs "losing" goes first (a power would spoil it); else a
    power first (a later "losing" check may still hold after the opponent's weaken)."""
    me, opp = obs["players"][seat], obs["players"][1 - seat]
    losing = me.get("level", 0) < opp.get("level", 0)

    def rank(action: Action) -> tuple[int, int]:
        eff = t.effect[_card(t, action[1])]
        needs_losing = eff is not None and eff.when == "losing"
        return (0 if needs_losing == losing else 1, t.by_id[action[1]])

    return min(legal, key=rank)


def revive_action(t: Tables, legal: list[Action]) -> Action:
    """Revival (once a game) for a strong card: the highest level used in the battle, if high enough."""
    cards = [a for a in legal if a[0] == "revive"]
    if not cards:
        return legal[-1]
    best = max(cards, key=lambda a: (t.level[_card(t, a[1])], -_card(t, a[1])))
    return best if t.level[_card(t, best[1])] >= REVIVE_AT else _pick(legal, "pass")


def heuristic_action(t: Tables, obs: dict[str, Any], legal: list[Action], seat: int, rng: Rng) -> Action:
    """A good player's choice among ``legal`` from ``seat``'s observation (``rng`` is kept for ties)."""
    if len(legal) == 1:
        return legal[0]
    kind = obs["waiting"]["kind"]
    if kind == "dice":
        return dice_action(t, obs, legal, seat, rng)
    if kind == "choice":
        return choice_action(t, obs, legal, seat)
    if kind == "order":
        return order_action(t, obs, legal, seat)
    if kind == "revive":
        return revive_action(t, legal)
    return _pick(legal, "draw") if any(a[0] == "draw" for a in legal) else legal[0]  # penalty: draw


def evaluate(obs: dict[str, Any], seat: int) -> float:
    """The stars race from ``seat``'s side, in [-1, 1]: stars, the battle under way, cards in hand, Miracle and
    Revival still up."""
    result = obs["result"]
    if result is not None:
        return float(result[seat])
    me, opp = obs["players"][seat], obs["players"][1 - seat]
    value = 0.28 * (me["stars"] - opp["stars"])
    if "level" in me:  # a battle under way: its likely winner
        diff = me["level"] - opp["level"]
        if diff == 0:
            diff = int(me["tie_win"]) - int(opp["tie_win"])
        value += 0.18 * (diff > 0) - 0.18 * (diff < 0)
    value += max(-0.1, min(0.1, 0.02 * (me["hand_count"] - opp["hand_count"])))
    value += 0.03 * (int(me["miracle"]) - int(opp["miracle"])) + 0.03 * (int(me["revival"]) - int(opp["revival"]))
    return max(-0.95, min(0.95, value))


def hidden_facts(world: DiceBattleState, seat: int) -> dict[str, str]:
    """Facts about the opponent's hidden cards in a world drawn for ``seat``: the level of their face-down unit
    (per die), the levels of their face-down magic and grant, their strongest unit in hand, the strong units left
    in their deck."""
    t = world.game.tables
    other = 1 - seat
    opp = world.sides[other]
    facts: dict[str, str] = {}
    if hidden_set(world, other) and opp.main:
        kind = "human" if t.kind[opp.main[0]] == KIND_HUMAN else "monster"
        facts[f"seat {other}'s face-down unit (die {opp.roll})"] = f"Lv{base_level(world, other)} {kind}"
        if opp.circle:
            levels = "+".join(str(t.level[c]) for c in sorted(opp.circle, key=lambda c: t.level[c]))
            facts[f"seat {other}'s face-down magic"] = f"Lv{levels}"
        if opp.grant >= 0:
            facts[f"seat {other}'s face-down grant"] = f"grant Lv{t.grant_level[opp.grant]}"
    units = [t.level[c] for c in opp.hand if t.kind[c] != KIND_MAGIC]
    facts[f"seat {other}'s strongest unit in hand"] = f"Lv{max(units)}" if units else "none"
    strong = sum(1 for c in opp.deck if t.kind[c] != KIND_MAGIC and t.level[c] >= 5)
    facts[f"seat {other}'s deck: units of Lv5 or more left"] = str(strong)
    return facts
