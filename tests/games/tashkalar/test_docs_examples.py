"""Every TOML example of docs/games/tashkalar-cards.md loads (the reference a card designer writes from)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from .helpers import being, make_game

DOC = Path(__file__).parents[3] / "docs" / "games" / "tashkalar-cards.md"
BLOCKS = re.findall(r"```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
# a pattern with marked squares and your pieces, for examples that show only an effect
PATTERN = "c* . *\n. @ .\n. c ."


def _cards(block: str) -> list[dict[str, Any]]:
    """The beings a block shows: a whole [[school.being]], or each `effect = ...` (with the block's pattern)."""
    if block.lstrip().startswith("[[school.being]]"):
        return [tomllib.loads(block)["school"]["being"][0]]
    pattern = (
        tomllib.loads(block[block.index("pattern") :].split("effect")[0])["pattern"] if "pattern" in block else None
    )
    parts = re.split(r"^(?=effect = )", block, flags=re.M)
    out = []
    for i, part in enumerate(p for p in parts if p.startswith("effect = ")):
        effect = tomllib.loads(part)["effect"]
        out.append(being(f"doc-example-{i}", pattern or PATTERN, effect))
    return out


EXAMPLES = [b for b in BLOCKS if "[rules]" not in b]


def test_the_reference_has_an_example_per_construct() -> None:
    assert len(EXAMPLES) >= 18


@pytest.mark.parametrize("block", EXAMPLES, ids=[f"block{i}" for i in range(len(EXAMPLES))])
def test_every_example_loads(block: str) -> None:
    cards = _cards(block)
    assert cards
    for card in cards:
        game = make_game(dict(card, id="doc-" + card["id"]))
        assert game.cards.by_id["doc-" + card["id"]].text
