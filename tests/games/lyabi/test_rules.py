"""Scenario tests: one or more per rule sentence of the rulebook, each naming its section (in Japanese)."""

from __future__ import annotations

import pytest

import cardarena
from cardarena.engine import IllegalActionError, InvalidActionError, Rng
from cardarena.games.lyabi.constants import BEATS, COLOURS, CRYSTAL, EYE, MIRROR, Phase
from cardarena.games.lyabi.game import LyabiGame
from cardarena.games.lyabi.state import LyabiState

from .support import (
    GAME,
    battle,
    item_phase,
    main_phase,
    names,
    new_turn,
    play,
    position,
    set_supply,
    texts,
)

C = GAME.cards


def colour_of_circle(k: int) -> str:
    return COLOURS[C.c_colour[k]]


# ---- ゲームの準備 (setup) ---------------------------------------------------------------------------------


def test_setup_1_to_4_piles_supply_items_and_dummies() -> None:
    """ゲームの準備 1-4: circles shuffled face down by level, ryabi face up by colour and level, items shuffled
    face down, each player's dummy face up in their dummy place."""
    orders = set()
    for seed in range(20):
        st = GAME.new_initial_state(seed)
        assert all(C.c_level[k] == C.levels[i] for i, pile in enumerate(st.piles) for k in pile)
        orders.add((tuple(st.piles[1]), tuple(st.item_pile)))
        obs = st.observation(0)
        assert obs["circle_piles"] == {"0": 4, "5": 6, "11": 6}  # sizes only: face down
        assert obs["item_pile"] == 13 and sum(obs["supply"].values()) == 63 - 14  # face-up supply counts
        assert all(p["set"] is None and not p["battling"] for p in obs["players"])  # dummies in their place
    assert len(orders) == 20


def test_setup_5_each_player_takes_a_random_lv0_circle_face_up() -> None:
    """ゲームの準備 5: each player takes one Lv0 circle without looking and places it face up."""
    seen = set()
    for seed in range(100):
        st = GAME.new_initial_state(seed)
        for s in (0, 1):
            assert len(st.field[s]) == 1
            assert C.c_level[st.field[s][0]] == 0
            seen.add(colour_of_circle(st.field[s][0]))
        assert len(st.piles[0]) == 4  # the other Lv0 circles stay in the face-down pile
        assert st.observation(None)["players"][0]["field"] == [C.c_names[st.field[0][0]]]
    assert seen == set(COLOURS)


def test_setup_6_equal_colours_go_back_and_are_drawn_again() -> None:
    """ゲームの準備 6 ※: if both circles have the same colour, all go back and step 4 is repeated."""
    redrawn = 0
    for seed in range(300):
        rng = Rng(seed)
        pile = [k for k in range(len(C.c_names)) if C.c_level[k] == 0 for _ in range(C.c_count[k])]
        rng.shuffle(pile)
        if C.c_colour[pile[-1]] == C.c_colour[pile[-2]]:
            redrawn += 1
        st = GAME.new_initial_state(seed)
        assert C.c_colour[st.field[0][0]] != C.c_colour[st.field[1][0]]
    assert redrawn > 20  # about one setup in five draws equal colours first


def test_setup_6_first_player_is_the_one_whose_circle_beats() -> None:
    """ゲームの準備 6: the player with the advantageous attribute starts (and has priority all game)."""
    firsts = set()
    for seed in range(100):
        st = GAME.new_initial_state(seed)
        mine, theirs = (C.c_colour[st.field[s][0]] for s in (st.first, 1 - st.first))
        assert BEATS[mine] == theirs
        assert st.current_player == st.first and st.phase == Phase.MAIN
        firsts.add(st.first)
    assert firsts == {0, 1}


