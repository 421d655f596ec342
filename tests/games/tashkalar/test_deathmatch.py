"""デスマッチ対戦 (deathmatch duel): scoring, the end of the game, tie-breaks, resignation, options."""

import pytest

import cardarena
from cardarena.engine import OptionError, RecordError
from cardarena.games.tashkalar.constants import Phase
from cardarena.games.tashkalar.rules.modes import points

from .helpers import being, flare, make_game, play, position, set_item


def _wipe_game():
    return make_game(
        being("wipe", "c @", [{"do": "destroy", "count": "all", "who": "any", "rank": "any", "other": True}])
    )


def test_scoring_destroyed_enemy_pieces_at_turn_end() -> None:
    """ターン終了時: 伝説級は1体につき2点、英雄級は1体につき1点、一般級は2体につき1点; own pieces 0; odd common 0."""
    g = _wipe_game()
    st = position(g, "d5:o a5:x b5:x c3:x g3:X h6:# e9:o e1:O", hand=("wipe",), actions=1)
    play(st, "summon wipe at e5 r0")
    # 3 enemy commons (1 point, one left over), 1 heroic (1), 1 legendary (2); own pieces: nothing
    assert st.score == [4, 0]
    assert st.player == 1 and st.destroyed == [0, 0, 0]


def test_points_are_counted_per_turn() -> None:
    """端数の一般級ユニットも点数とならない: a single common destroyed in a turn gives nothing, even twice."""
    g = _wipe_game()
    st = position(g, "d5:o a5:x", hand=("wipe",), actions=1)
    play(st, "summon wipe at e5 r0")
    assert st.score == [0, 0]


def test_summon_and_move_and_convert_destructions_count() -> None:
    """破壊数: summons, moves, destroy effects and conversions count; upgrades and downgrades do not."""
    g = make_game(
        being(
            "bash",
            "c @",
            [
                {"do": "move", "target": "self", "style": "combat"},
                {"do": "convert", "near": "adjacent", "from": "self"},
            ],
        ),
    )
    st = position(g, "d5:o e5:x f5:x g5:x", hand=("bash",), actions=1)
    play(st, "summon bash at e5 r0")  # e5 destroyed by the summon
    play(st, "move e5 f5")  # f5 destroyed by the move
    play(st, "choose g5")  # g5 converted
    assert st.score == [1, 0]  # three commons: 1 point, one left over


def test_eighteen_points_trigger_the_final_round() -> None:
    """18点以上で終了条件; その後各プレイヤーは最後の1ターン、終了条件を満たしたプレイヤーが最後."""
    g = make_game()
    st = position(g, "", actions=0)
    st.edit(score=[18, 3])
    play(st, "end")
    assert st.final_left == 2 and "18 points" in st.trigger
    assert st.player == 1
    play(st, "end")
    assert st.player == 0 and st.final_left == 1
    play(st, "end")
    assert st.phase == Phase.OVER and st.returns() == [1.0, -1.0]


def test_opponent_reaching_eighteen_on_your_turn() -> None:
    """The end condition is checked at the end of each turn, whoever has the points."""
    g = make_game()
    st = position(g, "", actions=0, player=1)
    st.edit(score=[18, 3])
    play(st, "end")
    assert st.final_left == 2 and st.player == 0
    play(st, "end", "end")
    assert st.phase == Phase.OVER and st.returns() == [1.0, -1.0]


def test_drawing_the_last_school_card_triggers_the_end() -> None:
    """いずれかのプレイヤーが自分の流派の山札の最後のカードを引いたとき (even with fewer than 3 in hand)."""
    g = make_game()
    st = position(g, "", actions=0)
    set_item(st, "hand_b", 0, [])
    set_item(st, "deck_s", 0, st.deck_s[0][:1])
    play(st, "end")
    assert "last card" in st.trigger and st.final_left == 2
    assert len(st.hand_b[0]) == 1


def test_tie_breaks_upgraded_then_pieces_then_draw() -> None:
    """同点: more upgraded pieces wins; then more pieces; else a draw."""
    g = make_game()
    for layout, expected in [
        ("a5:O b5:x c5:x", [1.0, -1.0]),
        ("a5:o b5:o c5:x", [1.0, -1.0]),
        ("a5:O b5:X c5:x", [-1.0, 1.0]),
        ("a5:O b5:X", [0.0, 0.0]),
    ]:
        st = position(g, layout, actions=0)
        st.edit(score=[5, 5])
        st.edit(final_left=1)
        play(st, "end")
        assert st.phase == Phase.OVER and st.returns() == expected, layout


