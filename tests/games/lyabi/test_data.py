"""The data file: every count of the rulebook, every lost value marked assumed, broken files refused clearly."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardarena
from cardarena.engine import CardDataError
from cardarena.games.lyabi.cards import default_path, load_cards, parse_cards
from cardarena.games.lyabi.constants import ITEM_IDS

DEFAULT_TEXT = default_path().read_text(encoding="utf-8")
DEFAULT_DATA = tomllib.loads(DEFAULT_TEXT)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "my-cards.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_component_counts_match_the_rulebook() -> None:
    """内容物: 18 circles (2 per colour and level), 63 ryabi (5/7/6/3 per colour), 13 items."""
    c = load_cards()
    assert sum(c.c_count) == 18 and set(c.c_count) == {2} and c.levels == (0, 5, 11)
    assert sum(c.r_count) == 63
    for colour in range(3):
        assert [c.r_count[k] for k in range(c.num_kinds) if c.r_colour[k] == colour] == [5, 7, 6, 3]
    counts = {s.id: s.count for s in c.items}
    assert counts == {"crystal": 1, "eye": 2, "brush": 1, "sword": 2, "stone": 1, "mirror": 2, "orb": 3, "herb": 1}
    assert c.hand_size == 3 and c.max_circles == 2 and c.item_cost == 3


def test_every_lost_value_is_marked_assumed() -> None:
    """RULINGS lyabi: costs, times, ATK, starting HP, initial decks and hands and item effects are assumptions."""
    c = load_cards()
    assert "starting_hp" in c.rules_assumed
    assert all({"cost", "times"} <= set(a) for a in c.r_assumed)
    assert all({"cost", "atk"} <= set(a) for a in c.c_assumed)
    assert all({"hand", "deck"} <= set(a) for a in c.start_assumed)
    assert all({"timing", "effect"} <= set(s.assumed) for s in c.items)
    assert all(s.param is None or s.param in s.assumed for s in c.items)


def test_assumed_values_of_rulings() -> None:
    """RULINGS lyabi: cost = level; times 1, 1, 1.5, 2; ATK 1, 2, 4; HP 20."""
    c = load_cards()
    assert all(c.r_cost[k] == c.r_level[k] for k in range(c.num_kinds))
    assert {c.r_level[k]: float(c.r_times[k]) for k in range(c.num_kinds)} == {1: 1, 3: 1, 5: 1.5, 11: 2}
    assert {c.c_level[k]: c.c_atk[k] for k in range(len(c.c_names))} == {0: 1, 5: 2, 11: 4}
    assert c.level_cost == (0, 5, 11) and c.starting_hp == 20


def test_option_cards_uses_the_designers_file(tmp_path: Path) -> None:
    """A designer passes their own file with --option cards=PATH."""
    path = write(tmp_path, DEFAULT_TEXT.replace("starting_hp = 20", "starting_hp = 7"))
    game = cardarena.load("lyabi", cards=str(path))
    assert game.new_initial_state(1).hp == [7, 7]  # type: ignore[attr-defined]
    assert "starting HP 7 (assumed)" in game.rules_text()


@pytest.mark.parametrize(
    ("old", "new", "card", "field"),
    [
        ("times = 1.5", "times = -1.5", "ryabi blue5", "times"),
        ("atk = 2", 'atk = "two"', "circle blue5", "atk"),
        (
            'colour = "red"\nlevel = 11\ncount = 3',
            'colour = "purple"\nlevel = 11\ncount = 3',
            "ryabi purple11",
            "colour",
        ),
        ("count = 5\ncost = 1", "count = 1\ncost = 1", "ryabi blue1", "count"),
        ('deck = ["blue1", "blue1", "red1", "green1"]', 'deck = ["blue1", "blue2"]', "start.blue", "deck"),
        ("damage = 3", "", "item sword", "damage"),
        ("draw_to = 5", "draw_to = 5\nlook = 2", "item orb", "look"),
        ("starting_hp = 20", "starting_hp = 0", None, "rules.starting_hp"),  # [rules] is a table, not a card
        ("item_cost = 3", "item_cost = 3\nbonus = 1", None, "rules.bonus"),
        ('assumed = ["starting_hp"]', 'assumed = ["hp"]', None, "rules.assumed"),
        ("level = 11\ncount = 2\ncost = 11\natk = 4", "level = 11\ncount = 2\ncost = 10\natk = 4", "circle", "cost"),
        ('id = "herb"', 'id = "orb"', "item orb", "id"),
        ("deal {damage} more damage", "deal more damage (see `damage`)", "item sword", "effect"),
        ("top {look} cards", "top {count} cards", "item crystal", "effect"),
        ("look at the opponent's hand", "look at the {opponent's hand", "item eye", "effect"),
        ("hold {draw_to} cards", "hold {draw_to:d} cards", "item orb", "effect"),
    ],
)
def test_broken_file_is_refused_naming_file_card_and_field(
    tmp_path: Path, old: str, new: str, card: str | None, field: str
) -> None:
    """A broken data file gives CardDataError naming the file, the card (none in the [rules] table) and the field."""
    assert old in DEFAULT_TEXT
    path = write(tmp_path, DEFAULT_TEXT.replace(old, new, 1))
    with pytest.raises(CardDataError) as info:
        cardarena.load("lyabi", cards=str(path))
    err = info.value
    assert err.file == str(path) and str(path) in str(err)
    if card is None:
        assert err.card is None, err
    else:
        assert err.card is not None and err.card.startswith(card), err
    assert err.field == field, err


@pytest.mark.parametrize(
    ("edit", "field", "words"),
    [
        (lambda d: d.update(extra={"a": 1}), "extra", "unknown top-level table 'extra'"),
        (lambda d: d.pop("rules"), "rules", "this table is missing"),
        (lambda d: d.update(rules="x"), "rules", "must be a table of fields"),
        (lambda d: d.update(ryabi="x"), "ryabi", "must be a list of tables ([[ryabi]] entries)"),
        (lambda d: d.update(ryabi=[]), "ryabi", "at least one entry"),
        (lambda d: d["start"].update(purple={}), "start.purple", "'purple' is not a colour"),
    ],
)
def test_top_level_tables_are_not_called_cards(edit: Any, field: str, words: str) -> None:
    """Issue 12: an error in a top-level table names the table as the field, no card, in plain words (no
    pydantic text such as 'valid dictionary or instance of')."""
    data = copy.deepcopy(DEFAULT_DATA)
    edit(data)
    with pytest.raises(CardDataError) as info:
        parse_cards(data, "x.toml")
    err = info.value
    assert err.card is None and err.field == field and words in str(err), err
    assert "instance of" not in str(err) and "Input should" not in str(err)


def test_every_item_text_shows_its_real_effect_with_its_numbers() -> None:
    """アイテム (効果テキスト): every item's text, wherever a player reads it (the item on their field, the log of its
    use, `cardarena rules`), shows what it does with its numbers, never the name of a data field."""
    from cardarena.games.lyabi.actions import use
    from cardarena.games.lyabi.cards import ITEM_PARAMS, RULES_NUMBERS
    from cardarena.games.lyabi.state import NO_ITEM

    game = cardarena.load("lyabi")
    c = game.cards  # type: ignore[attr-defined]
    # Field names that are not also plain words of an effect ("look", "damage" are): none may show.
    field_names = {*ITEM_PARAMS, *RULES_NUMBERS} - {"look", "damage"}
    rules = game.rules_text()
    expected = {
        "crystal": "look at the top 3 cards of your deck and put them back in any order",
        "eye": "look at the opponent's hand",
        "brush": "your revealed ryabi takes the attribute of your choice for this battle",
        "sword": "deal 3 more damage to the opponent",
        "stone": "take a second main-phase action this turn",
        "mirror": "prevent that damage; the opponent takes 1/2 of it, rounded down",
        "orb": "draw until you hold 5 cards instead of 3 this draw phase",
        "herb": "the opponent's item, if any, is removed from the game",
    }
    for i, spec in enumerate(c.items):
        assert spec.effect == expected[spec.id]
        texts = [spec.effect]
        state = game.new_initial_state(1)
        state.edit(item=[i, state.item[1]])  # type: ignore[attr-defined]
        assert state.item[0] != NO_ITEM  # type: ignore[attr-defined]
        shown = game.render(state, 0)
        assert spec.effect in shown
        texts.append(shown)
        if spec.id in ("eye", "sword", "stone", "mirror", "orb"):
            described = game.describe_action(state, use(spec.id))
            assert described.endswith(spec.effect)
            texts.append(described)
        line = next(x for x in rules.splitlines() if x.startswith(f"- `{spec.id}`"))
        assert spec.effect in line
        texts.append(line)
        for text in texts:
            assert not any(name in text for name in field_names), (spec.id, text)
            assert "`" not in text.replace(f"`{spec.id}`", "") and "{" not in text and "(see" not in text
        if spec.value is not None:
            assert ("1/2" if spec.value == 0.5 else str(spec.value)) in spec.effect


def test_an_item_text_follows_the_designers_numbers(tmp_path: Path) -> None:
    """A designer who changes an item's number sees the new number in its text."""
    text = DEFAULT_TEXT.replace("damage = 3", "damage = 7").replace("reflect = 0.5", "reflect = 0.25")
    text = text.replace("hand_size = 3", "hand_size = 4").replace("look = 3", "look = 2")
    c = load_cards(write(tmp_path, text))
    effects = {s.id: s.effect for s in c.items}
    assert effects["sword"] == "deal 7 more damage to the opponent"
    assert effects["mirror"] == "prevent that damage; the opponent takes 1/4 of it, rounded down"
    assert effects["orb"] == "draw until you hold 5 cards instead of 4 this draw phase"
    assert effects["crystal"].startswith("look at the top 2 cards")


