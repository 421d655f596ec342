"""The ToraBato card list, read from ``data/cards.toml`` and checked, and the 54 physical cards of the two decks.

Card ids: seat 0 (player A) owns ids 0-26 (spades 0-12, clubs 13-25, joker 26); seat 1 (player B) owns 27-53
(hearts 27-39, diamonds 40-52, joker 53). Within a suit, id % 13 is the rank index (0 = A ... 12 = K).

Every error in a card list is a ``CardDataError`` naming the file, the card (its rank, or its place in the list)
and the field, in words a card designer understands.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from ...engine import CardDataError
from ...engine.datafiles import read_toml
from .._datamodel import Whole, plain
from .constants import CARDS_PER_SEAT, NUM_CARDS, UNTARGETED, Ability, CardType, Effect, Timing

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "Joker")
SUITS = (("S", "C"), ("H", "D"))  # per seat
DEFAULT_CARDS = Path(__file__).with_name("data") / "cards.toml"
TOP_LEVEL_KEYS = ("cards",)

# The numbers a card list may hold: whole numbers (never true/false or 1.5) in ranges a game can play.
MAX_VALUE = 99  # the first-player reveal compares values (the rulebook's run 0..13)
MAX_COST = CARDS_PER_SEAT - 1  # a seat owns 27 cards: at most the 26 others can stand as mana when one is cast
MAX_AMOUNT = CARDS_PER_SEAT  # damage to a player mills their deck, draw draws from yours: 27 cards at most
MAX_STAT = 99  # attack, health and boosts
Value = Annotated[int, Whole(0, MAX_VALUE)]
Cost = Annotated[int, Whole(0, MAX_COST)]
Amount = Annotated[int, Whole(0, MAX_AMOUNT)]
Stat = Annotated[int, Whole(0, MAX_STAT)]


class CardSpec(BaseModel):
    """One rank's printed data."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rank: Literal["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "Joker"]
    value: Value
    cost: Cost
    kind: CardType
    timing: Timing = Timing.ANY
    effect: Effect | None = None
    amount: Amount = 0
    attack: Stat = 0
    health: Stat = 0
    ability: Ability | None = None
    ability_cost: Cost = 0
    health_boost: Stat = 0
    recur_cost: Cost | None = None

    @property
    def takes_no_target(self) -> bool:
        """A soldier, or a spell whose effect takes no target."""
        return self.kind == CardType.SOLDIER or self.effect in UNTARGETED


def check_spec(s: CardSpec) -> tuple[str, str] | None:
    """The first rule of the card list that ``s`` breaks, as ``(field, reason)``, or ``None``.

    The ranges of the numbers are checked by the model (:class:`Whole`); here: which fields a card of its kind
    must give, and which it may not give (a field the rules would never read misleads whoever reads the file).
    """
    given = s.model_fields_set
    if s.kind == CardType.SPELL:
        if s.effect is None:
            return "effect", "a spell needs an effect"
        if s.ability is not None:
            return "ability", "only soldiers have abilities"
        if s.effect == Effect.BOOST:
            for field in ("attack", "health"):
                if field not in given:
                    return field, f"is missing: a boost spell gives +attack/+health, write both (0..{MAX_STAT})"
        else:
            for field in ("attack", "health"):
                if field in given:
                    return field, f"only soldiers and boost spells have {field}; a {s.effect.value!r} spell has none"
    else:
        if s.effect is not None:
            return "effect", "a soldier has no spell effect (give it an ability instead)"
        for field in ("attack", "health"):
            if field not in given:
                return field, f"is missing: a soldier needs its {field} (a whole number 0..{MAX_STAT})"
        if s.health <= 0:
            return "health", f"a soldier needs health of at least 1 (a whole number 1..{MAX_STAT})"
    if s.effect in (Effect.DAMAGE, Effect.GAIN_MANA, Effect.DRAW):
        if s.amount <= 0:
            return "amount", f"effect {s.effect.value!r} needs a positive amount (a whole number 1..{MAX_AMOUNT})"
    elif "amount" in given:
        return "amount", "only damage, gain_mana and draw spells have an amount"
    if s.ability is None:
        for field in ("ability_cost", "health_boost"):
            if field in given:
                return field, "this soldier has no ability: give it one, or leave this field out"
    elif "ability_cost" not in given:
        return "ability_cost", f"is missing: the {s.ability.value!r} ability needs its cost (0..{MAX_COST})"
    if s.ability == Ability.FORTIFY and s.health_boost < 1:
        return "health_boost", f"the 'fortify' ability needs a health_boost of at least 1 (1..{MAX_STAT})"
    if s.ability not in (None, Ability.FORTIFY) and "health_boost" in given:
        return "health_boost", "only the 'fortify' ability has a health_boost"
    # Things a player may repeat must cost mana, or one turn could go on for ever.
    if s.ability in (Ability.REGROW, Ability.FORTIFY) and s.ability_cost < 1:
        return "ability_cost", f"the {s.ability.value!r} ability can be used again and again: it must cost at least 1"
    if s.recur_cost is not None and s.recur_cost < 1:
        return "recur_cost", "taking a card back from the discard pile must cost at least 1"
    return None