def test_setup_7_initial_hand_and_deck_follow_the_circle() -> None:
    """ゲームの準備 7: each player prepares the deck and hand written on their circle (taken from the supply)."""
    for seed in range(40):
        st = GAME.new_initial_state(seed)
        for s in (0, 1):
            colour = C.c_colour[st.field[s][0]]
            start_hand, start_deck = C.start_hand[colour], C.start_deck[colour]
            assert start_hand is not None and start_deck is not None
            assert names(GAME, st.hand[s]) == names(GAME, start_hand) == ["blue1", "green1", "red1"]
            assert names(GAME, st.deck[s]) == names(GAME, start_deck)
            x = COLOURS[colour]
            beaten, beater = COLOURS[BEATS[colour]], COLOURS[BEATS.index(colour)]
            assert names(GAME, st.deck[s]) == sorted([f"{x}1", f"{x}1", f"{beaten}1", f"{beater}1"])
        for k in range(C.num_kinds):
            held = sum(z.count(k) for s in (0, 1) for z in (st.hand[s], st.deck[s]))
            assert st.supply[k] + held == C.r_count[k]


def test_setup_starting_hp() -> None:
    """ゲームの準備 (assumed data): both players start with the data file's HP."""
    st = GAME.new_initial_state(5)
    assert st.hp == [C.starting_hp, C.starting_hp] == [20, 20]


# ---- ドローフェイズ (draw phase) --------------------------------------------------------------------------


def test_draw_turn_one_initial_hand_already_holds_three() -> None:
    """ドローフェイズ: on turn 1 the initial hand already holds 3 cards, so nothing is drawn."""
    st = GAME.new_initial_state(9)
    assert st.turn == 1
    assert [len(h) for h in st.hand] == [3, 3] and [len(d) for d in st.deck] == [4, 4]


def test_draw_each_player_draws_three_from_the_top() -> None:
    """ドローフェイズ: every player draws 3 cards from their deck into the hand."""
    st = position(
        hands=[[], []],
        decks=[["blue1", "red3", "green5", "blue3", "red1"], ["green1", "green3", "green5", "green11"]],
    )
    new_turn(st)
    assert names(GAME, st.hand[0]) == ["blue3", "green5", "red1"]
    assert names(GAME, st.deck[0]) == ["blue1", "red3"]
    assert names(GAME, st.hand[1]) == ["green11", "green3", "green5"]


def test_draw_with_two_or_fewer_cards_reshuffles_the_discard_pile() -> None:
    """ドローフェイズ: with ≤2 cards left, draw them, shuffle the discard pile into the deck, draw up to 3."""
    st = position(
        hands=[[], []],
        decks=[["blue1", "red1"], ["green1", "green3", "green5"]],
        discards=[["green3", "green3", "green3"], []],
    )
    new_turn(st)
    assert names(GAME, st.hand[0]) == ["blue1", "green3", "red1"]
    assert names(GAME, st.deck[0]) == ["green3", "green3"]
    assert st.discard[0] == []


def test_draw_deck_run_out_loses() -> None:
    """終了・勝利条件: a player whose deck is all gone (deck and discard cannot fill the hand) loses."""
    st = position(
        hands=[[], []],
        decks=[["blue1", "blue3", "blue5"], ["green1"]],
        discards=[[], ["red1"]],
    )
    new_turn(st)
    assert st.is_terminal() and st.returns() == [1.0, -1.0]
    assert "deck ran out" in st.end_reason


def test_draw_both_decks_run_out_is_a_draw() -> None:
    """終了・勝利条件 (RULINGS): both players running out at once is a draw."""
    st = position(hands=[[], []], decks=[["blue1"], ["green1"]], discards=[[], []])
    new_turn(st)
    assert st.is_terminal() and st.returns() == [0.0, 0.0]


# ---- メインフェイズ (main phase) --------------------------------------------------------------------------


def test_main_gain_a_pays_one_or_more_for_one_ryabi_of_cost_at_most_the_total() -> None:
    """メインフェイズ_2 リャビを取得する (1): discard ≥1 ryabi, gain one ryabi of cost ≤ their total."""
    st = position(hands=[["blue1", "green1", "red1"], ["red3"]])
    set_supply(st, default=2)
    main_phase(st, 0)
    legal = texts(st)
    assert "buy blue3 pay blue1 green1 red1" in legal
    assert "buy red3 pay blue1 green1 red1" in legal
    assert "buy blue3 pay blue1 green1" not in legal  # total 2 < 3
    assert "buy blue5 pay blue1 green1 red1" not in legal  # total 3 < 5
    assert "buy green1 pay blue1 green1 red1" in legal  # overpaying is allowed
    with pytest.raises(IllegalActionError):
        st.apply_text("buy blue5 pay blue1 green1 red1")
    play(st, "buy blue3 pay red1 green1 blue1")  # any order of the payment is read
    assert st.hand[0] == []
    assert names(GAME, st.discard[0]) == ["blue1", "blue3", "green1", "red1"]
    assert st.supply[GAME.codec.kind_of["blue3"]] == 1


