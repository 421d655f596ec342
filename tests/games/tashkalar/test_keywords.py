"""Every keyword of the rulebook's クリーチャーと焰カードの効果の解決 (resolving beings and flares)."""

import pytest

from cardarena.engine import IllegalActionError
from cardarena.games.tashkalar.rules.decks import refill
from cardarena.games.tashkalar.rules.pieces import aside

from .helpers import being, board, legal, make_game, play, position


def single(effect: list[dict], pattern: str = "c @", rank: str = "heroic"):
    return make_game(being("probe", pattern, effect, rank))


def test_gain_an_action() -> None:
    """1アクションを得る: the player gains one more action this turn."""
    g = single([{"do": "gain_action"}])
    st = position(g, "d5:o", hand=("probe",), actions=1)
    play(st, "summon probe at e5 r0")
    assert st.actions == 1
    assert st.phase == 1  # back to the main phase with an action to spend


def test_draw_an_extra_card_at_end_of_turn() -> None:
    """ターン終了時に追加のカードを1枚引く: refill to 3-2-1, then one more of that kind; no discard of excess."""
    g = single([{"do": "draw_extra", "deck": "school"}])
    st = position(g, "d5:o", hand=("probe", "filler-0", "filler-1"), actions=1)
    play(st, "summon probe at e5 r0")
    assert len(st.hand_b[0]) == 4  # refilled to 3, then the extra card
    assert st.player == 1
    # next own turn: the refill draws only up to 3, and the 4th card is kept
    st.edit(player=0)
    st.edit(extra=[0, 0, 0])
    refill(st, 0)
    assert len(st.hand_b[0]) == 4


def test_standard_move_goes_to_empty_or_lower_rank() -> None:
    """通常移動: to an adjacent empty square or one with a lower-rank piece (destroyed)."""
    g = single([{"do": "move", "target": "self", "style": "standard"}])
    st = position(g, "d5:o e6:x f6:X d6:#", hand=("probe",))
    play(st, "summon probe at e5 r0")
    moves = legal(st)
    assert "move e5 e6" in moves  # a common is lower than a heroic
    assert "move e5 f6" not in moves  # same rank: not for a standard move
    assert "move e5 d6" not in moves
    assert "move e5 d5" in moves  # own common: lower, allowed by the rulebook's words
    assert "move e5 f5" in moves
    play(st, "move e5 e6")
    assert "e6:O" in board(st)
    assert st.destroyed == [1, 0, 0]


def test_combat_move_goes_to_same_or_lower_rank() -> None:
    """戦闘移動: to an adjacent empty square or one with a same-or-lower-rank piece (destroyed)."""
    g = single([{"do": "move", "target": "self", "style": "combat"}])
    st = position(g, "d5:o f6:X d6:#", hand=("probe",))
    play(st, "summon probe at e5 r0")
    assert "move e5 f6" in legal(st)
    assert "move e5 d6" not in legal(st)
    play(st, "move e5 f6")
    assert board(st) == "d5:o d6:# f6:O"
    assert st.destroyed == [0, 1, 0]


def test_moving_onto_a_piece_destroys_it_even_your_own() -> None:
    """移動: a move onto a square with a piece destroys that piece; own pieces give no points."""
    g = single([{"do": "move", "target": "self", "style": "standard"}])
    st = position(g, "d5:o", hand=("probe",))
    play(st, "summon probe at e5 r0", "move e5 d5")
    assert board(st) == "d5:O"
    assert st.destroyed == [0, 0, 0]
    assert st.supply_two[0] == 15


def test_standard_and_combat_leaps_go_anywhere() -> None:
    """通常跳躍 / 戦闘跳躍: like moves, but the square need not be adjacent; anywhere unless the card says."""
    g = make_game(
        being("hop", "c @", [{"do": "leap", "target": "self", "style": "standard"}]),
        being("pounce", "c @", [{"do": "leap", "target": "self", "style": "combat", "to_distance": 3}]),
    )
    st = position(g, "d5:o i5:X a5:x", hand=("hop",))
    play(st, "summon hop at e5 r0")
    moves = legal(st)
    assert "move e5 e9" in moves and "move e5 a5" in moves and "move e5 i5" not in moves
    assert len(moves) == 67  # every square but its own and i5 (a heroic: same rank)
    st = position(g, "d5:o h5:X", hand=("pounce",))
    play(st, "summon pounce at e5 r0")
    moves = legal(st)
    assert "move e5 h5" in moves  # distance 3, same rank: a combat leap may go there
    assert "move e5 f5" not in moves  # distance 1
    play(st, "move e5 h5")
    assert board(st) == "d5:o h5:O"