@pytest.mark.parametrize(
    "options, offered",
    [
        ({}, True),
        ({"mode": "highform"}, True),
        ({"teams": True}, True),
        ({"teams": True, "mode": "highform"}, True),
        ({"mode": "melee", "players": 3}, False),
        ({"mode": "melee", "players": 4}, False),
        ({"resign": False}, False),
        ({"mode": "melee", "players": 3, "resign": False}, False),
    ],
)
def test_resignation_is_offered_by_default_where_the_rulebook_allows_it(options: dict, offered: bool) -> None:
    """ゲームの終了: 「2人ゲーム、もしくは2チーム戦の場合、プレイヤーはいつでも投了することができる。
    デスマッチ乱戦の場合は投了は認められない。」 Every mode, default options: offered in the duel, High Form and
    team games, never in melee."""
    g = cardarena.load("tashkalar", **options)
    st = g.new_initial_state(3)
    for _ in range(30):  # setup, main phase, effects: at every decision of the seat to act
        assert ("resign" in [str(a) for a in st.legal_actions()]) is offered
        st.apply(st.playout_actions()[0])


@pytest.mark.parametrize("mode", ["deathmatch", "highform"])
def test_the_resigning_player_loses_whatever_the_points(mode: str) -> None:
    """ゲームの終了 (投了): the player who resigns loses at once, even when ahead on points; the other wins."""
    g = make_game(mode=mode, resign=None)  # the default: on in a 2-player game
    st = position(g, "a5:@ b5:@", actions=2)  # High Form: seat 0 has 2 points from its legendary pieces
    st.edit(score=[17, 0])
    assert points(st, 0) > points(st, 1) and st.legal_actions()[-1] == g.parse_action(st, "resign")
    play(st, "resign")
    assert st.phase == Phase.OVER and st.returns() == [-1.0, 1.0] and st.trigger == "seat 0 resigned"
    assert "the game is over. seat 0 resigned" in g.render(st, 1) and "result: [-1.0, 1.0]" in g.render(st, 1)


def test_resignation_goes_through_the_codec_records_and_replay() -> None:
    """投了 is an action like any other: its text, its fixed index, a record holding it, and the replay."""
    g = cardarena.load("tashkalar")
    st = g.new_initial_state(5)
    play(st, "choose c5", "place e5")
    action = g.parse_action(st, "resign")
    k = g.action_index(action)
    assert 0 <= k < g.num_distinct_actions and g.action_from_index(k) == action and str(action) == "resign"
    assert g.describe_action(st, action) == "resign: you lose the game"
    assert g.action_seen_by(st, action, 0) == "resign: you lose the game"
    st.apply(action)
    record = st.to_record()
    assert record["actions"] == ["choose c5", "place e5", "resign"] and record["result"] == [1.0, -1.0]
    again = cardarena.replay(record, verify=True)
    assert again.is_terminal() and again.returns() == [1.0, -1.0] and "seat 1 resigned" in again.trigger


def test_a_record_of_the_old_version_is_refused() -> None:
    """Version 2 changed the legal actions (issue 11: cards under the decks, resignation): a version-1 record may
    not replay the same, so it is refused with the versions named."""
    st = cardarena.load("tashkalar").new_initial_state(5)
    play(st, "choose c5")
    record = st.to_record()
    assert record["version"] == "2"
    record["version"] = "1"
    with pytest.raises(RecordError, match="tashkalar version 1, this engine has version 2"):
        cardarena.replay(record)


def test_random_playouts_never_resign() -> None:
    """The rulebook's resignation is a real action, but a random playout that resigned would play nothing:
    ``playout_actions`` leaves it out (the harness, bench, golden records and the random agent use it)."""
    g = cardarena.load("tashkalar")
    st = g.new_initial_state(2)
    legal = st.legal_actions()
    assert str(legal[-1]) == "resign" and st.playout_actions() == legal[:-1]
    assert cardarena.load("tashkalar", mode="melee", players=3).resign_action is None


