"""The card data file, the ability language and build files: valid data loads, bad data gives clear errors."""

from __future__ import annotations

import os
import tomllib
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardarena.engine import CardDataError
from cardarena.games.laplaplace.cards import (
    build_text,
    load_build,
    load_cards,
    parse_build,
    parse_cards,
)
from cardarena.games.laplaplace.cards.abilities import (
    ACTION,
    CONDITIONS,
    EVENT,
    TRIGGERS,
    AbilityError,
    parse_ability,
)
from cardarena.games.laplaplace.constants import CATEGORIES, NUMBERS

from .helpers import TABLE

SEEDS = Path(__file__).resolve().parents[3] / ".." / "shared" / "seeds" / "laplaplace.txt"
ONE_CARD = """
[[card]]
id = "x"
name = "X"
number = "A"
force = 3
category = "core"
abilities = [{abilities}]
"""


def test_the_27_cards() -> None:
    """RULINGS: one card per ability line, <常態> no-up lines joined to the card above: 27 cards."""
    assert len(TABLE) == 27
    raw = tomllib.loads(resources.files("cardarena.games.laplaplace").joinpath("data", "cards.toml").read_text("utf-8"))
    assert all(c["assumed"] for c in raw["card"])  # every value is an assumption of this project
    assert {c.number for c in TABLE.cards} <= set(NUMBERS)
    assert {c.category for c in TABLE.cards} == set(CATEGORIES)
    joined = [c.id for c in TABLE.cards if len(c.abilities) == 2]
    assert joined == ["volley", "shield"]
    assert all(c.no_up_phase for c in TABLE.cards if c.id in joined)


def test_texts_are_the_rulebook_lines() -> None:
    if not SEEDS.exists():
        # CI always has ../shared beside the checkout, so there the rulebook must be found.
        assert not os.environ.get("CI"), f"the rulebook {SEEDS} is missing"
        pytest.skip("the rulebook (../shared) is not beside this checkout")
    book = SEEDS.read_text(encoding="utf-8")
    for c in TABLE.cards:
        for part in c.text.split(" / "):
            assert part in book, c.id


def test_ability_language_parts() -> None:
    a = parse_ability("<A><L:hp_at_most_half_base> [除去] heal_to_base")
    assert (a.timing, a.limits, a.remove, a.downless) == (ACTION, ("hp_at_most_half_base",), True, False)
    e = parse_ability("<E:my_target_list> [ダウンレス] prefer number_of_above")
    assert (e.timing, e.trigger, e.downless) == (EVENT, "my_target_list", True)
    assert parse_ability("<A> [迎撃不可] damage enemy 3").unblockable
    t = parse_ability("<A> list enemy not_bottom; pick topmost; swap_below target")
    assert [x.op for x in t.effects] == ["list", "pick", "swap_below"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("damage enemy 3", "timing"),
        ("<A> damgae enemy 3", "unknown effect"),
        ("<A> damage foe 3", "damage enemy|self"),
        ("<A> damage enemy 0", "at least 1"),
        ("<A> damage enemy 1 3", "x3"),
        ("<E:whenever> reflect", "unknown trigger"),
        ("<A><L:sunny> damage enemy 1", "unknown condition"),
        ("<A> [速攻] damage enemy 1", "unknown tag"),
        ("<A><A> damage enemy 1", "exactly one timing"),
        ("<E:targeted><トップ> ignore_effect", "<トップ>"),
        ("<A> reflect", "needs one of the triggers"),
        ("<A> down target", "pick"),
        ("<A> pick topmost; down target", "list"),
        ("<A> no_up_phase", "常態"),
        ("<A>", "at least one effect"),
        ("<E:enemy_damage min=x> reflect", "min"),
        ("<A> modify +0", "modify"),
    ],
)
def test_bad_ability_lines(line: str, message: str) -> None:
    with pytest.raises(AbilityError, match=message):
        parse_ability(line)


@given(st.text(max_size=60))
@settings(max_examples=300, deadline=None)
def test_any_text_parses_or_gives_ability_error(text: str) -> None:
    try:
        ability = parse_ability(text)
    except AbilityError as e:
        assert str(e)  # a message a designer can read
    else:
        assert ability.effects and ability.text == text.strip()