def test_main_gain_only_from_the_supply() -> None:
    """メインフェイズ_2: the gained ryabi comes from the pool (プール領域); an empty pile cannot be gained."""
    st = position(hands=[["blue3", "green1", "red1"], []])
    set_supply(st, {"red3": 0}, default=1)
    main_phase(st, 0)
    legal = texts(st)
    assert not any(t.startswith("buy red3 ") for t in legal)
    assert "split blue3 into red1" in legal
    set_supply(st, {"red1": 0})
    assert "split blue3 into red1" not in texts(st)


def test_main_gain_b_one_card_for_up_to_two_of_strictly_lower_cost() -> None:
    """メインフェイズ_2 リャビを取得する (2): discard exactly one ryabi, gain up to two, each costing less."""
    st = position(hands=[["blue5", "green1", "red1"], []])
    set_supply(st, default=3)
    main_phase(st, 0)
    legal = texts(st)
    assert "split blue5 into red1" in legal
    assert "split blue5 into green1 red3" in legal
    assert "split blue5 into red1 red3" in legal  # two of the same attribute are fine
    assert "split blue5 into red5" not in legal  # not strictly lower
    assert not any(t.startswith("split green1 ") for t in legal)  # nothing costs less than 1
    play(st, "split blue5 into red3 green1")
    assert names(GAME, st.discard[0]) == ["blue5", "green1", "red3"]
    assert names(GAME, st.hand[0]) == ["green1", "red1"]


def test_main_gain_b_never_two_of_equal_cost() -> None:
    """メインフェイズ_2: 同数コストのリャビ2枚を選択して取得することは出来ません."""
    st = position(hands=[["blue11", "green1", "red1"], []])
    set_supply(st, default=3)
    main_phase(st, 0)
    legal = texts(st)
    assert "split blue11 into green5 red3" in legal
    for bad in ("split blue11 into green5 red5", "split blue11 into red5 red5", "split blue11 into blue1 green1"):
        assert bad not in legal
        with pytest.raises(IllegalActionError):
            st.parse_legal(bad)


def test_main_gain_b_pays_exactly_one_card() -> None:
    """メインフェイズ_2 (2): 手札から1枚のみ — a split with two paid cards cannot even be written."""
    st = position(hands=[["blue5", "blue3", "red1"], []])
    main_phase(st, 0)
    with pytest.raises(InvalidActionError):
        GAME.parse_action(st, "split blue5 blue3 into red1")
    with pytest.raises(InvalidActionError):
        GAME.parse_action(st, "split blue5 into red1 green3 blue3")


def test_main_place_a_circle_from_the_face_down_pile() -> None:
    """メインフェイズ_2 魔法陣を配置する: discard ≥1 ryabi, take one circle of cost ≤ the total onto your field."""
    st = position(hands=[["blue3", "green3", "red1"], []], fields=[["blue0"], ["red0"]])
    st.edit(piles=[st.piles[0], [GAME.codec.circle_of["red5"], GAME.codec.circle_of["green5"]], st.piles[2]])
    main_phase(st, 0)
    legal = texts(st)
    assert "place 5 pay blue3 green3" in legal
    assert "place 5 pay blue3 red1" not in legal  # 4 < 5
    assert not any(t.startswith("place 11 ") for t in legal)
    assert "place 0 pay red1" in legal  # Lv0 circles cost 0
    play(st, "place 5 pay blue3 green3")
    assert [C.c_names[k] for k in st.field[0]] == ["blue0", "green5"]  # the top card of the pile
    assert names(GAME, st.discard[0]) == ["blue3", "green3"]
    assert st.observation(1)["players"][0]["field"] == ["blue0", "green5"]  # placed face up


def test_main_place_empty_pile_is_not_offered() -> None:
    """メインフェイズ_2 (RULINGS): a level whose face-down pile is empty cannot be chosen."""
    st = position(hands=[["blue5", "green5", "red1"], []], fields=[["blue0"], ["red0"]])
    st.edit(piles=[st.piles[0], [], st.piles[2]], pile_mask=st.pile_mask & ~2)
    main_phase(st, 0)
    assert not any(t.startswith("place 5 ") for t in texts(st))
    assert any(t.startswith("place 0 ") for t in texts(st))