def test_missing_item_and_setup_colours(tmp_path: Path) -> None:
    data = copy.deepcopy(DEFAULT_DATA)
    data["item"] = [i for i in data["item"] if i["id"] != "eye"]
    with pytest.raises(CardDataError, match="every item must be listed") as info:
        parse_cards(data, "x.toml")
    assert info.value.card == "item eye"
    data = copy.deepcopy(DEFAULT_DATA)
    for c in data["circle"]:
        if c["level"] == 0 and c["colour"] != "blue":
            c["count"] = 0
    with pytest.raises(CardDataError, match="at least two colours"):
        parse_cards(data, "x.toml")
    data = copy.deepcopy(DEFAULT_DATA)
    del data["start"]["green"]
    with pytest.raises(CardDataError) as info:
        parse_cards(data, "x.toml")
    assert info.value.card == "start.green"


def test_unreadable_and_malformed_files(tmp_path: Path) -> None:
    with pytest.raises(CardDataError, match="file not found"):
        load_cards(tmp_path / "nope.toml")
    with pytest.raises(CardDataError, match="not valid TOML"):
        load_cards(write(tmp_path, "[rules\nstarting_hp = 1"))


LEAVES: list[tuple[Any, ...]] = []


def _leaves(obj: Any, path: tuple[Any, ...]) -> None:
    if isinstance(obj, dict):
        for k, v in obj.items():
            _leaves(v, (*path, k))
    elif isinstance(obj, list) and obj and isinstance(obj[0], dict):
        for i, v in enumerate(obj):
            _leaves(v, (*path, i))
    else:
        LEAVES.append(path)