_parts = st.sampled_from(
    [
        "<A>",
        "<トップ>",
        "[ダウンレス]",
        "[除去]",
        "[迎撃不可]",
        *(f"<E:{t}>" for t in TRIGGERS),
        *(f"<L:{c}>" for c in CONDITIONS),
        "damage enemy 2",
        "; ",
        "pick topmost",
        "list enemy up",
        "reflect",
    ]
)


@given(st.lists(_parts, max_size=6))
@settings(max_examples=300, deadline=None)
def test_token_soup_parses_or_gives_ability_error(parts: list[str]) -> None:
    try:
        a = parse_ability(" ".join(parts))
    except AbilityError:
        return
    assert a.effects  # a parsed ability always has an effect


def test_card_file_errors_name_file_card_field() -> None:
    with pytest.raises(CardDataError, match=r"my\.toml: not valid TOML"):
        parse_cards("[[card]\n", "my.toml")
    with pytest.raises(CardDataError) as e:
        parse_cards(ONE_CARD.format(abilities='"<A> damgae enemy 1"'), "my.toml")
    assert (e.value.file, e.value.card, e.value.field) == ("my.toml", "x", "abilities")
    with pytest.raises(CardDataError) as e:
        parse_cards(ONE_CARD.format(abilities="").replace("force = 3", "force = -1"), "my.toml")
    assert (e.value.card, e.value.field) == ("x", "force")
    with pytest.raises(CardDataError) as e:
        parse_cards(ONE_CARD.format(abilities="").replace('"A"', '"1"'), "my.toml")
    assert e.value.field == "number"
    twice = ONE_CARD.format(abilities="") + ONE_CARD.format(abilities="").replace('name = "X"', 'name = "Y"')
    with pytest.raises(CardDataError, match="names two cards"):
        parse_cards(twice, "my.toml")
    with pytest.raises(CardDataError, match="at most one action"):
        parse_cards(ONE_CARD.format(abilities='"<A> remove_self", "<A> remove_self"'), "my.toml")


@given(st.integers(min_value=-5, max_value=120), st.sampled_from(["core", "damage", "magic"]))
@settings(max_examples=60, deadline=None)
def test_card_force_and_category_validation(force: int, category: str) -> None:
    text = ONE_CARD.format(abilities="").replace("force = 3", f"force = {force}").replace('"core"', f'"{category}"')
    ok = 0 <= force <= 99 and category != "magic"
    try:
        table = parse_cards(text, "f.toml")
    except CardDataError as e:
        assert not ok and e.card == "x"
    else:
        assert ok and table.cards[0].force == force


def test_custom_card_file_used_by_the_game(tmp_path: Path) -> None:
    import cardarena

    path = tmp_path / "cards.toml"
    path.write_text(ONE_CARD.format(abilities='"<A> damage enemy 1"'), encoding="utf-8")
    g = cardarena.load("laplaplace", cards=str(path))
    assert len(g.table) == 1 and g.num_distinct_actions == 3


