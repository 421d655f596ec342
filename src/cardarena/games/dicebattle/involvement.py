"""Dice Battle Monsters' hooks for the balance report (:mod:`cardarena.engine.involvement`): what each action and
the events it set off involve.

Everything is read from ``before``/``after`` and the game's public event log (``state.log``, :mod:`.rules.log`):
the events an action added are the log's newest links down to ``before``'s log (a persistent chain shared by
clones, so this costs one step per new event). The rules do no extra work for the report.

The one thing the log does not name is the cards drawn (a draw is logged as a count: the cards are hidden). They
follow exactly from the hands, as multisets: the hand after = the hand before + drawn + cards back to the hand
(salvage, keep, Revival: logged by name) - cards discarded (logged) - the card the action set - the hand shown and
shuffled back by a redraw (logged). So drawn = after - before - back + discarded + set + redrawn.

Involvements (each entry once per action: the report counts games, not events):

- ``card``: ``in_deck`` (the 30 cards of each seat's deck, in the initial state); ``drawn`` (the opening hand, the
  draw phase, effects, redraws, the penalty card); ``available`` (back to the hand: salvage, ``keep``, Revival);
  ``set`` (a ``set``/``magic``/``grant`` action: the card put on the die); ``fired`` (its effect took effect from
  the main zone or the magic circle); ``countered`` (its effect was stopped by the opponent's ``cancel``);
  ``discarded`` (the opponent's ``discard``); ``milled`` (the opponent's ``mill``).
- ``grant`` (cards with a 付与): ``set`` (set in the stock zone), ``fired`` (the grant took effect, each battle for
  a permanent one), ``countered``.
- ``effect`` (the operations of the effect language the pool uses): ``applied`` when an effect holding it fires.
- ``item`` (the action cards 奇跡 Miracle and 復活 Revival): ``available`` in the initial state, ``activated`` when
  turned face down.
- ``rule`` (seat ``None``): the redraw, the dice token, tied effects ordered by their owner, an effect whose
  condition does not hold, a tie, a tie won by ``tie_win``, both reaching 3 stars, the deck running out and the
  penalty draw taken or declined, and the 異例 special rules of the pool taking effect.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from cardarena.engine import Action, Declared, Involvement

from .cards import OPERATIONS, SPECIALS, operation_doc
from .constants import A_FIRST, A_GRANT, A_MAGIC, A_SET, KIND_MONSTER, STOCK
from .rules.log import newest
from .tables import Tables

if TYPE_CHECKING:
    from .cards import Card
    from .rules.log import Event, Log
    from .state import DiceBattleState

#: The items: the two action cards every player starts with face up (準備).
ITEMS: dict[str, str] = {
    "miracle": "奇跡 Miracle (ダイスフェイズ: turn it face down to roll the die again)",
    "revival": "復活 Revival (リボーンフェイズ: the loser turns it face down to take back a card used in the battle)",
}

#: The rules worth watching, with the rulebook section each one follows.
RULES: dict[str, str] = {
    "redraw": "ダイスフェイズ: nothing can be set, the hand is shown and drawn again (引き直し)",
    "dice-token": "ダイスフェイズ: three redraws and still nothing, the dice token (サイコロトークン Lv1) is set",
    "order": "バトルフェイズ: equal levels of one owner, the owner chooses the order of the effects",
    "unmet": "バトルフェイズ: an effect whose condition does not hold does not take effect",
    "battle-tie": "バトルフェイズ: equal levels, a tie (no star; both draw 2)",
    "tie-win": "バトルフェイズ: equal levels, won by a tie_win effect",
    "both-three": "ドローフェイズ: both reach 3 stars at once, both go back to 2",
    "deck-out": "デッキが無くなった場合の処理: the graveyard is shuffled as the new deck",
    "penalty-draw": "デッキが無くなった場合の処理: the opponent draws 1 card as the penalty",
    "penalty-decline": "デッキが無くなった場合の処理: the opponent declines the penalty card",
}

#: The ends of a game: the rulebook's 勝利条件 and the max_turns safety cap (the game's only draw).
ENDS: dict[str, str] = {
    "three-stars": "勝利条件: 3 stars at the end of the reward phase, the last star won in the battle",
    "three-stars-by-effect": "勝利条件: 3 stars at the end of the reward phase, without winning that battle "
    "(the stars came from effects)",
    "turn-cap": "the max_turns safety cap: a draw",
}


def catalogue(tables: Tables) -> list[Declared]:
    """Every card of the pool in use, the grants, the operations and 異例 specials the pool uses, the two items
    and the rules worth watching."""
    cards = tables.cards
    out = [Declared("card", c.id, f"{c.name} ({c.id}, {c.kind} Lv{c.level})") for c in cards]
    out += [Declared("grant", c.id, f"grant of {c.name} ({c.id}, grant Lv{c.grant_level})") for c in cards if c.grant]
    used = {op for c in cards for eff in (c.effect, c.grant) if eff is not None for op, _ in eff.ops}
    out += [Declared("effect", op, f"{op}: {operation_doc(op)}") for op in OPERATIONS if op in used]
    out += [Declared("item", key, label) for key, label in ITEMS.items()]
    out += [Declared("rule", key, label) for key, label in RULES.items()]
    specials = {c.special for c in cards if c.special is not None}
    out += [Declared("rule", s, f"異例 {s}: {SPECIALS[s]}") for s in SPECIALS if s in specials]
    return out


def end_conditions() -> list[Declared]:
    return [Declared("end", key, label) for key, label in ENDS.items()]


def end_condition(state: DiceBattleState) -> str:
    """``turn-cap`` for the draw at the cap; else whether the winner won the last battle."""
    if not state.is_terminal():
        raise ValueError("end_condition needs a terminal state (the game is not over)")
    if state.winner is None:
        return "turn-cap"
    return "three-stars" if state.battle_winner == state.winner else "three-stars-by-effect"


# -- the initial state and each action ------------------------------------------------------------------------------
def initial(state: DiceBattleState) -> list[Involvement]:
    """Each seat's deck (``in_deck``), the opening hands (``drawn``) and both items face up (``available``)."""
    ids = state.game.tables.cards
    found: dict[Involvement, None] = {}
    for seat, deck in enumerate(state.game.decks):
        for c in deck.cards:
            found[Involvement(seat, "card", ids[c].id, "in_deck")] = None
        for c in state.sides[seat].hand:
            found[Involvement(seat, "card", ids[c].id, "drawn")] = None
        for item in ITEMS:
            found[Involvement(seat, "item", item, "available")] = None
    return list(found)


