"""The card list: a TOML data file (``data/cards.toml``), validated with pydantic and compiled into
:class:`~.card.CardDef` values."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from cardarena.engine import CardDataError
from cardarena.engine.datafiles import parse_toml, read_text

from ..._datamodel import Whole
from ..constants import ACTION, BUILD, CONST, EVENT
from .abilities import Ability, AbilityError, parse_ability
from .card import CardDef
from .messages import validate

DEFAULT_FILE = "cards.toml"  # in the game's data/ folder
MAX_FORCE = 99


class CardSpec(BaseModel):
    """One card as written in the data file (strict: a number in quotes is text, not a number)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$", max_length=32)
    name: str = Field(min_length=1, max_length=40)
    number: Literal["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    force: Annotated[int, Whole(0, MAX_FORCE)]  # HP and speed: 0..99 (true, 1.5 and "3" are refused)
    category: Literal["core", "damage", "disruption", "defence", "support"]
    text: str = ""  # the rulebook's text (Japanese)
    text_en: str = Field(default="", max_length=400)  # its English translation
    abilities: list[str] = Field(default_factory=list, max_length=4)
    assumed: bool = False


class CardFile(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    card: list[CardSpec] = Field(min_length=1, max_length=200)


def compile_card(index: int, spec: CardSpec) -> CardDef:
    """Parse the card's abilities (raises ``AbilityError``) and index them."""
    abilities = tuple(parse_ability(line) for line in spec.abilities)
    card = CardDef(
        index, spec.id, spec.name, spec.number, spec.force, spec.category, spec.text, abilities, text_en=spec.text_en
    )
    events: dict[str, list[Ability]] = {}
    src: list[list[Ability]] = [[], [], [], []]
    dst: list[list[Ability]] = [[], [], [], []]
    for a in abilities:
        if a.timing == ACTION:
            if card.action is not None:
                raise AbilityError("a card has at most one action <A>")
            card.action = a
        elif a.timing == BUILD:
            card.build = (*card.build, a)
        elif a.timing == CONST:
            ops = {e.op for e in a.effects}
            card.no_up_phase |= "no_up_phase" in ops
            card.lifts_above |= "above_ignores_top" in ops
        elif a.timing == EVENT:
            assert a.trigger is not None
            if a.trigger == "my_damage":
                src[a.stage].append(a)
            elif a.trigger == "enemy_damage":
                dst[a.stage].append(a)
            else:
                events.setdefault(a.trigger, []).append(a)
    for a in abilities:
        limited = "hp_at_most_half_base" in a.limits
        card.hp_limit |= limited
        card.above_base |= any(e.op == "damage" and e.args[0] == "above_base" for e in a.effects)
        card.free_heal |= not limited and any(e.op == "heal_to_base" for e in a.effects)
    card.events = {k: tuple(v) for k, v in events.items()}
    card.src_damage = tuple(tuple(x) for x in src)
    card.dst_damage = tuple(tuple(x) for x in dst)
    card.answers = frozenset(
        [*card.events, *(["my_damage"] if any(src) else []), *(["enemy_damage"] if any(dst) else [])]
    )
    return card


class CardTable:
    """The loaded card list, looked up by id, by name (any case) or by index."""

    def __init__(self, cards: list[CardDef], source: str) -> None:
        self.cards = cards
        self.source = source
        self._by_key: dict[str, CardDef] = {}
        for c in cards:
            self._by_key[c.id] = c
            self._by_key[c.name.lower()] = c

    def __len__(self) -> int:
        return len(self.cards)

    def find(self, key: str) -> CardDef | None:
        """The card whose id or name (any case) is ``key``."""
        return self._by_key.get(key.strip().lower())


def _where(raw: dict[str, Any]) -> Any:
    """Where an error in the card file ``raw`` is: the card (its id, else its name, else ``#n``) and the field."""

    def where(loc: tuple[Any, ...]) -> tuple[str | None, str | None, str, type[BaseModel]]:
        if len(loc) >= 2 and loc[0] == "card" and isinstance(loc[1], int):
            try:
                entry = raw["card"][loc[1]]
                card = str(entry.get("id") or entry.get("name") or f"#{loc[1] + 1}")
            except (KeyError, IndexError, TypeError, AttributeError):
                card = f"#{loc[1] + 1}"
            return card, (str(loc[2]) if len(loc) >= 3 else None), "a card", CardSpec
        return None, (str(loc[0]) if loc else None), "a card file", CardFile

    return where


def load_cards(path: str | Path | None = None) -> CardTable:
    """Load and check a card file (default: the package's ``cards.toml``); raise ``CardDataError``."""
    if path is None:
        name = DEFAULT_FILE
        text = resources.files("cardarena.games.laplaplace").joinpath("data", DEFAULT_FILE).read_text(encoding="utf-8")
    else:
        name = str(path)
        text = read_text(path)
    return _parse_cards_cached(text, name)


@lru_cache(maxsize=32)
def _parse_cards_cached(text: str, name: str) -> CardTable:
    """``parse_cards``, remembered by the file's text: a league or an optimiser loads the game once per battle, and
    parsing the card list cost more than the battle (a card table is never changed once compiled). A file is
    still read every time, so an edited file is parsed afresh; an invalid one raises every time (errors are not
    remembered)."""
    return parse_cards(text, name)


def parse_cards(text: str, name: str = "<cards>") -> CardTable:
    raw = parse_toml(text, name)
    if not isinstance(raw.get("card"), list) and not (set(raw) - {"card"}):
        raise CardDataError(
            name, "no cards: a card file holds one [[card]] table per card (id, name, number, force, ...)", field="card"
        )
    data: CardFile = validate(CardFile, raw, name, _where(raw))
    cards: list[CardDef] = []
    seen: set[str] = set()
    for i, spec in enumerate(data.card):
        for key in dict.fromkeys((spec.id, spec.name.lower())):
            if key in seen:
                raise CardDataError(name, f"{key!r} names two cards", card=spec.id, field="id")
            seen.add(key)
        try:
            cards.append(compile_card(i, spec))
        except AbilityError as e:
            raise CardDataError(name, str(e), card=spec.id, field="abilities") from None
    return CardTable(cards, name)
