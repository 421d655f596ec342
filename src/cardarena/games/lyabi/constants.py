"""Lyabi's enums and fixed numbers: a leaf module (it imports nothing of the game).

Hot loops use the module-level aliases (``P_MAIN = Phase.MAIN``, ``PASS_K = Kind.PASS``): they are the enum members
themselves, and compare and hash at ``int``/``str`` speed.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum


class Phase(IntEnum):
    """The decision phases of a turn. The item windows (``DRAW``, ``EYE``, ``BRUSH``, ``MIRROR``, ``SWORD``) ask
    every holder of a face-down item, so that being asked reveals nothing about which item they hold."""

    DRAW = 0
    MAIN = 1
    ITEM = 2
    ORDER = 3  # the Mysterious Crystal's ordering
    EYE = 4
    SET = 5
    BRUSH = 6
    MIRROR = 7
    SWORD = 8
    OVER = 9

    @property
    def text(self) -> str:
        """The phase's word, as the observation shows it."""
        return PHASE_NAMES[self]


PHASE_NAMES = ("draw", "main", "item", "crystal", "eye", "set", "brush", "mirror", "sword", "over")
# Aliases with a P_ prefix: several phases share their name with an item (the eye, the brush...).
P_DRAW, P_MAIN, P_ITEM, P_ORDER, P_EYE, P_SET, P_BRUSH, P_MIRROR, P_SWORD, P_OVER = Phase


class Kind(StrEnum):
    """The first word of an action."""

    PASS = "pass"
    DECLINE = "decline"
    BUY = "buy"
    SPLIT = "split"
    PLACE = "place"
    USE = "use"
    ITEM = "item"
    ORDER = "order"
    SET = "set"


PASS_K, DECLINE_K, BUY_K, SPLIT_K, PLACE_K, USE_K, ITEM_K, ORDER_K, SET_K = Kind

COLOURS: tuple[str, ...] = ("blue", "green", "red")
# BEATS[c] is the colour that colour c beats: blue beats red, red beats green, green beats blue (rulebook).
BEATS: tuple[int, ...] = (2, 0, 1)


class Item(IntEnum):
    """The eight items, in the order of ``ITEM_IDS`` (their ids in the data file and in actions)."""

    CRYSTAL = 0
    EYE = 1
    BRUSH = 2
    SWORD = 3
    STONE = 4
    MIRROR = 5
    ORB = 6
    HERB = 7


ITEM_IDS: tuple[str, ...] = ("crystal", "eye", "brush", "sword", "stone", "mirror", "orb", "herb")
CRYSTAL, EYE, BRUSH, SWORD, STONE, MIRROR, ORB, HERB = Item
AUTO_ITEMS = frozenset({CRYSTAL, HERB})  # 取得時自動発動: resolve when taken
NO_ITEM = -1
USE_ITEMS: tuple[str, ...] = ("eye", "sword", "stone", "mirror", "orb")  # used by 'use <item>' ('use brush <colour>')