@dataclass(frozen=True)
class CardList:
    """The checked card list: one :class:`CardSpec` per rank, in ``RANKS`` order."""

    specs: tuple[CardSpec, ...]
    source: str

    def spec(self, rank: str) -> CardSpec:
        return self.specs[RANKS.index(rank)]

    def by_card(self) -> tuple[CardSpec, ...]:
        """The spec of each of the 54 card ids."""
        return tuple(self.specs[RANK_OF[c]] for c in range(NUM_CARDS))


def load_cards(path: str | Path | None = None) -> CardList:
    """Read and check a card list; ``CardDataError`` names the file, the card and the field."""
    file = Path(path) if path is not None else DEFAULT_CARDS
    name = str(file)
    data = read_toml(file)
    for key in data:
        if key not in TOP_LEVEL_KEYS:
            raise CardDataError(
                name, f"unknown top-level key {key!r}: a card list holds only [[cards]] tables", field=key
            )
    rows = data.get("cards")
    if not isinstance(rows, list) or not rows:
        raise CardDataError(name, "expected a list of [[cards]] tables, one per rank", field="cards")
    specs: dict[str, CardSpec] = {}
    for i, row in enumerate(rows, 1):
        label = f"#{i}"
        if not isinstance(row, dict):
            raise CardDataError(
                name, "each entry of the card list must be a [[cards]] table", card=label, field="cards"
            )
        rank = row.get("rank")
        if isinstance(rank, str) and rank in RANKS:
            label = rank
        spec = _read_card(row, name, label)
        if spec.rank in specs:
            raise CardDataError(name, "this rank appears twice", card=spec.rank, field="rank")
        specs[spec.rank] = spec
    missing = [r for r in RANKS if r not in specs]
    if missing:
        raise CardDataError(
            name,
            f"the card list lacks the rank(s) {', '.join(missing)}: it needs one [[cards]] table per rank",
            field="rank",
        )
    _check_no_mana_loop(name, specs)
    return CardList(tuple(specs[r] for r in RANKS), name)


def _read_card(row: dict[str, Any], file: str, label: str) -> CardSpec:
    try:
        spec = CardSpec.model_validate(row)
    except ValidationError as e:
        err = e.errors()[0]
        loc = err["loc"]
        field = str(loc[0]) if loc else None
        raise CardDataError(file, plain(err, "a card", _FIELDS), card=label, field=field) from None
    broken = check_spec(spec)
    if broken is not None:
        raise CardDataError(file, broken[1], card=label, field=broken[0])
    return spec


_FIELDS = tuple(CardSpec.model_fields)


def _check_no_mana_loop(file: str, specs: dict[str, CardSpec]) -> None:
    """A mana-gaining spell must not pay for its own return to hand, or a turn could go on for ever."""
    regrow = [s.ability_cost for s in specs.values() if s.ability == Ability.REGROW]
    for spec in specs.values():
        if spec.effect != Effect.GAIN_MANA:
            continue
        ways_back = regrow + ([spec.recur_cost] if spec.recur_cost is not None else [])
        if ways_back and spec.amount >= spec.cost + min(ways_back):
            raise CardDataError(
                file,
                f"it gains {spec.amount} mana for {spec.cost}, and taking it back to hand costs only "
                f"{min(ways_back)}: casting it again and again would never end (gain less than the two costs)",
                card=spec.rank,
                field="amount",
            )


def owner_of(card: int) -> int:
    return card // CARDS_PER_SEAT


def rank_index(card: int) -> int:
    """0..12 for A..K, 13 for the joker."""
    j = card % CARDS_PER_SEAT
    return 13 if j == 26 else j % 13


def card_name(card: int) -> str:
    seat, j = divmod(card, CARDS_PER_SEAT)
    if j == 26:
        return f"JK{seat}"
    return RANKS[j % 13] + SUITS[seat][j // 13]


NAMES: tuple[str, ...] = tuple(card_name(c) for c in range(NUM_CARDS))
BY_NAME: dict[str, int] = {n.upper(): c for c, n in enumerate(NAMES)}
RANK_OF: tuple[int, ...] = tuple(rank_index(c) for c in range(NUM_CARDS))
OWNER_OF: tuple[int, ...] = tuple(owner_of(c) for c in range(NUM_CARDS))
