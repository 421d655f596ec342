"""Lyabi's hooks for the agents and the odds advisor: hidden_cards (checked by the harness's redraw check),
hidden_facts, evaluate and heuristic_action (from the seat's observation only)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from cardarena.agents import SeatView, make_agent
from cardarena.engine import Rng
from cardarena.engine.harness import ConformanceError, check_resample_redraws
from cardarena.engine.rng import derive_seed
from cardarena.games.lyabi.state import LyabiState

from .support import GAME, battle, main_phase, play, position, set_supply


def _random_states(seeds: range, every: int = 3):  # type: ignore[no-untyped-def]
    for seed in seeds:
        st = GAME.new_initial_state(seed)
        rng = random.Random(seed)
        step = 0
        while not st.is_terminal():
            if step % every == 0:
                yield st
            st.apply(rng.choice(st.playout_actions()))
            step += 1
        yield st


def test_heuristic_action_is_always_one_of_the_legal_actions_and_evaluate_stays_in_range() -> None:
    for st in _random_states(range(25), every=1):
        for seat in (0, 1):
            value = GAME.evaluate(st.observation(seat), seat)
            assert value is not None and -1.0 <= value <= 1.0
        if st.is_terminal():
            continue
        seat = st.current_player
        assert seat is not None
        legal = st.legal_actions()
        action = GAME.heuristic_action(st.observation(seat), legal, seat, Rng(len(st.history)))
        assert action in legal


def test_heuristic_sets_what_beats_what_the_opponent_will_likely_set() -> None:
    """The Mystic Eye showed red only, and the opponent's circle is red: blue beats red."""
    st = battle(position(hands=[["blue3", "green3"], ["red3", "red1"]], fields=[["blue0", "green0"], ["red0"]]))
    st.edit(eye_seen=[(GAME.codec.kind_of["red1"], GAME.codec.kind_of["red3"]), None])
    obs = st.observation(0)
    assert str(GAME.heuristic_action(obs, st.legal_actions(), 0, Rng(1))) == "set blue3"
    # An opponent that cannot battle sets nothing: set the card that deals the most damage (blue5: 1 + 3; the
    # double charge deals no more and spends two cards).
    st = battle(position(hands=[["blue3", "blue5", "green3"], []], fields=[["blue0", "blue5"], ["red0"]]))
    assert str(GAME.heuristic_action(st.observation(0), st.legal_actions(), 0, Rng(1))) == "set blue5"
    # A red set ties the opponent's likely red (its circle is red): no damage taken, for a Lv1 card.
    st = battle(position(hands=[["green3", "red1"], ["red3"]], fields=[["blue0"], ["red0"]]))
    assert str(GAME.heuristic_action(st.observation(0), st.legal_actions(), 0, Rng(1))) == "set red1"
    # Nothing to fear (the opponent has no circle, so it cannot battle) and nothing to gain (no circle of the
    # colours in hand): keep the cards.
    st = battle(position(hands=[["green3", "red1"], ["red3"]], fields=[["blue0"], []]))
    assert str(GAME.heuristic_action(st.observation(0), st.legal_actions(), 0, Rng(1))) == "set dummy"


def test_heuristic_buys_for_its_circles_and_keeps_its_battle_card() -> None:
    st = main_phase(position(hands=[["blue1", "green3", "red3"], ["red1"]], fields=[["blue0", "blue5"], ["red0"]]), 0)
    set_supply(st, default=3)
    action = GAME.heuristic_action(st.observation(0), st.legal_actions(), 0, Rng(1))
    assert str(action) == "buy blue5 pay green3 red3"


def test_heuristic_beats_random_by_a_wide_margin() -> None:
    """Fixed seeds (deterministic): 10 pairs, both seat orders. Measured over 200 pairs: 99% (see docs)."""
    wins = 0
    for seed in range(10):
        for me in (0, 1):
            st = GAME.new_initial_state(seed)
            other = make_agent("random", derive_seed(seed, me))
            rng = Rng(derive_seed(seed, me, 7))
            while not st.is_terminal():
                seat = st.current_player
                assert seat is not None
                if seat == me:
                    action = GAME.heuristic_action(st.observation(seat), st.legal_actions(), seat, rng)
                else:
                    action = other.act(SeatView(st, seat))
                st.apply(action)  # type: ignore[arg-type]
            wins += st.returns()[me] > 0
    assert wins >= 17


