"""The docs list every field of every encoding (docs/games/<id>.md) and docs/rl.md names every environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardarena.engine import load
from cardarena.rl import ENVIRONMENTS

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.parametrize("game_id", sorted({g for g, _ in ENVIRONMENTS.values()}))
def test_the_games_doc_lists_every_field_of_its_encoding(game_id: str) -> None:
    text = (DOCS / "games" / f"{game_id}.md").read_text(encoding="utf-8")
    encoder = load(game_id).observation_encoder()
    for f in encoder.fields:
        assert f"| {f.offset} | {f.size} | `{f.name}` |" in text, f"docs/games/{game_id}.md misses {f.name}"


def test_rl_doc_names_every_environment() -> None:
    text = (DOCS / "rl.md").read_text(encoding="utf-8")
    for env_id in ENVIRONMENTS:
        assert env_id in text
