"""The card data: the effect language, card pool and deck files (TOML, validated with pydantic; errors name the
file, the card and the field); the flat tables the rules read are built from them in :mod:`.tables`.

A card's effect is data::

    effect = { type = "forced", when = "opp_monster", do = ["weaken 2", "draw 1"] }

``when`` is one condition word (some take a number); ``do`` is a list of operations, each a word and at most
one number. This module parses and describes them; :mod:`.rules.effects` carries them out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import ErrorDetails

from cardarena.engine import CardDataError
from cardarena.engine.datafiles import parse_toml, read_text, read_toml

from .._datamodel import Messages, Whole, plain, shown
from .constants import DECK_SIZE, MAX_COPIES, EffectType
from .tables import Tables as Tables  # the rules' tables of a pool live in .tables (read from here too)

HUMAN, MONSTER, MAGIC = "human", "monster", "magic"

# 異例 (special rules): not effects, but rules for playing the card.
SPECIALS: dict[str, str] = {
    "free_join": "this monster may join monsters in your main zone without using the die, even a used-up die "
    "(its level still adds to the unit); set first, it uses its level",
    "magic_with_monster": "this magic may be set in the magic circle when your main unit is a monster",
    "set_on_one": "this unit may also be set when your die shows 1; it then costs 1 to set",
}

PACKAGE = "cardarena.games.dicebattle"
STARTERS = ("horde", "arcana", "vanguard")

# Condition word -> (takes a number, English text with {n}).
CONDITIONS: dict[str, tuple[bool, str]] = {
    "always": (False, ""),
    "opp_human": (False, "if the opponent's main unit is a human"),
    "opp_monster": (False, "if the opponent's main unit is a monster"),
    "opp_token": (False, "if the opponent's main unit is the dice token"),
    "opp_magic": (False, "if the opponent has magic in their magic circle"),
    "my_human": (False, "if your main unit is a human"),
    "my_monster": (False, "if your main unit is a monster"),
    "behind": (False, "if you have fewer stars than the opponent"),
    "ahead": (False, "if you have more stars than the opponent"),
    "losing": (False, "if your main unit's level is lower than the opponent's"),
    "first": (False, "if you are the first player this round"),
    "second": (False, "if you are the second player this round"),
    "roll_le": (True, "if your die shows {n} or less"),
    "roll_ge": (True, "if your die shows {n} or more"),
    "monsters_ge": (True, "if your main zone holds {n} or more monsters"),
    "hand_le": (True, "if you hold {n} or fewer cards"),
}

# Operation word -> (takes a number, English text with {n}).
OPERATIONS: dict[str, tuple[bool, str]] = {
    "power": (True, "your main unit gets {n:+d} level"),
    "weaken": (True, "the opponent's main unit gets -{n} level"),
    "halve": (False, "the opponent's main unit's level is halved (rounded down)"),
    "swap": (False, "swap the levels of the two main units"),
    "draw": (True, "draw {n}"),
    "opp_draw": (True, "the opponent draws {n}"),
    "discard": (True, "the opponent discards {n} card(s) at random"),
    "mill": (True, "the top {n} card(s) of the opponent's deck go to their graveyard"),
    "salvage": (True, "return the {n} highest-level card(s) of your graveyard to your hand"),
    "star": (True, "gain {n} star(s)"),
    "steal": (True, "the opponent loses {n} star(s)"),
    "cancel": (False, "the opponent's effects that have not resolved yet this battle do not resolve"),
    "tie_win": (False, "if the battle is a tie, you win it"),
    "keep": (False, "this card goes back to your hand after the battle instead of the graveyard"),
}

# Operations that make no sense on a grant (it is not in the battle's used cards).
NOT_ON_GRANTS = frozenset({"keep"})


class EffectSyntaxError(ValueError):
    """A condition or operation that the effect language does not know, or with a bad number."""


@dataclass(frozen=True, slots=True)
class Effect:
    """A compiled effect: its type, its condition and its operations."""

    type: EffectType
    when: str
    when_n: int
    ops: tuple[tuple[str, int], ...]

    @property
    def text(self) -> str:
        cond = condition_text(self.when, self.when_n)
        body = "; ".join(operation_text(op, n) for op, n in self.ops)
        return f"{self.type}: {cond + ', ' if cond else ''}{body}"


def _split(text: str, table: dict[str, tuple[bool, str]], what: str) -> tuple[str, int]:
    words = text.split()
    if not words:
        raise EffectSyntaxError(f"empty {what}")
    word = words[0]
    if word not in table:
        raise EffectSyntaxError(f"unknown {what} {word!r}; known: {', '.join(table)}")
    takes_number = table[word][0]
    if takes_number:
        if len(words) != 2:
            raise EffectSyntaxError(f"{what} {word!r} takes one number, as in '{word} 2'")
        try:
            n = int(words[1])
        except ValueError:
            raise EffectSyntaxError(f"{what} {word!r} takes a whole number, not {words[1]!r}") from None
        if not -6 <= n <= 6 or n == 0:
            raise EffectSyntaxError(f"{what} {word!r}: the number must be between -6 and 6 and not 0")
        if n < 0 and word != "power":
            raise EffectSyntaxError(f"{what} {word!r}: only 'power' may take a negative number")
        return word, n
    if len(words) != 1:
        raise EffectSyntaxError(f"{what} {word!r} takes no number")
    return word, 0


def parse_condition(text: str) -> tuple[str, int]:
    """``"roll_le 2"`` -> ``("roll_le", 2)``; raises :class:`EffectSyntaxError`."""
    return _split(text, CONDITIONS, "condition")


def parse_operation(text: str) -> tuple[str, int]:
    """``"weaken 2"`` -> ``("weaken", 2)``; raises :class:`EffectSyntaxError`."""
    return _split(text, OPERATIONS, "operation")


def condition_text(word: str, n: int) -> str:
    return CONDITIONS[word][1].format(n=n)


def operation_text(word: str, n: int) -> str:
    return OPERATIONS[word][1].format(n=n)


def operation_doc(word: str) -> str:
    """What an operation does with its number left as N: ``"draw N"``, ``"your main unit gets +N level"``."""
    return OPERATIONS[word][1].replace("{n:+d}", "+N").replace("{n}", "N")


class _EffectModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["choice", "forced"]
    when: str = "always"
    do: list[str] = Field(min_length=1)


# A level is the die a unit needs: a whole number 1..6 (true and 2.0 are refused, the message says 1..6).
Level = Annotated[int, Whole(1, 6)]


class _GrantModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    level: Level
    type: Literal["choice", "forced", "permanent"]
    when: str = "always"
    do: list[str] = Field(min_length=1)


class _CardModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)
    name: str = Field(min_length=1, max_length=60)
    kind: Literal["human", "monster", "magic"]
    level: Level
    effect: _EffectModel | None = None
    grant: _GrantModel | None = None
    special: Literal["free_join", "magic_with_monster", "set_on_one"] | None = None
    text: str = ""
    assumed: bool = True


class _PoolModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    assumed: bool = True
    card: list[dict[str, Any]] = Field(min_length=1)


M = TypeVar("M", bound=BaseModel)


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


def _field(loc: tuple[int | str, ...]) -> str | None:
    """``("effect", "do", 0)`` -> ``"effect.do[0]"``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or None


