"""ToraBato's balance-report hooks (:mod:`cardarena.engine.involvement`): what the card list declares, and what
each action involves.

Everything is read from the two positions ``before`` and ``after`` an action (zones compared card by card, the
stack item that resolved, the attack that was fought), never recorded by the rules: playing pays nothing for it.

Declared (for the card list in use, so a variant's changes show):

- ``card``: one entry per rank of the card list (``A`` ... ``K``, ``Joker``): the two physical copies of a rank
  that each seat owns are one entry, owned by that seat;
- ``ability``: each soldier ability the list uses (``regrow``, ``fortify``, ``tap``, ``unblockable``) and
  ``recursion`` (taking a card back from the discard pile) when some card has a recursion cost;
- ``effect``: each spell effect the list uses (``damage``, ``destroy``, ``gain_mana``...);
- ``rule``: the rules worth watching (:data:`RULES`), each with its rulebook section.

Verbs: ``in_deck`` (every rank of a seat's 27 cards, at the start), ``drawn`` (the opening hand, the draw phase, 6,
a redeal), ``available`` (back in hand from the discard pile or the mana: recursion, A, 9), ``cast`` (a spell
played), ``summoned`` (a soldier played), ``spent`` (a card set as mana: it gives up its printed use, so it is
affected, not used), ``activated`` (a soldier's ability used, a recursion started; the card and its ability),
``attacked``, ``blocked``, ``fired`` (a spell's effect or an ability resolving and doing something; 5 at once),
``countered`` (a stack item that did nothing because its target had
left, or whose damage 7 made 0), ``destroyed`` (a soldier that left the field: combat, damage, 4, Joker),
``milled`` (deck cards to the discard pile: damage to a player), ``applied`` (a rule).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine import Action, Declared, Involvement
from .cards import OWNER_OF, RANK_OF, RANKS, CardSpec
from .constants import (
    ABILITY,
    ASSIGN,
    ATTACKER_K,
    BLOCK_K,
    DAMAGE,
    DRAW,
    MANA_K,
    MAX_REDEALS,
    PASS_K,
    PLAY_K,
    RECUR_K,
    RECURSION,
    REVEAL,
    REVEAL_K,
    SOLDIER,
    USE_K,
    ZEROED,
    Ability,
    Effect,
    Timing,
)
from .rules.combat import power

if TYPE_CHECKING:
    from .game import ToraBatoGame
    from .state import ToraBatoState

#: The rules worth watching: key -> the rulebook section (or ruling of docs/games/torabato.md) and what happened.
RULES: dict[str, str] = {
    "reveal-tie": "先攻後攻 (first player): both revealed cards had the same value, each shows another card",
    "redeal": "先攻後攻: every card of both hands tied, hands are dealt again (全ての手札が同じだった場合)",
    "coin": "ruling 13: after 10 redeals a seeded coin decides the first player",
    "response": "タイミング (timing): a spell or ability used while the stack holds another (the last resolves first)",
    "fizzle": "ruling 5: a spell or ability resolved with its target gone and did nothing",
    "zeroed": "7 / ruling 6: a soldier or damage spell dealt 0 damage because of 7",
    "multi-block": "攻撃 ③ 防御フェイズ: two or more blockers on one attacker (the attacker divides its damage)",
    "unblocked": "攻撃 ④ ダメージ割り当てフェイズ: an unblocked attacker dealt damage to the defending player",
    "blockers-gone": "ruling 10: a blocked attacker whose blockers had all left the field dealt no damage",
    "attack-ends": "ruling 10: an attack ended because none of its attackers was left on the field",
    "mill": "ダメージ (damage to a player): cards milled from the deck to the discard pile",
    "empty-draw": "ruling 12: a draw from an empty deck drew nothing",
    "boost-end-death": "ruling 7 (lasting_boosts=false): a soldier died when its 'this turn' boost ended",
}

_ABILITY_WORDS = {
    Ability.REGROW: "pay {cost}: a card from your discard pile to your hand",
    Ability.FORTIFY: "pay {cost} (any number of times): +0/+{boost} this turn",
    Ability.TAP: "pay {cost} and tap it: tap one soldier this turn",
    Ability.UNBLOCKABLE: "pay {cost}: cannot be blocked this turn",
}
_EFFECT_WORDS = {
    Effect.DAMAGE: "damage to the opponent or one soldier",
    Effect.DESTROY: "destroy one soldier (not damage)",
    Effect.GAIN_MANA: "gain mana this turn",
    Effect.DRAW: "draw cards",
    Effect.PREVENT: "damage from one soldier or spell becomes 0",
    Effect.BOOST: "one soldier gets +attack/+health this turn",
    Effect.RETURN_MANA: "one of your mana cards back to hand",
    Effect.DESTROY_ALL: "destroy every soldier (not damage)",
}
RECURSION_NAME = "recursion"


def _rank(card: int) -> str:
    return RANKS[RANK_OF[card]]


def card_label(s: CardSpec) -> str:
    """A designer's name for a rank of the card list: what it is, what it costs, what it can do."""
    if s.kind == SOLDIER:
        text = f"{s.rank}: soldier {s.attack}/{s.health}, cost {s.cost}"
        if s.ability is not None:
            text += f", {s.ability.value} for {s.ability_cost}"
    else:
        assert s.effect is not None
        amount = f" {s.amount}" if s.amount else ""
        text = f"{s.rank}: spell, {s.effect.value}{amount}, cost {s.cost}"
        if s.timing != Timing.ANY:
            text += f", {s.timing.value}"
    if s.recur_cost is not None:
        text += f", recursion for {s.recur_cost}"
    return text


