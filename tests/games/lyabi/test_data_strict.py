"""Issue 27 point 10: every number of a Lyabi data file is refused outside the range the game plays, with the range
in the message; ``times`` is a multiplier and fractional on purpose (the rulebook's ×1.5), so 1.5 still loads."""

from __future__ import annotations

import copy
import tomllib
from typing import Any

import pytest

from cardarena.engine import CardDataError
from cardarena.games.lyabi.cards import default_path, parse_cards

BIG = 10**18


def _data() -> dict[str, Any]:
    return tomllib.loads(default_path().read_text(encoding="utf-8"))


# (table, entry index or None for [rules], field, range in the message)
WHOLE_FIELDS = [
    ("rules", None, "starting_hp", "1..10000"),
    ("rules", None, "hand_size", "1..10"),
    ("rules", None, "max_circles", "1..6"),
    ("rules", None, "item_cost", "0..1000"),
    ("ryabi", 0, "level", "0..999"),
    ("ryabi", 0, "count", "0..100"),
    ("ryabi", 0, "cost", "0..1000"),
    ("circle", 0, "level", "0..999"),
    ("circle", 0, "count", "0..100"),
    ("circle", 0, "cost", "0..1000"),
    ("circle", 0, "atk", "0..1000"),
    ("item", 0, "count", "0..100"),
    ("item", 0, "look", "1..20"),  # the crystal
    ("item", 3, "damage", "0..1000"),  # the sword
    ("item", 6, "draw_to", "1..10"),  # the orb
]
BAD_WHOLE = [(True, "true"), (1.5, "1.5"), (2.0, "2.0"), (BIG, str(BIG)), (-1000, "-1000")]


def _set(data: dict[str, Any], table: str, index: int | None, field: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(data)
    (out[table] if index is None else out[table][index])[field] = value
    return out


@pytest.mark.parametrize(("value", "shown"), BAD_WHOLE, ids=[s for _, s in BAD_WHOLE])
@pytest.mark.parametrize(
    ("table", "index", "field", "allowed"), WHOLE_FIELDS, ids=[f"{t}.{f}" for t, _, f, _ in WHOLE_FIELDS]
)
def test_a_whole_number_out_of_range_or_of_another_type_is_refused_with_the_range(
    table: str, index: int | None, field: str, allowed: str, value: Any, shown: str
) -> None:
    data = _data()
    if index is not None:
        assert field in data[table][index], "the case must corrupt a field the shipped entry has"
    with pytest.raises(CardDataError) as info:
        parse_cards(_set(data, table, index, field, value), "mine.toml")
    assert info.value.field == (f"rules.{field}" if index is None else field)
    assert f"must be a whole number {allowed}, not {shown}" in str(info.value)


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (True, "must be a number, not true"),
        ("1.5", "must be a number (without quotes), not '1.5'"),
        (0, "must be more than 0"),
        (-1.5, "must be more than 0"),
        (1e18, "must be at most 100"),
        (float("nan"), "must be a finite number"),
        (float("inf"), "must be a finite number"),
    ],
)
def test_times_is_a_positive_number_up_to_100(value: Any, words: str) -> None:
    with pytest.raises(CardDataError) as info:
        parse_cards(_set(_data(), "ryabi", 0, "times", value), "mine.toml")
    assert info.value.field == "times" and info.value.card == "ryabi blue1" and words in str(info.value)


def test_a_fractional_times_is_the_rulebooks_and_loads() -> None:
    """The audit listed ``times = 1.5`` as corrupt, but it is the rulebook's (リャビのtimes「1.5」): Lv5 deals ×1.5,
    floored per circle; a designer's ×1.5 on a Lv1 ryabi is as legal and deals floor(ATK × 1.5)."""
    cards = parse_cards(_set(_data(), "ryabi", 0, "times", 1.5), "mine.toml")
    blue1 = cards.kind("blue1")
    assert float(cards.r_times[blue1]) == 1.5
    assert cards.damage(cards.c_names.index("blue5"), blue1, None) == int(
        cards.c_atk[cards.c_names.index("blue5")] * 1.5
    )
