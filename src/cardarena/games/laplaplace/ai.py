"""Laplaplace's AI hooks (issue 14): a build's strength from its cards' abilities, the heuristic builder, the
evaluation, the hidden cards and the facts worth odds.

The battle is a damage race: a column that takes ``T`` turns to fall and deals ``D`` damage a turn wins when
``HP x D`` beats the enemy's. :func:`strength` estimates both from the parsed abilities (so it works for any card
file), with the synergies of the rulebook's cards and without their dead combinations:

- an action with ``<Top>`` counts only as the top card, or right above a card that lifts it (Lift);
- a card right above an event that ups it when it is downed (Rally) fires twice a turn; Rally under a card that
  never fires is dead weight (its force only);
- a damage increase that does not down (Edge) adds 1 to every hit of the column, so it pays with many hits;
- a card that is not upped in the up phase (Volley, Shield) works once, not every turn;
- damage to oneself (Strain) comes off every turn; removing oneself (Shed) keeps the HP but slows the column;
- reductions (Plating, Shield), reflection (Reflector), the removal of a damage source (Vengeance) and
  disruption of the enemy's top card (Stun, Banish, Jostle) lower the damage taken;
- a recovery (Second Wind) and a build bonus to the initial HP (Fortify) add HP; Judgement hurts a column whose HP
  is above its base HP, so it is dead (and worse) beside Fortify or Shed;
- abilities that need something the build cannot count on (Mimic's shared card, Scope and Sight without a target
  list of its own, Nullify, Decoy, Haste) count for their force only.

The heuristic adds, at each place, the card that makes the strongest build (ties broken by the rng), and stops
(``done``) when no card makes it stronger. Everything reads the seat's observation only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from cardarena.engine import Action, Rng

from .cards import CardDef, CardTable
from .constants import ADD, CATEGORIES, MAX_CARDS, OPEN, OPEN_CARDS, SHOW

if TYPE_CHECKING:
    from .state import LaplaplaceState

TURNS = 30  # the judgement after turn 30: the longest a battle lasts
ENEMY_DAMAGE = 5.0  # damage a turn of an average enemy column (random builds deal about that)
ENEMY_HITS = 2.5  # hits a turn of an average enemy column
ENEMY_CUT = 0.5  # damage an average enemy column takes off each blockable hit (Plating, Shield, Reflector...)
# The share of a card's damage that survives the enemy's disruption, by place: Stun, Banish, Jostle and Vengeance
# strike the topmost cards (most random columns hold one of them), so damage low in the column is surer.
EXPOSED = (0.5, 0.7, 0.85)


@dataclass(frozen=True, slots=True)
class Traits:
    """What a card does, read from its abilities, in the units of :func:`strength`."""

    force: int
    hits: int = 0  # damage hits to the enemy each time its action fires
    damage: int = 0  # total damage to the enemy each time its action fires
    top: bool = False  # its action needs <トップ>
    unblockable: bool = False  # its damage cannot be answered by the enemy
    fires: bool = False  # it has an action that fires every turn without a condition
    self_damage: int = 0  # damage to its own side each time it fires
    once: bool = False  # not upped in the up phase: it works once
    lifts_above: bool = False
    rally: bool = False  # ups the card above when that card is downed
    edge: int = 0  # damage added to each of its side's hits, without downing
    reduce: float = 0.0  # enemy damage a turn it stops
    disrupt: float = 0.0  # enemy damage a turn its disruption removes
    heal: bool = False  # recovers to the base HP once
    fortify: bool = False  # initial HP + half the base HP
    above_base: int = 0  # damage to every character above its base HP (Judgement)
    leaves: bool = False  # removes itself when it fires (Shed): HP kept, base HP and speed lost


def traits(card: CardDef) -> Traits:
    """A card's :class:`Traits`, read from its parsed abilities."""
    t: dict[str, Any] = {"force": card.force, "lifts_above": card.lifts_above, "once": card.no_up_phase}
    for ab in card.abilities:
        ops = [e.op for e in ab.effects]
        if ab is card.action:
            t["top"] = ab.top
            t["unblockable"] = ab.unblockable
            t["fires"] = not ab.limits
            for e in ab.effects:
                if e.op == "damage" and e.args[0] == "enemy":
                    t["hits"] = t.get("hits", 0) + e.args[2]
                    t["damage"] = t.get("damage", 0) + e.args[1] * e.args[2]
                elif e.op == "damage" and e.args[0] == "self":
                    t["self_damage"] = t.get("self_damage", 0) + e.args[1] * e.args[2]
                elif e.op == "damage":
                    t["above_base"] = e.args[1] * e.args[2]
            if "heal_to_base" in ops:
                t["heal"] = True
            if "remove_self" in ops:
                t["leaves"] = True
            if "list" in ops and any(e.op == "list" and e.args[0] == "enemy" for e in ab.effects):
                # downing, removing or moving the enemy's top card: it often is the one that hits
                t["disrupt"] = 2.0 if "remove" in ops else 1.5 if "down" in ops else 0.5
        elif ab.trigger == "above_downed" and "up" in ops:
            t["rally"] = True
        elif ab.trigger == "my_damage" and "modify" in ops and ab.downless:
            t["edge"] = sum(e.args[0] for e in ab.effects if e.op == "modify")
        elif ab.trigger == "enemy_damage":
            if "modify" in ops:
                cut = -sum(e.args[0] for e in ab.effects if e.op == "modify")
                t["reduce"] = min(cut, 2.0) * (ENEMY_HITS if ab.downless else 1.0) / (TURNS if card.no_up_phase else 1)
            elif "reflect" in ops:
                t["reduce"] = 2.0
                t["damage"] = t.get("damage", 0) + 2
            elif "remove" in ops:
                t["disrupt"] = 1.0
        elif "initial_hp_plus_half_base" in ops:
            t["fortify"] = True
    return Traits(**t)