def test_main_at_most_two_circles_on_the_field() -> None:
    """魔法陣の役割: a field holds at most 2 circles; with 2, placing is not allowed (default)."""
    st = position(hands=[["blue11", "green5", "red1"], []], fields=[["blue0", "red5"], ["red0"]])
    main_phase(st, 0)
    assert not any(t.startswith("place") for t in texts(st))
    with pytest.raises(IllegalActionError):
        st.apply_text("place 5 pay green5")


def test_main_circle_replace_option_removes_one_of_yours() -> None:
    """Option circle_replace (RULINGS): with 2 circles you may remove one of yours from the game to place."""
    game = cardarena.load("lyabi", circle_replace=True)
    assert isinstance(game, LyabiGame)
    st = position(game=game, hands=[["blue11", "green5", "red1"], []], fields=[["blue0", "red5"], ["red0"]])
    st.edit(piles=[st.piles[0], [game.codec.circle_of["blue5"]], st.piles[2]])
    main_phase(st, 0)
    legal = texts(st)
    assert "place 5 pay green5 replace blue0" in legal and "place 5 pay green5 replace red5" in legal
    assert "place 5 pay green5" not in legal
    play(st, "place 5 pay green5 replace red5")
    assert [C.c_names[k] for k in st.field[0]] == ["blue0", "blue5"]
    assert st.observation(1)["removed"]["circles"] == ["red5"]


def test_main_one_action_then_the_item_phase() -> None:
    """メインフェイズ: one of the actions, at most once; then the item phase."""
    st = position(hands=[["blue3", "green3", "red3"], ["blue1", "green1", "red1"]])
    set_supply(st, default=2)
    main_phase(st, 0)
    play(st, "buy blue1 pay blue3")
    assert st.phase == Phase.ITEM and st.current_player == 0  # green3 + red3 = 6 ≥ 3: the item phase asks
    play(st, "pass")
    assert st.phase == Phase.MAIN and st.current_player == 1  # the second player's main phase


def test_main_pass_changes_nothing() -> None:
    """メインフェイズ: the action is optional (1回まで)."""
    st = position(hands=[["blue1", "green1", "red1"], ["blue1"]])
    main_phase(st, 0)
    play(st, "pass")
    assert names(GAME, st.hand[0]) == ["blue1", "green1", "red1"] and st.discard[0] == []


def test_turn_order_first_main_item_then_second_then_battle() -> None:
    """ターンの流れ: draw, first main, first item, second main, second item, battle, end."""
    st = position(first=1, hands=[["blue3", "blue1"], ["red3", "red1"]], fields=[["blue0"], ["red0"]])
    main_phase(st, 1)
    assert st.current_player == 1
    play(st, "pass", "pass")  # seat 1: main, item
    assert st.current_player == 0 and st.phase == Phase.MAIN
    play(st, "pass", "pass")  # seat 0: main, item
    assert st.phase == Phase.SET and st.current_player == 1  # the priority player sets first


# ---- アイテム取得フェイズ (item phase) -------------------------------------------------------------------


def test_item_phase_pay_three_take_the_top_item_face_down() -> None:
    """アイテム取得フェイズ: discard ryabi totalling ≥3, take the top item face down; only its owner sees it."""
    st = position(hands=[["blue1", "green1", "red1"], []])
    st.edit(item_pile=[CRYSTAL, MIRROR])  # the top (last) is the mirror
    item_phase(st, 0)
    legal = texts(st)
    assert legal == ["item pay blue1 green1 red1", "pass"]
    play(st, "item pay blue1 green1 red1")
    assert st.item[0] == MIRROR
    assert st.observation(0)["players"][0]["item"] == "mirror"
    assert st.observation(1)["players"][0]["item"] == "face down"
    assert st.observation(None)["players"][0]["item"] == "face down"


