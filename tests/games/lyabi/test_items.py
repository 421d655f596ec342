"""Scenario tests for the 8 items (section アイテム; the effects are the project's own, RULINGS.md lyabi)."""

from __future__ import annotations

import pytest

from cardarena.engine import IllegalActionError, Rng
from cardarena.games.lyabi.constants import CRYSTAL, HERB, ITEM_IDS, NO_ITEM, ORB, SWORD, Phase
from cardarena.games.lyabi.rules import board

from .support import GAME, battle, item_phase, main_phase, names, new_turn, play, position, set_supply, texts


def test_mysterious_crystal_auto_on_acquisition_orders_the_top_three() -> None:
    """アイテム / 謎の水晶 (auto on acquisition): look at the top 3 of your deck, put them back in any order."""
    st = position(
        hands=[["blue3", "green1"], ["red1"]],
        decks=[["blue1", "green5", "red3", "blue11"], ["red1"] * 4],
        fields=[["blue0"], ["red0"]],
    )
    st.edit(item_pile=[ORB, CRYSTAL])
    item_phase(st, 0)
    play(st, "item pay blue3")
    assert st.phase == Phase.ORDER and st.current_player == 0
    assert st.item[0] == NO_ITEM and st.observation(1)["removed"]["items"] == ["crystal"]  # used and revealed
    legal = texts(st)
    assert len(legal) == 6 and "order blue11 red3 green5" in legal  # the current order, top first
    assert st.observation(0)["players"][0]["deck_top"] == ["blue11", "red3", "green5"]
    assert "deck_top" not in st.observation(1)["players"][0]
    assert GAME.action_seen_by(st, GAME.parse_action(st, "order green5 red3 blue11"), 1) == (
        "put the looked-at cards back in a secret order"
    )
    play(st, "order green5 blue11 red3")
    assert [GAME.cards.r_names[k] for k in reversed(st.deck[0])] == ["green5", "blue11", "red3", "blue1"]
    assert st.observation(0)["players"][0]["deck_top"] == ["green5", "blue11", "red3"]
    # The next draw phase draws exactly the ordered cards, and the knowledge is used up.
    st.edit(hand=[[], []])
    new_turn(st)
    assert names(GAME, st.hand[0]) == ["blue11", "green5", "red3"]
    assert st.known_top[0] == 0


def test_mysterious_crystal_asks_even_when_every_order_is_the_same() -> None:
    """謎の水晶 (ruling 7): the owner is asked even if the looked-at cards are alike (one possible order), so the
    opponent cannot learn from the question whether the top cards differ."""
    for deck, orders in ((["red1", "red1", "red1"], ["order red1 red1 red1"]), (["red1", "blue3", "red1"], None)):
        st = position(hands=[["blue3"], ["red1"]], decks=[deck, ["red1"]])
        st.edit(item_pile=[CRYSTAL])
        item_phase(st, 0)
        play(st, "item pay blue3")
        assert st.phase == Phase.ORDER and st.current_player == 0 and st.known_top[0] == 3
        if orders is not None:
            assert texts(st) == orders
    st = position(hands=[["blue3"], ["red1"]], decks=[["green5"], ["red1"]])  # one card: nothing to order
    st.edit(item_pile=[CRYSTAL])
    item_phase(st, 0)
    play(st, "item pay blue3")
    assert st.phase != Phase.ORDER and st.known_top[0] == 1


def test_mystic_eye_looks_at_the_opponents_hand_before_setting() -> None:
    """神秘の義眼 (battle preparation, before you set): look at the opponent's hand."""
    st = position(
        hands=[["blue3", "blue1"], ["red3", "green5"]],
        fields=[["blue0"], ["red0"]],
        items=["eye", None],
    )
    battle(st)
    assert st.phase == Phase.EYE and st.current_player == 0
    assert texts(st) == ["use eye", "decline"]
    play(st, "use eye")
    assert st.observation(0)["seen_opponent_hand"] == ["green5", "red3"]
    assert "seen_opponent_hand" not in st.observation(1)
    assert st.phase == Phase.SET
    # The knowledge survives the opponent's set: a resampled world keeps those cards in hand or set.
    play(st, "set blue1")
    play(st, "set green5")
    assert st.last_battle is not None and st.last_battle["sets"] == [["blue1"], ["green5"]]


