"""Issue 27 point 10: a card list's numbers are whole numbers in ranges a game can play, and every field a card
of its kind needs is written (the audit's corrupted lists loaded silently: value -1000 or true, cost 10**18, a
soldier without its attack)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import cardarena
from cardarena.engine import CardDataError
from cardarena.games.torabato.cards import DEFAULT_CARDS


def _edit(tmp_path: Path, rank: str, field: str, value: str | None) -> Path:
    """The shipped card list with ``field`` of the card ``rank`` set to the TOML ``value`` (``None``: removed)."""
    blocks = DEFAULT_CARDS.read_text(encoding="utf-8").split("[[cards]]\n")
    (i,) = [i for i, b in enumerate(blocks) if b.startswith(f'rank = "{rank}"\n')]
    line = re.compile(rf"^{field} = .*\n", re.MULTILINE)
    block = line.sub("", blocks[i])
    blocks[i] = block if value is None else block + f"{field} = {value}\n"
    path = tmp_path / "cards.toml"
    path.write_text("[[cards]]\n".join(blocks), encoding="utf-8")
    return path


# (card, field, value as written, words of the message); A is a soldier with regrow, 2 a damage spell with
# recursion, 8 the boost spell, 10 the soldier with fortify.
CASES = [
    ("A", "value", "-1000", "whole number 0..99, not -1000"),
    ("A", "value", "true", "whole number 0..99, not true"),
    ("A", "value", "1000000000000000000", "whole number 0..99, not 1000000000000000000"),
    ("A", "value", "1.5", "whole number 0..99, not 1.5"),
    ("A", "cost", "1000000000000000000", "whole number 0..26, not 1000000000000000000"),
    ("A", "cost", "true", "whole number 0..26, not true"),
    ("A", "cost", "4.0", "whole number 0..26, not 4.0"),
    ("A", "cost", "-1", "whole number 0..26, not -1"),
    ("A", "attack", None, "is missing: a soldier needs its attack"),
    ("A", "health", None, "is missing: a soldier needs its health"),
    ("A", "attack", "1000000000000000000", "whole number 0..99"),
    ("A", "attack", "true", "whole number 0..99, not true"),
    ("A", "health", "false", "whole number 0..99, not false"),
    ("A", "health", "2.5", "whole number 0..99, not 2.5"),
    ("A", "ability_cost", "1000000000000000000", "whole number 0..26"),
    ("A", "ability_cost", "true", "whole number 0..26, not true"),
    ("A", "ability_cost", None, "is missing: the 'regrow' ability needs its cost"),
    ("J", "ability_cost", "2", "this soldier has no ability"),
    ("A", "amount", "3", "only damage, gain_mana and draw spells have an amount"),
    ("A", "health_boost", "1", "only the 'fortify' ability has a health_boost"),
    ("2", "amount", "1000000000000000000", "whole number 0..27"),
    ("2", "amount", "true", "whole number 0..27, not true"),
    ("2", "amount", None, "needs a positive amount"),
    ("2", "recur_cost", "1000000000000000000", "whole number 0..26"),
    ("2", "recur_cost", "true", "whole number 0..26, not true"),
    ("2", "attack", "2", "only soldiers and boost spells have attack"),
    ("8", "attack", None, "is missing: a boost spell gives"),
    ("8", "health", "-1", "whole number 0..99, not -1"),
    ("10", "health_boost", None, "needs a health_boost of at least 1"),
    ("10", "health_boost", "true", "whole number 0..99, not true"),
    ("10", "health_boost", "1000000000000000000", "whole number 0..99"),
]


@pytest.mark.parametrize(("card", "field", "value", "words"), CASES)
def test_a_corrupted_card_list_is_refused_with_the_allowed_range(
    tmp_path: Path, card: str, field: str, value: str | None, words: str
) -> None:
    """Each loaded silently before: the error names the file, the card and the field, and says what is allowed."""
    path = _edit(tmp_path, card, field, value)
    with pytest.raises(CardDataError) as info:
        cardarena.load("torabato", cards=str(path))
    assert info.value.card == card and info.value.field == field and str(path) in str(info.value)
    assert words in str(info.value)


def test_the_edges_of_each_range_still_load(tmp_path: Path) -> None:
    """The ranges are what a game can play, no narrower: a free card and a card costing 26 mana both load."""
    game = cardarena.load("torabato", cards=str(_edit(tmp_path, "K", "cost", "26")))
    assert game.card_list.spec("K").cost == 26
    game = cardarena.load("torabato", cards=str(_edit(tmp_path, "K", "value", "0")))
    assert game.card_list.spec("K").value == 0
