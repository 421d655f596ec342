"""Hidden information: hands, deck order, face-down piles, face-down items and unrevealed sets stay hidden;
discard piles, fields and removed cards are public; resample keeps everything a seat knows."""

from __future__ import annotations

import json

from cardarena.engine import Rng
from cardarena.games.lyabi.constants import AUTO_ITEMS, Phase

from .support import GAME, battle, item_phase, kinds, main_phase, names, new_turn, play, position

C = GAME.cards


def test_observation_shows_public_zones_and_hides_the_rest() -> None:
    """盤面の説明: hand hidden (①), deck face down (②), discard face up (③), circles face up (④), items face down
    (⑤), circle piles face down (⑧), item pile face down (⑨), removed cards face up (⑩)."""
    st = position(
        hands=[["blue3", "red1"], ["green5", "green1"]],
        decks=[["blue1", "blue5"], ["red3", "red5"]],
        discards=[["blue11"], ["green3", "red1"]],
        fields=[["blue0"], ["green0", "red5"]],
        items=["mirror", "eye"],
    )
    st.removed_ryabi[GAME.codec.kind_of["red11"]] = 1
    obs = st.observation(0)
    text = json.dumps(obs)
    me, other = obs["players"]
    assert me["hand"] == ["blue3", "red1"] and me["item"] == "mirror"
    assert "hand" not in other and other["hand_size"] == 2 and other["item"] == "face down"
    assert "green5" not in json.dumps(other) and "seen_opponent_hand" not in text  # the opponent's hand is hidden
    assert "red3" not in json.dumps(other) and other["deck_size"] == 2  # deck contents hidden
    assert other["discard"] == ["green3", "red1"] and other["field"] == ["green0", "red5"]
    assert obs["removed"]["ryabi"] == {"red11": 1}
    assert obs["circle_piles"] == {"0": 4, "5": 6, "11": 6} and isinstance(obs["item_pile"], int)
    spectator = st.observation(None)
    assert all("hand" not in p for p in spectator["players"])
    assert spectator["players"][0]["item"] == "face down"


def test_resample_keeps_every_observation_in_random_games() -> None:
    """The leak test on many mid-game positions, for both seats."""
    for seed in range(30):
        st = GAME.new_initial_state(seed)
        rng = Rng(seed)
        while not st.is_terminal():
            for seat in (0, 1):
                world = st.resample(seat, rng.fork())
                assert world.observation(seat) == st.observation(seat)
                if st.current_player == seat:
                    assert world.legal_actions() == st.legal_actions()
                other = 1 - seat
                assert world.item[other] not in AUTO_ITEMS
                # the opponent's cards are only rearranged between hand, hidden set and deck; known cards stay held
                held = [*world.hand[other], *(world.sets[other] or ())]
                true_held = [*st.hand[other], *(st.sets[other] or ())]
                assert names(GAME, [*held, *world.deck[other]]) == names(GAME, [*true_held, *st.deck[other]])
                assert len(held) == len(true_held)
                for k in set(st.public_hand[other]):
                    assert held.count(k) >= st.public_hand[other].count(k)
            legal = st.legal_actions()
            st.apply(legal[rng.randbelow(len(legal))])


def test_resample_redraws_the_opponents_hand_and_unrevealed_set() -> None:
    st = position(
        hands=[["blue3", "red1"], ["green5", "green1", "red3"]],
        decks=[["blue1", "blue5"], ["red11", "blue11", "green11", "green3"]],
        fields=[["blue0"], ["green0"]],
    )
    battle(st)
    play(st, "set blue3")
    assert st.phase == Phase.SET and st.current_player == 1
    hands, sets = set(), set()
    for n in range(80):
        world = st.resample(1, Rng(n))
        assert world.hand[1] == st.hand[1]  # own hand kept
        hands.add(tuple(names(GAME, world.hand[0])))
        sets.add(world.sets[0])
        assert world.observation(1) == st.observation(1)
    assert len(hands) > 3 and () in sets and len(sets) > 3


def test_resample_never_reveals_the_opponents_item_through_a_window() -> None:
    """Ruling 1: every item holder is asked at a window, so the question reveals nothing."""
    st = position(hands=[["blue3"], ["red3"]], fields=[["blue0"], ["red0"]], items=["sword", "stone"])
    battle(st)
    play(st, "decline", "decline", "set blue3", "set red3", "decline", "decline")
    assert st.phase == Phase.MIRROR and st.current_player == 1  # the stone holder is asked at the mirror's timing
    seen = set()
    for n in range(40):
        world = st.resample(0, Rng(n))
        assert world.current_player == 1 and world.observation(0) == st.observation(0)
        seen.add(world.item[1])
    assert len(seen) > 2


def test_crystal_knowledge_is_kept_by_resample() -> None:
    st = position(
        hands=[["blue3", "green1"], ["red1"]],
        decks=[["blue1", "green5", "red3", "blue11", "red1", "green3"], ["red1"] * 4],
    )
    st.edit(item_pile=[0])
    item_phase(st, 0)
    play(st, "item pay blue3", "order red1 green3 blue11")
    for n in range(20):
        world = st.resample(0, Rng(n))
        assert [GAME.cards.r_names[k] for k in world.deck[0][-3:]] == ["blue11", "green3", "red1"]


def test_resample_keeps_the_public_initial_hand() -> None:
    """ゲームの準備 7: the initial hand is printed on the face-up Lv0 circle, so on turn 1 every seat knows the
    opponent's hand; a resampled world may not swap those cards with deck cards."""
    for seed in range(12):
        st = GAME.new_initial_state(seed)
        seat = st.current_player
        assert seat is not None
        o = 1 - seat
        start = C.start_hand[C.c_colour[st.field[o][0]]]
        assert start is not None
        assert st.observation(seat)["players"][o]["hand_known"] == names(GAME, start)
        for n in range(20):
            world = st.resample(seat, Rng(n))
            assert names(GAME, world.hand[o]) == names(GAME, start)
            assert world.observation(seat) == st.observation(seat)