def test_item_phase_skipped_only_with_no_card_or_no_item() -> None:
    """アイテム取得フェイズ: with an empty hand or no item left there is nothing to decide."""
    st = position(hands=[[], ["red1"]], fields=[["blue0"], ["red0"]])
    item_phase(st, st.first)
    assert st.phase != Phase.ITEM
    st = position(hands=[["blue5"], ["red1"]], fields=[["blue0"], ["red0"]])
    st.edit(item_pile=[])
    item_phase(st, st.first)
    assert st.phase != Phase.ITEM


def test_item_phase_asks_a_hand_that_cannot_pay() -> None:
    """アイテム取得フェイズ + 盤面の説明 ①: a hand totalling less than 3 is still asked (it can only pass), so the
    opponent cannot tell from who is to act whether the hidden hand could buy an item."""
    seen = []
    for hand in (["blue1", "green1"], ["blue1", "green5"]):
        st = position(hands=[hand, ["red1"]], fields=[["blue0"], ["red0"]])
        item_phase(st, 0)
        assert st.phase == Phase.ITEM and st.current_player == 0
        seen.append(st.observation(1))
        if hand == ["blue1", "green1"]:
            assert texts(st) == ["pass"]
            with pytest.raises(IllegalActionError):
                st.apply_text("item pay blue1 green1")
    assert seen[0] == seen[1]


def test_item_phase_an_item_already_held_is_removed() -> None:
    """アイテム取得フェイズ: an item already in your item place is removed from the game (face up)."""
    st = position(hands=[["blue3", "green1"], []], items=["sword", None])
    st.edit(item_pile=[EYE])
    item_phase(st, 0)
    play(st, "item pay blue3")
    assert st.item[0] == EYE
    assert st.observation(1)["removed"]["items"] == ["sword"]


# ---- バトルフェイズ (battle phase) ------------------------------------------------------------------------


def test_battle_needs_a_card_in_hand_and_a_circle() -> None:
    """バトルフェイズ: a player battles only with ≥1 card in hand and a circle on the field."""
    st = position(hands=[["blue1"], ["red1"]], fields=[["blue0"], []])
    battle(st)
    assert st.battling == [True, False]
    assert texts(st) == ["set blue1", "set dummy"]
    play(st, "set blue1")
    assert st.last_battle is not None and st.last_battle["winner"] == 0  # ryabi against nothing wins


def test_battle_skipped_when_nobody_may_battle() -> None:
    """バトルフェイズ ※: if no player meets the conditions the phase is skipped."""
    st = position(hands=[[], ["red1"]], fields=[["blue0"], []], decks=[["blue1"] * 5, ["red1"] * 5])
    turn = st.turn
    battle(st)
    assert st.turn == turn + 1 and st.last_battle is None


def _battle_preparation() -> LyabiState:
    st = position(hands=[["blue3", "blue5", "red1"], ["red3", "green1"]], fields=[["blue0"], ["red0"]])
    return battle(st)


def _first_set(first: str) -> LyabiState:
    return play(_battle_preparation(), first)


@pytest.mark.parametrize("first", ["set blue3 blue5", "set blue3", "set red1", "set dummy"])
def test_battle_sets_are_simultaneous_nothing_shows_until_both_have_set(first: str) -> None:
    """バトルフェイズのステップ 1.準備ステップ 「1_2.バトルに使用する”リャビ”を裏向きで手札からフィールドに置きます。」
    「※バトルを行いたくない場合は、”ダミー/QRカード”を裏向きで置いてください。」 and 2.バトルステップ
    「2_1.お互いがセットした”リャビ”を同時に公開します。」
    (ダブルチャージ: 「同じ属性の”リャビ”2枚をフィールドに置く」).

    The sets are simultaneous: the second seat to set learns nothing about the first seat's set — not its cards,
    not whether it is the dummy, not its size (a double charge) — from its observation, from the log
    (action_seen_by) or from its text picture; then both sets are revealed together.
    """
    st = _first_set(first)
    assert st.phase == Phase.SET and st.current_player == 1  # the second seat is still to choose
    reference = _first_set("set dummy")
    assert st.observation(1) == reference.observation(1)
    assert st.observation(None) == reference.observation(None)
    assert GAME.render(st, 1) == GAME.render(reference, 1) and GAME.render(st, None) == GAME.render(reference, None)
    seen = st.observation(1)["players"][0]
    assert seen["set"] == "face down" and seen["hand_size"] == 4  # 3 ryabi and the dummy, as before setting
    before = _battle_preparation()
    assert before.current_player == 0
    assert (
        GAME.action_seen_by(before, GAME.parse_action(before, first), 1)
        == "set face down (revealed when both have set)"
    )
    # The setter itself still sees its own set.
    own = st.observation(0)["players"][0]["set"]
    assert own == ("dummy" if first == "set dummy" else first.split()[1:])
    # The second seat sets: both sets are revealed together.
    play(st, "set red3")
    assert st.last_battle is not None
    shown = "dummy" if first == "set dummy" else first.split()[1:]
    assert st.last_battle["sets"] == [shown, ["red3"]]
    assert all(st.observation(seat)["last_battle"]["sets"] == [shown, ["red3"]] for seat in (0, 1, None))


