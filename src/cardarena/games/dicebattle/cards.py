"""Card pool and deck files: TOML, validated with pydantic, errors naming the file, the card and the field."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import ErrorDetails

from cardarena.engine import CardDataError
from cardarena.engine.datafiles import parse_toml, read_toml

from .effects import NOT_ON_GRANTS, Effect, EffectSyntaxError, parse_condition, parse_operation

HUMAN, MONSTER, MAGIC = "human", "monster", "magic"
DECK_SIZE = 30
MAX_COPIES = 2

# 異例 (special rules): not effects, but rules for playing the card.
SPECIALS: dict[str, str] = {
    "free_join": "this monster may join monsters in your main zone without using the die, even a used-up die "
    "(its level still adds to the unit); set first, it uses its level",
    "magic_with_monster": "this magic may be set in the magic circle when your main unit is a monster",
    "set_on_one": "this unit may also be set when your die shows 1; it then costs 1 to set",
}

PACKAGE = "cardarena.games.dicebattle"
STARTERS = ("horde", "arcana", "vanguard")


class _EffectModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["choice", "forced"]
    when: str = "always"
    do: list[str] = Field(min_length=1)


class _GrantModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    level: int = Field(ge=1, le=6)
    type: Literal["choice", "forced", "permanent"]
    when: str = "always"
    do: list[str] = Field(min_length=1)


class _CardModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)
    name: str = Field(min_length=1, max_length=60)
    kind: Literal["human", "monster", "magic"]
    level: int = Field(ge=1, le=6)
    effect: _EffectModel | None = None
    grant: _GrantModel | None = None
    special: Literal["free_join", "magic_with_monster", "set_on_one"] | None = None
    text: str = ""
    assumed: bool = True


class _PoolModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    assumed: bool = True
    card: list[dict[str, Any]] = Field(min_length=1)


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the pool, compiled for the rules engine."""

    index: int
    id: str
    name: str
    kind: str
    level: int
    effect: Effect | None
    grant_level: int
    grant: Effect | None
    special: str | None
    text: str

    def summary(self) -> str:
        """One line: name, kind, level, effect, grant and special rule."""
        parts = [f"{self.name} [{self.id}] {self.kind} Lv{self.level}"]
        if self.effect is not None:
            parts.append(self.effect.text)
        if self.grant is not None:
            parts.append(f"grant Lv{self.grant_level} {self.grant.text}")
        if self.special is not None:
            parts.append(f"異例: {SPECIALS[self.special]}")
        return " | ".join(parts)


def _location(err: ErrorDetails) -> str:
    return ".".join(str(x) for x in err["loc"]) or "(card)"


def _compile_effect(file: str, card_id: str, field: str, model: _EffectModel | _GrantModel) -> Effect:
    try:
        when, when_n = parse_condition(model.when)
    except EffectSyntaxError as e:
        raise CardDataError(file, str(e), card=card_id, field=f"{field}.when") from None
    ops = []
    for k, text in enumerate(model.do):
        try:
            op = parse_operation(text)
        except EffectSyntaxError as e:
            raise CardDataError(file, str(e), card=card_id, field=f"{field}.do[{k}]") from None
        if field == "grant" and op[0] in NOT_ON_GRANTS:
            raise CardDataError(file, f"operation {op[0]!r} cannot be used by a grant", card=card_id, field=field)
        ops.append(op)
    return Effect(model.type, when, when_n, tuple(ops))