def new_events(before: Log, after: Log) -> list[Event]:
    """The events ``after``'s log gained over ``before``'s, oldest first. The log is a chain that each event
    extends, so they are the links down to ``before``'s chain; a log rebuilt elsewhere (not the same chain) is
    compared by length instead."""
    out: list[Event] = []
    node = after
    while node and node is not before:
        out.append(node[0])
        node = node[1]
    if node is not before:
        return newest(after)[len(newest(before)) :]
    out.reverse()
    return out


def involvement(before: DiceBattleState, action: Action, after: DiceBattleState) -> list[Involvement]:
    """The action's own card (set, or the special rule it uses; an order chosen) and every event it set off."""
    found, drawn = scan(before, action, after)
    cards = before.game.tables.cards
    for s in (0, 1):
        for c in sorted(drawn[s]):
            found[Involvement(s, "card", cards[c].id, "drawn")] = None
    return list(found)


def scan(
    before: DiceBattleState, action: Action, after: DiceBattleState
) -> tuple[dict[Involvement, None], list[Counter[int]]]:
    """The involvements of the action and its events but the draws, and the cards each seat drew (a multiset:
    the hands' difference, corrected by the cards that came back to or left the hand otherwise)."""
    tables = before.game.tables
    cards = tables.cards
    found: dict[Involvement, None] = {}

    def add(seat: int | None, kind: str, name: str, verb: str) -> None:
        found[Involvement(seat, kind, name, verb)] = None

    seat = before.actor
    kind = action[0]
    back: list[Counter[int]] = [Counter(), Counter()]  # cards back to the hand by name (salvage, keep, Revival)
    gone: list[Counter[int]] = [Counter(), Counter()]  # cards out of the hand: set, discarded, shown in a redraw
    if kind in (A_SET, A_MAGIC, A_GRANT):
        c = tables.by_id[action[1]]
        gone[seat][c] += 1
        add(seat, "card", cards[c].id, "set")
        if kind == A_GRANT:
            add(seat, "grant", cards[c].id, "set")
        for rule in _specials(before, seat, kind, c):
            add(None, "rule", rule, "applied")
    elif kind == A_FIRST:
        add(None, "rule", "order", "applied")
    for ev in new_events(before.log, after.log):
        _event(ev, cards, back, gone, add)
    drawn: list[Counter[int]] = []
    for s in (0, 1):
        d = Counter(after.sides[s].hand)
        d.subtract(before.sides[s].hand)
        d.subtract(back[s])
        d.update(gone[s])
        drawn.append(+d)  # the unary plus keeps the positive counts (all of them when the log is whole)
    return found, drawn


