"""Laplaplace's enums and fixed numbers: a leaf that every module of the game may import.

Enums are ``StrEnum`` where their values are what observations, records and the data file show (a member equals
its text: ``Phase.SHOW == "show"``); module-level aliases serve the hot paths. The numbers are ``Final``: the
compiled rules (mypyc) use them as constants.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Final


class Scene(StrEnum):
    """The build scene (option ``build``): how the two builds are made."""

    BLIND = "blind"  # secret builds of 0-8 cards
    OPEN = "open"  # 4 open cards shown, then 4 hidden ones added
    LEAGUE = "league"  # both builds read from files


class Phase(StrEnum):
    """Where a position is: showing open cards, adding cards, or over (the battle was fought)."""

    SHOW = "show"
    BUILD = "build"
    OVER = "over"


class Kind(StrEnum):
    """The first word of an action."""

    ADD = "add"  # the next card of the build, top first
    SHOW = "show"  # an open card (open scene)
    DONE = "done"  # the build is complete


class Identical(StrEnum):
    """What identical builds give (option ``identical``)."""

    DRAW = "draw"  # the rule
    COIN = "coin"  # a seeded coin, for tournaments that must have a winner


class Timing(StrEnum):
    """When an ability works: ``<A>`` action, ``<E:…>`` event, ``<ビルド>`` build, ``<常態>`` always on."""

    ACTION = "action"
    EVENT = "event"
    BUILD = "build"
    CONST = "const"


class Stage(IntEnum):
    """Order of the events answering one damage hit: increases, reductions, reflection, then the rest."""

    INCREASE = 0
    REDUCTION = 1
    REFLECTION = 2
    OTHER = 3


BLIND, OPEN, LEAGUE = Scene.BLIND, Scene.OPEN, Scene.LEAGUE
SHOW_PHASE, BUILD_PHASE, OVER = Phase.SHOW, Phase.BUILD, Phase.OVER
ADD, SHOW, DONE_KIND = Kind.ADD, Kind.SHOW, Kind.DONE
ACTION, EVENT, BUILD, CONST = Timing.ACTION, Timing.EVENT, Timing.BUILD, Timing.CONST
INCREASE, REDUCTION, REFLECTION, OTHER = Stage.INCREASE, Stage.REDUCTION, Stage.REFLECTION, Stage.OTHER

MAX_CARDS: Final = 8  # a build holds 0-8 cards
OPEN_CARDS: Final = 4  # オープンカード: 4 shown, then 4 hidden ones added
JUDGE_TURN: Final = 30  # バトルが30ターンを超えたら: the judgement after turn 30
FIRING_CAP: Final = 200  # safety net per action phase; the rules should never need it (counted in Outcome)
# Safety nets for events, needed only by card files whose events can trigger themselves without end (e.g. a
# [ダウンレス] event that makes a target list on <E:my_target_list>): an event nested deeper than NEST_CAP, or
# beyond EVENT_CAP event firings in one phase, does not fire (counted in Outcome, like FIRING_CAP).
NEST_CAP: Final = 60
EVENT_CAP: Final = 1000

NUMBERS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
CATEGORIES = ("core", "damage", "disruption", "defence", "support")
