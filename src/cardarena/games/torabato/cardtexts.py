"""What each ToraBato card says, in words, for the browser's card viewer (``Game.card_texts``).

Built from the game's own card list (``data/cards.toml``, or a designer's file given with ``--option cards=PATH``),
so a changed card shows its changed cost and effect. Keyed by the names the observation and the action texts use
(``8C``, ``QH``, ``JK0``). Public rules data only: nothing here depends on where a card lies.
"""

from __future__ import annotations

from ...engine import CardText
from .cards import NAMES, CardSpec
from .constants import NUM_CARDS, SOLDIER, Ability, Effect, Timing

_RANK_WORDS = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
_SUIT_WORDS = {"S": "spades", "C": "clubs", "H": "hearts", "D": "diamonds"}
_SUIT_SIGNS = {"S": "♠", "C": "♣", "H": "♥", "D": "♦"}


def _cards(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def card_title(name: str) -> str:
    """A card's name in words with its sign: ``8 of clubs (8♣)``, ``Queen of hearts (Q♥)``, ``Joker``.

    >>> card_title("8C"), card_title("QH"), card_title("JK1")
    ('8 of clubs (8♣)', 'Queen of hearts (Q♥)', 'Joker')
    """
    if name.startswith("JK"):
        return "Joker"
    rank, suit = name[:-1], name[-1]
    return f"{_RANK_WORDS.get(rank, rank)} of {_SUIT_WORDS[suit]} ({rank}{_SUIT_SIGNS[suit]})"


def effect_text(s: CardSpec) -> str:
    """What a spell does, or what a soldier is, in one sentence."""
    if s.kind == SOLDIER:
        return f"A soldier with attack {s.attack} and health {s.health}."
    n = s.amount
    return {
        Effect.DAMAGE: f"{n} damage to the opponent (mills {_cards(n)} from their deck) or to one soldier.",
        Effect.DESTROY: "Destroy one soldier (this is not damage).",
        Effect.GAIN_MANA: f"Gain {n} mana this turn.",
        Effect.DRAW: f"Draw {_cards(n)}.",
        Effect.PREVENT: "One soldier, or one damage spell on the stack, deals 0 damage this turn.",
        Effect.BOOST: f"One soldier gets +{s.attack}/+{s.health} this turn.",
        Effect.RETURN_MANA: "Return one of your mana cards to your hand.",
        Effect.DESTROY_ALL: "Destroy every soldier, both players' (this is not damage).",
    }[s.effect or Effect.DAMAGE]


def ability_text(s: CardSpec) -> str | None:
    """A soldier's ability and its price, or ``None``."""
    if s.ability is None:
        return None
    c = s.ability_cost
    return {
        Ability.REGROW: f"Ability, pay {c}: return a card from your discard pile to your hand.",
        Ability.FORTIFY: f"Ability, pay {c}, as often as you like: +0/+{s.health_boost} this turn.",
        Ability.TAP: f"Ability, pay {c} and tap this soldier: tap one other soldier this turn.",
        Ability.UNBLOCKABLE: f"Ability, pay {c}: this soldier cannot be blocked this turn.",
    }[s.ability]


def card_text(name: str, s: CardSpec) -> CardText:
    """The viewer's text of one card: its effect, its ability, when it may be played, its way back from the
    discard pile; the notes explain the table's words it may carry (new, tapped, the reveal's value)."""
    text = [effect_text(s)]
    ability = ability_text(s)
    if ability:
        text.append(ability)
    if s.timing == Timing.OWN:
        text.append("Only on your own turn.")
    elif s.timing == Timing.INSTANT_OFF_STACK:
        text.append("It works the moment it is played: it skips the stack and cannot be answered.")
    if s.recur_cost is not None:
        text.append(f"From your discard pile, on your turn: pay {s.recur_cost} to take it back to your hand.")
    notes = []
    if s.kind == SOLDIER:
        kind = f"soldier {s.attack}/{s.health}"
        notes.append(
            "A soldier marked 'new' came in this turn: it cannot attack or use its ability yet, but it can block."
        )
        notes.append("Damage stays on a soldier until the next recovery; at its health, the soldier dies.")
    else:
        kind = "spell"
    notes.append(f"Value {s.value} in the first-player reveal (the lower card goes first).")
    notes.append(
        "Any card may be set face down as mana instead: it then pays 1 mana a turn, no longer its printed self."
    )
    return CardText(name=card_title(name), text=tuple(text), cost=str(s.cost), kind=kind, notes=tuple(notes))


def card_texts(spec: tuple[CardSpec, ...]) -> dict[str, CardText]:
    """Every card's text by its name, from ``spec`` (one :class:`CardSpec` per card id)."""
    return {NAMES[c]: card_text(NAMES[c], spec[c]) for c in range(NUM_CARDS)}
