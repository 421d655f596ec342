"""What each card says for the browser's card viewer (``DiceBattleGame.card_texts``): built from the card file in
use, so a designer's own pool shows its own names, levels, effects, grants and special rules, in words."""

from __future__ import annotations

from pathlib import Path

import cardarena

POOL = """assumed = true
[[card]]
id = "brave_frog"
name = "Brave Frog"
kind = "monster"
level = 2
effect = { type = "choice", when = "behind", do = ["power 3", "draw 1"] }
grant = { level = 1, type = "permanent", do = ["weaken 1"] }
text = "Hops."

[[card]]
id = "lantern"
name = "Lantern"
kind = "magic"
level = 1
special = "magic_with_monster"
"""


def test_every_card_of_the_built_in_pool_has_its_name_level_effect_and_notes() -> None:
    game = cardarena.load("dicebattle")
    texts = game.card_texts()
    assert set(texts) == set(game.card_ids())  # keyed by id, as the observation names cards
    for card in game.tables.cards:
        info = texts[card.id]
        assert (info.name, info.cost) == (card.name, str(card.level)), card.id
        assert info.kind == f"{card.kind}, level {card.level}"
        assert info.text and all(line.endswith(".") for line in info.text), card.id
        assert "(s)" not in " ".join(info.text), card.id  # counted in words: "1 card", "2 cards"
        assert "returns" not in " ".join(info.text), card.id  # the page's jargon check reads it as the engine's returns
        assert info.notes[0].startswith(f"Level {card.level}:"), card.id
    assert texts["street_urchin"].text == ("Choice: the opponent discards 1 card at random.",)
    assert texts["court_sage"].text == ("Choice: draw 2 cards; the opponent draws 1 card.",)


def test_a_designers_pool_shows_its_own_texts(tmp_path: Path) -> None:
    pool = tmp_path / "pool.toml"
    pool.write_text(POOL, encoding="utf-8")
    deck = tmp_path / "deck.toml"
    deck.write_text('name = "d"\n[cards]\n' + "".join(f"x{k} = 2\n" for k in range(15)), encoding="utf-8")
    cards = "".join(f'[[card]]\nid = "x{k}"\nname = "X{k}"\nkind = "monster"\nlevel = 1\n' for k in range(15))
    pool.write_text(POOL + cards, encoding="utf-8")
    texts = cardarena.load("dicebattle", cards=str(pool), deck0=str(deck), deck1=str(deck)).card_texts()
    frog = texts["brave_frog"]
    assert frog.name == "Brave Frog" and frog.cost == "2" and frog.kind == "monster, level 2"
    assert frog.text == (
        "Choice: if you have fewer stars than the opponent, your main unit gets +3 level; draw 1 card.",
        "Grant Lv1: permanent: the opponent's main unit gets -1 level.",
    )
    assert any(n.startswith("Choice:") for n in frog.notes)
    assert any(n.startswith("Grant Lv1:") and "every battle" in n for n in frog.notes)
    assert "Card note: Hops." in frog.notes
    lantern = texts["lantern"]
    assert lantern.text[0] == "No effect."
    assert lantern.text[1].startswith("Special rule: this magic may be set in the magic circle when your main unit")
    assert texts["x3"].text == ("No effect.",)
