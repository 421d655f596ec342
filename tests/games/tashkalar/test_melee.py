"""デスマッチ乱戦 (free-for-all for 3-4 players): setup, per-colour scoring, improvised summons, flares, the end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import cardarena
from cardarena.engine import CardDataError
from cardarena.games.tashkalar.board import NAME_SQ
from cardarena.games.tashkalar.cards import default_path
from cardarena.games.tashkalar.constants import Phase
from cardarena.games.tashkalar.state import TashKalarState

from .helpers import being, board, flare, legal, make_game, play, position, set_item

SMASH = being(
    "smasher", "c @", [{"do": "destroy", "who": "enemy", "count": "all", "near": "adjacent", "rank": "any"}], "common"
)
LINE = being("liner", "c c @", [{"do": "gain_action"}])
LEGEND = being("great-one", "h h @", [{"do": "gain_action"}], "legendary")
SPARK = flare("spark", 2, 2, [{"do": "gain_action"}], [{"do": "gain_action"}])


def melee(players: int = 3, **options: Any):  # type: ignore[no-untyped-def]
    return make_game(SMASH, LINE, legends=(LEGEND,), flares=(SPARK,), mode="melee", players=players, **options)


def test_setup_by_the_player_right_of_the_first_three_players() -> None:
    """先手プレイヤーの右隣のプレイヤーは別々の色の一般級ユニットを3体…3人ゲームの場合は各プレイヤーの色の3体."""
    st = cardarena.load("tashkalar", mode="melee", players=3).new_initial_state(1)
    assert st.phase == Phase.MELEE_SETUP and st.player == 2
    assert legal(st) == ["setup f2 0", "setup f2 1", "setup f2 2", "setup g2 0", "setup g2 1", "setup g2 2"]
    play(st, "setup g2 1")
    assert legal(st) == ["setup g6 0", "setup g6 2", "setup g7 0", "setup g7 2"]
    play(st, "setup g7 2", "setup b7 0")
    assert board(st) == "g2:x b7:o g7:v"
    assert st.phase == Phase.MAIN and st.player == 0 and st.actions == 1
    assert st.supply_two == [14, 14, 14]  # 18 - 3 players, one on the board each
    with pytest.raises(Exception, match="setup"):
        st.apply_text("setup f2 1")


def test_setup_with_four_players_leaves_out_the_second_player() -> None:
    """4人ゲームでは2番手のプレイヤー以外のプレイヤーの色の3体を配置する."""
    st = cardarena.load("tashkalar", mode="melee", players=4).new_initial_state(1)
    assert st.player == 3
    assert {a.split()[2] for a in legal(st)} == {"0", "2", "3"}
    assert st.supply_two == [14] * 4


def test_destroyed_pieces_score_colour_by_colour() -> None:
    """ターン終了時、プレイヤーは破壊したユニットの色ごとに種類に応じた点数を獲得する."""
    st = position(melee(), "d5:o e6:x e4:x f6:V f5:% f4:v", hand=("smasher",))
    play(st, "summon smasher at e5 r0")
    assert st.dest == [0, 0, 0, 2, 0, 0, 1, 1, 1]
    play(st, "end")
    # colour 1: two commons = 1; colour 2: heroic 1 + legendary 2, and its odd common alone scores nothing
    assert st.mscore[0] == [0, 1, 3]
    assert st.supply_two[1] == 16 and st.supply_leg[2] == 3  # they went back at the end of the turn


def test_own_pieces_destroyed_score_nothing() -> None:
    st = position(melee(), "d5:o e6:o e4:o", hand=("smasher",))
    play(st, "summon smasher at e5 r0", "end")
    assert st.mscore[0] == [0, 0, 0]


def test_two_or_three_odd_commons_score_one_point_in_one_of_their_colours() -> None:
    """2個ないし3個の端数の一般級ユニットを破壊していた場合…その中のいずれかの色を選び、その色の1点を得る."""
    st = position(melee(4), "d5:o e6:x e4:v f5:s", hand=("smasher",))
    play(st, "summon smasher at e5 r0", "end")
    assert st.phase == Phase.PICK and st.player == 0
    assert legal(st) == ["score 1", "score 2", "score 3"]
    play(st, "score 3")
    assert st.mscore[0] == [0, 0, 0, 1] and st.phase == Phase.MAIN and st.player == 1


def test_a_single_odd_common_scores_nothing() -> None:
    st = position(melee(), "d5:o e6:x", hand=("smasher",))
    play(st, "summon smasher at e5 r0", "end")
    assert st.phase == Phase.MAIN and st.mscore[0] == [0, 0, 0]


def test_legend_summon_scores_one_point_in_a_chosen_colour() -> None:
    """伝説級ユニットを1体召喚するたびに、いずれかの色の点数を1点獲得する."""
    st = position(melee(), "c5:O d5:O", legends=("great-one",))
    play(st, "summon great-one at e5 r0")
    assert st.phase == Phase.PICK and legal(st) == ["score 1", "score 2"]
    play(st, "score 2")
    assert st.mscore[0] == [0, 0, 1]
    assert st.actions == 2  # then the effect resolved (gain 1 action)


def test_players_score_is_their_lowest_colour_and_ties_look_at_the_next_lowest() -> None:
    """各プレイヤーの点数は…最も少ない点数…同点の場合…次に点数の低い色を確認する."""
    st = position(melee(), "")
    st.edit(mscore=[[0, 3, 5], [3, 0, 4], [2, 2, 0]], phase=Phase.OVER)
    assert st.returns() == [1.0, -1.0, -1.0]
    st.edit(mscore=[[0, 3, 4], [3, 0, 4], [2, 2, 0]])
    assert st.returns() == [0.0, 0.0, -1.0]  # a tie for first: those tied draw, the others lose


def test_four_players_compare_the_last_colour_then_the_board() -> None:
    """4人ゲームの場合、これでも同点であれば最後に残っている色の点数を比べる; then upgraded pieces, then pieces."""
    st = position(melee(4), "a5:O a4:x")
    st.edit(mscore=[[0, 2, 3, 5], [2, 0, 3, 4], [0, 0, 0, 0], [0, 0, 0, 0]], phase=Phase.OVER)
    assert st.returns() == [1.0, -1.0, -1.0, -1.0]
    set_item(st, "mscore", 0, [*st.mscore[0][:3], 4, *st.mscore[0][3 + 1 :]])
    assert st.returns() == [1.0, -1.0, -1.0, -1.0]  # upgraded pieces on the board: seat 0 has one
    st.edit(bb=[0] * 16)
    st.edit(board=[0] * 144)
    assert st.returns() == [0.0, 0.0, -1.0, -1.0]


def _improv_position(**kw: Any) -> TashKalarState:
    return position(melee(**kw), "d5:o c5:x a5:v b5:v d6:v", hand=("liner",))


def test_improvised_summon_uses_one_enemy_piece_as_your_own() -> None:
    """即興召喚: ゲームボード上のその色のユニットを1つ選び…自分のユニットであるかのように召喚に使用する."""
    st = _improv_position()
    acts = legal(st)
    assert "summon liner at e5 r0 using c5" in acts
    assert not any(a.startswith("summon liner at e5") and "using" not in a for a in acts)
    # two enemy pieces would be needed for a5-b5-c5: never offered
    assert "summon liner at c5 r0 using b5" not in acts
    play(st, "summon liner at e5 r0 using c5")
    assert board(st) == "a5:v b5:v c5:x d5:o e5:O d6:v"  # the enemy piece stays the enemy's
    assert st.improv[0] == 0b010  # 得点ボード上でその色の英雄級面のユニットを一般級面にする
    assert st.observation(None)["improvised_colours"][0] == [1]


def test_improvised_summon_once_per_enemy_colour() -> None:
    """プレイヤーはゲーム中この色のユニットを再び即興召喚に使用することはできない."""
    st = _improv_position()
    st.edit(improv=[0b010, *st.improv[1:]])
    acts = legal(st)
    assert not any("using c5" in a for a in acts)
    assert any("at d4" in a and "using d6" in a for a in acts)  # colour 2 is still available
    st.edit(improv=[0b110, *st.improv[1:]])
    assert not any("using" in a for a in legal(st))


def test_improvised_summons_exist_only_in_melee() -> None:
    st = position(make_game(LINE), "d5:o c5:x", hand=("liner",))
    assert not any("using" in a for a in legal(st))
    with pytest.raises(Exception, match="melee"):
        st.apply_text("summon liner at e5 r0 using c5")


def test_flare_chooses_the_opponent_to_compare_with_who_scores_in_your_colour() -> None:
    """焰カードを発動させるとき、条件を比較するためいずれかの対戦者を選ぶ…プレイヤーの色の1点を獲得する."""
    st = position(melee(), "a4:x b4:x c4:x e9:v", flares=("spark",), actions=0)
    st.edit(phase=Phase.MAIN)
    acts = legal(st)
    assert "flare spark against 1" in acts and "flare spark against 2" not in acts
    play(st, "flare spark against 1")
    assert st.mscore[1] == [1, 0, 0] and st.mscore[2] == [0, 0, 0]


def test_melee_end_triggers_at_12_with_three_and_10_with_four_players() -> None:
    """いずれかのプレイヤーがいずれかの色で3人ゲームなら12点以上の、4人ゲームなら10点以上."""
    for players, target in ((3, 12), (4, 10)):
        st = position(melee(players), "")
        set_item(st, "mscore", 1, [*st.mscore[1][:2], target - 1, *st.mscore[1][2 + 1 :]])
        play(st, "end")
        assert st.final_left == -1
        set_item(st, "mscore", 1, [*st.mscore[1][:2], target, *st.mscore[1][2 + 1 :]])
        play(st, "end")
        assert st.final_left == players and f"{target} points in one colour" in st.trigger
        for _ in range(players):
            assert st.phase != Phase.OVER
            play(st, "end")
        assert st.phase == Phase.OVER


def test_no_resignation_in_melee() -> None:
    """デスマッチ乱戦の場合は投了は認められない."""
    st = position(melee(), "")
    assert "resign" not in legal(st)
    assert "not allowed" in st.why_illegal(st.game.parse_action(st, "resign"))


def test_melee_legend_pick_is_hidden_from_no_one() -> None:
    st = position(melee(), "c5:O d5:O", legends=("great-one",))
    play(st, "summon great-one at e5 r0")
    assert st.phase == Phase.PICK
    for seat in range(3):
        assert st.observation(seat)["pick_colours"] == [1, 2]
    assert st.board[NAME_SQ["e5"]] == 3


def test_melee_turns_go_round_all_seats() -> None:
    st = position(melee(4), "")
    for expected in (1, 2, 3, 0):
        play(st, "end")
        assert st.player == expected and st.phase in (Phase.MAIN, Phase.EFFECT)


def _toml(v: Any) -> str:
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_toml(x)}" for k, x in v.items()) + " }"
    if isinstance(v, list):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    return f'"{v}"'


def _file_with(tmp_path: Any, where: str, step: dict[str, Any]) -> str:
    """The shipped card file with ``step`` added to the first school being (or the first flare's upper half)."""
    text = Path(default_path()).read_text(encoding="utf-8")
    old = {
        "being": 'effect = [{ do = "destroy", who = "enemy", from = "self", rank = "common", near = "adjacent" }]',
        "flare": 'upper_effect = [{ do = "place", rank = "heroic" }]',
    }[where]
    assert old in text  # the first occurrence is the first card of its kind
    text = text.replace(old, old[:-1] + ", " + _toml(step) + "]", 1)
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    "where, step, card, field",
    [
        ("being", {"do": "place", "who": "enemy", "near": "adjacent"}, "cinder-imp", "effect.who"),
        (
            "being",
            {"do": "choose_one", "options": [[{"do": "gain_action"}], [{"do": "place", "who": "enemy"}]]},
            "cinder-imp",
            "effect.who",
        ),
        ("flare", {"do": "place", "who": "enemy"}, "rally-cry", "upper_effect.who"),
    ],
    ids=["being", "choose-one", "flare"],
)
def test_placing_an_enemy_piece_is_refused_in_melee(
    tmp_path: Any, where: str, step: dict[str, Any], card: str, field: str
) -> None:
    """配置：…指定の色とランクのユニット: with several enemy colours, who = "enemy" names no colour."""
    path = _file_with(tmp_path, where, step)
    for players in (3, 4):
        with pytest.raises(CardDataError, match="names no colour") as e:
            cardarena.load("tashkalar", mode="melee", players=players, cards=path)
        assert e.value.card == card and e.value.field == field
    for options in ({}, {"mode": "highform"}, {"teams": True}):  # one enemy colour: the card is fine
        assert cardarena.load("tashkalar", cards=path, **options).cards.by_id[card]