@pytest.mark.parametrize(
    ("mine", "theirs", "winner"),
    [
        ("blue", "red", 0),
        ("red", "green", 0),
        ("green", "blue", 0),
        ("red", "blue", 1),
        ("green", "red", 1),
        ("blue", "green", 1),
        ("blue", "blue", None),
    ],
)
def test_battle_the_triangle_decides(mine: str, theirs: str, winner: int | None) -> None:
    """解決ステップ 3_1 / 属性: blue beats red, red beats green, green beats blue; same attribute: no winner."""
    st = position(hands=[[f"{mine}3"], [f"{theirs}3"]], fields=[[f"{mine}0"], [f"{theirs}0"]])
    battle(st)
    play(st, f"set {mine}3", f"set {theirs}3")
    assert st.last_battle is not None and st.last_battle["winner"] == winner
    expected = [20, 20]
    if winner is not None:
        expected[1 - winner] -= 1
    assert st.hp == expected


def test_battle_dummy_against_dummy_has_no_winner() -> None:
    """準備ステップ ※: both setting the dummy is no battle."""
    st = position(hands=[["blue3"], ["red3"]], fields=[["blue0"], ["red0"]])
    battle(st)
    play(st, "set dummy", "set dummy")
    assert st.last_battle is not None and st.last_battle["winner"] is None and st.hp == [20, 20]


def test_damage_is_summed_over_every_circle_of_the_attribute() -> None:
    """ダメージ計算のルール 1_2 ※: with two circles of the attribute, both deal damage."""
    st = position(hands=[["blue3"], ["red3"]], fields=[["blue0", "blue5"], ["red0"]])
    battle(st)
    play(st, "set blue3", "set red3")
    assert st.hp == [20, 20 - (1 + 2)]


def test_damage_needs_a_circle_of_the_attribute() -> None:
    """ダメージ計算のルール ※: without a circle of the ryabi's attribute the winner deals no damage."""
    st = position(hands=[["blue3"], ["red3"]], fields=[["green0", "red5"], ["red0"]])
    battle(st)
    play(st, "set blue3", "set red3")
    assert st.last_battle is not None and st.last_battle["winner"] == 0
    assert st.hp == [20, 20]


def test_damage_is_atk_times_times_rounded_down() -> None:
    """ダメージ計算 2_1: ATK × times; ATK 1 × times 1.5 = 1 (小数点切り捨て), ATK 4 × 2 = 8."""
    st = position(hands=[["blue5"], ["red3"]], fields=[["blue0"], ["red0"]])
    battle(st)
    play(st, "set blue5", "set red3")
    assert st.hp == [20, 19]
    st = position(hands=[["green11"], ["blue1"]], fields=[["green11"], ["blue0"]])
    battle(st)
    play(st, "set green11", "set blue1")
    assert st.hp == [20, 12]


def test_double_charge_two_ryabi_of_one_attribute() -> None:
    """ダブルチャージ: two ryabi of the same attribute may be set; two attributes may not."""
    st = position(hands=[["blue3", "blue5", "red3", "red3"], ["green1"]], fields=[["blue0"], ["green0"]])
    battle(st)
    legal = texts(st)
    assert "set blue3 blue5" in legal and "set red3 red3" in legal
    assert "set blue3 red3" not in legal
    with pytest.raises(IllegalActionError):
        st.apply_text("set blue3 red3")