@lru_cache(maxsize=4)
def _table_traits(table: CardTable) -> tuple[Traits, ...]:
    return tuple(traits(c) for c in table.cards)


def strength(table: CardTable, build: list[int]) -> float:
    """How strong a column (card-list indices, top first) is against an average enemy: its effective HP times its
    damage a turn, over the damage it takes a turn (see the module's docstring)."""
    ts = _table_traits(table)
    col = [ts[i] for i in build]
    base = sum(t.force for t in col)
    hp = float(base)
    dealt = 0.0
    hits = 0.0
    taken = ENEMY_DAMAGE
    above_base = 0
    heals = 0
    for k, t in enumerate(col):
        below = col[k + 1] if k + 1 < len(col) else None
        if t.fortify:
            hp += base // 2
        if t.heal:
            hp += base / (2 if heals == 0 else 4)  # a second recovery comes from lower
            heals += 1
        if t.leaves:
            continue  # its HP stays, its damage is nothing
        taken -= t.reduce + t.disrupt
        if t.damage and t.hits == 0:  # a reflection: its damage comes back when hit
            dealt += t.damage
            continue
        if not t.fires:
            continue
        if t.top and k > 0 and not (below is not None and below.lifts_above):
            continue  # a <Top> action below the top never fires
        times = (2.0 if below is not None and below.rally else 1.0) / (TURNS if t.once else 1)
        times *= EXPOSED[k] if k < len(EXPOSED) else 1.0
        cut = 0.0 if t.unblockable else ENEMY_CUT * t.hits
        dealt += (t.damage - cut) * times
        hits += t.hits * times
        taken += t.self_damage * times
        above_base += t.above_base
    edge = sum(t.edge for t in col)
    dealt += edge * hits
    if above_base and hp > base:
        taken += above_base / 2  # Judgement beside Fortify or Shed strikes its own column
    return hp * (dealt + 0.5) / max(taken, 0.5)


def _reference(table: CardTable) -> float:
    """The strength of a plain column of 8 forceful cards with no ability, the yardstick of :func:`evaluate`."""
    return 8 * 18 * 0.5 / ENEMY_DAMAGE


# -- the heuristic ---------------------------------------------------------------------------------------------------
def _own(observation: dict[str, Any], seat: int, table: CardTable, key: str) -> list[int]:
    ids = observation["seats"][seat].get(key) or []
    out = []
    for cid in ids:
        card = table.find(cid)
        assert card is not None, cid
        out.append(card.index)
    return out


def _still_to_place(shown: list[int], build: list[int]) -> list[int]:
    rest = list(shown)
    for i in build:
        if i in rest:
            rest.remove(i)
    return rest


def plan(table: CardTable, start: list[int], rng: Rng | None, *, size: int = MAX_CARDS) -> list[int]:
    """The column the heuristic builds from ``start``: card after card, the one that makes the strongest column
    (ties broken by ``rng``, else the first in the card list), stopping when none makes it stronger."""
    build = list(start)
    n = len(table)
    while len(build) < size:
        best = strength(table, build)
        picks: list[int] = []
        for i in range(n):
            s = strength(table, [*build, i])
            if s > best + 1e-9:
                best, picks = s, [i]
            elif picks and abs(s - best) <= 1e-9:
                picks.append(i)
        if not picks:
            break
        build.append(picks[rng.randbelow(len(picks))] if rng is not None and len(picks) > 1 else picks[0])
    return build


