"""Tash-Kalar's enums and fixed numbers: a leaf module that everything in the package may import.

Hot paths use the module-level constants (``MAIN``, ``PLACE_K``): plain ``Final`` numbers and words, which the enums
are built from, so the compiled rules inline them, and a state holds its phase as a plain int in both builds.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Final

# the phases (see Phase)
SETUP: Final = 0
MAIN: Final = 1
EFFECT: Final = 2
BOTTOM: Final = 3
RECALL_PLACE: Final = 4
SUMMON_RECALL: Final = 5
OVER: Final = 6
PICK: Final = 7
CLAIM: Final = 8
MELEE_SETUP: Final = 9


class Phase(IntEnum):
    """The moment of a turn: what kind of decision the seat to act makes now."""

    SETUP = SETUP  # duel setup: the second player chooses the square of their own first common
    MAIN = MAIN  # the turn player's actions, flares and end of turn
    EFFECT = EFFECT  # an effect waits for a choice
    BOTTOM = BOTTOM  # after the discard action: put cards under their decks, or skip
    RECALL_PLACE = RECALL_PLACE  # out of units: place the piece just taken back
    SUMMON_RECALL = SUMMON_RECALL  # out of units while summoning: take back a piece outside the pattern
    OVER = OVER  # the game is over
    PICK = PICK  # melee: choose the colour to score a point in
    CLAIM = CLAIM  # High Form: claim a task at the end of the turn, or skip
    MELEE_SETUP = MELEE_SETUP  # melee: put the setup commons


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


# the first words of actions (see Kind)
PLACE_K: Final = "place"
RECALL_K: Final = "recall"
SUMMON_K: Final = "summon"
DISCARD_K: Final = "discard"
BOTTOM_K: Final = "bottom"
FLARE_K: Final = "flare"
CHOOSE_K: Final = "choose"
MOVE_K: Final = "move"
OPTION_K: Final = "option"
TAKE_K: Final = "take"
SKIP_K: Final = "skip"
END_K: Final = "end"
RESIGN_K: Final = "resign"
HANDOVER_K: Final = "handover"
CLAIM_K: Final = "claim"
SCORE_K: Final = "score"
SETUP_K: Final = "setup"


class Kind(StrEnum):
    """The first word of an action's text."""

    PLACE = PLACE_K
    RECALL = RECALL_K
    SUMMON = SUMMON_K
    DISCARD = DISCARD_K
    BOTTOM = BOTTOM_K
    FLARE = FLARE_K
    CHOOSE = CHOOSE_K
    MOVE = MOVE_K
    OPTION = OPTION_K
    TAKE = TAKE_K
    SKIP = SKIP_K
    END = END_K
    RESIGN = RESIGN_K
    HANDOVER = HANDOVER_K
    CLAIM = CLAIM_K
    SCORE = SCORE_K
    SETUP = SETUP_K


PICK_LEGEND: Final = 0
PICK_END: Final = 1


class PickThen(IntEnum):
    """What follows a melee colour pick: the legend's effect, or the rest of the end of turn."""

    LEGEND = PICK_LEGEND
    END = PICK_END


DECKS = ("school", "legend", "flare")