def test_a_card_file_is_parsed_once_per_text_and_afresh_when_edited(tmp_path: Path) -> None:
    """Loading the game once per battle (league, optimiser) reuses the parsed table of an unchanged file; an edited
    file is parsed again and a broken one raises every time."""
    assert load_cards() is load_cards()
    path = tmp_path / "cards.toml"
    path.write_text(ONE_CARD.format(abilities='"<A> damage enemy 1"'), encoding="utf-8")
    first = load_cards(path)
    assert load_cards(path) is first
    path.write_text(ONE_CARD.format(abilities='"<A> damage enemy 2"').replace("force = 3", "force = 4"), "utf-8")
    edited = load_cards(path)
    assert edited is not first and edited.cards[0].force == 4 and first.cards[0].force == 3
    path.write_text(ONE_CARD.format(abilities='"<A> no such thing"'), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(CardDataError):
            load_cards(path)


def test_build_files() -> None:
    b = parse_build('name = "R"\ncharacter = "a knight"\ncards = ["lance", "Second Wind"]\n', TABLE, "r.toml")
    assert [c.id for c in b.cards] == ["lance", "second-wind"] and b.character == "a knight"
    assert parse_build(build_text(b.name, list(b.cards)), TABLE).cards == b.cards
    with pytest.raises(CardDataError) as e:
        parse_build('cards = ["lance", "laser"]\n', TABLE, "r.toml")
    assert (e.value.card, e.value.field) == ("laser", "cards")
    with pytest.raises(CardDataError, match="at most 8"):
        parse_build("cards = [" + ", ".join(['"jab"'] * 9) + "]\n", TABLE, "r.toml")
    with pytest.raises(CardDataError, match="cards"):
        parse_build('name = "no cards"\n', TABLE, "r.toml")
    with pytest.raises(CardDataError, match="TOML"):
        parse_build("cards = [\n", TABLE, "r.toml")
    with pytest.raises(CardDataError):
        parse_build('cards = []\ncolour = "red"\n', TABLE, "r.toml")


@given(st.lists(st.sampled_from([c.id for c in TABLE.cards]), max_size=8), st.text(max_size=20))
@settings(max_examples=100, deadline=None)
def test_build_text_round_trip(cards: list[str], name: str) -> None:
    defs = [TABLE.find(c) for c in cards]
    back = parse_build(build_text(name, defs), TABLE)  # type: ignore[arg-type]
    assert [c.id for c in back.cards] == cards and back.name == (name or "<build>")


def test_shipped_builds_load() -> None:
    folder = Path(resources.files("cardarena.games.laplaplace").joinpath("data", "builds"))  # type: ignore[arg-type]
    files = sorted(folder.glob("*.toml"))
    assert len(files) >= 8
    for f in files:
        b = load_build(f, load_cards())
        assert b.name and b.character and len(b.cards) == 8


@pytest.mark.parametrize(
    ("change", "card", "field", "words"),
    [
        (("force = 3", 'force = "3"'), "x", "force", "whole number 0..99 (without quotes)"),
        (("force = 3", "force = 1.5"), "x", "force", "whole number"),
        (("force = 3", "force = 100"), "x", "force", "whole number 0..99, not 100"),
        (('"A"', '"1"'), "x", "number", "one of A, 2, 3"),
        (('"core"', '"magic"'), "x", "category", "one of core, damage"),
        (('id = "x"', 'id = "X Y"'), "X Y", "id", "lower-case letters"),
        (('id = "x"\n', ""), "X", "id", "is missing"),
        (('name = "X"', 'name = ""'), "x", "name", "must not be empty"),
        (("abilities = []", 'abilities = "<A> damage enemy 1"'), "x", "abilities", "a list in brackets"),
        (("abilities = []", "abilities = [1]"), "x", "abilities", "text in quotes"),
        (("abilities = []", 'abilities = []\ncolour = "red"'), "x", "colour", "is not a field of a card"),
        (("abilities = []", 'abilities = []\nassumed = "yes"'), "x", "assumed", "true or false"),
        (("[[card]]", "version = 1\n[[card]]"), None, "version", "is not a field of a card file"),
    ],
)
def test_card_file_messages_in_plain_words(change: tuple[str, str], card: str | None, field: str, words: str) -> None:
    """Issue 12 point 8: every error names the file, the card and the field, in words a card designer reads (no
    pydantic text); unknown keys, top-level ones included, are refused."""
    with pytest.raises(CardDataError) as e:
        parse_cards(ONE_CARD.format(abilities="").replace(*change), "my.toml")
    assert (e.value.file, e.value.card, e.value.field) == ("my.toml", card, field)
    assert words in str(e.value)
    assert not any(p in str(e.value) for p in ("Input should", "valid dictionary", "Extra inputs", "Field required"))


@pytest.mark.parametrize(
    ("text", "card", "field", "words"),
    [
        ('cards = "lance"\n', None, "cards", "a list in brackets"),
        ('cards = ["jab", 1]\n', "#2", "cards", "text in quotes"),
        ("name = 5\ncards = []\n", None, "name", "text in quotes"),
        ('cards = []\ncolour = "red"\n', None, "colour", "is not a field of a build file"),
        ('name = "x"\n', None, "cards", "is missing"),
    ],
)
def test_build_file_messages_in_plain_words(text: str, card: str | None, field: str, words: str) -> None:
    with pytest.raises(CardDataError) as e:
        parse_build(text, TABLE, "r.toml")
    assert (e.value.file, e.value.card, e.value.field) == ("r.toml", card, field)
    assert words in str(e.value) and "Input should" not in str(e.value)


def test_a_card_file_without_cards() -> None:
    for text in ("", "card = {}\n"):
        with pytest.raises(CardDataError, match=r"no cards: a card file holds one \[\[card\]\] table per card"):
            parse_cards(text, "my.toml")