def _specials(before: DiceBattleState, seat: int, kind: str, c: int) -> list[str]:
    """The 異例 rule the set of card ``c`` uses: a free join, magic beside a monster, a unit set on a 1."""
    tables = before.game.tables
    special = tables.cards[c].special
    side = before.sides[seat]
    if special == "free_join" and kind == A_SET and side.main:
        return ["free_join"]
    if special == "magic_with_monster" and kind == A_MAGIC and tables.kind[side.main[0]] == KIND_MONSTER:
        return ["magic_with_monster"]
    if special == "set_on_one" and kind == A_SET and not side.main and side.roll == 1 and tables.level[c] > 1:
        return ["set_on_one"]
    return []


Add = Callable[[int | None, str, str, str], None]


def _event(ev: Event, cards: tuple[Card, ...], back: list[Counter[int]], gone: list[Counter[int]], add: Add) -> None:
    """One logged event as involvements; hand changes that are not draws are counted in ``back``/``gone``."""
    name = ev[0]
    if name == "effect":
        _, seat, c, zone = ev
        grant = zone == STOCK
        add(seat, "grant" if grant else "card", cards[c].id, "fired")
        eff = cards[c].grant if grant else cards[c].effect
        assert eff is not None  # only cards with an effect (a grant) are queued
        for op, _n in eff.ops:
            add(seat, "effect", op, "applied")
    elif name == "cancelled":
        _, seat, c, zone = ev
        add(seat, "grant" if zone == STOCK else "card", cards[c].id, "countered")
    elif name == "unmet":
        add(None, "rule", "unmet", "applied")
    elif name == "discard":
        _, seat, c = ev
        gone[seat][c] += 1
        add(seat, "card", cards[c].id, "discarded")
    elif name == "mill":
        _, seat, c = ev
        add(seat, "card", cards[c].id, "milled")
    elif name in ("salvage", "keep", "revive"):
        _, seat, c = ev
        back[seat][c] += 1
        add(seat, "card", cards[c].id, "available")
        if name == "revive":
            add(seat, "item", "revival", "activated")
    elif name == "miracle":
        add(ev[1], "item", "miracle", "activated")
    elif name == "redraw":
        _, seat, shown = ev
        gone[seat].update(shown)
        add(None, "rule", "redraw", "applied")
    elif name == "token":
        add(None, "rule", "dice-token", "applied")
    elif name == "battle":
        _, level0, level1, winner = ev
        if winner < 0:
            add(None, "rule", "battle-tie", "applied")
        elif level0 == level1:
            add(None, "rule", "tie-win", "applied")
    elif name == "both_three":
        add(None, "rule", "both-three", "applied")
    elif name == "reshuffle":
        add(None, "rule", "deck-out", "applied")
    elif name == "penalty":
        add(None, "rule", "penalty-draw" if ev[2] else "penalty-decline", "applied")
