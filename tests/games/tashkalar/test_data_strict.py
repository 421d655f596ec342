"""Issue 27 point 10: a card or task file's numbers are whole numbers in ranges a game can play, and the decks a
hand draws from are there (the audit's corrupted files loaded silently: *_target = 10**18, hand_flares = 0, true
for a number, legend = [])."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import cardarena
from cardarena.engine import CardDataError
from cardarena.games.tashkalar.cards import build_cards, default_path
from cardarena.games.tashkalar.cards.tasks import build_tasks, default_task_path

BIG = 10**18
Edit = Callable[[dict[str, Any]], Any]


def _cards() -> dict[str, Any]:
    return tomllib.loads(Path(default_path()).read_text(encoding="utf-8"))


def _tasks() -> dict[str, Any]:
    return tomllib.loads(Path(default_task_path()).read_text(encoding="utf-8"))


def _rule(name: str, value: Any) -> Edit:
    return lambda r: r["rules"].update({name: value})


def _step(where: Callable[[dict[str, Any]], dict[str, Any]], name: str, value: Any) -> Edit:
    return lambda r: where(r).update({name: value})


def ash_hound(r: dict[str, Any]) -> dict[str, Any]:  # move, times = 2, up_to = true
    return r["school"][0]["being"][1]["effect"][0]


def ripple_sprite(r: dict[str, Any]) -> dict[str, Any]:  # leap, to_max_distance = 3, may = true
    return r["school"][1]["being"][0]["effect"][0]


def sudden_gust(r: dict[str, Any]) -> dict[str, Any]:  # a flare's leap of count = 2
    return r["flare"][1]["upper_effect"][0]


# (what is broken, the field the error names, words of the message)
CARD_CASES: list[tuple[str, Edit, str, str]] = [
    *[
        (f"{target} = {shown}", _rule(target, value), f"rules.{target}", f"1..99{quoted}, not {shown}")
        for target in ("deathmatch_target", "highform_target", "melee_target_3", "melee_target_4")
        for value, shown, quoted in ((BIG, BIG, ""), (True, "true", ""), (0, 0, ""), (1.5, 1.5, ""))
    ],
    *[
        (f"{hand} = {shown}", _rule(hand, value), f"rules.{hand}", f"1..10, not {shown}")
        for hand in ("hand_beings", "hand_legends", "hand_flares")
        for value, shown in ((0, 0), (True, "true"), (BIG, BIG), (2.0, "2.0"))
    ],
    ("legendary_pieces = 0", _rule("legendary_pieces", 0), "rules.legendary_pieces", "1..69, not 0"),
    ("legendary_pieces = true", _rule("legendary_pieces", True), "rules.legendary_pieces", "1..69, not true"),
    ("legendary_pieces = 10**18", _rule("legendary_pieces", BIG), "rules.legendary_pieces", f"1..69, not {BIG}"),
    (
        "deathmatch_two_sided_base = 10**18",
        _rule("deathmatch_two_sided_base", BIG),
        "rules.deathmatch_two_sided_base",
        "5..69",
    ),
    (
        "deathmatch_two_sided_base = 4",
        _rule("deathmatch_two_sided_base", 4),
        "rules.deathmatch_two_sided_base",
        "5..69",
    ),
    ("highform_two_sided = 10**18", _rule("highform_two_sided", BIG), "rules.highform_two_sided", "3..69"),
    ("team_sideways = true", _rule("team_sideways", True), "rules.team_sideways", "0..69, not true"),
    ("team_sideways = -1", _rule("team_sideways", -1), "rules.team_sideways", "0..69, not -1"),
    ("legend = []", lambda r: r.update(legend=[]), "legend", "[[legend]] is empty"),
    ("no [[legend]]", lambda r: r.pop("legend"), "legend", "[[legend]] is missing"),
    ("flare = []", lambda r: r.update(flare=[]), "flare", "[[flare]] is empty"),
    ("no [[flare]]", lambda r: r.pop("flare"), "flare", "[[flare]] is missing"),
    ("no effect", lambda r: r["school"][0]["being"][0].pop("effect"), "effect", "is missing"),
    ("times = 10**18", _step(ash_hound, "times", BIG), "effect.0.times", f"1..69, not {BIG}"),
    ("times = true", _step(ash_hound, "times", True), "effect.0.times", "1..69, not true"),
    ("up_to = 1", _step(ash_hound, "up_to", 1), "effect.0.up_to", "must be true or false, not 1"),
    ("up_to = 'true'", _step(ash_hound, "up_to", "true"), "effect.0.up_to", "true or false (without quotes)"),
    ("to_max_distance = 10**18", _step(ripple_sprite, "to_max_distance", BIG), "effect.0.to_max_distance", "0..16"),
    ("to_max_distance = true", _step(ripple_sprite, "to_max_distance", True), "effect.0.to_max_distance", "0..16"),
    ("may = 1", _step(ripple_sprite, "may", 1), "effect.0.may", "must be true or false, not 1"),
    ("count = true", _step(sudden_gust, "count", True), "upper_effect.0.count", '1..69 or "all", not true'),
    ("count = 10**18", _step(sudden_gust, "count", BIG), "upper_effect.0.count", '1..69 or "all"'),
    ("count = 1.5", _step(sudden_gust, "count", 1.5), "upper_effect.0.count", '1..69 or "all", not 1.5'),
    ("upper = 10**18", lambda r: r["flare"][0].update(upper=BIG), "upper", f"1..69, not {BIG}"),
    ("upper = true", lambda r: r["flare"][0].update(upper=True), "upper", "1..69, not true"),
    ("lower = 2.5", lambda r: r["flare"][0].update(lower=2.5), "lower", "1..69, not 2.5"),
]


@pytest.mark.parametrize(("edit", "field", "words"), [c[1:] for c in CARD_CASES], ids=[c[0] for c in CARD_CASES])
def test_a_corrupted_card_file_is_refused_with_the_allowed_range(edit: Edit, field: str, words: str) -> None:
    """Each loaded silently before: the error names the file and the field, and says what is allowed."""
    raw = _cards()
    edit(raw)
    with pytest.raises(CardDataError) as info:
        build_cards(raw, file="mine.toml")
    assert info.value.field == field and str(info.value).startswith("mine.toml")
    assert words in str(info.value)


TASK_CASES: list[tuple[str, Edit, str, str]] = [
    ("points = true", lambda t: t["task"][0].update(points=True), "points", "1..3, not true"),
    ("points = 2.0", lambda t: t["task"][0].update(points=2.0), "points", "1..3, not 2.0"),
    ("count = true", lambda t: t["task"][1]["conditions"][0].update(count=True), "conditions.0.count", "1..69"),
    ("count = 10**18", lambda t: t["task"][1]["conditions"][0].update(count=BIG), "conditions.0.count", "1..69"),
    (
        "upgraded = true",
        lambda t: t["task"][1]["conditions"][0].update(upgraded=True),
        "conditions.0.upgraded",
        "0..69",
    ),
    ("upgraded = -1", lambda t: t["task"][1]["conditions"][0].update(upgraded=-1), "conditions.0.upgraded", "0..69"),
    ("advanced = 1", lambda t: t["task"][1].update(advanced=1), "advanced", "must be true or false, not 1"),
]


@pytest.mark.parametrize(("edit", "field", "words"), [c[1:] for c in TASK_CASES], ids=[c[0] for c in TASK_CASES])
def test_a_corrupted_task_file_is_refused_with_the_allowed_range(edit: Edit, field: str, words: str) -> None:
    raw = _tasks()
    edit(raw)
    with pytest.raises(CardDataError) as info:
        build_tasks(raw, file="tasks.toml")
    assert info.value.field == field and info.value.card == raw["task"][0 if field == "points" else 1]["id"]
    assert words in str(info.value)


def test_two_seats_may_play_the_same_school_each_with_its_own_deck() -> None:
    """school0 == school1 is allowed on purpose (rules.md ruling 11): the arena gives every seat its own copy of
    the school's deck, as a mirror match needs; the two decks hold the same cards and are drawn separately."""
    game = cardarena.load("tashkalar", school0="ember", school1="ember")
    state = game.new_initial_state(7)
    assert state.school == ["ember", "ember"]
    assert sorted(state.deck_s[0] + state.hand_b[0]) == sorted(state.deck_s[1] + state.hand_b[1])
    assert state.deck_s[0] is not state.deck_s[1]
    assert "same school" in next(o.help for o in game.option_spec if o.name == "school1")