def test_mystic_eye_knowledge_is_kept_by_resample() -> None:
    """神秘の義眼 + hidden information: a world resampled for the eye's owner keeps the seen hand."""
    st = position(
        first=1,
        hands=[["blue3", "blue1"], ["red3", "green5", "green1"]],
        decks=[["blue5"] * 3, ["red11", "red5", "blue11", "green3"]],
        fields=[["blue0"], ["red0"]],
        items=["eye", None],
    )
    battle(st)
    play(st, "use eye")  # seat 0's eye window comes before seat 1 (first) sets
    play(st, "set red3")
    assert st.current_player == 0 and st.phase == Phase.SET
    seen = ["green1", "green5", "red3"]
    deck = names(GAME, st.deck[1])
    shapes = set()
    for n in range(60):
        world = st.resample(0, Rng(n))
        assert world.observation(0) == st.observation(0)
        set1 = world.sets[1]
        assert set1 is not None
        assert names(GAME, [*world.hand[1], *set1]) == seen  # the seen cards stay between hand and set
        assert names(GAME, world.deck[1]) == deck
        shapes.add(len(set1))
    assert shapes == {0, 1, 2}  # nothing shows the set: the dummy, one ryabi or a double charge (green1 green5)


def test_goddess_brush_changes_the_attribute_after_the_reveal() -> None:
    """女神の筆 (resolution, after the reveal): your ryabi takes the attribute of your choice."""
    st = position(
        hands=[["green3"], ["red3"]],
        fields=[["green0", "blue5"], ["red0"]],
        items=["brush", None],
    )
    battle(st)
    play(st, "decline")  # the eye window: a brush holder may only decline
    play(st, "set green3", "set red3")
    assert st.phase == Phase.BRUSH and st.current_player == 0
    assert texts(st) == ["use brush blue", "use brush red", "decline"]
    play(st, "use brush blue")  # blue beats red, and the blue circle deals the damage
    assert st.last_battle is not None and st.last_battle["winner"] == 0
    assert st.hp == [20, 18]
    assert st.last_battle["brush_seat0"] == "blue"


def test_goddess_brush_changes_both_cards_of_a_double_charge() -> None:
    """女神の筆 (ruling 6): a double charge changes attribute as a whole; times still multiply."""
    st = position(
        hands=[["green5", "green5"], ["green3"]],
        fields=[["red11"], ["green0"]],
        items=["brush", None],
    )
    battle(st)
    play(st, "decline", "set green5 green5", "set green3", "use brush red")
    assert st.hp == [20, 20 - 9]


def test_goddess_brush_is_not_offered_for_the_dummy() -> None:
    """女神の筆: only a revealed ryabi can change attribute."""
    st = position(hands=[["green3"], ["red3"]], fields=[["green0"], ["red0"]], items=["brush", None])
    battle(st)
    play(st, "decline", "set dummy", "set red3")
    assert st.phase == Phase.MIRROR and texts(st) == ["decline"]  # the brush holder is asked at the mirror's timing
    play(st, "decline")
    assert st.hp == [19, 20]


def test_war_gods_sword_deals_more_after_battle_damage() -> None:
    """戦神の剣 (after you deal battle damage): deal 3 more damage."""
    st = position(hands=[["blue3"], ["red3"]], fields=[["blue0"], ["red0"]], items=["sword", None])
    battle(st)
    play(st, "decline", "set blue3", "set red3")
    assert st.phase == Phase.BRUSH and texts(st) == ["decline"]  # a sword holder is asked at the brush's timing too
    play(st, "decline")
    assert st.phase == Phase.SWORD and st.current_player == 0 and st.hp == [20, 19]
    assert texts(st) == ["use sword", "decline"]
    play(st, "use sword")
    assert st.hp == [20, 16]
    assert st.observation(1)["removed"]["items"] == ["sword"]


