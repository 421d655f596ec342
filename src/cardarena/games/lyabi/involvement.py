"""Lyabi's balance-report hooks (:mod:`cardarena.engine.involvement`): what the data file declares, and what each
action involves.

Everything is read from the two positions ``before`` and ``after`` an action (hands, fields and items compared,
the battle log ``last_battle`` the rules already keep for the faces), never recorded by the rules: playing pays
nothing for it.

Declared (for the data file in use, so a file with another ryabi or circle shows it):

- ``card``: each ryabi kind (``blue1`` ... ``red11``, named by colour and level as the file lists them);
- ``circle``: each magic circle kind (``blue0`` ... ``red11``; a kind of its own, since a circle and a ryabi may
  share a name such as ``blue5``);
- ``item``: each of the eight items (its id in the file: ``crystal``, ``eye``...), with its count;
- ``rule``: the rules worth watching (:data:`RULES`), each with its rulebook section (``circle-replace`` only with
  the option ``circle_replace``).

Verbs, with the owner's seat (``None`` for a rule): ``in_deck`` (each ryabi kind of a seat's initial deck and
hand), ``in_supply`` (each ryabi kind of the face-up supply, for both seats: the market) and ``in_build`` (its
setup circle), at the start; ``drawn`` (the initial hand, every draw phase, the orb's extra cards), ``offered``
(at a main-phase decision, each ryabi of the supply the seat could buy with its hand), ``spent`` (a ryabi paid
for a buy, split, circle or item: money, not a use of the card, as a card set as mana in ToraBato; the starting
ryabi pay for everything and would otherwise count as used by every seat in every game), ``bought`` (a ryabi
gained, an item taken), ``placed`` (a circle put on the field), ``set`` (a ryabi set for battle), ``activated``
(an item used at its timing), ``fired`` (an item resolving when taken, the crystal and the herb; a circle of the
battle attribute that deals damage when its owner wins a battle), ``removed`` (a circle replaced, an item the
herb removed), ``discarded`` (an item given up for a new one), ``applied`` (a rule). The hand discarded at the end
phase and the battle ryabi removed at cleanup are the ordinary course of every turn and are not reported.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ...engine import Action, Declared, Involvement
from .._entries import data_text
from .actions import LyabiAction
from .constants import (
    AUTO_ITEMS,
    BUY_K,
    COLOURS,
    HERB,
    ITEM_IDS,
    ITEM_K,
    NO_ITEM,
    P_DRAW,
    P_ITEM,
    P_MAIN,
    P_ORDER,
    PLACE_K,
    SET_K,
    SPLIT_K,
    USE_K,
)

if TYPE_CHECKING:
    from .cards import CardSet
    from .game import LyabiGame
    from .state import LyabiState

#: The rules worth watching: key -> the rulebook section (or ruling) and what happened.
RULES: dict[str, str] = {
    "split": "メインフェイズ_2, the second way: one ryabi paid for up to two ryabi of lower cost",
    "circle-replace": "option circle_replace: a circle of one's own removed from the game to make room",
    "item-replace": "アイテム取得時のルール: an item already held is removed from the game for the new one",
    "reshuffle": "ドローフェイズ: the discard pile shuffled into the deck to fill the hand",
    "battle-skipped": "バトルフェイズ ※: nobody could battle (a card in hand and a circle), the phase is skipped",
    "dummy": "準備ステップ 1_2 ※: a seat set the dummy (it does not battle)",
    "double-charge": "ダブルチャージ: two ryabi of one attribute set together (times × times)",
    "triangle": "解決ステップ 3_1 / リャビの勝敗図: one attribute beat the other",
    "same-colour": "解決ステップ 3_1: both set the same attribute, no winner",
    "uncontested": "解決ステップ 3_1: only one seat set a ryabi (the other set the dummy or could not battle)",
    "no-battle": "解決ステップ 3_1: neither seat set a ryabi, no winner",
    "no-matching-circle": "ダメージ計算のルール 1_2 ※: the winner had no circle of the battle attribute, no damage",
}
#: Phases of the main and item phases (the market), before the battle phase.
_MARKET = (P_MAIN, P_ITEM, P_ORDER)


def catalogue(game: LyabiGame) -> list[Declared]:
    """Every ryabi, magic circle and item of the data file in use, and :data:`RULES`."""
    c = game.cards
    out = [
        Declared(
            "card",
            name,
            f"{name}: {COLOURS[c.r_colour[k]]} Lv{c.r_level[k]} ryabi, cost {c.r_cost[k]}, "
            f"times ×{float(c.r_times[k]):g}, {c.r_count[k]} cards",
        )
        for k, name in enumerate(c.r_names)
    ]
    out += [
        Declared(
            "circle",
            name,
            f"{name}: {COLOURS[c.c_colour[k]]} Lv{c.c_level[k]} magic circle, "
            f"cost {c.level_cost[c.c_level_index[k]]}, ATK {c.c_atk[k]}, {c.c_count[k]} cards",
        )
        for k, name in enumerate(c.c_names)
    ]
    out += [
        Declared("item", spec.id, f"{spec.name} ({spec.count} cards; {spec.timing}: {spec.effect})") for spec in c.items
    ]
    replace = game.options["circle_replace"]
    out += [Declared("rule", key, label) for key, label in RULES.items() if key != "circle-replace" or replace]
    return out


def entry_data(c: CardSet) -> dict[tuple[str, str], str]:
    """The data of each catalogue entry that has its own in the file: a ryabi's count, cost and times; a circle's
    count, cost (its level's) and ATK; an item's name, count, timing, effect text (its numbers filled in) and
    number. The name (colour and level, an item's id) is the key; ``assumed`` marks are not data. The rules
    are entries without data: changing one number of a ryabi, circle or item changes that entry's text alone."""
    out = {
        ("card", name): data_text({"count": c.r_count[k], "cost": c.r_cost[k], "times": float(c.r_times[k])})
        for k, name in enumerate(c.r_names)
    }
    out |= {
        ("circle", name): data_text(
            {"count": c.c_count[k], "cost": c.level_cost[c.c_level_index[k]], "atk": c.c_atk[k]}
        )
        for k, name in enumerate(c.c_names)
    }
    for spec in c.items:
        fields: dict[str, Any] = {"name": spec.name, "count": spec.count, "timing": spec.timing}
        fields["effect"] = spec.effect
        if spec.param is not None:
            fields[spec.param] = spec.value
        out["item", spec.id] = data_text(fields)
    return out


def end_conditions() -> list[Declared]:
    return [
        Declared("end", "hp-zero", "終了・勝利条件: the opponent's HP was brought to 0"),
        Declared(
            "end", "deck-out", "終了・勝利条件: the opponent's deck ran out (deck and discard cannot fill the hand)"
        ),
        Declared("end", "both-hp-zero", "both players at 0 HP at once: a draw (RULINGS)"),
        Declared("end", "both-decks-out", "both decks ran out in the same draw phase: a draw (RULINGS)"),
        Declared("end", "turn-cap", "the max_turns safety cap: a draw"),
    ]


def end_condition(st: LyabiState) -> str:
    """Read from the HP and the decks: a loser at 0 HP lost by damage, any other loser ran out of cards."""
    result = st.returns()
    down = [st.hp[0] <= 0, st.hp[1] <= 0]
    if result[0] != result[1]:
        loser = 0 if result[0] < result[1] else 1
        return "hp-zero" if down[loser] else "deck-out"
    if down[0] and down[1]:
        return "both-hp-zero"
    hand_size = st.game.cards.hand_size
    if all(not st.deck[t] and not st.discard[t] and len(st.hand[t]) < hand_size for t in (0, 1)):
        return "both-decks-out"
    return "turn-cap"


def initial(st: LyabiState) -> list[Involvement]:
    """Each seat's initial deck and hand (``in_deck``), the ryabi of the face-up supply both seats buy from
    (``in_supply``; the circles lie face down by level, so no circle is one a player picks), its setup circle
    (``in_build``) and its hand (``drawn``)."""
    names, circles = st.game.cards.r_names, st.game.cards.c_names
    out: list[Involvement] = []
    for t in (0, 1):
        kinds = sorted(set(st.deck[t]) | set(st.hand[t]) | set(st.discard[t]))
        out += [Involvement(t, "card", names[k], "in_deck") for k in kinds]
        out += [Involvement(t, "card", names[k], "in_supply") for k, n in enumerate(st.supply) if n > 0]
        out += [Involvement(t, "circle", circles[k], "in_build") for k in st.field[t]]
        out += [Involvement(t, "card", names[k], "drawn") for k in st.hand[t]]
    return out


def _rule(key: str) -> Involvement:
    return Involvement(None, "rule", key, "applied")


def involved(before: LyabiState, action: Action, after: LyabiState) -> list[Involvement]:
    """The action's own cards, then the draws, the battle and the rules it set off."""
    out = _offers(before) + _own(before, action, after)
    out += _draws(before, after)
    out += _battle(before, after)
    if before.phase in _MARKET and (after.turn_no != before.turn_no or after.result is not None):
        out.append(_rule("battle-skipped"))  # the market ended and no battle phase asked for a decision
    return out


def _own(before: LyabiState, action: Action, after: LyabiState) -> list[Involvement]:
    """What the seat to act paid, gained, placed, took, used or set."""
    s = before.actor
    kind = action[0]
    out: list[Involvement] = []
    if kind in (BUY_K, SPLIT_K, PLACE_K, ITEM_K):
        out += [Involvement(s, "card", name, "spent") for name in LyabiAction(action).pay]
    if kind == BUY_K:
        out.append(Involvement(s, "card", action[1], "bought"))
    elif kind == SPLIT_K:
        out += [Involvement(s, "card", name, "bought") for name in action[2:]]
        out.append(_rule("split"))
    elif kind == PLACE_K:
        circles = before.game.cards.c_names
        new = Counter(after.field[s]) - Counter(before.field[s])
        out += [Involvement(s, "circle", circles[k], "placed") for k in new.elements()]
        if action[2]:
            out += [Involvement(s, "circle", action[2], "removed"), _rule("circle-replace")]
    elif kind == USE_K:
        out.append(Involvement(s, "item", action[1], "activated"))
    elif kind == ITEM_K:
        out += _item_taken(before, s)
    elif kind == SET_K:
        if action[1] == "dummy":
            out.append(_rule("dummy"))
        else:
            out += [Involvement(s, "card", name, "set") for name in action[1:]]
            if len(action) == 3:
                out.append(_rule("double-charge"))
    return out


def _offers(before: LyabiState) -> list[Involvement]:
    """At a main-phase decision, every ryabi of the supply the seat to act could buy with its hand (メインフェイズ
    ①: cost at most the total cost of the ryabi it holds) is offered to it: the market is what a Lyabi player
    chooses from, so a ryabi on offer that nobody buys shows as available and never used."""
    if before.phase != P_MAIN:
        return []
    s = before.actor
    c = before.game.cards
    total = sum(c.r_cost[k] for k in before.hand[s])
    return [
        Involvement(s, "card", name, "offered")
        for k, name in enumerate(c.r_names)
        if before.supply[k] > 0 and c.r_cost[k] <= total
    ]


def _item_taken(before: LyabiState, s: int) -> list[Involvement]:
    """The top item of the pile, taken: the crystal and the herb resolve at once; a held item is given up; the
    herb removes the opponent's."""
    new = before.item_pile[-1]
    out = [Involvement(s, "item", ITEM_IDS[new], "bought")]
    if new in AUTO_ITEMS:
        out.append(Involvement(s, "item", ITEM_IDS[new], "fired"))
    held = before.item[s]
    if held != NO_ITEM:
        out += [Involvement(s, "item", ITEM_IDS[held], "discarded"), _rule("item-replace")]
    theirs = before.item[1 - s]
    if new == HERB and theirs != NO_ITEM:
        out.append(Involvement(1 - s, "item", ITEM_IDS[theirs], "removed"))
    return out


def _draws(before: LyabiState, after: LyabiState) -> list[Involvement]:
    """The draw phase, when this action finished it: the cards each seat drew, and a reshuffle where a seat drew
    more cards than its deck held."""
    if after.phase == P_DRAW or (before.phase != P_DRAW and after.turn_no == before.turn_no):
        return []
    names = before.game.cards.r_names
    out: list[Involvement] = []
    for t in (0, 1):
        kept = before.hand[t] if before.phase == P_DRAW else []  # the end phase discarded the old hand
        drawn = list((Counter(after.hand[t]) - Counter(kept)).elements())
        out += [Involvement(t, "card", names[k], "drawn") for k in drawn]
        if len(drawn) > len(before.deck[t]):
            out.append(_rule("reshuffle"))
    return out


def _battle(before: LyabiState, after: LyabiState) -> list[Involvement]:
    """The battle resolved by this action (the log gained its winner): how the triangle decided, and the winner's
    circles of the battle attribute (they dealt the damage), or none of them."""
    log, old = after.last_battle, before.last_battle
    if log is None or "winner" not in log:
        return []
    if old is not None and "winner" in old and old.get("turn") == log.get("turn"):
        return []
    c = after.game.cards
    kind_of = after.game.codec.kind_of
    colours = [_colour(log, t, c.r_colour, kind_of) for t in (0, 1)]
    ryabi = [t for t in (0, 1) if colours[t] is not None]
    if len(ryabi) == 2:
        out = [_rule("same-colour" if colours[0] == colours[1] else "triangle")]
    else:
        out = [_rule("uncontested" if ryabi else "no-battle")]
    winner = log["winner"]
    if winner is not None:
        circles = [k for k in after.field[winner] if COLOURS[c.c_colour[k]] == colours[winner]]
        ryabi_set = [kind_of[name] for name in log["sets"][winner]]
        second = ryabi_set[1] if len(ryabi_set) > 1 else None
        # a circle fires when it deals damage: one whose floor(ATK × times) is 0 (ATK 0, a small times) did nothing
        out += [
            Involvement(winner, "circle", c.c_names[k], "fired")
            for k in circles
            if c.damage(k, ryabi_set[0], second) > 0
        ]
        if not circles:
            out.append(_rule("no-matching-circle"))
    return out


def _colour(log: dict[str, Any], t: int, r_colour: tuple[int, ...], kind_of: dict[str, int]) -> str | None:
    """Seat ``t``'s battle attribute as the log tells it (the brush's colour wins), ``None`` without a ryabi."""
    cards = log["sets"][t]
    if not isinstance(cards, list):  # None (not battling) or "dummy"
        return None
    brushed = log.get(f"brush_seat{t}")
    return str(brushed) if brushed else COLOURS[r_colour[kind_of[cards[0]]]]