def test_upgrade_rules() -> None:
    """アップグレード: a common flips; a heroic is replaced by a legendary only if one is left; legendary never."""
    g = single([{"do": "upgrade", "who": "own", "count": "all", "near": "adjacent"}])
    st = position(g, "d5:o e6:O f6:@", hand=("probe",))
    play(st, "summon probe at e5 r0")
    assert board(st) == "d5:O e5:O e6:@ f6:@"
    assert st.supply_leg[0] == 1 and st.supply_two[0] == 14  # the heroic went back to the supply
    st = position(g, "d5:o e6:O", hand=("probe",), supply_leg=(0, 3))
    play(st, "summon probe at e5 r0")
    assert board(st) == "d5:O e5:O e6:O"  # no legendary piece left: the heroic stays


def test_downgrade_rules() -> None:
    """ダウングレード: commons cannot; a heroic flips; a legendary is replaced by a heroic only if one is left."""
    g = single([{"do": "downgrade", "who": "enemy", "count": "all", "near": "adjacent"}])
    st = position(g, "d5:o e6:X f6:# f5:x", hand=("probe",))
    play(st, "summon probe at e5 r0")
    assert board(st) == "d5:o e5:O f5:x e6:x f6:X"
    assert st.supply_leg[1] == 3
    st = position(g, "d5:o f6:#", hand=("probe",), supply_two=(16, 0))
    play(st, "summon probe at e5 r0")
    assert "f6:#" in board(st)


def test_destroy_sets_enemy_pieces_aside_then_returns_them() -> None:
    """破壊; 破壊した敵ユニットをゲームボードのわきによける; 取り除かれたユニットは元のプレイヤーの手元に戻る."""
    g = single([{"do": "destroy", "near": "adjacent", "rank": "any", "who": "any", "count": 2}])
    st = position(g, "d5:o f5:# f6:x e6:o", hand=("probe",), actions=2)
    play(st, "summon probe at e5 r0")
    assert legal(st) == ["choose d5", "choose f5", "choose e6", "choose f6"]  # mandatory: no skip
    play(st, "choose f5")
    assert board(st) == "d5:o e5:O e6:o f6:x"
    assert st.supply_leg[1] == 2 and aside(st) == [0, 0, 0, 1] and st.destroyed == [0, 0, 1]
    play(st, "choose e6")  # your own piece goes back to your supply at once and scores nothing
    assert st.supply_two[0] == 14 and st.destroyed == [0, 0, 1]
    # at the end of the turn points are scored and the set-aside piece goes back to its owner
    play(st, "end")
    assert st.player == 1 and st.score == [2, 0]
    assert st.supply_leg[1] == 3 and aside(st) == [0, 0, 0, 0]


def test_convert_replaces_with_own_piece_of_the_same_rank() -> None:
    """変換: an enemy piece is replaced by your piece of the same rank; it counts as destroyed."""
    g = make_game(
        being("turn", "c @", [{"do": "convert", "near": "adjacent", "rank": "any"}]),
        being("turn-low", "c @", [{"do": "convert", "near": "adjacent", "rank": "any", "as_rank": "common"}]),
    )
    st = position(g, "d5:o f5:X f6:#", hand=("turn",))
    play(st, "summon turn at e5 r0", "choose f5")
    assert board(st) == "d5:o e5:O f5:O f6:#"
    assert st.destroyed == [0, 1, 0] and st.supply_two[1] == 15 and aside(st)[2] == 1 and st.supply_two[0] == 13
    # with no legendary piece left you cannot convert a legendary
    st = position(g, "d5:o f6:#", hand=("turn",), supply_leg=(0, 3))
    play(st, "summon turn at e5 r0")
    assert "f6:#" in board(st) and st.phase == 1
    # "unless a different rank is stated"
    st = position(g, "d5:o f6:#", hand=("turn-low",))
    play(st, "summon turn-low at e5 r0", "choose f6")
    assert "f6:o" in board(st) and st.destroyed == [0, 0, 1]


def test_place_needs_a_piece_of_that_colour_and_rank() -> None:
    """配置 (effect): like the place action, but impossible without a piece of the stated colour and rank."""
    g = make_game(
        being("sprout", "c @", [{"do": "place", "rank": "heroic", "near": "adjacent"}]),
        being("gift", "c @", [{"do": "place", "who": "enemy", "distance": 2, "count": 2}]),
    )
    st = position(g, "d5:o", hand=("sprout",))
    play(st, "summon sprout at e5 r0")
    assert len(legal(st)) == 7 and "place e6" in legal(st)
    play(st, "place e6")
    assert "e6:O" in board(st)
    st = position(g, "d5:o", hand=("sprout",), supply_two=(1, 16))
    play(st, "summon sprout at e5 r0")  # the being took the last two-sided piece
    assert st.phase == 1 and board(st) == "d5:o e5:O"
    st = position(g, "d5:o", hand=("gift",))
    play(st, "summon gift at e5 r0", "place e7", "place c3")
    assert "e7:x" in board(st) and "c3:x" in board(st)


