"""Resample is canonical: a function of what the seat may know and of the rng alone (issue 14, point 4).

Resampling a resampled world with the same rng gives the very same world, at every position of random playouts,
in every option set: so the hidden cards (own deck below the known top, the opponent's hand, deck, face-down set
and item, the face-down piles) are drawn from an order that comes from what the seat knows, never from the true
state.
"""

from __future__ import annotations

import pytest

import cardarena
from cardarena.engine import Rng
from cardarena.engine.harness import check_resample_canonical

MODES = {
    "default": ({}, range(40)),
    "circle_replace": ({"circle_replace": True}, range(1000, 1020)),
    "max_turns_3": ({"max_turns": 3}, range(2000, 2020)),
}


@pytest.mark.parametrize("mode", sorted(MODES))
def test_resample_of_a_resample_is_the_same_world(mode: str) -> None:
    options, seeds = MODES[mode]
    game = cardarena.load("lyabi", **options)
    checked = 0
    for seed in seeds:
        st = game.new_initial_state(seed)
        rng = Rng(seed + 77)
        step = 0
        while not st.is_terminal():
            check_resample_canonical(st, rng.next64(), seed=seed, step=step)
            legal = st.playout_actions()
            st.apply(legal[rng.randbelow(len(legal))])
            step += 1
            checked += 1
        check_resample_canonical(st, rng.next64(), seed=seed, step=step)
    assert checked > 10 * len(seeds)


def test_two_states_a_seat_cannot_tell_apart_resample_alike() -> None:
    """The opponent's hand and deck swapped between two states that look the same to seat 0: same world."""
    game = cardarena.load("lyabi")
    for seed in range(20):
        st = game.new_initial_state(seed)
        rng = Rng(seed)
        for _ in range(30):
            if st.is_terminal():
                break
            legal = st.playout_actions()
            st.apply(legal[rng.randbelow(len(legal))])
        for seat in (0, 1):
            other = st.resample(seat, Rng(seed * 7 + 1))  # another true state with the same observation
            assert other.observation(seat) == st.observation(seat)
            a = st.resample(seat, Rng(99))
            b = other.resample(seat, Rng(99))
            assert a.snapshot() == b.snapshot()
