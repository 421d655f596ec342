"""Actions: canonical text that round-trips, a fixed index encoding, clear errors for bad text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardarena
from cardarena.engine import IllegalActionError, InvalidActionError

GAME = cardarena.load("dicebattle")
STATE = GAME.new_initial_state(0)


def test_every_index_round_trips_through_text() -> None:
    for index in range(GAME.num_distinct_actions):
        action = GAME.action_from_index(index)
        assert GAME.action_index(action) == index
        assert GAME.parse_action(STATE, str(action)) == action


def test_card_names_are_read_in_several_spellings() -> None:
    want = GAME.parse_action(STATE, "set ember_imp")
    for text in ("set Ember Imp", "SET ember-imp", "  set   EMBER_IMP "):
        assert GAME.parse_action(STATE, text) == want
    assert str(want) == "set ember_imp"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("fly", "unknown action word"),
        ("set", "needs a card"),
        ("set unicorn", "no card"),
        ("done now", "takes no card"),
    ],
)
def test_malformed_text_is_refused(text: str, reason: str) -> None:
    with pytest.raises(InvalidActionError, match=reason):
        GAME.parse_action(STATE, text)


def test_illegal_action_leaves_the_state_unchanged() -> None:
    state = GAME.new_initial_state(1)
    before = state.snapshot()
    with pytest.raises(IllegalActionError):
        state.apply_text("revive slime")
    assert state.snapshot() == before


@given(st.text(max_size=40))
def test_any_text_parses_or_raises_invalid_action(text: str) -> None:
    try:
        action = GAME.parse_action(STATE, text)
    except InvalidActionError:
        return
    assert GAME.parse_action(STATE, str(action)) == action


def test_penalty_actions_have_text_and_an_index_and_are_refused_outside_a_penalty_decision() -> None:
    for text in ("draw", "decline"):
        action = GAME.parse_action(STATE, text)
        assert str(action) == text
        assert GAME.action_from_index(GAME.action_index(action)) == action
    with pytest.raises(InvalidActionError, match="takes no card"):
        GAME.parse_action(STATE, "draw slime")
    state = GAME.new_initial_state(1)
    before = state.snapshot()
    with pytest.raises(IllegalActionError, match="not possible now"):
        state.apply_text("draw")
    assert state.snapshot() == before