def test_war_gods_sword_needs_damage_dealt() -> None:
    """戦神の剣: a win dealing no damage (no circle of the attribute) opens no sword window."""
    st = position(hands=[["blue3"], ["red3"]], fields=[["green0"], ["red0"]], items=["sword", None])
    battle(st)
    play(st, "decline", "set blue3", "set red3", "decline")
    assert st.phase != Phase.SWORD and st.item[0] == SWORD


def test_space_time_stone_gives_a_second_main_action() -> None:
    """時空石 (your main phase): take a second main-phase action this turn."""
    st = position(hands=[["blue3", "green3", "red3"], ["red1"]], items=["stone", None])
    set_supply(st, default=2)
    main_phase(st, 0)
    assert texts(st)[0] == "use stone"
    play(st, "use stone")
    assert st.actions_left == 2 and "use stone" not in texts(st)
    play(st, "buy blue1 pay blue3")
    assert st.phase == Phase.MAIN and st.current_player == 0
    play(st, "buy green1 pay green3")
    assert st.phase != Phase.MAIN or st.current_player != 0
    assert names(GAME, st.discard[0]) == ["blue1", "blue3", "green1", "green3"]


def test_space_time_stone_is_offered_only_before_the_first_action() -> None:
    """時空石 (ruling 3): the stone is used before the main-phase action."""
    st = position(hands=[["blue3", "green3", "red3"], ["red1"]], items=["stone", None])
    set_supply(st, default=2)
    main_phase(st, 0)
    play(st, "buy blue1 pay blue3")
    assert st.phase == Phase.ITEM
    assert "use stone" not in texts(st)


def test_mirror_of_desire_prevents_and_reflects_half() -> None:
    """願望の鏡 (when you would take battle damage): prevent it; the opponent takes half, rounded down."""
    st = position(
        hands=[["blue11"], ["red3"]],
        fields=[["blue11", "blue5"], ["red0"]],
        items=["sword", "mirror"],
    )
    battle(st)
    play(st, "decline", "decline")  # both eye windows
    play(st, "set blue11", "set red3", "decline", "decline")  # both brush windows
    assert st.phase == Phase.MIRROR and st.current_player == 1 and st.observation(1)["pending_damage"] == 12
    play(st, "use mirror")
    assert st.hp == [20 - 6, 20]
    assert st.phase != Phase.SWORD  # no battle damage was dealt, so the sword is not offered
    assert st.item[0] == SWORD


def test_mirror_declined_then_sword() -> None:
    """願望の鏡 declined: the damage is dealt, then the attacker's sword window opens."""
    st = position(hands=[["blue3"], ["red3"]], fields=[["blue0"], ["red0"]], items=["sword", "mirror"])
    battle(st)
    play(st, "decline", "decline", "set blue3", "set red3", "decline", "decline", "decline")
    assert st.phase == Phase.SWORD
    play(st, "use sword")
    assert st.hp == [20, 16]


def test_stargazing_orb_draws_up_to_five() -> None:
    """星見の天球 (draw phase): draw up to 5 cards instead of 3."""
    st = position(
        hands=[[], []],
        decks=[["blue1", "blue3", "blue5", "green1", "green3", "green5"], ["red1"] * 6],
        items=["orb", None],
    )
    new_turn(st)
    assert st.phase == Phase.DRAW and st.current_player == 0 and texts(st) == ["use orb", "decline"]
    play(st, "use orb")
    assert len(st.hand[0]) == 5 and len(st.hand[1]) == 3
    assert st.observation(1)["players"][0]["draw_to"] == 5


def test_stargazing_orb_short_deck_is_not_a_loss() -> None:
    """星見の天球 (ruling 5): reaching 3 but not 5 cards is not running out."""
    st = position(hands=[[], []], decks=[["blue1"] * 4, ["red1"] * 6], discards=[[], []], items=["orb", None])
    new_turn(st)
    play(st, "use orb")
    assert not st.is_terminal() and len(st.hand[0]) == 4


