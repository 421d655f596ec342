"""Lyabi's card data: the model of the data file, its loading and validation, and the tables the rules use.

The file (``data/cards.toml`` in this package, or the user's own through ``--option cards=PATH``) holds every
count and every value the rulebook lost. Errors name the file, the card and the field.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from importlib import resources
from itertools import combinations
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ...engine import CardDataError
from ...engine.datafiles import read_toml
from .._datamodel import Whole, plain
from .constants import COLOURS, ITEM_IDS, ORB

# The tuning number each item needs (None: none).
ITEM_PARAM: dict[str, str | None] = {
    "crystal": "look",
    "eye": None,
    "brush": None,
    "sword": "damage",
    "stone": None,
    "mirror": "reflect",
    "orb": "draw_to",
    "herb": None,
}
ITEM_PARAMS = ("look", "damage", "reflect", "draw_to")
# Numbers of [rules] an item's effect text may show as well.
RULES_NUMBERS = ("hand_size", "starting_hp", "max_circles", "item_cost")

Colour = Literal["blue", "green", "red"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class RulesModel(_Model):
    starting_hp: Annotated[int, Whole(1, 10_000)]
    hand_size: Annotated[int, Whole(1, 10)]
    max_circles: Annotated[int, Whole(1, 6)]
    item_cost: Annotated[int, Whole(0, 1_000)]
    assumed: list[str] = []


class RyabiModel(_Model):
    colour: Colour
    level: Annotated[int, Whole(0, 999)]
    count: Annotated[int, Whole(0, 100)]
    cost: Annotated[int, Whole(0, 1_000)]
    # a multiplier, fractional on purpose (the rulebook's Lv5 is ×1.5): a number above 0 and at most 100
    times: float = Field(gt=0, le=100, allow_inf_nan=False)
    assumed: list[str] = []


class CircleModel(_Model):
    colour: Colour
    level: Annotated[int, Whole(0, 999)]
    count: Annotated[int, Whole(0, 100)]
    cost: Annotated[int, Whole(0, 1_000)]
    atk: Annotated[int, Whole(0, 1_000)]
    assumed: list[str] = []


class StartModel(_Model):
    hand: list[str]
    deck: list[str]
    assumed: list[str] = []


class ItemModel(_Model):
    id: Literal["crystal", "eye", "brush", "sword", "stone", "mirror", "orb", "herb"]
    name: str = Field(min_length=1)
    count: Annotated[int, Whole(0, 100)]
    timing: str = Field(min_length=1)
    effect: str = Field(min_length=1)
    look: Annotated[int, Whole(1, 20)] | None = None
    damage: Annotated[int, Whole(0, 1_000)] | None = None
    reflect: float | None = Field(default=None, ge=0, le=10, allow_inf_nan=False)
    draw_to: Annotated[int, Whole(1, 10)] | None = None
    assumed: list[str] = []


class FileModel(_Model):
    rules: RulesModel
    ryabi: list[RyabiModel] = Field(min_length=1)
    circle: list[CircleModel] = Field(min_length=1)
    start: dict[Colour, StartModel]
    item: list[ItemModel] = []


@dataclass(frozen=True)
class ItemSpec:
    id: str
    name: str
    count: int
    timing: str
    effect: str  # the effect text with its numbers filled in (the file's text names them in braces)
    param: str | None
    value: int | float | None
    assumed: tuple[str, ...]


@dataclass(frozen=True)
class CardSet:
    """The validated data, as tables indexed by small integers (ryabi kind, circle kind, level, item)."""

    file: str
    starting_hp: int
    hand_size: int
    max_circles: int
    item_cost: int
    rules_assumed: tuple[str, ...]
    # ryabi kinds, ordered by colour then level
    r_names: tuple[str, ...]
    r_colour: tuple[int, ...]
    r_level: tuple[int, ...]
    r_cost: tuple[int, ...]
    r_times: tuple[Fraction, ...]
    r_count: tuple[int, ...]
    r_assumed: tuple[tuple[str, ...], ...]
    # circle kinds, ordered by level then colour
    c_names: tuple[str, ...]
    c_colour: tuple[int, ...]
    c_level: tuple[int, ...]
    c_atk: tuple[int, ...]
    c_count: tuple[int, ...]
    c_assumed: tuple[tuple[str, ...], ...]
    c_level_index: tuple[int, ...]  # circle kind -> index into levels
    levels: tuple[int, ...]  # distinct circle levels, ascending (face-down piles)
    level_cost: tuple[int, ...]
    # the initial hand and deck per setup-circle colour (None: no setup circle of that colour)
    start_hand: tuple[tuple[int, ...] | None, ...]
    start_deck: tuple[tuple[int, ...] | None, ...]
    start_assumed: tuple[tuple[str, ...], ...]
    items: tuple[ItemSpec, ...]  # indexed like ITEM_IDS

    @property
    def num_kinds(self) -> int:
        return len(self.r_names)

    def kind(self, name: str) -> int:
        return self.r_names.index(name)

    def item_value(self, item: int) -> Any:
        return self.items[item].value

    @property
    def max_hand(self) -> int:
        """The most cards a hand can hold (the draw target, the orb's target, an initial hand)."""
        sizes = [self.hand_size]
        orb = self.items[ORB]
        if orb.count and isinstance(orb.value, int):
            sizes.append(orb.value)
        sizes += [len(h) for h in self.start_hand if h is not None]
        return max(sizes)

    def damage(self, circle: int, first: int, second: int | None) -> int:
        """floor(ATK × times [× times of the second ryabi]) for one circle (rulebook: ダメージ計算のルール)."""
        return self._damage_table[circle][first][0 if second is None else second + 1]

    @cached_property
    def r_times_float(self) -> tuple[float, ...]:
        """``r_times`` as floats, for the rules of thumb and the evaluation (the rules keep the exact fractions)."""
        return tuple(float(t) for t in self.r_times)

    @cached_property
    def _damage_table(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """Every circle × first ryabi × (no second ryabi, or each second ryabi): the damage, computed once with
        exact fractions (the rules of thumb ask for it hundreds of thousands of times in a search)."""

        def exact(circle: int, first: int, second: int | None) -> int:
            value = self.c_atk[circle] * self.r_times[first]
            if second is not None:
                value *= self.r_times[second]
            return int(value)  # Fraction -> int truncates toward zero; values are ≥ 0, so this is the floor

        kinds = range(len(self.r_names))
        return tuple(
            tuple(tuple(exact(circle, first, second) for second in (None, *kinds)) for first in kinds)
            for circle in range(len(self.c_names))
        )


def show_number(value: int | float) -> str:
    """A number as an effect text shows it: 3, 1.5, and a fraction below one as 1/2."""
    if isinstance(value, float) and 0 < value < 1:
        frac = Fraction(str(value))
        if frac.denominator <= 12:
            return f"{frac.numerator}/{frac.denominator}"
    return f"{value:g}" if isinstance(value, float) else str(value)


def effect_text(file: str, card: str, template: str, numbers: dict[str, int | float], own: str | None) -> str:
    """The effect ``template`` with its numbers filled in; ``{name}`` stands for the number ``name``.

    The item's own number (``own``) must be shown, so that a player reads the real effect; any other name in
    braces is refused (a data field name is never shown to players).
    """
    try:
        names = [name for _, name, _, _ in string.Formatter().parse(template) if name is not None]
    except ValueError as e:
        raise CardDataError(file, f"the effect text has unbalanced braces ({e})", card=card, field="effect") from None
    for name in names:
        if name not in numbers:
            allowed = ", ".join("{" + n + "}" for n in numbers)
            raise CardDataError(
                file,
                f"the effect text names {{{name}}}, which is not a number it may show ({allowed})",
                card=card,
                field="effect",
            )
    if own is not None and own not in names:
        raise CardDataError(
            file,
            f"the effect text must show the item's number: write {{{own}}} where it goes",
            card=card,
            field="effect",
        )
    try:
        return template.format(**{n: show_number(v) for n, v in numbers.items()})
    except (ValueError, KeyError, IndexError, AttributeError) as e:
        raise CardDataError(file, f"the effect text cannot be filled in ({e})", card=card, field="effect") from None


def default_path() -> Path:
    return Path(str(resources.files(__package__).joinpath("data", "cards.toml")))


def load_cards(path: str | Path | None = None) -> CardSet:
    """Read and validate a Lyabi data file (default: the one shipped with the game)."""
    file = Path(path) if path is not None else default_path()
    name = str(file)
    return parse_cards(read_toml(file), name)


TABLES = ("rules", "ryabi", "circle", "start", "item")
ENTRIES = ("ryabi", "circle", "item")  # the top-level lists of cards ([[ryabi]], [[circle]], [[item]])


def _entry_label(data: dict[str, Any], loc: tuple[Any, ...]) -> str | None:
    """The card the place ``loc`` of a validation error is in: a ryabi, circle or item entry, or the initial hand
    and deck of a colour; ``None`` for a top-level table ([rules], or a table itself)."""
    if len(loc) < 2:
        return None
    section = loc[0]
    if section == "start" and isinstance(loc[1], str) and (len(loc) < 3 or loc[2] != "[key]"):
        return f"start.{loc[1]}"
    if section in ENTRIES and isinstance(loc[1], int):
        entries = data.get(section)
        entry = entries[loc[1]] if isinstance(entries, list) and loc[1] < len(entries) else None
        if isinstance(entry, dict):
            if section == "item" and isinstance(entry.get("id"), str):
                return f"item {entry['id']}"
            colour, level = entry.get("colour"), entry.get("level")
            if isinstance(colour, str) and isinstance(level, int):
                return f"{section} {colour}{level}"
        return f"{section} #{loc[1] + 1}"
    return None


def _field_label(loc: tuple[Any, ...], card: str | None) -> str | None:
    """The field of the error: a card's own field, or the dotted place in a top-level table (``rules.hand_size``)."""
    if card is None:
        return ".".join(str(x) for x in loc if x != "[key]") or None
    fields = [x for x in loc[2:] if isinstance(x, str)]
    return fields[-1] if fields else None  # None: the entry itself is wrong


def _plain(err: Any, card: str | None) -> str:
    """A pydantic error in a card designer's words."""
    kind = err["type"]
    value = err.get("input")
    got = "" if isinstance(value, (dict, list)) else f" (got {value!r})"
    loc = tuple(err["loc"])
    if kind == "missing":
        return "this table is missing" if len(loc) == 1 else "this field is missing"
    if kind == "extra_forbidden":
        return f"{loc[-1]!r} is not a field of this {'card' if card else 'table'} (a misspelling?)"
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        return f"this {'card' if card and len(loc) == 2 else 'value'} must be a table of fields{got}"
    if kind == "too_short":
        return "this needs at least one entry"
    if kind == "list_type":
        what = "a list of tables ([[" + str(loc[0]) + "]] entries)" if len(loc) == 1 else "a list"
        return f"this must be {what}{got}"
    if loc and loc[-1] == "[key]":
        return f"{value!r} is not a colour (blue, green or red)"
    return plain(err, f"this {'card' if card else 'table'}")


def parse_cards(data: dict[str, Any], file: str) -> CardSet:
    """Validate the parsed TOML ``data`` of ``file``; raise ``CardDataError`` naming the card and field."""
    unknown = sorted(str(k) for k in data if k not in TABLES)
    if unknown:
        raise CardDataError(
            file, f"unknown top-level table {unknown[0]!r} (expected {', '.join(TABLES)})", field=unknown[0]
        )
    try:
        model = FileModel.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        loc = tuple(err["loc"])
        card = _entry_label(data, loc)
        raise CardDataError(file, _plain(err, card), card=card, field=_field_label(loc, card)) from None
    return _build(model, file)


def _check_assumed(file: str, card: str | None, assumed: list[str], fields: set[str]) -> tuple[str, ...]:
    """``assumed`` names fields of its entry (``card``; ``None``: the [rules] table)."""
    for f in assumed:
        if f not in fields:
            raise CardDataError(
                file,
                f"'assumed' names {f!r}, which is not a field of this {'entry' if card else 'table'}",
                card=card,
                field="assumed" if card is not None else "rules.assumed",
            )
    return tuple(assumed)


def _build(m: FileModel, file: str) -> CardSet:
    rules = m.rules
    rules_assumed = _check_assumed(file, None, rules.assumed, set(RulesModel.model_fields) - {"assumed"})
    ryabi = _ryabi(m, file)
    r_names = tuple(f"{r.colour}{r.level}" for r in ryabi)
    circles, level_cost = _circles(m, file)
    levels = tuple(sorted(level_cost))
    setup_colours = _setup_colours(circles, levels[0], file)
    start_hand, start_deck, start_assumed = _starts(m, file, r_names, setup_colours)
    _check_start_supply(m, file, {name: r.count for name, r in zip(r_names, ryabi)}, setup_colours)
    items = _items(m, file)
    return CardSet(
        file=file,
        starting_hp=rules.starting_hp,
        hand_size=rules.hand_size,
        max_circles=rules.max_circles,
        item_cost=rules.item_cost,
        rules_assumed=rules_assumed,
        r_names=r_names,
        r_colour=tuple(COLOURS.index(r.colour) for r in ryabi),
        r_level=tuple(r.level for r in ryabi),
        r_cost=tuple(r.cost for r in ryabi),
        r_times=tuple(Fraction(str(r.times)) for r in ryabi),
        r_count=tuple(r.count for r in ryabi),
        r_assumed=tuple(tuple(r.assumed) for r in ryabi),
        c_names=tuple(f"{c.colour}{c.level}" for c in circles),
        c_colour=tuple(COLOURS.index(c.colour) for c in circles),
        c_level=tuple(c.level for c in circles),
        c_atk=tuple(c.atk for c in circles),
        c_count=tuple(c.count for c in circles),
        c_assumed=tuple(tuple(c.assumed) for c in circles),
        c_level_index=tuple(levels.index(c.level) for c in circles),
        levels=levels,
        level_cost=tuple(level_cost[lv] for lv in levels),
        start_hand=start_hand,
        start_deck=start_deck,
        start_assumed=start_assumed,
        items=items,
    )


def _ryabi(m: FileModel, file: str) -> list[RyabiModel]:
    """The ryabi kinds, each colour and level once, ordered by colour then level."""
    ry_fields = set(RyabiModel.model_fields) - {"assumed"}
    seen: set[tuple[str, int]] = set()
    for r in m.ryabi:
        card = f"ryabi {r.colour}{r.level}"
        if (r.colour, r.level) in seen:
            raise CardDataError(file, "this colour and level appear twice", card=card, field="level")
        seen.add((r.colour, r.level))
        _check_assumed(file, card, r.assumed, ry_fields)
    return sorted(m.ryabi, key=lambda r: (COLOURS.index(r.colour), r.level))


def _circles(m: FileModel, file: str) -> tuple[list[CircleModel], dict[int, int]]:
    """The circle kinds ordered by level then colour, and the one cost of each level."""
    ci_fields = set(CircleModel.model_fields) - {"assumed"}
    seen: set[tuple[str, int]] = set()
    level_cost: dict[int, int] = {}
    for c in m.circle:
        card = f"circle {c.colour}{c.level}"
        if (c.colour, c.level) in seen:
            raise CardDataError(file, "this colour and level appear twice", card=card, field="level")
        seen.add((c.colour, c.level))
        _check_assumed(file, card, c.assumed, ci_fields)
        if level_cost.setdefault(c.level, c.cost) != c.cost:
            raise CardDataError(
                file,
                f"every circle of level {c.level} must have one cost (they share one face-down pile); "
                f"found {level_cost[c.level]} and {c.cost}",
                card=card,
                field="cost",
            )
    return sorted(m.circle, key=lambda c: (c.level, COLOURS.index(c.colour))), level_cost


def _setup_colours(circles: list[CircleModel], setup_level: int, file: str) -> list[Colour]:
    """The colours of the setup circles (the lowest level), in colour order; setup needs two of them."""
    setup_colours = {c.colour for c in circles if c.level == setup_level and c.count > 0}
    if len(setup_colours) < 2:
        raise CardDataError(
            file,
            f"the setup level {setup_level} needs circles of at least two colours with count ≥ 1, "
            "or setup would redraw for ever",
            card=f"circle level {setup_level}",
            field="count",
        )
    return sorted(setup_colours, key=COLOURS.index)


Starts = tuple[tuple[tuple[int, ...] | None, ...], tuple[tuple[int, ...] | None, ...], tuple[tuple[str, ...], ...]]


def _starts(m: FileModel, file: str, r_names: tuple[str, ...], setup_colours: list[Colour]) -> Starts:
    """The initial hand and deck (ryabi kinds) per setup-circle colour, with their assumed fields."""
    start_hand: list[tuple[int, ...] | None] = [None, None, None]
    start_deck: list[tuple[int, ...] | None] = [None, None, None]
    start_assumed: list[tuple[str, ...]] = [(), (), ()]
    for colour in setup_colours:
        card = f"start.{colour}"
        spec = m.start.get(colour)
        if spec is None:
            raise CardDataError(
                file,
                f"a setup circle of colour {colour} exists but its initial hand and deck are missing",
                card=card,
                field="start",
            )
        ci = COLOURS.index(colour)
        start_assumed[ci] = _check_assumed(file, card, spec.assumed, {"hand", "deck"})
        kinds: dict[str, list[int]] = {}
        for fname, names in (("hand", spec.hand), ("deck", spec.deck)):
            for n in names:
                if n not in r_names:
                    raise CardDataError(
                        file, f"{n!r} is not a ryabi of this file (known: {', '.join(r_names)})", card=card, field=fname
                    )
            kinds[fname] = [r_names.index(n) for n in names]
        if not spec.hand and not spec.deck:
            raise CardDataError(file, "the initial hand and deck are both empty", card=card, field="deck")
        start_hand[ci] = tuple(kinds["hand"])
        start_deck[ci] = tuple(kinds["deck"])
    return tuple(start_hand), tuple(start_deck), tuple(start_assumed)


def _check_start_supply(m: FileModel, file: str, count: dict[str, int], setup_colours: list[Colour]) -> None:
    """Any two players of different colours must find their starting cards in the supply."""
    for a, b in combinations(setup_colours, 2):
        need: dict[str, int] = {}
        for colour in (a, b):
            spec = m.start[colour]
            for n in [*spec.hand, *spec.deck]:
                need[n] = need.get(n, 0) + 1
        for n, k in need.items():
            if k > count[n]:
                raise CardDataError(
                    file,
                    f"players starting with {a} and {b} circles need {k} {n} but the supply has {count[n]}",
                    card=f"ryabi {n}",
                    field="count",
                )


def _items(m: FileModel, file: str) -> tuple[ItemSpec, ...]:
    """Every item once, indexed like ``ITEM_IDS``, with its number and its effect text filled in."""
    specs: dict[str, ItemSpec] = {}
    it_fields = set(ItemModel.model_fields) - {"assumed"}
    for it in m.item:
        card = f"item {it.id}"
        if it.id in specs:
            raise CardDataError(file, "this item appears twice", card=card, field="id")
        _check_assumed(file, card, it.assumed, it_fields)
        specs[it.id] = _item(it, m.rules, file, card)
    missing = [i for i in ITEM_IDS if i not in specs]
    if missing:
        raise CardDataError(
            file, "every item must be listed (give count = 0 to leave one out)", card=f"item {missing[0]}", field="id"
        )
    return tuple(specs[i] for i in ITEM_IDS)


def _item(it: ItemModel, rules: RulesModel, file: str, card: str) -> ItemSpec:
    param = ITEM_PARAM[it.id]
    for p in ITEM_PARAMS:
        v = getattr(it, p)
        if p == param and v is None:
            raise CardDataError(file, f"the {it.id} needs the number {p!r}", card=card, field=p)
        if p != param and v is not None:
            raise CardDataError(file, f"the {it.id} takes no {p!r}", card=card, field=p)
    value = getattr(it, param) if param is not None else None
    if it.id == "orb" and isinstance(value, int) and value < rules.hand_size:
        raise CardDataError(
            file, f"draw_to must be at least the hand size {rules.hand_size}", card=card, field="draw_to"
        )
    numbers: dict[str, int | float] = {n: getattr(rules, n) for n in RULES_NUMBERS}
    if param is not None:
        assert value is not None  # checked above
        numbers[param] = value
    effect = effect_text(file, card, it.effect, numbers, param)
    return ItemSpec(it.id, it.name, it.count, it.timing, effect, param, value, tuple(it.assumed))