def test_known_hand_cards_leave_with_payments_and_revealed_sets() -> None:
    """メインフェイズ / 2_1: a known card that is paid, or set and revealed, is no longer known to be in the hand;
    a face-down set does not change what is known until the reveal."""
    st = position(
        hands=[["blue1", "green1", "red1"], ["blue1", "green1", "red1"]],
        fields=[["blue0"], ["red0"]],
        items=["sword", None],
    )
    st.edit(public_hand=[kinds(GAME, ["blue1", "green1", "red1"]), kinds(GAME, ["blue1", "green1", "red1"])])
    main_phase(st, 0)
    play(st, "buy green1 pay blue1")
    assert st.observation(1)["players"][0]["hand_known"] == ["green1", "red1"]
    play(st, "pass", "pass", "pass")  # seat 0's item phase, seat 1's main and item phases
    play(st, "decline", "set green1")  # seat 0: eye window (holds the sword), then a face-down set
    assert st.observation(1)["players"][0]["hand_known"] == ["green1", "red1"]
    play(st, "set red1")
    assert st.phase == Phase.BRUSH and st.current_player == 0  # after the reveal
    assert st.observation(1)["players"][0]["hand_known"] == ["red1"]
    assert st.observation(0)["players"][1]["hand_known"] == ["blue1", "green1"]
    play(st, "decline", "decline")  # brush window, then the mirror window (red beats green: seat 0 is hit)
    assert st.turn == 2 and st.hp == [19, 20]
    assert st.observation(1)["players"][0]["hand_known"] == []  # end phase: hands discarded


def test_resample_keeps_cards_drawn_before_a_reshuffle() -> None:
    """ドローフェイズ: the last ≤2 deck cards are drawn first, then the discard pile is shuffled into the deck; the
    opponent saw which cards those were (the deck's contents are public: every drawn card is shown by the end of
    its turn), so a resampled world keeps them in the hand."""
    st = position(
        hands=[[], []],
        decks=[["blue1", "red1"], ["green11", "green5", "green3", "green1"]],
        discards=[["blue3", "blue5", "green3", "red5"], []],
    )
    new_turn(st)
    assert st.observation(1)["players"][0]["hand_known"] == ["blue1", "red1"]
    thirds = set()
    for n in range(40):
        world = st.resample(1, Rng(n))
        hand = names(GAME, world.hand[0])
        assert "blue1" in hand and "red1" in hand and len(hand) == 3
        thirds.add(tuple(hand))
        assert world.observation(1) == st.observation(1)
    assert len(thirds) > 2


def test_resample_keeps_known_cards_under_a_hidden_set() -> None:
    """準備ステップ 1_2: a known card may be the one set face down, but hand and set together still hold it."""
    st = position(
        hands=[[], []],
        decks=[["blue1", "red1"], ["green11", "green5", "green3", "green1"]],
        discards=[["blue3", "blue5", "green3", "red5"], []],
        fields=[["blue0"], ["green0"]],
    )
    new_turn(st)
    while st.phase != Phase.SET:
        st.apply_text("pass")
    if st.current_player == 0:
        play(st, "set blue1")
    else:
        play(st, "set green1", "set blue1")
    for n in range(40):
        world = st.resample(1, Rng(n))
        held = names(GAME, [*world.hand[0], *(world.sets[0] or ())])
        assert "blue1" in held and "red1" in held
        assert world.observation(1) == st.observation(1)


def test_resample_of_a_face_down_set_does_not_keep_its_size() -> None:
    """準備ステップ 1_2 + 2_1 (revealed together): the other seat cannot tell a double charge from one ryabi or the
    dummy, so a resampled world redraws the set as any set the redrawn hand allows, of every size, taken from the
    cards the opponent might hold (a double charge is always two ryabi of one attribute)."""
    st = position(
        hands=[["blue3", "blue5", "red1"], ["green3"]],
        decks=[["green1", "red3", "green5", "blue1", "red11"], ["green1"] * 4],
        fields=[["blue0"], ["green0"]],
    )
    battle(st)
    play(st, "set blue3 blue5")
    true_set = st.sets[0]
    assert true_set is not None
    pool = names(GAME, [*st.hand[0], *true_set, *st.deck[0]])
    sizes = set()
    for n in range(80):
        world = st.resample(1, Rng(n))
        set0 = world.sets[0]
        assert set0 is not None
        before = tuple(sorted([*world.hand[0], *set0]))
        assert len(before) == 3 and len(world.deck[0]) == 5
        assert names(GAME, [*before, *world.deck[0]]) == pool
        legal = [str(a) for a in GAME.set_choices(before)]
        assert ("set " + " ".join(C.r_names[k] for k in sorted(set0)) if set0 else "set dummy") in legal
        if len(set0) == 2:
            assert C.r_colour[set0[0]] == C.r_colour[set0[1]]
        assert world.observation(1) == st.observation(1)
        sizes.add(len(set0))
    assert sizes == {0, 1, 2}


def test_a_hand_that_drew_the_whole_deck_is_known() -> None:
    """ドローフェイズ: drawing the last cards of a deck whose contents are public shows the whole hand."""
    st = position(hands=[[], []], decks=[["blue1", "red3", "green5"], ["green1", "green3", "green5", "red1"]])
    new_turn(st)
    assert st.deck[0] == []
    assert st.observation(1)["players"][0]["hand_known"] == ["blue1", "green5", "red3"]
    assert st.observation(0)["players"][1]["hand_known"] == []
