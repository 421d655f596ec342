"""``LyabiGame.card_texts``: every card of the data in use in words, for the browser's card viewer (issue 28,
point 4): every ryabi, magic circle and item and the dummy, keyed as the observation names them, with the
designer's own numbers when the game runs on their file."""

from __future__ import annotations

from pathlib import Path

import cardarena
from cardarena.games.lyabi.cards import default_path
from cardarena.games.lyabi.constants import ITEM_IDS


def test_every_card_of_the_data_has_its_text_keyed_as_the_observation_names_it() -> None:
    game = cardarena.load("lyabi")
    c = game.cards  # type: ignore[attr-defined]
    texts = game.card_texts()
    assert set(texts) == {*c.r_names, *(f"{n} circle" for n in c.c_names), *ITEM_IDS, "dummy"}
    for name, card in texts.items():
        assert card.name and card.text and all(line.strip() for line in card.text), name
        assert card.as_dict()["text"] == list(card.text)
    blue5 = texts["blue5"]
    assert (blue5.cost, blue5.kind) == ("5", "blue ryabi · level 5")
    assert "blue beats red and loses to green" in " ".join(blue5.text)
    assert "ATK ×1.5" in " ".join(blue5.text)
    assert any(note.startswith("blue5: a blue ryabi of level 5") for note in blue5.notes)  # the notation
    assert any(note.startswith("×1.5") for note in blue5.notes)
    red11 = texts["red11 circle"]
    assert red11.cost == "11" and red11.text[0].startswith("ATK 4.") and "red ryabi" in red11.text[0]
    mirror = texts["mirror"]
    assert mirror.cost == "3+" and "Mirror of Desire" in mirror.name
    assert mirror.text[0] == (
        "When you would take battle damage: prevent that damage; the opponent takes 1/2 of it, rounded down."
    )
    assert texts["crystal"].text[0].startswith("When you take it (at once): look at the top 3 cards")
    assert "sit the battle out" in texts["dummy"].text[0]


def test_a_designers_file_shows_its_own_numbers(tmp_path: Path) -> None:
    text = default_path().read_text(encoding="utf-8")
    text = text.replace("times = 1.5", "times = 2.5").replace("atk = 4", "atk = 9").replace("damage = 3", "damage = 7")
    path = tmp_path / "my-cards.toml"
    path.write_text(text.replace("item_cost = 3 ", "item_cost = 4 "), encoding="utf-8")
    texts = cardarena.load("lyabi", cards=str(path)).card_texts()
    assert "ATK ×2.5" in " ".join(texts["green5"].text)
    assert texts["green11 circle"].text[0].startswith("ATK 9.")
    assert "deal 7 more damage" in texts["sword"].text[0]
    assert texts["sword"].cost == "4+"
