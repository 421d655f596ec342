"""チーム戦 (teams of two) for deathmatch and High Form: seats and colour, decks, legends, handing the turn over."""

from __future__ import annotations

from typing import Any

import pytest

import cardarena
from cardarena.engine import Rng
from cardarena.games.tashkalar.constants import Phase
from cardarena.games.tashkalar.rules.modes import points
from cardarena.games.tashkalar.state import TashKalarState

from .helpers import being, board, flare, legal, make_game, play, position, set_item

PICKER = being(
    "picker", "c @", [{"do": "destroy", "who": "enemy", "near": "adjacent"}, {"do": "gain_action"}], "common"
)
LEGEND = being("great-one", "h h @", [{"do": "gain_action"}], "legendary")
EXTRA_LEGEND = being("seer", "c c @", [{"do": "draw_extra", "deck": "legend"}], "common")
SPARK = flare("spark", 1, 1, [{"do": "gain_action"}], [{"do": "gain_action"}])


MORE = [being(f"more-{i}", "c @", [{"do": "gain_action"}], "common") for i in range(12)]
MORE_LEGENDS = tuple(being(f"legend-{i}", "h h @", [{"do": "gain_action"}], "legendary") for i in range(6))


def teams(**options: Any):  # type: ignore[no-untyped-def]
    return make_game(
        PICKER, EXTRA_LEGEND, *MORE, legends=(LEGEND, *MORE_LEGENDS), flares=(SPARK,), teams=True, **options
    )


def test_four_seats_two_colours_teammates_opposite() -> None:
    """チーム戦のチームメイトはテーブル対面に座る; ユニットはいずれかの色を共用する: seats 0+2 and 1+3."""
    g = cardarena.load("tashkalar", teams=True)
    assert g.num_players == 4 and g.colour_of == (0, 1, 0, 1) and g.mate(0) == 2 and g.mate(3) == 1
    st = g.new_initial_state(2)
    assert st.supply_two == [16, 16] and len(st.score) == 2
    assert len(st.deck_s) == 4 and all(len(d) == 15 for d in st.deck_s)  # separate school decks


def test_deathmatch_teams_setup_by_the_fourth_player() -> None:
    """2番手プレイヤー（チーム戦であれば4人目のプレイヤー）は各色の一般級ユニットを1個ずつ配置する."""
    st = cardarena.load("tashkalar", teams=True).new_initial_state(2)
    assert st.phase == Phase.SETUP and st.player == 3
    play(st, "choose c5")
    assert board(st) == "c5:x g5:o"
    assert st.phase == Phase.MAIN and st.player == 0 and st.actions == 1


def test_high_form_teams_start_with_an_empty_board() -> None:
    st = cardarena.load("tashkalar", mode="highform", teams=True).new_initial_state(2)
    assert st.phase == Phase.MAIN and st.player == 0 and not any(st.board)
    assert st.supply_two == [17, 17]


def test_the_first_teammate_draws_the_two_legends() -> None:
    """先にプレイすることになるチームメイトが伝説級カード2枚を引いて、もう一方は引くことはない."""
    st = cardarena.load("tashkalar", teams=True).new_initial_state(5)
    assert [len(h) for h in st.hand_l] == [2, 2, 0, 0]
    assert [len(h) for h in st.hand_b] == [3, 3, 3, 3] and [len(h) for h in st.hand_f] == [1, 1, 1, 1]


def test_teammates_place_the_same_colour() -> None:
    st = position(teams(), "", player=2)
    play(st, "place e5")
    assert board(st) == "e5:o"


def test_end_of_turn_hands_the_legends_on_and_the_teammate_draws_up_to_two() -> None:
    """伝説級カードを引く代わりに、チームメイトに伝説級カードを渡す…チームメイトは伝説級カードが2枚になるように引く."""
    st = position(teams(), "c5:O d5:O", legends=("great-one", "filler-legend"), hand=("picker",))
    set_item(st, "hand_l", 2, [])
    play(st, "summon great-one at e5 r0", "end")
    assert st.hand_l[0] == [] and len(st.hand_l[2]) == 2
    assert st.game.cards.by_id["filler-legend"].index in st.hand_l[2]
    assert len(st.hand_b[0]) == 3  # own beings refilled as usual
    assert st.player == 1


def test_an_extra_legend_is_drawn_by_the_teammate() -> None:
    """伝説級カードの場合、追加のカードはチームメイトが引く."""
    st = position(teams(), "c5:o d5:o", hand=("seer",), legends=("great-one",))
    set_item(st, "hand_l", 2, [])
    play(st, "summon seer at e5 r0", "end")
    assert st.hand_l[0] == [] and len(st.hand_l[2]) == 3


