"""The card language (docs/games/tashkalar-cards.md): its defaults and every construct, each as an exact scenario.

Each test builds a position, summons a probe card written in the language, makes the choices and checks the exact
board (and counters) afterwards. The shipped card that uses each construct has its own row in
test_shipped_cards.py.
"""

from __future__ import annotations

from typing import Any

from .helpers import being, board, legal, make_game, play, position


def single(effect: list[dict[str, Any]], pattern: str = "c @", rank: str = "heroic", **options: Any):
    return make_game(being("probe", pattern, effect, rank), **options)


def test_defaults_are_the_rulebooks_any_owner_and_the_summon_square() -> None:
    """The rulebook's defaults (クリーチャーと焰カードの効果の解決, キーワード):
    「ユニット：特に明確にこれが記されていない限り、効果は自身のユニットと敵ユニットに影響を及ぼす」 and
    「隣接するスクエア：…あるスクエアがどれなのかという記述がない場合、新たに召喚されたスクエアのことを指す」.

    A step that names no owner hits your pieces and enemy pieces alike; "adjacent" with no square named is
    measured from the summon square, even after the being's piece moved away from it.
    """
    g = single([{"do": "move", "target": "self", "style": "standard"}, {"do": "destroy", "near": "adjacent"}])
    st = position(g, "d5:o f5:x e6:o h5:x", hand=("probe",))
    play(st, "summon probe at e5 r0", "move e5 e4")
    # adjacent to e5 (the summon square), whoever owns the piece: d5, e6 (yours), f5 (enemy), e4 (the being)
    assert sorted(legal(st)) == ["choose d5", "choose e4", "choose e6", "choose f5"]
    play(st, "choose d5")
    assert board(st) == "e4:O f5:x h5:x e6:o"
    assert st.destroyed == [0, 0, 0] and st.score == [0, 0]  # your own piece scores nothing


def test_defaults_can_be_overridden_as_before() -> None:
    """who = "enemy" and from = "self" give the readings the old defaults gave."""
    g = single(
        [
            {"do": "move", "target": "self", "style": "standard"},
            {"do": "destroy", "who": "enemy", "from": "self", "near": "adjacent"},
        ]
    )
    st = position(g, "d5:o f5:x e6:o h5:x", hand=("probe",))
    play(st, "summon probe at e5 r0", "move e5 e4")
    assert legal(st) == ["choose f5"]