def catalogue(game: ToraBatoGame) -> list[Declared]:
    """Every rank of the card list in use, the abilities and spell effects it uses, and :data:`RULES`."""
    specs = game.card_list.specs
    out = [Declared("card", s.rank, card_label(s)) for s in specs]
    for ability in Ability:
        users = [s for s in specs if s.ability == ability]
        if users:
            words = "; ".join(
                f"{s.rank}: " + _ABILITY_WORDS[ability].format(cost=s.ability_cost, boost=s.health_boost) for s in users
            )
            out.append(Declared("ability", ability.value, f"{ability.value} ({words})"))
    recurring = [s for s in specs if s.recur_cost is not None]
    if recurring:
        costs = ", ".join(f"{s.rank} for {s.recur_cost}" for s in recurring)
        out.append(
            Declared("ability", RECURSION_NAME, f"recursion: on your turn, from the discard pile to hand ({costs})")
        )
    for effect in Effect:
        ranks = [s.rank for s in specs if s.effect == effect]
        if ranks:
            out.append(
                Declared("effect", effect.value, f"{effect.value}: {_EFFECT_WORDS[effect]} ({', '.join(ranks)})")
            )
    out.extend(Declared("rule", key, label) for key, label in RULES.items())
    return out


def end_conditions() -> list[Declared]:
    return [
        Declared(
            "end", "deck-out", "ゲームの準備 / エンドフェイズ: a player whose deck is empty at an end phase loses"
        ),
        Declared(
            "end", "both-decks-out", "both decks empty at the same end phase: a draw (引き分けもあるかも知れません)"
        ),
        Declared("end", "turn-cap", "the max_turns safety cap (ruling 14): a draw"),
    ]


def end_condition(st: ToraBatoState) -> str:
    """A win is always a deck-out; a draw with both decks empty is the double deck-out, any other the turn cap
    (the end phase ends the game before a turn with an empty deck can begin)."""
    result = st.returns()
    if result[0] != result[1]:
        return "deck-out"
    return "both-decks-out" if not st.deck[0] and not st.deck[1] else "turn-cap"


def initial(st: ToraBatoState) -> list[Involvement]:
    """Every rank among each seat's 27 cards (``in_deck``) and the opening hands (``drawn``)."""
    out: list[Involvement] = []
    for seat in (0, 1):
        cards = st.deck[seat] + st.hand[seat] + st.mana[seat] + st.discard[seat] + st.field[seat]
        out.extend(Involvement(seat, "card", rank, "in_deck") for rank in sorted({_rank(c) for c in cards}))
        out.extend(Involvement(seat, "card", _rank(c), "drawn") for c in st.hand[seat])
    return out


def _rule(key: str) -> Involvement:
    return Involvement(None, "rule", key, "applied")


def involved(before: ToraBatoState, action: Action, after: ToraBatoState) -> list[Involvement]:
    """The action's own cards, then what it set off: a stack item resolving, combat, cards moving between zones,
    and the rules applied."""
    out = _own(before, action, after)
    if action[0] == PASS_K and len(after.stack) < len(before.stack):
        out.extend(_resolution(before))
    out.extend(_combat(before, action, after))
    out.extend(_moves(before, after))
    if after.phase == DRAW and before.phase != DRAW and not before.deck[after.active]:
        out.append(_rule("empty-draw"))
    return out


def _own(before: ToraBatoState, action: Action, after: ToraBatoState) -> list[Involvement]:
    """The cards of the action itself (whose seat is the card's owner: the seat that acted)."""
    kind = action[0]
    spec = before.game.spec
    out: list[Involvement] = []
    if kind in (PLAY_K, USE_K, RECUR_K):
        card = action[1]
        seat = OWNER_OF[card]
        s = spec[card]
        if kind == PLAY_K:
            out.append(Involvement(seat, "card", s.rank, "summoned" if s.kind == SOLDIER else "cast"))
            if s.timing == Timing.INSTANT_OFF_STACK and s.effect is not None:  # 5: its effect at once, off the stack
                out.append(Involvement(seat, "effect", s.effect.value, "fired"))
        elif kind == USE_K:
            assert s.ability is not None
            out.append(Involvement(seat, "card", s.rank, "activated"))
            out.append(Involvement(seat, "ability", s.ability.value, "activated"))
        else:
            out.append(Involvement(seat, "card", s.rank, "activated"))
            out.append(Involvement(seat, "ability", RECURSION_NAME, "activated"))
        if before.stack and len(after.stack) > len(before.stack):
            out.append(_rule("response"))
    elif kind == MANA_K:
        # a card set as mana gives up its printed use (it is no longer its card): not a use of the card, or a
        # card nobody can ever cast would count as used whenever it is burnt for mana
        out.append(Involvement(OWNER_OF[action[1]], "card", _rank(action[1]), "spent"))
    elif kind == ATTACKER_K:
        out.append(Involvement(OWNER_OF[action[1]], "card", _rank(action[1]), "attacked"))
    elif kind == BLOCK_K:
        out.append(Involvement(OWNER_OF[action[1]], "card", _rank(action[1]), "blocked"))
        if any(a == action[2] for _, a in before.blocks):
            out.append(_rule("multi-block"))
    elif kind == REVEAL_K and before.phase == REVEAL and len(before.reveals[0]) > len(before.reveals[1]):
        out.extend(_reveal(before, action[1], after))
    return out


