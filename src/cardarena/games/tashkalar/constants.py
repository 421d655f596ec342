"""Tash-Kalar's enums and fixed numbers: a leaf module that everything in the package may import.

Hot paths use the module-level aliases of the enum members (``MAIN = Phase.MAIN``), which compare at int speed.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum


class Phase(IntEnum):
    """The moment of a turn: what kind of decision the seat to act makes now."""

    SETUP = 0  # duel setup: the second player chooses the square of their own first common
    MAIN = 1  # the turn player's actions, flares and end of turn
    EFFECT = 2  # an effect waits for a choice
    BOTTOM = 3  # after the discard action: put cards under their decks, or skip
    RECALL_PLACE = 4  # out of units: place the piece just taken back
    SUMMON_RECALL = 5  # out of units while summoning: take back a piece outside the pattern
    OVER = 6  # the game is over
    PICK = 7  # melee: choose the colour to score a point in
    CLAIM = 8  # High Form: claim a task at the end of the turn, or skip
    MELEE_SETUP = 9  # melee: put the setup commons


#: the phase names as the observation and the board picture show them
PHASE_NAMES = (
    "setup",
    "main",
    "effect",
    "bottom",
    "recall-place",
    "summon-recall",
    "over",
    "pick-colour",
    "claim-task",
    "melee-setup",
)


class Kind(StrEnum):
    """The first word of an action's text."""

    PLACE = "place"
    RECALL = "recall"
    SUMMON = "summon"
    DISCARD = "discard"
    BOTTOM = "bottom"
    FLARE = "flare"
    CHOOSE = "choose"
    MOVE = "move"
    OPTION = "option"
    TAKE = "take"
    SKIP = "skip"
    END = "end"
    RESIGN = "resign"
    HANDOVER = "handover"
    CLAIM = "claim"
    SCORE = "score"
    SETUP = "setup"


class PickThen(IntEnum):
    """What follows a melee colour pick: the legend's effect, or the rest of the end of turn."""

    LEGEND = 0
    END = 1


SETUP, MAIN, EFFECT, BOTTOM, RECALL_PLACE, SUMMON_RECALL, OVER, PICK, CLAIM, MELEE_SETUP = Phase
PICK_LEGEND, PICK_END = PickThen
DECKS = ("school", "legend", "flare")