def test_handover_before_an_action_teammate_may_only_place() -> None:
    """チームメイトは残っているターンプレイヤーのアクションを、一般級ユニットを配置するために費やすことができる."""
    st = position(teams(), "d5:o e5:x", hand=("picker",), legends=("great-one",), flares=("spark",))
    set_item(st, "hand_l", 2, [])
    mate_beings = list(st.hand_b[2])
    assert "handover" in legal(st)
    play(st, "handover")
    assert st.player == 2 and st.active == 0 and st.handed
    assert st.hand_l[0] == [] and st.hand_l[2] == [st.game.cards.by_id["great-one"].index]  # 伝説級カードを渡す
    acts = legal(st)
    assert acts[-1] == "end" and all(a.startswith("place ") for a in acts[:-1])
    st.edit(hand_f=[*st.hand_f[:2], [st.game.cards.by_id["spark"].index], *st.hand_f[3:]])
    assert not any(a.startswith("flare") for a in legal(st))  # no flare on the turn player's turn
    play(st, "place a5")
    assert st.player == 2 and st.actions == 1
    play(st, "place a4")
    # the actions are spent: the turn ends at once (no flare any more), and the next seat plays
    assert st.phase == Phase.MAIN and st.player == 1 and board(st).count(":o") == 3
    assert len(st.hand_b[0]) == 3 and st.hand_b[2] == mate_beings  # the turn player drew, not the teammate


def test_handover_during_an_effect_the_teammate_resolves_it() -> None:
    """チームメイトはターンプレイヤーの残っているアクションを費やす前に、現在解決中の効果を終了させる."""
    st = position(teams(), "d5:o e6:x e4:x", hand=("picker",))
    play(st, "summon picker at e5 r0")
    assert st.phase == Phase.EFFECT and "handover" in legal(st)
    play(st, "handover")
    assert st.player == 2 and st.phase == Phase.EFFECT
    assert "handover" not in legal(st)
    play(st, "choose e6")
    # the effect gave an action: the teammate spends it placing (and the remaining one)
    assert st.phase == Phase.MAIN and st.player == 2 and st.actions == 2
    assert not any(a.startswith(("summon", "discard", "flare")) for a in legal(st))
    play(st, "end")
    assert st.player == 1 and st.score == [0, 0]


def test_handover_is_for_team_games_only() -> None:
    st = position(make_game(PICKER), "")
    assert "handover" not in legal(st)
    assert "team" in st.why_illegal(st.game.parse_action(st, "handover"))


def test_sideways_cards_end_condition() -> None:
    """山札の底の6枚を横向き…ゲーム終了の条件は…横向きでない最後のカードを引いたときに満たされる."""
    st = position(teams(), "")
    set_item(st, "deck_s", 0, st.deck_s[0][:9])
    play(st, "end")  # draws three: 6 left, all sideways
    assert len(st.deck_s[0]) == 6 and st.deck_out[0]
    assert st.final_left == 4 and "upright" in st.trigger
    assert st.observation(0)["school_deck_sideways"][0] == 6


def test_sideways_cards_can_still_be_drawn() -> None:
    """必要であれば横向きのカードを引くことができる."""
    st = position(teams(), "")
    set_item(st, "deck_s", 0, st.deck_s[0][:4])
    set_item(st, "hand_b", 0, [])
    play(st, "end")
    assert len(st.hand_b[0]) == 3 and len(st.deck_s[0]) == 1


def test_duel_deck_out_is_the_last_card_not_the_sideways_ones() -> None:
    st = position(make_game(PICKER), "")
    set_item(st, "deck_s", 0, st.deck_s[0][:4])
    play(st, "end")
    assert len(st.deck_s[0]) == 1 and not st.deck_out[0] and st.final_left == -1


def test_cards_put_under_lie_sideways_so_six_stay_sideways() -> None:
    """自分の山札の底にカードを戻したときに、それを横向きにする…これで横向きのカードは常に6枚になる."""
    st = position(teams(), "", hand=("picker", "seer", "filler-0"))
    set_item(st, "deck_s", 0, st.deck_s[0][:5])
    play(st, "discard picker", "bottom seer")
    obs = st.observation(0)
    assert obs["school_deck_sizes"][0] == 6 and obs["school_deck_sideways"][0] == 6
    assert obs["my_deck_bottom"] == ["seer"]


def test_team_flare_gives_the_other_team_a_point() -> None:
    st = position(teams(), "a4:x b4:x", flares=("spark",), player=2)
    play(st, "flare spark")
    assert st.score == [0, 1]


def test_teammates_share_the_result() -> None:
    st = position(teams(), "a4:x")
    st.edit(score=[5, 3], phase=Phase.OVER)
    assert st.returns() == [1.0, -1.0, 1.0, -1.0]
    st.edit(score=[3, 3])
    assert st.returns() == [-1.0, 1.0, -1.0, 1.0]  # tie: more pieces on the board