def _reveal(before: ToraBatoState, card: int, after: ToraBatoState) -> list[Involvement]:
    """Seat 1's reveal shows both cards: a tie, a redeal when every card tied, the coin after 10 redeals."""
    spec = before.game.spec
    if spec[before.reveals[0][-1]].value != spec[card].value:
        return []
    out = [_rule("reveal-tie")]
    if after.redeals > before.redeals:
        out.append(_rule("redeal"))
        if after.redeals >= MAX_REDEALS and after.phase != REVEAL:
            out.append(_rule("coin"))
    return out


def _resolution(before: ToraBatoState) -> list[Involvement]:
    """The top of ``before``'s stack resolved: its effect or ability fired, or it did nothing (ruling 5)."""
    source, card, ctrl, target = before.stack[-1]
    s = before.game.spec[card]
    owner = OWNER_OF[card]
    gone = target >= 0 and not _on_field(before, target) and not any(it[1] == target for it in before.stack[:-1])
    if source == RECURSION:
        gone = card not in before.discard[ctrl]
    elif source == ABILITY and s.ability in (Ability.FORTIFY, Ability.UNBLOCKABLE):
        gone = not _on_field(before, card)
    if gone:
        return [Involvement(owner, "card", s.rank, "countered"), _rule("fizzle")]
    if source == RECURSION:
        return [Involvement(ctrl, "ability", RECURSION_NAME, "fired")]
    if source == ABILITY:
        assert s.ability is not None
        return [Involvement(ctrl, "ability", s.ability.value, "fired")]
    assert s.effect is not None
    out = [Involvement(ctrl, "effect", s.effect.value, "fired")]
    if s.effect == Effect.DAMAGE and before.flags[card] & ZEROED:
        out += [Involvement(owner, "card", s.rank, "countered"), _rule("zeroed")]
    elif s.effect == Effect.PREVENT and target >= 0:  # the soldier or damage spell that 7 names deals 0
        out.append(Involvement(OWNER_OF[target], "card", _rank(target), "countered"))
    elif s.effect == Effect.DRAW and len(before.deck[ctrl]) < s.amount:
        out.append(_rule("empty-draw"))
    return out


def _on_field(st: ToraBatoState, card: int) -> bool:
    return card in st.field[OWNER_OF[card]]


def _combat(before: ToraBatoState, action: Action, after: ToraBatoState) -> list[Involvement]:
    """Combat damage dealt by this action (the last pass of the damage step, or the last point divided), or an
    attack that ended because its attackers had all left (ruling 10)."""
    if not before.attackers or after.attackers:
        return []
    fought = before.phase == ASSIGN or (
        before.phase == DAMAGE and action[0] == PASS_K and not before.stack and before.passes == 1
    )
    alive = [a for a in before.attackers if _on_field(before, a)]
    if not fought or not alive:
        return [] if after.result is not None else [_rule("attack-ends")]
    out: list[Involvement] = []
    for a in alive:
        blockers = [b for b, x in before.blocks if x == a]
        if before.flags[a] & ZEROED:
            out.append(_rule("zeroed"))
        if not blockers:
            if power(before, a) > 0:
                out.append(_rule("unblocked"))
        elif not any(_on_field(before, b) for b in blockers):
            out.append(_rule("blockers-gone"))
    return out


def _moves(before: ToraBatoState, after: ToraBatoState) -> list[Involvement]:
    """Cards that moved between a seat's deck, hand, mana, field and discard pile."""
    out: list[Involvement] = []
    for seat in (0, 1):
        deck, hand = set(before.deck[seat]), set(before.hand[seat])
        discard, field = set(before.discard[seat]), set(before.field[seat])
        for c in after.hand[seat]:
            if c not in hand:
                verb = "drawn" if c in deck else "available"  # back from the discard pile or the mana
                out.append(Involvement(seat, "card", _rank(c), verb))
        milled = False
        died = False
        for c in after.discard[seat]:
            if c in discard:
                continue
            if c in deck:
                out.append(Involvement(seat, "card", _rank(c), "milled"))
                milled = True
            elif c in field:
                out.append(Involvement(seat, "card", _rank(c), "destroyed"))
                died = True
        if milled:
            out.append(_rule("mill"))
        if died and after.turn_no != before.turn_no:  # only a boost ending kills between two turns
            out.append(_rule("boost-end-death"))
    return out
