"""Exact scenarios for shipped cards (one per card, fireplace style): position, actions, resulting board."""

from __future__ import annotations

import pytest

import cardarena

from .helpers import board, legal, play, position

GAME = cardarena.load("tashkalar")

# card, pieces before, actions, pieces after (in square order: rank 1 upwards, files a-i)
SCENARIOS = [
    ("cinder-imp", "e4:x f5:X d6:o f6:o", ["summon cinder-imp at e5 r0", "choose e4"], "e5:o f5:X d6:o f6:o"),
    (
        "pyre-knight",
        "d4:o e4:x f4:o f5:x d6:o e6:X f6:o",
        ["summon pyre-knight at e5 r0"],
        "d4:o f4:o e5:O d6:o e6:X f6:o",
    ),
    ("blaze-lancer", "d4:O f4:O e6:x e7:# e8:x", ["summon blaze-lancer at e5 r0"], "d4:O f4:O e5:O e7:# e8:x"),
    (
        "maelstrom",
        "d3:O f3:O e4:x f5:# d6:X",
        ["summon maelstrom at e5 r0"],
        "d3:O f3:O e4:x e5:O f5:X d6:x",
    ),
    (
        "kraken-spawn",
        "d4:o f4:o d6:O e6:x f6:X",
        ["summon kraken-spawn at e5 r0", "choose e6"],
        "d4:o f4:o e5:O d6:O e6:o f6:X",
    ),
    (
        "spore-cloud",
        "e3:x d5:x g5:x c6:o g6:o e7:x",
        ["summon spore-cloud at e5 r0", "choose e3", "choose e7"],
        "d5:x e5:O g5:x c6:o g6:o",
    ),
    ("heartwood", "e4:o d6:O f6:O", ["summon heartwood at e5 r0", "choose e5"], "e4:o e5:@ d6:O f6:O"),
    (
        "siren",
        "d5:o f5:o h5:x e7:O",
        ["summon siren at e5 r0", "move h5 e4", "choose e4"],
        "e4:o d5:o e5:O f5:o e7:O",
    ),
    (
        "elder-oak",
        "d5:o f5:o d6:o e6:o f6:o",
        ["summon elder-oak at e5 r0", "choose d5", "choose f5"],
        "d5:O e5:O f5:O d6:o e6:o f6:o",
    ),
    ("storm-dragon", "e4:o d5:O f5:O e6:# e7:x", ["summon storm-dragon at e5 r0"], "e4:o d5:O e5:@ f5:O"),
    (
        "shadow-queen",
        "c3:X e3:x d5:O f5:O e6:O g7:#",
        ["summon shadow-queen at e5 r0"],
        "c3:x e3:x d5:O e5:@ f5:O e6:O g7:X",
    ),
    (
        "grand-summoner",
        "d4:o e4:O f4:o d6:o e6:O f6:o",
        ["summon grand-summoner at e5 r0", "option 2"],
        "d4:O e4:O f4:O e5:@ d6:O e6:O f6:O",
    ),
    (
        "iron-golem",
        "d4:O f4:O c6:O e6:X g6:O e8:x",
        ["summon iron-golem at e5 r0", "move e5 e6", "move e6 e7", "move e7 e8"],
        "d4:O f4:O c6:O g6:O e8:@",
    ),
    (
        "war-drummer",
        "c6:o e6:o g6:o d4:x d5:o",
        ["summon war-drummer at e5 r0", "move d5 d4", "skip"],
        "d4:o e5:O c6:o e6:o g6:o",
    ),
]


@pytest.mark.parametrize("card_id, before, actions, after", SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_shipped_card(card_id: str, before: str, actions: list[str], after: str) -> None:
    card = GAME.cards.by_id[card_id]
    hand = (card_id,) if card.kind == "being" else ()
    legends = (card_id,) if card.kind == "legend" else ()
    st = position(GAME, before, hand=hand, legends=legends)
    play(st, *actions)
    assert board(st) == after
    assert st.resolving == -1 and card.index in (st.disc_l if card.kind == "legend" else st.disc_s[0])


def test_shield_wall_both_halves() -> None:
    """Shield Wall: upper places and upgrades a common; lower places a common and another next to it."""
    st = position(GAME, "a5:X b5:X c5:X", flares=("shield-wall",))
    play(st, "flare shield-wall", "place e5")
    assert legal(st) == ["choose e5"]
    play(st, "choose e5", "place e7")
    assert sorted(legal(st)) == sorted(
        ["place d6", "place e6", "place f6", "place d7", "place f7", "place d8", "place e8", "place f8"]
    )
    play(st, "place e8")
    assert board(st) == "a5:X b5:X c5:X e5:O e7:o e8:o"
    assert st.score == [0, 1]


def test_ash_reaver_moves_only_if_it_destroyed_nothing() -> None:
    st = position(GAME, "e6:o d5:O f5:O g3:x", hand=("ash-reaver",))
    play(st, "summon ash-reaver at e5 r0", "choose g3")
    assert st.resolving == -1
    st = position(GAME, "e6:o d5:O f5:O", hand=("ash-reaver",))
    play(st, "summon ash-reaver at e5 r0")
    assert legal(st)[-1] == "skip" and all(a.startswith(("move e5", "skip")) for a in legal(st))