def test_resignation_loses_for_the_whole_team() -> None:
    """ゲームの終了: 「2人ゲーム、もしくは2チーム戦の場合、プレイヤーはいつでも投了することができる」: on by
    default in team games; one player resigns for the team, which loses (the teammate too), the other team wins."""
    st = position(teams(resign=None), "", player=2)
    assert st.legal_actions()[-1] == st.game.parse_action(st, "resign")
    assert st.game.describe_action(st, st.legal_actions()[-1]) == "resign: your team loses the game"
    play(st, "resign")
    assert st.returns() == [-1.0, 1.0, -1.0, 1.0] and st.trigger == "seat 2 resigned: seats 0 and 2 lose"


def _hidden_state() -> TashKalarState:
    st = cardarena.load("tashkalar", teams=True).new_initial_state(9)
    play(st, "choose c5")
    return st


def test_observation_shows_own_hand_and_the_shared_legends_not_the_teammates_beings() -> None:
    """チームの中で2枚の伝説級カードの手札は共有される: the teammate's school hand and flare stay hidden."""
    st = _hidden_state()
    play(st, "end")  # seat 0 hands the legends to seat 2
    obs = st.observation(0)
    names = [c.id for c in st.game.cards.cards]
    assert obs["team_legends"] == [names[c] for c in st.hand_l[2]] and len(obs["team_legends"]) == 2
    assert obs["hand"]["beings"] == [names[c] for c in st.hand_b[0]]
    text = str(obs)
    for c in st.hand_b[2]:
        if c not in st.hand_b[0] and c not in st.disc_s[2]:
            assert f"'{names[c]}'" not in text
    seen = False
    for k in range(20):
        other = st.resample(0, Rng(k))
        assert other.hand_l[2] == st.hand_l[2]  # the shared legends are known
        assert other.hand_b[0] == st.hand_b[0]
        seen = seen or other.hand_b[2] != st.hand_b[2]
    assert seen  # the teammate's beings are not


@pytest.mark.parametrize("mode", ["deathmatch", "highform"])
def test_team_games_play_to_the_end(mode: str) -> None:
    g = cardarena.load("tashkalar", teams=True, mode=mode)
    rng = Rng(3)
    for seed in range(4):
        st = g.new_initial_state(seed)
        while not st.is_terminal():
            acts = st.playout_actions()
            st.apply(acts[rng.randbelow(len(acts))])
        r = st.returns()
        assert r[0] == r[2] and r[1] == r[3]


def test_team_deathmatch_ends_at_18_team_points_after_a_final_round_of_four_turns() -> None:
    """いずれかのプレイヤーが18点以上の得点を獲得した場合…各プレイヤーは最後の1ターンを実行し…"""
    st = position(teams(), "", player=1)
    st.edit(score=[0, 18])
    play(st, "end")
    assert st.final_left == 4 and "18 points" in st.trigger
    for seat in (2, 3, 0):
        assert st.player == seat
        play(st, "end")
    assert st.player == 1 and st.phase != Phase.OVER  # the triggering player takes the last turn
    play(st, "end")
    assert st.phase == Phase.OVER and st.returns() == [-1.0, 1.0, -1.0, 1.0]


def test_high_form_team_claims_for_the_team() -> None:
    g = make_game(PICKER, *MORE, legends=(LEGEND, *MORE_LEGENDS), teams=True, mode="highform")
    st = position(g, "c8:o d2:o e5:o", player=2)
    from cardarena.games.tashkalar.cards import load_tasks

    tasks = load_tasks()
    st.edit(cur_t=[tasks.by_id[t].index for t in ("red-vigil", "web", "slant")])
    play(st, "end", "claim red-vigil")
    assert st.score == [1, 0] and points(st, 0) == 1 and st.player == 3


def test_team_deathmatch_points_go_to_the_team_colour() -> None:
    """ターン終了時、プレイヤーは破壊した敵ユニットの種類に応じて点数を獲得する (each team scores together)."""
    st = position(teams(), "c5:O d5:O e4:x e6:X f5:x", player=2, hand=("picker",), legends=("great-one",))
    play(st, "summon great-one at e5 r0")  # legend summon: 1 point for colour 0
    assert st.score == [1, 0]
    play(st, "summon picker at f5 r0", "choose e6", "end")
    # the summon destroyed the common on f5 (an odd common scores nothing), the effect the heroic on e6 (1 point)
    assert st.score == [2, 0] and st.player == 3


def test_the_teammate_does_not_see_which_card_went_under_the_deck() -> None:
    """Ruling 18: the teammate's school hand is hidden, so the card put under the deck is named only to its owner."""
    g = teams()
    st = position(g, "", hand=("picker", "seer", "filler-0"))
    play(st, "discard picker")
    action = g.parse_action(st, "bottom seer")
    assert "Seer" in g.action_seen_by(st, action, 0)
    for seat in (1, 2, 3):
        assert "Seer" not in g.action_seen_by(st, action, seat)
        assert "under their school deck" in g.action_seen_by(st, action, seat)
