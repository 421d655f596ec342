"""The generator's numbers are pinned: both builds (compiled, where it runs on native 64-bit integers, and pure
Python) and every later change must give exactly these, or every seeded game, golden record and report changes."""

from __future__ import annotations

import pickle

import cardarena
from cardarena.engine import Rng
from cardarena.engine.rng import NATIVE_INT64


def test_the_build_runs_the_generator_it_says() -> None:
    assert NATIVE_INT64 is cardarena.COMPILED


def test_splitmix64_outputs_are_pinned() -> None:
    r = Rng(7)
    assert [r.next64() for _ in range(3)] == [0x863B891F4C0ABD4F, 0x4D58FBD282EAF415, 0xF0E521070CC03750]


def test_draws_below_every_size_are_pinned() -> None:
    """Small bounds take the native path when compiled, huge ones the big-integer one: the same numbers."""
    r = Rng(123)
    sizes = (2, 6, 52, 1000, 1 << 29, (1 << 30) + 3, 1 << 40, (1 << 64) + 5)
    assert [r.randbelow(n) for n in sizes] == [0, 3, 48, 447, 229564217, 29477162, 957756918261, 7471905138029949165]


def test_shuffle_random_and_state_are_pinned() -> None:
    r = Rng(5)
    cards = list(range(20))
    r.shuffle(cards)
    assert cards == [4, 0, 2, 7, 1, 3, 5, 18, 6, 12, 11, 19, 9, 15, 17, 16, 13, 14, 10, 8]
    assert r.random() == 0.7427879953431706
    assert r.state == 1374974181515261824


def test_copies_pickles_and_set_states_continue_the_same_stream() -> None:
    r = Rng(9)
    r.next64()
    twin, thawed = r.copy(), pickle.loads(pickle.dumps(r))
    restarted = Rng(0)
    restarted.state = r.state
    expected = [r.next64() for _ in range(5)]
    for other in (twin, thawed, restarted):
        assert [other.next64() for _ in range(5)] == expected
    assert 0 <= r.state < 1 << 64