def test_hallucinogenic_herb_removes_the_opponents_item() -> None:
    """幻覚の毒草 (auto on acquisition): the opponent's item is removed from the game."""
    st = position(hands=[["blue3"], ["red1"]], items=[None, "mirror"])
    st.edit(item_pile=[HERB])
    item_phase(st, 0)
    play(st, "item pay blue3")
    assert st.item == [-1, -1]
    assert st.observation(None)["removed"]["items"] == ["herb", "mirror"]


def test_item_windows_ask_every_item_holder_in_priority_order() -> None:
    """効果テキスト: the same timing resolves from the turn's priority player; every holder is asked."""
    st = position(
        first=1,
        hands=[[], []],
        decks=[["blue1"] * 6, ["red1"] * 6],
        items=["orb", "stone"],
    )
    new_turn(st)
    assert st.phase == Phase.DRAW and st.current_player == 1 and texts(st) == ["decline"]  # stone: nothing to use
    play(st, "decline")
    assert st.current_player == 0 and texts(st) == ["use orb", "decline"]


def test_both_eyes_are_offered_before_anyone_sets() -> None:
    """神秘の義眼 (ruling 2): both players' eye windows come before the first set."""
    st = position(
        first=1,
        hands=[["blue3"], ["red3", "red1"]],
        fields=[["blue0"], ["red0"]],
        items=["eye", "eye"],
    )
    battle(st)
    assert (st.phase, st.current_player) == (Phase.EYE, 1)
    play(st, "use eye")
    assert (st.phase, st.current_player) == (Phase.EYE, 0)
    play(st, "use eye")
    assert (st.phase, st.current_player) == (Phase.SET, 1)
    assert st.observation(1)["seen_opponent_hand"] == ["blue3"]
    assert st.observation(0)["seen_opponent_hand"] == ["red1", "red3"]


def test_item_uses_are_refused_out_of_their_timing() -> None:
    """アイテム: an item's effect can only be used at its condition timing."""
    st = position(hands=[["blue3"], ["red3"]], fields=[["blue0"], ["red0"]], items=["mirror", None])
    battle(st)
    with pytest.raises(IllegalActionError):
        st.apply_text("use mirror")  # the eye window is open, not the mirror's
    assert st.phase == Phase.EYE


@pytest.mark.parametrize("item", [i for i in ITEM_IDS])
def test_every_item_is_used_in_random_games(item: str) -> None:
    """アイテム: each of the 8 items is acquired and used (or resolves) in random play."""
    index = ITEM_IDS.index(item)
    for seed in range(400):
        st = GAME.new_initial_state(seed)
        rng = Rng(seed)
        while not st.is_terminal():
            legal = st.legal_actions()
            action = legal[rng.randbelow(len(legal))]
            st.apply(action)
            if index in st.removed_items and (
                index in (CRYSTAL, HERB) or any(a[0] == "use" and a[1] == item for a in st.history)
            ):
                return
    raise AssertionError(f"{item} never used in 400 random games")


def test_mirror_reflection_can_defeat_the_attacker() -> None:
    """願望の鏡 + 終了・勝利条件: reflected damage that brings the attacker to 0 HP loses them the game."""
    st = position(hands=[["blue11"], ["red3"]], fields=[["blue11"], ["red0"]], hp=[4, 20], items=[None, "mirror"])
    battle(st)
    play(st, "decline", "set blue11", "set red3", "decline")  # the holder is asked at the eye and brush windows
    assert st.phase == Phase.MIRROR
    play(st, "use mirror")
    assert st.is_terminal() and st.returns() == [-1.0, 1.0] and st.hp == [0, 20]


def test_both_players_at_zero_is_a_draw() -> None:
    """終了・勝利条件 (RULINGS): both players at 0 HP at once is a draw."""
    st = position(hands=[["blue1"], ["red1"]], hp=[0, -2])
    assert board.check_hp(st) and st.returns() == [0.0, 0.0]