def test_marked_squares_follow_the_pattern_orientation() -> None:
    """マークされたスクエア: the coloured squares of the pattern, turned with it."""
    g = single([{"do": "destroy", "who": "enemy", "count": "all", "on": "marked"}], pattern=". *\n. *\nc @")
    st = position(g, "d5:o e6:x e7:x f5:x", hand=("probe",))
    play(st, "summon probe at e5 r0")
    assert board(st) == "d5:o e5:O f5:x"
    st = position(g, "e6:o f5:x g5:x e4:x", hand=("probe",))
    orient = [a for a in legal(st) if a.startswith("summon probe at e5")]
    # the same pieces fit turned (r90) and mirrored (m270): the marked squares differ, so both are summons
    assert orient == ["summon probe at e5 r90", "summon probe at e5 m270"]
    play(st, "summon probe at e5 r90")
    assert board(st) == "e4:x e5:O e6:o"
    st = position(g, "e6:o c5:x d5:x f5:x", hand=("probe",))
    play(st, "summon probe at e5 m270")
    assert board(st) == "e5:O f5:x e6:o"


def test_distance_and_adjacency_filters() -> None:
    """距離 and 隣接: "at distance 2" and "adjacent" count from the new piece unless the card says otherwise."""
    g = make_game(
        being("far", "c @", [{"do": "destroy", "who": "enemy", "count": "all", "distance": 2, "rank": "any"}]),
        being("near", "c @", [{"do": "destroy", "who": "enemy", "count": "all", "near": "adjacent", "rank": "any"}]),
        being("mid", "c @", [{"do": "destroy", "who": "enemy", "count": "all", "min_distance": 2, "max_distance": 3}]),
    )
    layout = "d5:o f5:x g5:x h5:x i5:x e7:x e3:X"
    st = position(g, layout, hand=("far",))
    play(st, "summon far at e5 r0")
    assert board(st) == "d5:o e5:O f5:x h5:x i5:x"
    st = position(g, layout, hand=("near",))
    play(st, "summon near at e5 r0")
    assert board(st) == "e3:X d5:o e5:O g5:x h5:x i5:x e7:x"
    st = position(g, layout, hand=("mid",))
    play(st, "summon mid at e5 r0")
    assert board(st) == "d5:o e5:O f5:x i5:x"


def test_may_can_be_declined() -> None:
    """『〜してもよい』: the player may choose not to do it (skip)."""
    g = single([{"do": "destroy", "who": "enemy", "near": "adjacent", "may": True}])
    st = position(g, "d5:o f5:x", hand=("probe",))
    play(st, "summon probe at e5 r0")
    assert legal(st) == ["choose f5", "skip"]
    play(st, "skip")
    assert "f5:x" in board(st) and st.phase == 1


def test_up_to_includes_zero_and_can_stop_early() -> None:
    """『〇〇まで』 includes 0: an "up to 3" effect may stop after any number."""
    g = single([{"do": "destroy", "who": "enemy", "near": "adjacent", "count": 3, "up_to": True}])
    st = position(g, "d5:o f5:x f6:x f4:x", hand=("probe",))
    play(st, "summon probe at e5 r0", "choose f4")
    assert legal(st) == ["choose f5", "choose f6", "skip"]  # a chosen piece cannot be chosen again
    play(st, "skip")
    assert board(st) == "d5:o e5:O f5:x f6:x"


def test_mandatory_effects_must_be_done() -> None:
    """選択可能である記述がないものは、実行の義務がある: no skip, even when it hurts you."""
    g = single([{"do": "destroy", "near": "adjacent", "who": "any", "rank": "common"}])
    st = position(g, "d5:o", hand=("probe",))
    play(st, "summon probe at e5 r0")
    assert legal(st) == ["choose d5"]
    with pytest.raises(IllegalActionError):
        st.apply_text("skip")


def test_partial_resolution_does_what_it_can() -> None:
    """効果のすべてを解決できない場合、実行可能な部分のみを行う: 2 targets asked, 1 exists; later steps still run."""
    g = single([{"do": "destroy", "who": "enemy", "near": "adjacent", "count": 2}, {"do": "gain_action"}])
    st = position(g, "d5:o f5:x", hand=("probe",), actions=1)
    play(st, "summon probe at e5 r0", "choose f5")
    assert st.phase == 1 and st.actions == 1 and board(st) == "d5:o e5:O"