_WORDS: Messages = {
    "string_pattern_mismatch": lambda e, what: (
        f"must be lowercase letters, digits and '_', starting with a letter, not {shown(e['input'])}"
    ),
}


def _plain(err: ErrorDetails, model: type[BaseModel]) -> str:
    """A pydantic error in the words of a card designer (never pydantic's own text)."""
    return plain(err, _WHAT[model], tuple(model.model_fields), _WORDS)


def _validate(model: type[M], data: Any, *, file: str, card: str | None = None) -> M:
    """``model.model_validate(data)``; the first error as a ``CardDataError`` naming the file, the card (if any)
    and the field, in plain words. Unknown keys are refused (every model forbids extra fields)."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        message = _plain(err, _model_at(model, err["loc"]))
        raise CardDataError(file, message, card=card, field=_field(err["loc"])) from None


def _model_at(model: type[BaseModel], loc: tuple[int | str, ...]) -> type[BaseModel]:
    """The model that holds the field at ``loc`` (for the list of its fields in an "unknown field" message)."""
    if model is _CardModel and len(loc) > 1 and loc[0] in ("effect", "grant"):
        return _EffectModel if loc[0] == "effect" else _GrantModel
    return model


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
            raise CardDataError(
                file, f"operation {op[0]!r} cannot be used by a grant", card=card_id, field=f"{field}.do[{k}]"
            )
        ops.append(op)
    return Effect(EffectType(model.type), when, when_n, tuple(ops))


def parse_pool(data: dict[str, Any], file: str) -> list[Card]:
    """Validate a card pool (the parsed TOML) and compile its cards; raise :class:`CardDataError`."""
    raw_cards = data.get("card") if isinstance(data, dict) else None
    for k, raw in enumerate(raw_cards if isinstance(raw_cards, list) else ()):
        if not isinstance(raw, dict):
            raise CardDataError(file, f"each [[card]] must be a table, not {shown(raw)}", card=f"#{k + 1}")
    pool = _validate(_PoolModel, data, file=file)
    cards: list[Card] = []
    seen: set[str] = set()
    for k, raw in enumerate(pool.card):
        label = raw.get("id")
        label = label if isinstance(label, str) and label else f"#{k + 1}"
        m = _validate(_CardModel, raw, file=file, card=label)
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


_POOLS: dict[tuple[str | None, str], tuple[Card, ...]] = {}


def load_pool(path: str | None = None) -> list[Card]:
    """The card pool: the package's ``data/cards.toml``, or the user's file at ``path``.

    A pool is parsed once per text (its file and what the file holds): the balance report loads the game again for
    every pair of decks it deals (``report_setup``), and parsing the pool was most of a load. The cards are
    frozen, so the copies share them."""
    if path is None:
        text = resources.files(PACKAGE).joinpath("data/cards.toml").read_text(encoding="utf-8")
        name = "cards.toml"
    else:
        text = read_text(path)  # raises CardDataError naming the file
        name = path
    found = _POOLS.get((path, text))
    if found is None:
        label = "dicebattle/data/cards.toml" if path is None else path
        found = _POOLS[(path, text)] = tuple(parse_pool(parse_toml(text, label), name))
    return list(found)


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


# What each model is, in a designer's words (for "missing" and "unknown field" messages).
_WHAT: dict[type[BaseModel], str] = {
    _PoolModel: "a card pool file",
    _CardModel: "a card",
    _EffectModel: "a card's effect",
    _GrantModel: "a card's grant",
    _DeckModel: "a deck file",
}


def parse_deck(data: dict[str, Any], file: str, pool: list[Card]) -> Deck:
    """Validate a deck: exactly 30 cards of the pool, at most 2 copies of any card (no exception)."""
    cards = data.get("cards") if isinstance(data, dict) else None
    if isinstance(cards, dict):
        for card_id, count in cards.items():
            if not isinstance(count, int) or isinstance(count, bool):
                raise CardDataError(
                    file,
                    f"the number of copies must be a whole number 1..{MAX_COPIES}, not {shown(count)}",
                    card=card_id,
                    field="cards",
                )
    m = _validate(_DeckModel, data, file=file)
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
        raise CardDataError(file, f"the deck has {len(indices)} cards; it must have exactly {DECK_SIZE}", field="cards")
    return Deck(m.name, m.plan, tuple(indices), file)


INLINE = "cards:"  # a deck given in the option itself (see load_deck)
# A starter with cards swapped: ``horde-goblin+ember_imp`` (see :func:`load_deck`); card ids have no ``-`` or ``+``.
SWAPPED = re.compile(r"^(" + "|".join(STARTERS) + r")((?:-[a-z][a-z0-9_]*\+[a-z][a-z0-9_]*)+)$")


def load_deck(ref: str, pool: list[Card]) -> Deck:
    """A deck by starter name (``horde``, ``arcana``, ``vanguard``), by path to a TOML file, or a starter with
    cards swapped: ``horde-goblin+ember_imp`` is Beast Horde with every copy of ``goblin`` replaced by as many
    copies of ``ember_imp`` (several swaps chain: ``horde-goblin+ember_imp-slime+harpy``). A swapped deck must
    still be legal (30 cards, at most 2 of a card) and is checked like a deck file. The balance report deals
    such decks (``report_decks.py``); a file of that name, if there is one, is read instead. A deck may also be
    given inline: ``cards:`` and its 30 card ids, each as often as the deck holds it (``cards:goblin,goblin,...``).
    """
    if ref in STARTERS:
        return parse_deck(_starter(ref), f"{ref}.toml", pool)
    path = Path(ref)
    swapped = SWAPPED.match(ref)
    if swapped is not None and not path.exists():
        return parse_deck(swap_cards(_starter(swapped[1]), swapped[2], ref), ref, pool)
    if ref.startswith(INLINE):
        copies: dict[str, int] = {}
        for card_id in filter(None, (e.strip() for e in ref[len(INLINE) :].split(","))):
            copies[card_id] = copies.get(card_id, 0) + 1
        return parse_deck({"name": "a deck given inline", "cards": copies}, ref, pool)
    if not path.exists() and not ref.endswith(".toml"):
        raise CardDataError(ref, f"no starter deck of this name and no such file; starters: {', '.join(STARTERS)}")
    return parse_deck(_read_toml(path, None, ref), ref, pool)


def _starter(name: str) -> dict[str, Any]:
    return _read_toml(None, f"data/decks/{name}.toml", f"decks/{name}.toml")


def swap_cards(data: dict[str, Any], swaps: str, ref: str) -> dict[str, Any]:
    """A deck file's data with the swaps ``-OUT+IN-OUT+IN...`` made: every copy of ``OUT`` becomes a copy of
    ``IN`` (added to any copies of ``IN`` already there; :func:`parse_deck` then checks the deck's legality).

    >>> swap_cards({"name": "D", "cards": {"a": 2, "b": 1}}, "-a+c-b+a", "d")["cards"]
    {'c': 2, 'a': 1}
    """
    cards = dict(data["cards"])
    for swap in swaps.split("-")[1:]:
        out, _, card_in = swap.partition("+")
        if out not in cards:
            raise CardDataError(ref, f"the deck has no {out!r} to swap for {card_in!r}", card=out, field="cards")
        cards[card_in] = cards.get(card_in, 0) + cards.pop(out)
    return {**data, "name": f"{data.get('name', '')} ({ref})", "cards": cards}
