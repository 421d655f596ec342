"""The ToraBato card list, read from ``cards.toml`` and checked, and the 54 physical cards of the two decks.

Card ids: seat 0 (player A) owns ids 0-26 (spades 0-12, clubs 13-25, joker 26); seat 1 (player B) owns 27-53
(hearts 27-39, diamonds 40-52, joker 53). Within a suit, id % 13 is the rank index (0 = A ... 12 = K).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, model_validator

from ...engine import CardDataError
from ...engine.datafiles import read_toml
from .._datamodel import validate
from .constants import CARDS_PER_SEAT, NUM_CARDS, Ability, CardType, Effect, Timing

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "Joker")
SUITS = (("S", "C"), ("H", "D"))  # per seat
DEFAULT_CARDS = Path(__file__).with_name("data") / "cards.toml"


class CardSpec(BaseModel):
    """One rank's printed data."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rank: Literal["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "Joker"]
    value: int
    cost: int
    kind: CardType
    timing: Timing = Timing.ANY
    effect: Effect | None = None
    amount: int = 0
    attack: int = 0
    health: int = 0
    ability: Ability | None = None
    ability_cost: int = 0
    health_boost: int = 0
    recur_cost: int | None = None

    @model_validator(mode="after")
    def _consistent(self) -> CardSpec:
        if self.cost < 0 or self.ability_cost < 0 or (self.recur_cost is not None and self.recur_cost < 0):
            raise ValueError("costs cannot be negative")
        if self.kind == CardType.SPELL and self.effect is None:
            raise ValueError("a spell needs an effect")
        if self.kind == CardType.SOLDIER:
            if self.effect is not None:
                raise ValueError("a soldier has no spell effect (give it an ability instead)")
            if self.health <= 0:
                raise ValueError("a soldier needs health of at least 1")
            if self.attack < 0:
                raise ValueError("attack cannot be negative")
        if self.ability is not None and self.kind != CardType.SOLDIER:
            raise ValueError("only soldiers have abilities")
        if self.effect in (Effect.DAMAGE, Effect.GAIN_MANA, Effect.DRAW) and self.amount <= 0:
            raise ValueError(f"effect {self.effect.value!r} needs a positive amount")
        # Things a player may repeat must cost mana, or one turn could go on for ever.
        if self.ability in (Ability.REGROW, Ability.FORTIFY) and self.ability_cost < 1:
            raise ValueError(f"the {self.ability.value!r} ability can be used again and again: it must cost at least 1")
        if self.recur_cost is not None and self.recur_cost < 1:
            raise ValueError("taking a card back from the discard pile must cost at least 1")
        return self


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
    rows = data.get("cards")
    if not isinstance(rows, list) or not rows:
        raise CardDataError(name, "expected a list of [[cards]] tables")
    specs: dict[str, CardSpec] = {}
    for i, row in enumerate(rows, 1):
        label = str(row.get("rank", f"#{i}")) if isinstance(row, dict) else f"#{i}"
        spec = validate(CardSpec, row, file=name, card=label)
        if spec.rank in specs:
            raise CardDataError(name, "this rank appears twice", card=spec.rank, field="rank")
        specs[spec.rank] = spec
    missing = [r for r in RANKS if r not in specs]
    if missing:
        raise CardDataError(name, f"the card list lacks the rank(s) {', '.join(missing)}", field="rank")
    _check_no_mana_loop(name, specs)
    return CardList(tuple(specs[r] for r in RANKS), name)


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
