"""Card pool and deck files: the shipped data meets the brief; broken files are refused with clear errors."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardarena
from cardarena.engine import CardDataError, RulesError
from cardarena.games.dicebattle.cards import (
    STARTERS,
    EffectSyntaxError,
    load_pool,
    parse_condition,
    parse_deck,
    parse_operation,
    parse_pool,
)
from cardarena.games.dicebattle.constants import DECK_SIZE

POOL = load_pool()
PACKAGE = Path(cardarena.__file__).parent / "games" / "dicebattle"


# ---------------------------------------------------------------- the shipped pool
def test_pool_meets_the_brief() -> None:
    """At least 40 cards: humans, monsters and magic of levels 1-6, both effect kinds, all grant kinds, 異例."""
    assert len(POOL) >= 40
    assert {c.kind for c in POOL} == {"human", "monster", "magic"}
    assert {c.level for c in POOL} == set(range(1, 7))
    for kind in ("human", "monster"):
        assert {c.level for c in POOL if c.kind == kind} == set(range(1, 7))
    assert {c.effect.type for c in POOL if c.effect} == {"choice", "forced"}
    assert {c.grant.type for c in POOL if c.grant} == {"choice", "forced", "permanent"}
    assert len([c for c in POOL if c.special]) >= 2
    assert {c.special for c in POOL if c.special} == {"free_join", "magic_with_monster", "set_on_one"}


def test_pool_file_marks_its_values_as_assumed() -> None:
    """RULINGS: printed data that is missing is an assumption in a data file (assumed = true)."""
    data = tomllib.loads((PACKAGE / "data" / "cards.toml").read_text(encoding="utf-8"))
    assert data["assumed"] is True


@pytest.mark.parametrize("name", STARTERS)
def test_starter_decks_are_legal_and_selectable_by_name_and_path(name: str) -> None:
    """デッキ構築ルール: 30枚; 同じカードは2枚まで."""
    game = cardarena.load("dicebattle", deck0=name, deck1=str(PACKAGE / "data" / "decks" / f"{name}.toml"))
    for deck in game.decks:
        assert len(deck.cards) == DECK_SIZE
        for index in set(deck.cards):
            assert deck.cards.count(index) <= 2
    assert game.decks[0].cards == game.decks[1].cards


def test_starter_decks_have_different_plans() -> None:
    decks = [cardarena.load("dicebattle", deck0=n).decks[0] for n in STARTERS]
    assert len({d.cards for d in decks}) == 3 and all(d.plan for d in decks)


# ---------------------------------------------------------------- deck refusals
def _deck(tmp_path: Path, body: str) -> str:
    path = tmp_path / "deck.toml"
    path.write_text(body, encoding="utf-8")
    return str(path)


def _counts(**extra: int) -> str:
    base = {"slime": 2, "goblin": 2, "bat_swarm": 2, "dire_wolf": 2, "ember_imp": 2, "mimic": 2}
    base |= {"fox_spirit": 2, "harpy": 2, "troll": 2, "ogre": 2, "stone_golem": 2, "wyvern": 2, "lich": 2}
    base |= {"hydra": 2, "titan": 2}
    base |= extra
    return 'name = "t"\n[cards]\n' + "".join(f"{k} = {v}\n" for k, v in base.items())


def test_deck_of_29_or_31_cards_is_refused(tmp_path: Path) -> None:
    """デッキは30枚のカードで構築します。それ以上でも以下でもいけません."""
    with pytest.raises(CardDataError, match="the deck has 29 cards; it must have exactly 30"):
        cardarena.load("dicebattle", deck0=_deck(tmp_path, _counts(hydra=1)))
    with pytest.raises(CardDataError, match="the deck has 31 cards"):
        cardarena.load("dicebattle", deck1=_deck(tmp_path, _counts(kraken=1)))


def test_three_copies_refused_naming_card_and_count(tmp_path: Path) -> None:
    """同じカードはデッキの中に2枚まで入れることができます."""
    with pytest.raises(CardDataError, match="3 copies of 'Ogre'; a deck may hold at most 2") as info:
        cardarena.load("dicebattle", deck0=_deck(tmp_path, _counts(ogre=3, hydra=1)))
    assert info.value.card == "ogre"


def test_three_slimes_refused_too(tmp_path: Path) -> None:
    """同じカードはデッキの中に2枚まで: no card is an exception (異例 is a rule for playing a card, not for
    building a deck), so 3 Slimes are refused like 3 of any card."""
    with pytest.raises(CardDataError, match="3 copies of 'Slime'; a deck may hold at most 2") as info:
        cardarena.load("dicebattle", deck0=_deck(tmp_path, _counts(slime=3, titan=1)))
    assert info.value.card == "slime" and info.value.field == "cards"


def test_unknown_card_bad_count_bad_toml_missing_file(tmp_path: Path) -> None:
    with pytest.raises(CardDataError, match="no card with this id") as info:
        cardarena.load("dicebattle", deck0=_deck(tmp_path, _counts(dragonn=1)))
    assert info.value.card == "dragonn"
    with pytest.raises(CardDataError, match="must be at least 1"):
        cardarena.load("dicebattle", deck0=_deck(tmp_path, _counts(titan=0)))
    with pytest.raises(CardDataError, match="not valid TOML"):
        cardarena.load("dicebattle", deck0=_deck(tmp_path, "name = \n"))
    with pytest.raises(CardDataError, match="file not found"):
        cardarena.load("dicebattle", deck0=str(tmp_path / "nope.toml"))
    with pytest.raises(CardDataError, match="starters: horde, arcana, vanguard"):
        cardarena.load("dicebattle", deck0="hordee")
    with pytest.raises(
        CardDataError, match="'other' is not a field of a deck file \\(its fields are: name, plan, cards\\)"
    ) as info:
        cardarena.load("dicebattle", deck0=_deck(tmp_path, _counts() + "[other]\nx = 1\n"))
    assert info.value.field == "other"


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from([c.id for c in POOL] + ["zzz"]), st.integers(-1, 4), max_size=20))
def test_any_deck_is_accepted_only_if_legal(counts: dict[str, int]) -> None:
    data = {"name": "h", "cards": counts}
    legal = (
        "zzz" not in counts
        and all(n >= 1 for n in counts.values())
        and sum(counts.values()) == DECK_SIZE
        and all(n <= 2 for n in counts.values())
    )
    try:
        deck = parse_deck(data, "h.toml", POOL)
    except CardDataError:
        assert not legal
    else:
        assert legal and len(deck.cards) == DECK_SIZE


# ---------------------------------------------------------------- card pool refusals
GOOD = {"id": "x", "name": "X", "kind": "monster", "level": 2}


@pytest.mark.parametrize(
    ("change", "message", "field"),
    [
        ({"level": 7}, r"must be a whole number 1\.\.6, not 7", "level"),
        ({"kind": "dragon"}, "must be one of human, monster, magic, not 'dragon'", "kind"),
        ({"effect": {"type": "forced", "when": "sunny", "do": ["draw 1"]}}, "unknown condition 'sunny'", "effect.when"),
        ({"effect": {"type": "forced", "do": ["draw"]}}, "takes one number", "effect.do[0]"),
        ({"effect": {"type": "forced", "do": ["draw two"]}}, "whole number", "effect.do[0]"),
        ({"effect": {"type": "forced", "do": ["weaken -1"]}}, "only 'power'", "effect.do[0]"),
        ({"effect": {"type": "forced", "do": ["explode 3"]}}, "unknown operation", "effect.do[0]"),
        ({"effect": {"type": "forced", "do": []}}, "at least 1", "effect.do"),
        (
            {"effect": {"type": "permanent", "do": ["draw 1"]}},
            "must be one of choice, forced, not 'permanent'",
            "effect.type",
        ),
        ({"grant": {"level": 2, "type": "forced", "do": ["draw 1"]}}, "must differ", "grant.level"),
        ({"grant": {"level": 1, "type": "choice", "do": ["keep"]}}, "cannot be used by a grant", "grant.do[0]"),
        ({"special": "magic_with_monster"}, "only for magic", "special"),
        ({"kind": "human", "special": "free_join"}, "only for monsters", "special"),
        (
            {"special": "three_copies"},
            "must be one of free_join, magic_with_monster, set_on_one, not 'three_copies'",
            "special",
        ),
        ({"colour": "red"}, "'colour' is not a field of a card \\(its fields are: id, name, kind", "colour"),
        (
            {"effect": {"type": "forced", "do": ["draw 1"], "who": "me"}},
            "'who' is not a field of a card's effect \\(its fields are: type, when, do\\)",
            "effect.who",
        ),
        ({"level": None}, "must be a whole number", "level"),
    ],
)
def test_broken_card_names_file_card_and_field(change: dict[str, object], message: str, field: str) -> None:
    with pytest.raises(CardDataError, match=message) as info:
        parse_pool({"card": [{**GOOD, **change}]}, "mine.toml")
    assert info.value.file == "mine.toml" and info.value.card == "x" and info.value.field == field


def test_duplicate_ids_and_empty_pool_refused(tmp_path: Path) -> None:
    with pytest.raises(CardDataError, match="used by two cards"):
        parse_pool({"card": [GOOD, GOOD]}, "p.toml")
    with pytest.raises(CardDataError, match="at least 1"):
        parse_pool({"card": []}, "p.toml")
    path = tmp_path / "pool.toml"
    path.write_text("[[card]]\nid = 3\n", encoding="utf-8")
    with pytest.raises(RulesError, match=r"pool\.toml"):
        cardarena.load("dicebattle", cards=str(path))


@given(st.text(max_size=30))
def test_effect_words_parse_or_raise_a_syntax_error(text: str) -> None:
    for parse in (parse_condition, parse_operation):
        try:
            word, n = parse(text)
        except EffectSyntaxError:
            continue
        assert text.split()[0] == word and -6 <= n <= 6


def test_true_or_a_fraction_is_not_a_count_or_a_level(tmp_path: Path) -> None:
    """TOML `true` or `2.0` is not read as a whole number: `kraken = true` does not make a deck of 30."""
    with pytest.raises(CardDataError, match=r"the number of copies must be a whole number 1\.\.2, not true") as info:
        cardarena.load("dicebattle", deck0=_deck(tmp_path, _counts(hydra=1) + "kraken = true\n"))
    assert info.value.card == "kraken" and info.value.field == "cards"
    with pytest.raises(CardDataError, match=r"must be a whole number 1\.\.6, not 2\.0") as info:
        parse_pool({"card": [{**GOOD, "level": 2.0}]}, "mine.toml")
    assert info.value.card == "x" and info.value.field == "level"