class _KeepsTheOpponentsHand:
    """A position whose resample leaves the opponent's hand, set and deck as they truly are (a broken resample),
    for the harness: its ``game`` answers ``hidden_cards`` of the true position for it. A wrapper, not a patch of
    ``views``: the compiled build's resample calls its helpers directly, unpatched."""

    num_players = 2

    def __init__(self, st: LyabiState) -> None:
        self.st = st
        self.game = self

    def hidden_cards(self, state: object, seat: int) -> dict[str, dict[str, Any]] | None:
        return GAME.hidden_cards(self.st if state is self else state, seat)  # type: ignore[arg-type]

    def resample(self, seat: int, rng: Rng) -> LyabiState:
        world = self.st.resample(seat, rng)
        o = 1 - seat
        world.hand[o], world.sets[o], world.deck[o] = list(self.st.hand[o]), self.st.sets[o], list(self.st.deck[o])
        return world


def test_the_redraw_check_catches_a_resample_that_keeps_the_opponents_hand() -> None:
    """hidden_cards names the opponent's hand and deck: a resample that left them as they are is caught."""
    st = GAME.new_initial_state(4)
    play(st, *[str(st.legal_actions()[0])])
    while st.phase != 5:  # a battle set: the opponent's hand is unknown
        st.apply(st.playout_actions()[-1])
    check_resample_redraws(st, 1)
    with pytest.raises(ConformanceError, match="opponent's hand and deck"):
        check_resample_redraws(_KeepsTheOpponentsHand(st), 1)  # type: ignore[arg-type]


def test_hidden_facts_are_odds_from_what_the_seat_knows() -> None:
    st = battle(position(hands=[["blue3"], ["red3", "green1"]], decks=[[], ["blue5", "red1", "green3"]]))
    st.edit(public_hand=[[], []])
    seen = Counter()
    for k in range(60):
        facts = GAME.hidden_facts(st.resample(0, Rng(k)), 0)
        seen.update(f"{name}={value}" for name, value in facts.items())
    # The opponent's 2 unknown cards come from red3 green1 blue5 red1 green3: each colour sometimes, not always.
    for colour in ("blue", "green", "red"):
        assert 0 < seen[f"opponent holds a {colour} ryabi=yes"] < 60
    # After the Mystic Eye the hand is known: the odds are certain.
    st.edit(eye_seen=[(GAME.codec.kind_of["green1"], GAME.codec.kind_of["red3"]), None])
    for k in range(10):
        facts = GAME.hidden_facts(st.resample(0, Rng(k)), 0)
        assert facts["opponent holds a blue ryabi"] == "no" and facts["opponent holds a red ryabi"] == "yes"
        assert facts["opponent's strongest card"] == "Lv3 (red3)"
    # A face-down set: its colour is among the facts, drawn from what the hand allows.
    play(st, "set blue3", "set red3")
    st2 = battle(position(hands=[["blue3"], ["red3", "green1"]], decks=[[], ["blue5", "red1", "green3"]]))
    st2.edit(public_hand=[[], []], first=1, order=(1, 0))
    st2 = battle(st2)
    play(st2, "set green1")
    colours = Counter(GAME.hidden_facts(st2.resample(0, Rng(k)), 0)["opponent's face-down set"] for k in range(60))
    assert len(colours) > 2  # the dummy, one colour or another: the set shows nothing


def test_hidden_facts_reveal_nothing_more_than_the_observation() -> None:
    """The facts come from resamples, which are a function of what the seat knows and the rng: a state and any
    of its resamples give the same odds."""
    for st in _random_states(range(4), every=7):
        if st.is_terminal():
            continue
        for seat in (0, 1):
            world = st.resample(seat, Rng(99))
            for k in range(5):
                a = GAME.hidden_facts(st.resample(seat, Rng(k)), seat)
                b = GAME.hidden_facts(world.resample(seat, Rng(k)), seat)
                assert a == b