def test_double_charge_damage_multiplies_both_times() -> None:
    """ダブルチャージのダメージ計算: times × times × ATK, rounded down (1.5 × 1.5 × 4 = 9)."""
    st = position(hands=[["blue5", "blue5"], ["red1"]], fields=[["blue11", "blue0"], ["red0"]])
    battle(st)
    play(st, "set blue5 blue5", "set red1")
    assert st.hp == [20, 20 - (9 + 2)]  # ATK 4: 9; ATK 1: 2.25 → 2


def test_battle_ryabi_are_removed_and_the_dummy_returns() -> None:
    """終了ステップ 4_1 / 4_2: battle ryabi are removed from the game; the dummy goes back."""
    st = position(
        hands=[["blue3", "blue5", "green1"], ["red3", "red1"]],
        fields=[["blue0"], ["red0"]],
        decks=[["blue1"] * 6, ["red1"] * 6],
    )
    battle(st)
    play(st, "set blue3 blue5", "set dummy")
    obs = st.observation(None)
    assert obs["removed"]["ryabi"] == {"blue3": 1, "blue5": 1}
    assert obs["players"][0]["discard"] == ["green1"]  # end phase: the rest of the hand
    assert obs["players"][1]["discard"] == ["red1", "red3"]  # the dummy is not a card of the deck
    assert obs["players"][1]["set"] is None and not obs["players"][1]["battling"]


@pytest.mark.parametrize(("theirs", "winner"), [("red3", 0), ("blue1", None), ("green5", 1)])
def test_battle_ryabi_of_both_players_are_removed(theirs: str, winner: int | None) -> None:
    """終了ステップ 4_1: every player's battle ryabi are removed from the game — the winner's, the loser's, and
    both sides' when nobody wins."""
    st = position(
        hands=[["blue3", "green1"], [theirs, "red1"]],
        fields=[["blue0"], ["red0"]],
        decks=[["blue1"] * 6, ["red1"] * 6],
    )
    battle(st)
    play(st, "set blue3", f"set {theirs}")
    assert st.last_battle is not None and st.last_battle["winner"] == winner
    removed = st.observation(None)["removed"]["ryabi"]
    assert removed == {"blue3": 1, theirs: 1}
    assert st.discard == [[GAME.codec.kind_of["green1"]], [GAME.codec.kind_of["red1"]]]


def test_end_phase_discards_the_hand() -> None:
    """エンドフェイズ: every player puts the rest of their hand in the discard pile."""
    st = position(hands=[["blue3", "blue1"], ["red3"]], fields=[[], []], decks=[["blue1"] * 6, ["red1"] * 6])
    battle(st)  # nobody may battle (no circles): straight to the end phase and the next turn
    assert names(GAME, st.discard[0]) == ["blue1", "blue3"] and names(GAME, st.discard[1]) == ["red3"]
    assert len(st.hand[0]) == 3


def test_hp_zero_loses() -> None:
    """終了・勝利条件: the player who brings the opponent's HP to 0 wins."""
    st = position(hands=[["blue3"], ["red3"]], fields=[["blue0"], ["red0"]], hp=[5, 1])
    battle(st)
    play(st, "set blue3", "set red3")
    assert st.is_terminal() and st.returns() == [1.0, -1.0] and st.current_player is None


def test_max_turns_is_a_draw() -> None:
    """RULINGS: reaching the max_turns cap is a draw."""
    game = cardarena.load("lyabi", max_turns=1)
    assert isinstance(game, LyabiGame)
    st = position(game=game, hands=[[], []], fields=[[], []], decks=[["blue1"] * 6, ["red1"] * 6])
    battle(st)
    assert st.is_terminal() and st.returns() == [0.0, 0.0] and st.turn == 1


def test_whole_game_keeps_the_card_count() -> None:
    """内容物: no ryabi is created or lost: supply + every zone + removed = 63 throughout a game."""
    st = GAME.new_initial_state(77)
    rng = Rng(3)
    while not st.is_terminal():
        total = sum(st.supply) + sum(st.removed_ryabi)
        total += sum(len(z) for s in (0, 1) for z in (st.hand[s], st.deck[s], st.discard[s]))
        total += sum(len(x) for x in st.sets if x)
        assert total == 63
        circles = sum(len(p) for p in st.piles) + len(st.field[0]) + len(st.field[1]) + len(st.removed_circles)
        assert circles == 18
        legal = st.legal_actions()
        st.apply(legal[rng.randbelow(len(legal))])
