"""Action texts and the integer encoding: canonical, round-tripping, and clear errors for bad input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardarena.engine import IllegalActionError, InvalidActionError

from .support import GAME, main_phase, position

STATE = GAME.new_initial_state(0)
WORDS = [
    "pass",
    "decline",
    "use",
    "buy",
    "split",
    "place",
    "item",
    "order",
    "set",
    "pay",
    "into",
    "replace",
    "dummy",
    "orb",
    "eye",
    "brush",
    "sword",
    "stone",
    "mirror",
    "herb",
    "blue1",
    "red3",
    "green5",
    "blue11",
    "red0",
    "0",
    "5",
    "11",
    "7",
    "blue",
    "x",
    "",
]


@settings(max_examples=500, deadline=None)
@given(st.integers(0, GAME.num_distinct_actions - 1))
def test_every_index_round_trips_through_text(index: int) -> None:
    action = GAME.action_from_index(index)
    assert GAME.action_index(action) == index
    assert GAME.parse_action(STATE, str(action)) == action


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=7))
def test_any_text_parses_canonically_or_is_refused(words: list[str]) -> None:
    text = " ".join(words)
    try:
        action = GAME.parse_action(STATE, text)
    except InvalidActionError as e:
        assert text in str(e) or repr(text) in str(e)
        return
    assert GAME.parse_action(STATE, str(action)) == action
    assert GAME.action_from_index(GAME.action_index(action)) == action


def test_payments_are_read_in_any_order_and_written_in_supply_order() -> None:
    a = GAME.parse_action(STATE, "BUY red5  pay red3 blue1 green1")
    assert str(a) == "buy red5 pay blue1 green1 red3"
    assert str(GAME.parse_action(STATE, "split blue11 into red5 green3")) == "split blue11 into green3 red5"
    assert str(GAME.parse_action(STATE, "set red3 red1")) == "set red1 red3"
    assert str(GAME.parse_action(STATE, "place 5 pay red3 blue3 replace red0")) == "place 5 pay blue3 red3 replace red0"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "buy",
        "buy red5",
        "buy red5 pay",
        "buy purple5 pay red1",
        "place 7 pay red1",
        "place x pay red1",
        "place 5 pay red1 replace red7",
        "use",
        "use crystal",
        "use brush pink",
        "set",
        "set a b c",
        "order",
        "order red1 red1 red1 red1",
        "split red5 into",
        "item red1",
        "pass now",
        "jump",
    ],
)
def test_malformed_text_is_an_invalid_action(text: str) -> None:
    with pytest.raises(InvalidActionError):
        GAME.parse_action(STATE, text)


def test_illegal_action_leaves_the_state_unchanged() -> None:
    st = position(hands=[["blue1", "green1", "red1"], ["red1"]])
    main_phase(st, 0)
    before = st.snapshot()
    for text in ("buy blue11 pay blue1 green1 red1", "set blue1", "use mirror", "item pay blue1 green1 red1"):
        with pytest.raises(IllegalActionError) as info:
            st.apply_text(text)
        assert info.value.reason
    assert st.snapshot() == before


def test_why_illegal_explains() -> None:
    st = position(hands=[["blue1", "green1", "red1"], ["red1"]])
    main_phase(st, 0)
    with pytest.raises(IllegalActionError, match="total"):
        st.apply_text("buy blue11 pay blue1 green1 red1")
    with pytest.raises(IllegalActionError, match="main phase"):
        st.apply_text("set blue1")
    with pytest.raises(IllegalActionError, match="hold"):
        st.apply_text("buy blue1 pay red3")


def test_why_not_and_is_pass() -> None:
    """why_not is None for every listed action and gives the reason of the first failing check otherwise; only
    'pass' is a pass ('decline' answers an item window)."""
    st = position(hands=[["blue1", "green1", "red1"], ["red1"]])
    main_phase(st, 0)
    assert all(st.why_not(a) is None for a in st.legal_actions())
    assert st.why_not(GAME.parse_action(st, "buy blue11 pay blue1 green1 red1")) == (
        "the payment's total cost 3 is less than blue11's cost 11"
    )
    assert st.why_not(GAME.parse_action(st, "buy blue1 pay red3")) == "you do not hold red3"
    assert "main phase" in (st.why_not(GAME.parse_action(st, "decline")) or "")
    assert st.why_not(GAME.parse_action(st, "use stone")) == "you do not hold the stone"
    assert GAME.is_pass(GAME.parse_action(st, "pass"))
    assert not GAME.is_pass(GAME.parse_action(st, "decline"))
    assert not GAME.is_pass(GAME.parse_action(st, "buy blue1 pay blue1"))


def test_plain_action_tuples_are_refused_because_they_would_not_replay() -> None:
    """A bare ``Action`` equal to a legal move has another text ('place 0  blue1'): taking it would leave a
    record that does not replay, so the kernel refuses it and the state is unchanged."""
    from cardarena.engine import Action, IllegalActionError

    st = position(hands=[["blue1", "green1", "red1"], ["red1"]])
    main_phase(st, 0)
    before = st.snapshot()
    with pytest.raises(IllegalActionError, match="not an action of lyabi"):
        st.apply(Action.of("place", 0, "", "blue1"))
    assert st.snapshot() == before
    st.apply(st.game.parse_action(st, str(st.legal_actions()[0])))