def heuristic_action(
    table: CardTable, scene: str, observation: dict[str, Any], legal: list[Action], seat: int, rng: Rng
) -> Action | None:
    """The heuristic's choice among ``legal`` from ``observation``: see :func:`plan`. In the open scene the 4 open
    cards are the first 4 cards of the plan (shown in card-list order), and every later add keeps room for the open
    cards still to place."""
    if not legal:
        return None
    kinds = {a[0] for a in legal}
    by_card = {(a[0], a[1]): a for a in legal if len(a) > 1}
    if SHOW in kinds:
        shown = _own(observation, seat, table, "open")
        wanted = sorted(plan(table, [], None, size=OPEN_CARDS))
        for i in _still_to_place(wanted, shown):
            a = by_card.get((SHOW, table.cards[i].id))
            if a is not None:
                return a
        return min((a for a in legal if a[0] == SHOW), key=lambda a: strength(table, [table.find(a[1]).index]))  # type: ignore[union-attr]
    build = _own(observation, seat, table, "build")
    rest = _still_to_place(_own(observation, seat, table, "open"), build) if scene == OPEN else []
    best: Action | None = None
    best_score = -math.inf
    ties = 0
    for a in legal:
        if a[0] == ADD:
            card = table.find(a[1])
            assert card is not None
            tail = list(rest)
            if card.index in tail:
                tail.remove(card.index)
            score = strength(table, [*build, card.index, *tail])
        else:  # done
            score = strength(table, build)
        if score > best_score + 1e-9:
            best, best_score, ties = a, score, 1
        elif abs(score - best_score) <= 1e-9:
            ties += 1
            if rng.randbelow(ties) == 0:
                best = a
    return best


def evaluate(table: CardTable, observation: dict[str, Any], seat: int) -> float:
    """+1/-1/0 once the battle is fought; before, the seat's column (with the open cards it must still place)
    against a plain column, squashed into (-1, 1)."""
    result = observation.get("result")
    if result is not None:
        w = result["winner"]
        return 0.0 if w is None else (1.0 if w == seat else -1.0)
    build = _own(observation, seat, table, "build")
    build += _still_to_place(_own(observation, seat, table, "open"), build)
    ratio = strength(table, build) / _reference(table)
    return math.tanh(math.log(max(ratio, 1e-6)) / 2)


# -- hidden information ---------------------------------------------------------------------------------------------
EMPTY = "-"  # a place of a hidden build that may hold no card


def hidden_cards(state: LaplaplaceState, seat: int) -> dict[str, dict[str, Any]]:
    """The other seat's cards ``seat`` cannot see: its open cards until both have shown 4; its build until the
    battle, 8 places when complete (7 while being made, the most it can hold then), an empty place as ``-``
    (the blind scene hides the size too). An open card of a hidden build is hidden as to its place."""
    other = 1 - seat
    if state.outcome is not None:
        return {}
    table = state.game.table
    out: dict[str, dict[str, Any]] = {}
    if state.game.scene is OPEN and len(state.shown[1]) < OPEN_CARDS:
        if state.shown[other]:
            out[f"P{other} open cards"] = {f"open {k + 1}": table.cards[i].id for k, i in enumerate(state.shown[other])}
        return out
    if state.done[other] or state.current_player == other:
        places = MAX_CARDS if state.done[other] else MAX_CARDS - 1
        build = state.builds[other]
        out[f"P{other} build"] = {
            f"place {k + 1}": table.cards[build[k]].id if k < len(build) else EMPTY for k in range(places)
        }
    return out


def hidden_facts(world: LaplaplaceState, seat: int) -> dict[str, str]:
    """What the other seat's hidden build holds in ``world`` (a resample for ``seat``): its number of cards; for
    each category whether it holds a card of it; and whether it holds the abilities that decide what to build
    against it: a <Top> attacker (disrupt its top), unblockable damage (reductions are wasted), disruption of your
    top cards, damage reductions or reflection. Nothing while its build is visible or not begun."""
    other = 1 - seat
    if world.outcome is not None or not (world.done[other] or world.current_player == other):
        return {}
    table = world.game.table
    ts = _table_traits(table)
    build = world.builds[other]
    cards = [table.cards[i] for i in build]
    who = f"P{other}'s build"
    facts = {f"{who}: cards": str(len(cards))}
    for cat in CATEGORIES:
        facts[f"{who} holds a {cat} card"] = _yes(any(c.category == cat for c in cards))
    facts[f"{who} holds a <Top> attacker"] = _yes(any(ts[i].top and ts[i].damage for i in build))
    facts[f"{who} holds unblockable damage"] = _yes(any(ts[i].unblockable and ts[i].damage for i in build))
    facts[f"{who} holds disruption"] = _yes(any(ts[i].disrupt for i in build))
    facts[f"{who} holds damage reduction"] = _yes(any(ts[i].reduce for i in build))
    return facts


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"
