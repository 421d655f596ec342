"""Lyabi's enums and fixed numbers: a leaf module (it imports nothing of the game).

The rules use the plain ``Final`` numbers and words (``P_MAIN``, ``PASS_K``, ``CRYSTAL``), which compiled code (mypyc)
inlines and compares natively; the enums (``Phase``, ``Kind``, ``Item``) are built from them, equal to them, for
whoever wants names. A state's ``phase`` is the plain number.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Final

# The decision phases (aliases with a P_ prefix: several phases share their name with an item: the eye, the brush...).
P_DRAW: Final = 0
P_MAIN: Final = 1
P_ITEM: Final = 2
P_ORDER: Final = 3
P_EYE: Final = 4
P_SET: Final = 5
P_BRUSH: Final = 6
P_MIRROR: Final = 7
P_SWORD: Final = 8
P_OVER: Final = 9


class Phase(IntEnum):
    """The decision phases of a turn. The item windows (``DRAW``, ``EYE``, ``BRUSH``, ``MIRROR``, ``SWORD``) ask
    every holder of a face-down item, so that being asked reveals nothing about which item they hold."""

    DRAW = P_DRAW
    MAIN = P_MAIN
    ITEM = P_ITEM
    ORDER = P_ORDER  # the Mysterious Crystal's ordering
    EYE = P_EYE
    SET = P_SET
    BRUSH = P_BRUSH
    MIRROR = P_MIRROR
    SWORD = P_SWORD
    OVER = P_OVER

    @property
    def text(self) -> str:
        """The phase's word, as the observation shows it."""
        return PHASE_NAMES[self]


PHASE_NAMES: Final = ("draw", "main", "item", "crystal", "eye", "set", "brush", "mirror", "sword", "over")

# The first word of an action.
PASS_K: Final = "pass"
DECLINE_K: Final = "decline"
BUY_K: Final = "buy"
SPLIT_K: Final = "split"
PLACE_K: Final = "place"
USE_K: Final = "use"
ITEM_K: Final = "item"
ORDER_K: Final = "order"
SET_K: Final = "set"


class Kind(StrEnum):
    """The first word of an action."""

    PASS = PASS_K
    DECLINE = DECLINE_K
    BUY = BUY_K
    SPLIT = SPLIT_K
    PLACE = PLACE_K
    USE = USE_K
    ITEM = ITEM_K
    ORDER = ORDER_K
    SET = SET_K


COLOURS: Final[tuple[str, ...]] = ("blue", "green", "red")
# BEATS[c] is the colour that colour c beats: blue beats red, red beats green, green beats blue (rulebook).
BEATS: Final[tuple[int, ...]] = (2, 0, 1)

# The eight items, in the order of ``ITEM_IDS`` (their ids in the data file and in actions).
CRYSTAL: Final = 0
EYE: Final = 1
BRUSH: Final = 2
SWORD: Final = 3
STONE: Final = 4
MIRROR: Final = 5
ORB: Final = 6
HERB: Final = 7


class Item(IntEnum):
    """The eight items, in the order of ``ITEM_IDS`` (their ids in the data file and in actions)."""

    CRYSTAL = CRYSTAL
    EYE = EYE
    BRUSH = BRUSH
    SWORD = SWORD
    STONE = STONE
    MIRROR = MIRROR
    ORB = ORB
    HERB = HERB


ITEM_IDS: Final[tuple[str, ...]] = ("crystal", "eye", "brush", "sword", "stone", "mirror", "orb", "herb")
AUTO_ITEMS: Final = frozenset({CRYSTAL, HERB})  # 取得時自動発動: resolve when taken
NO_ITEM: Final = -1
# The items used by 'use <item>' (the brush: 'use brush <colour>').
USE_ITEMS: Final[tuple[str, ...]] = ("eye", "sword", "stone", "mirror", "orb")
