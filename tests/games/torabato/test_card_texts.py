"""What each card says in the browser's card viewer (``ToraBatoGame.card_texts``, issue 28 part 4): every card of
both decks, keyed by the names the observation uses, with its cost, kind and effect in words, read from the card
list itself (a designer's file shows its own numbers)."""

from __future__ import annotations

from pathlib import Path

import cardarena
from cardarena.games.torabato.cards import DEFAULT_CARDS, NAMES


def test_every_card_of_both_decks_has_its_cost_kind_and_effect_in_words() -> None:
    game = cardarena.load("torabato")
    texts = game.card_texts()
    assert sorted(texts) == sorted(NAMES)
    for name, text in texts.items():
        spec = game.card_list.spec("Joker" if name.startswith("JK") else name[:-1])
        assert text.cost == str(spec.cost) and text.text and all(text.text), name
        assert text.kind == ("spell" if spec.kind == "spell" else f"soldier {spec.attack}/{spec.health}"), name
    # the rulebook's cards, as the player's rules page words them
    assert texts["8C"].name == "8 of clubs (8♣)"
    assert texts["8C"].text[0] == "One soldier gets +2/+2 this turn."
    assert texts["QH"].name == "Queen of hearts (Q♥)" and texts["QH"].kind == "soldier 2/2"
    assert "tap one other soldier this turn" in texts["QH"].text[1]
    assert texts["3D"].text[0].startswith("3 damage to the opponent (mills 3 cards")
    assert any("pay 6 to take it back" in line for line in texts["3D"].text)
    assert texts["JK1"].name == "Joker" and "Only on your own turn." in texts["JK1"].text
    assert any("skips the stack" in line for line in texts["5S"].text)
    # nothing in a card's text says where the card lies, or names a seat
    assert not any("seat" in line for t in texts.values() for line in (*t.text, *t.notes))


def test_a_designers_card_file_shows_its_own_texts(tmp_path: Path) -> None:
    path = tmp_path / "cards.toml"
    text = DEFAULT_CARDS.read_text(encoding="utf-8")
    path.write_text(
        text.replace(
            'rank = "2"\nvalue = 2\ncost = 1\nkind = "spell"\neffect = "damage"\namount = 1',
            'rank = "2"\nvalue = 2\ncost = 2\nkind = "spell"\neffect = "damage"\namount = 2',
        ),
        encoding="utf-8",
    )
    texts = cardarena.load("torabato", cards=str(path)).card_texts()
    assert texts["2S"].cost == "2" and texts["2S"].text[0].startswith("2 damage to the opponent (mills 2 cards")