_leaves(DEFAULT_DATA, ())
VALUES = st.one_of(
    st.integers(-5, 30),
    st.floats(-2, 20, allow_nan=False),
    st.text(max_size=8),
    st.booleans(),
    st.lists(st.sampled_from(["blue1", "red3", "green5", "x"]), max_size=4),
    st.none(),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(LEAVES), VALUES), min_size=1, max_size=3))
def test_any_edit_loads_or_is_refused_clearly(edits: list[tuple[tuple[Any, ...], Any]]) -> None:
    """Property: whatever a designer writes, the loader accepts it or raises CardDataError (nothing else)."""
    data = copy.deepcopy(DEFAULT_DATA)
    for path, value in edits:
        target = data
        for key in path[:-1]:
            target = target[key]
        if value is None:
            target.pop(path[-1], None)
        else:
            target[path[-1]] = value
    try:
        cards = parse_cards(data, "edited.toml")
    except CardDataError as e:
        assert str(e).startswith("edited.toml")
        return
    assert len(cards.items) == len(ITEM_IDS)
    assert cards.num_kinds >= 1


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(LEAVES), st.integers(0, 12)), min_size=1, max_size=3), st.integers(0, 99))
def test_any_accepted_file_plays(edits: list[tuple[tuple[Any, ...], int]], seed: int) -> None:
    """Property: a file the loader accepts gives a game that plays to the end without errors."""
    from cardarena.engine import Rng
    from cardarena.games.lyabi.actions import Codec
    from cardarena.games.lyabi.game import LyabiGame
    from cardarena.games.lyabi.rules.battle import SetChoices
    from cardarena.games.lyabi.rules.market import Market

    data = copy.deepcopy(DEFAULT_DATA)
    for path, value in edits:
        target = data
        for key in path[:-1]:
            target = target[key]
        if isinstance(target.get(path[-1]), int):
            target[path[-1]] = value
    try:
        cards = parse_cards(data, "edited.toml")
    except CardDataError:
        return
    game = LyabiGame.__new__(LyabiGame)
    game.options = {"max_turns": 30, "cards": None, "circle_replace": True}
    game.cards, game.codec = cards, Codec(cards)
    game.market = Market(cards, circle_replace=True)
    game.set_choices = SetChoices(cards)
    state = game.new_initial_state(seed)
    rng = Rng(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        action = legal[rng.randbelow(len(legal))]
        assert game.action_from_index(game.action_index(action)) == action
        state.apply(action)