def test_max_turns_is_a_draw() -> None:
    """Safety cap: reaching max_turns ends the game as a draw."""
    g = make_game(max_turns=5)
    st = position(g, "a5:O", actions=0, turn=5)
    st.edit(score=[10, 0])
    play(st, "end")
    assert st.phase == Phase.OVER and st.returns() == [0.0, 0.0]


@pytest.mark.parametrize(
    "options, word",
    [
        ({"mode": "melee"}, "3 or 4 players"),
        ({"mode": "melee", "players": 3, "teams": True}, "not melee"),
        ({"teams": True, "players": 3}, "two teams of two"),
        ({"players": 3}, "needs mode=melee"),
        ({"mode": "highform", "players": 4}, "needs mode=melee"),
        ({"mode": "melee", "players": 4, "resign": True}, "not allowed in melee"),
    ],
)
def test_option_combinations_that_do_not_fit_are_refused_clearly(options: dict, word: str) -> None:
    with pytest.raises(OptionError, match=word):
        cardarena.load("tashkalar", **options)


@pytest.mark.parametrize(
    "options, seats",
    [
        ({}, 2),
        ({"mode": "highform"}, 2),
        ({"mode": "melee", "players": 3}, 3),
        ({"mode": "melee", "players": 4}, 4),
        ({"teams": True}, 4),
        ({"mode": "highform", "teams": True, "players": 4}, 4),
    ],
)
def test_seats_follow_the_options(options: dict, seats: int) -> None:
    g = cardarena.load("tashkalar", **options)
    assert g.num_players == seats
    assert len(g.new_initial_state(0).returns()) == seats


def test_school_options() -> None:
    g = cardarena.load("tashkalar", school0="tide", school1="tide")
    assert g.new_initial_state(1).school == ["tide", "tide"]
    with pytest.raises(OptionError, match="valid schools"):
        cardarena.load("tashkalar", school0="nope")


def test_resignation_at_any_time_even_during_an_effect() -> None:
    """ゲームの終了: 「プレイヤーはいつでも投了することができる」: also in the middle of an effect and at the
    setup choice."""
    g = make_game(being("zap", "c @", [{"do": "destroy", "who": "enemy", "near": "adjacent"}]), resign=True)
    st = position(g, "d5:o f5:x", hand=("zap",))
    play(st, "summon zap at e5 r0")
    assert [str(a) for a in st.legal_actions()] == ["choose f5", "resign"]
    play(st, "resign")
    assert st.returns() == [-1.0, 1.0] and "resigned" in st.trigger
    st = g.new_initial_state(1)
    assert "resign" in [str(a) for a in st.legal_actions()]
    play(st, "resign")
    assert st.returns() == [1.0, -1.0]


def test_opponent_reaching_eighteen_through_your_flare_you_take_the_last_turn() -> None:
    """Ruling 8: 最後に終了条件を満たしたプレイヤーがターンを得る is the player whose turn met the condition."""
    g = make_game(flares=(flare("gift", 1, 1, [{"do": "gain_action"}], [{"do": "gain_action"}]),))
    st = position(g, "a5:X b5:X", flares=("gift",), actions=0)
    st.edit(score=[5, 17])
    play(st, "flare gift")
    assert st.score == [5, 18]
    play(st, "end")
    assert st.final_left == 2 and "seat 0" in st.trigger and st.player == 1
    play(st, "end")
    assert st.player == 0 and st.final_left == 1  # seat 0 (the flare's player) takes the last turn
    play(st, "end")
    assert st.phase == Phase.OVER


def test_resignation_is_offered_at_every_decision_of_the_seat_to_act() -> None:
    """Ruling 9: いつでも投了 — also in the middle of an effect; the engine asks only the seat to act."""
    g = make_game(being("zap", "c @", [{"do": "destroy", "who": "enemy", "near": "adjacent"}]), resign=True)
    st = position(g, "d5:o f5:x", hand=("zap",))
    play(st, "summon zap at e5 r0")
    assert st.current_player == 0 and "resign" in [str(a) for a in st.legal_actions()]
    play(st, "resign")
    assert st.phase == Phase.OVER and st.returns() == [-1.0, 1.0]
