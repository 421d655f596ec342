"""Hidden information: hands, deck order, face-down piles, face-down items and unrevealed sets stay hidden;
discard piles, fields and removed cards are public; resample keeps everything a seat knows."""

from __future__ import annotations

import json

from cardarena.engine import Rng
from cardarena.games.lyabi.data import AUTO_ITEMS
from cardarena.games.lyabi.state import P_MIRROR, P_SET

from .support import GAME, battle, item_phase, names, play, position


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
    assert st.phase == P_SET and st.current_player == 1
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
    assert st.phase == P_MIRROR and st.current_player == 1  # the stone holder is asked at the mirror's timing
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
    st.item_pile = [0]
    item_phase(st, 0)
    play(st, "item pay blue3", "order red1 green3 blue11")
    for n in range(20):
        world = st.resample(0, Rng(n))
        assert [GAME.cards.r_names[k] for k in world.deck[0][-3:]] == ["blue11", "green3", "red1"]