def test_the_cards_own_name_means_its_piece() -> None:
    """カードにそのカード自身の名称: "this piece" is the piece the summon put on the board, wherever it moves."""
    g = single(
        [
            {"do": "move", "target": "self", "style": "standard", "times": 2},
            {"do": "destroy", "who": "enemy", "count": "all", "near": "adjacent", "from": "self"},
        ]
    )
    st = position(g, "d5:o e8:x", hand=("probe",))
    play(st, "summon probe at e5 r0", "move e5 e6", "move e6 e7")
    assert board(st) == "d5:o e7:O"


def test_several_moves_and_several_pieces() -> None:
    """Several pieces each making a move: each piece once; all of them when the card says all."""
    g = make_game(
        being(
            "drum",
            "c @",
            [{"do": "move", "who": "own", "rank": "common", "count": "all", "near": "adjacent", "style": "combat"}],
        )
    )
    st = position(g, "d5:o e6:o f9:x", hand=("drum",))
    play(st, "summon drum at e5 r0")
    movers = {a.split()[1] for a in legal(st)}
    assert movers == {"d5", "e6"}
    play(st, "move e6 e7")
    assert {a.split()[1] for a in legal(st)} == {"d5"}  # the moved piece does not move again
    play(st, "move d5 c5")
    assert st.phase == 1 and board(st) == "c5:o e5:O e7:o f9:x"


def test_choose_one() -> None:
    """A "choose one" effect: the player picks an option, which then resolves."""
    g = single(
        [
            {
                "do": "choose_one",
                "options": [[{"do": "gain_action"}], [{"do": "destroy", "who": "enemy", "near": "adjacent"}]],
            }
        ]
    )
    st = position(g, "d5:o f5:x", hand=("probe",), actions=2)
    play(st, "summon probe at e5 r0")
    assert legal(st) == ["option 1", "option 2"]
    play(st, "option 2", "choose f5")
    assert board(st) == "d5:o e5:O"  # f5 destroyed, no action gained
    assert st.player == 0 and st.phase == 1 and st.actions == 1 and st.destroyed == [1, 0, 0]
    st = position(g, "d5:o f5:x", hand=("probe",), actions=2)
    play(st, "summon probe at e5 r0", "option 1")
    assert board(st) == "d5:o e5:O f5:x" and st.player == 0 and st.actions == 2


def test_enemy_pieces_can_be_moved_by_an_effect() -> None:
    """ユニット: unless the card says, effects work on own and enemy pieces (here an enemy common is moved)."""
    g = single([{"do": "move", "who": "enemy", "style": "standard", "near": "adjacent"}])
    st = position(g, "d5:o f5:x", hand=("probe",))
    play(st, "summon probe at e5 r0")
    assert "move f5 g5" in legal(st)
    play(st, "move f5 g5")
    assert "g5:x" in board(st)


def test_last_and_summon_references() -> None:
    """References: "the last piece affected" and "the summon square" for cards that move their piece away."""
    g = single(
        [
            {"do": "leap", "target": "self", "style": "standard", "to_distance": 4},
            {"do": "destroy", "who": "enemy", "count": "all", "near": "adjacent", "from": "summon"},
        ]
    )
    st = position(g, "d5:o f5:x", hand=("probe",))
    play(st, "summon probe at e5 r0", "move e5 e9")
    assert board(st) == "d5:o e9:O"


def test_if_you_did_and_if_you_did_not() -> None:
    """Conditional steps ("if you do …") look at whether the previous step did anything."""
    g = single(
        [
            {"do": "destroy", "who": "enemy", "near": "adjacent", "may": True},
            {"do": "gain_action", "only_if": "done"},
            {"do": "draw_extra", "deck": "school", "only_if": "done"},
            {"do": "place", "near": "adjacent", "only_if": "not_done"},
        ]
    )
    st = position(g, "d5:o f5:x", hand=("probe",), actions=1)
    play(st, "summon probe at e5 r0", "choose f5")
    assert st.actions == 1 and st.extra == [1, 0, 0] and st.phase == 1
    st = position(g, "d5:o f5:x", hand=("probe",), actions=2)
    play(st, "summon probe at e5 r0", "skip")
    assert st.phase == 2 and legal(st)[0].startswith("place")  # the "if you did not" step
    play(st, "place e6")
    assert board(st) == "d5:o e5:O f5:x e6:o"
    assert st.player == 0 and st.phase == 1 and st.actions == 1 and st.extra == [0, 0, 0]


def test_place_on_each_empty_marked_square() -> None:
    """Place with count all: a piece on every square that qualifies, as long as the supply lasts."""
    g = single([{"do": "place", "count": "all", "on": "marked"}], pattern="* * *\n. @ .\n. c .")
    st = position(g, "e4:o d6:x", hand=("probe",), supply_two=(3, 16))
    play(st, "summon probe at e5 r0")
    assert board(st) == "e4:o e5:O d6:x e6:o f6:o"
    assert st.supply_two[0] == 0
