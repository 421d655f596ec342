"""Issue 27 point 10: Laplaplace's option and data ranges. ``max_turns=10**30`` loaded where every other game
stops at 1,000,000; a card's force is a whole number 0..99; a build of 0 cards is a legal build (the rulebook's
カードを0〜8枚選んで), loaded on purpose."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

import cardarena
from cardarena.engine import MAX_TURNS, CardDataError, OptionError
from cardarena.games.laplaplace.cards import load_cards, parse_build, parse_cards

ONE_CARD = """[[card]]
id = "x"
name = "X"
number = "A"
force = {force}
category = "core"
abilities = []
"""


@pytest.mark.parametrize("cap", [10**30, 10**18, MAX_TURNS.maximum + 1, "1000001"])
def test_max_turns_has_the_maximum_of_every_game(cap: object) -> None:
    """It loaded before: the cap now stops where the other games' does, and the message says where."""
    with pytest.raises(OptionError, match=r"option 'max_turns': .* is above the maximum 1000000$"):
        cardarena.load("laplaplace", max_turns=cap)


def test_max_turns_up_to_the_maximum_still_loads() -> None:
    assert cardarena.load("laplaplace", max_turns=1_000_000).options["max_turns"] == 1_000_000
    assert cardarena.load("laplaplace", max_turns=30).options["max_turns"] == 30


@pytest.mark.parametrize(
    ("force", "shown"), [("true", "true"), ("1.5", "1.5"), ("3.0", "3.0"), ("-1", "-1"), (str(10**18), str(10**18))]
)
def test_a_card_force_outside_0_to_99_is_refused_with_the_range(force: str, shown: str) -> None:
    with pytest.raises(CardDataError) as e:
        parse_cards(ONE_CARD.format(force=force), "my.toml")
    assert (e.value.card, e.value.field) == ("x", "force")
    assert f"must be a whole number 0..99, not {shown}" in str(e.value)


def test_a_build_of_no_cards_is_a_legal_build_and_loses_at_once(tmp_path: Path) -> None:
    """The rulebook lets a player build 0-8 cards (各プレイヤーはカードを0〜8枚選んで一列に並べ), the blind scene's
    ``done`` may end an empty build, and ``build_text`` saves it: so a build file of 0 cards loads, and its battle
    is the rules' (base HP 0: it loses to any build with HP, and two empty builds draw)."""
    empty = tmp_path / "empty.toml"
    empty.write_text('name = "Nothing"\ncards = []\n', encoding="utf-8")
    assert parse_build(empty.read_text(encoding="utf-8"), load_cards(), str(empty)).cards == ()
    knight = str(resources.files("cardarena.games.laplaplace").joinpath("data", "builds", "knight.toml"))
    state = cardarena.load("laplaplace", build="league", build0=str(empty), build1=knight).new_initial_state(0)
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]
    both = cardarena.load("laplaplace", build="league", build0=str(empty), build1=str(empty)).new_initial_state(0)
    assert both.is_terminal() and both.returns() == [0.0, 0.0]
