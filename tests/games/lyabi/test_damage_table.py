"""The rulebook's double-charge table (ダブルチャージのダメージ計算早見表), reproduced exactly."""

from __future__ import annotations

from fractions import Fraction
from math import floor

import pytest

from .support import GAME, battle, play, position

# (times of ryabi 1, times of ryabi 2) -> value for a circle of ATK 1, 2, 4, exactly as printed.
TABLE = [
    ("1", "1", ("1", "2", "4")),
    ("1", "1.5", ("1.5", "3", "6")),
    ("1", "2", ("2", "4", "8")),
    ("1.5", "1.5", ("2.25", "4.5", "9")),
    ("1.5", "2", ("3", "6", "12")),
    ("2", "2", ("4", "8", "16")),
]
ATKS = (1, 2, 4)
C = GAME.cards


def kind_with_times(times: str, colour: int = 0) -> int:
    return next(k for k in range(C.num_kinds) if C.r_times[k] == Fraction(times) and C.r_colour[k] == colour)


def circle_with_atk(atk: int, colour: int = 0) -> int:
    return next(k for k in range(len(C.c_names)) if C.c_atk[k] == atk and C.c_colour[k] == colour)


@pytest.mark.parametrize(("t1", "t2", "row"), TABLE)
def test_double_charge_table_row(t1: str, t2: str, row: tuple[str, str, str]) -> None:
    """ダブルチャージのダメージ計算: times × times × ATK — each printed value, and the damage it rounds to."""
    k1, k2 = kind_with_times(t1), kind_with_times(t2)
    for atk, printed in zip(ATKS, row):
        circle = circle_with_atk(atk)
        assert C.r_times[k1] * C.r_times[k2] * C.c_atk[circle] == Fraction(printed)
        assert C.damage(circle, k1, k2) == floor(Fraction(printed))


def test_rulebook_examples() -> None:
    """ダメージ計算 2_1 and ダブルチャージ 【例】: 4 × 2 = 8; 1 × 1.5 = 1; 1.5 × 1.5 × 4 = 9."""
    assert C.damage(circle_with_atk(4), kind_with_times("2"), None) == 8
    assert C.damage(circle_with_atk(1), kind_with_times("1.5"), None) == 1
    assert C.damage(circle_with_atk(4), kind_with_times("1.5"), kind_with_times("1.5")) == 9


@pytest.mark.parametrize(("t1", "t2", "row"), TABLE)
def test_double_charge_table_in_play(t1: str, t2: str, row: tuple[str, str, str]) -> None:
    """The table in a real battle: the double charge wins against the dummy with one circle of each ATK."""
    names = C.r_names
    for atk, printed in zip(ATKS, row):
        k1, k2 = sorted((kind_with_times(t1), kind_with_times(t2)))
        circle = C.c_names[circle_with_atk(atk)]
        st = position(hands=[[names[k1], names[k2]], ["red1"]], fields=[[circle], ["red0"]])
        battle(st)
        play(st, f"set {names[k1]} {names[k2]}", "set dummy")
        assert st.hp[1] == 20 - floor(Fraction(printed))