def parse_pool(data: dict[str, Any], file: str) -> list[Card]:
    """Validate a card pool (the parsed TOML) and compile its cards; raise :class:`CardDataError`."""
    try:
        pool = _PoolModel.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        raise CardDataError(file, f"{err['msg']}", field=_location(err)) from None
    cards: list[Card] = []
    seen: set[str] = set()
    for k, raw in enumerate(pool.card):
        label = str(raw.get("id", f"#{k + 1}"))
        try:
            m = _CardModel.model_validate(raw)
        except ValidationError as e:
            err = e.errors()[0]
            raise CardDataError(file, f"{err['msg']}", card=label, field=_location(err)) from None
        if m.id in seen:
            raise CardDataError(file, "this id is used by two cards", card=m.id, field="id")
        seen.add(m.id)
        if m.special == "magic_with_monster" and m.kind != MAGIC:
            raise CardDataError(file, "'magic_with_monster' is only for magic cards", card=m.id, field="special")
        if m.special == "set_on_one" and m.kind == MAGIC:
            raise CardDataError(file, "'set_on_one' is only for units", card=m.id, field="special")
        if m.special == "free_join" and m.kind != MONSTER:
            raise CardDataError(file, "'free_join' is only for monsters", card=m.id, field="special")
        effect = _compile_effect(file, m.id, "effect", m.effect) if m.effect is not None else None
        grant = _compile_effect(file, m.id, "grant", m.grant) if m.grant is not None else None
        grant_level = m.grant.level if m.grant is not None else 0
        if grant is not None and grant_level == m.level:
            raise CardDataError(
                file, "the grant level must differ from the card's level", card=m.id, field="grant.level"
            )
        cards.append(Card(k, m.id, m.name, m.kind, m.level, effect, grant_level, grant, m.special, m.text))
    return cards


def _read_toml(path: Path | None, package_file: str | None, label: str) -> dict[str, Any]:
    if path is not None:
        return read_toml(path)
    assert package_file is not None
    return parse_toml(resources.files(PACKAGE).joinpath(package_file).read_text(encoding="utf-8"), label)


def load_pool(path: str | None = None) -> list[Card]:
    """The card pool: the package's ``data/cards.toml``, or the user's file at ``path``."""
    if path is None:
        return parse_pool(_read_toml(None, "data/cards.toml", "dicebattle/data/cards.toml"), "cards.toml")
    return parse_pool(_read_toml(Path(path), None, path), path)


@dataclass(frozen=True, slots=True)
class Deck:
    name: str
    plan: str
    cards: tuple[int, ...]  # card indices, 30 of them, in file order
    source: str


class _DeckModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(min_length=1)
    plan: str = ""
    cards: dict[str, int]


def parse_deck(data: dict[str, Any], file: str, pool: list[Card]) -> Deck:
    """Validate a deck: exactly 30 cards of the pool, at most 2 copies of any card (no exception)."""
    try:
        m = _DeckModel.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        raise CardDataError(file, f"{err['msg']}", field=_location(err)) from None
    by_id = {c.id: c for c in pool}
    indices: list[int] = []
    for card_id, count in m.cards.items():
        card = by_id.get(card_id)
        if card is None:
            raise CardDataError(file, "no card with this id in the card pool", card=card_id, field="cards")
        if count < 1:
            raise CardDataError(file, f"count {count} must be at least 1", card=card_id, field="cards")
        if count > MAX_COPIES:
            raise CardDataError(
                file,
                f"{count} copies of {card.name!r}; a deck may hold at most {MAX_COPIES}",
                card=card_id,
                field="cards",
            )
        indices.extend([card.index] * count)
    if len(indices) != DECK_SIZE:
        raise CardDataError(file, f"the deck has {len(indices)} cards; it must have exactly {DECK_SIZE}")
    return Deck(m.name, m.plan, tuple(indices), file)


def load_deck(ref: str, pool: list[Card]) -> Deck:
    """A deck by starter name (``horde``, ``arcana``, ``vanguard``) or by path to a TOML file."""
    if ref in STARTERS:
        return parse_deck(_read_toml(None, f"data/decks/{ref}.toml", f"decks/{ref}.toml"), f"{ref}.toml", pool)
    path = Path(ref)
    if not path.exists() and not ref.endswith(".toml"):
        raise CardDataError(ref, f"no starter deck of this name and no such file; starters: {', '.join(STARTERS)}")
    return parse_deck(_read_toml(path, None, ref), ref, pool)
