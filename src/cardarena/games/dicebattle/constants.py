"""Enums and fixed numbers of the rules: a leaf that every module of the game may import.

The hot paths use the module-level aliases (``DICE = Phase.DICE``), which compare at int (or str) speed.
"""

from __future__ import annotations

import enum
from typing import Any


class Phase(enum.IntEnum):
    """Who is waiting on what. PENALTY: the opponent of a player whose deck ran out decides on the penalty draw,
    in the middle of whatever emptied the deck (the rest waits as frames, see ``Frame``). RESOLVING is never
    seen from outside: the rules are carrying out those frames after the decision."""

    DICE = 0
    ORDER = 1
    CHOICE = 2
    REVIVE = 3
    OVER = 4
    PENALTY = 5
    RESOLVING = 6

    @property
    def label(self) -> str:
        """The word observations and snapshots use: ``"dice"``, ``"penalty"``..."""
        return self.name.lower()


class Zone(enum.IntEnum):
    """Where a queued effect comes from: the main zone, the magic circle, or a grant in the stock zone."""

    MAIN = 0
    CIRCLE = 1
    STOCK = 2

    @property
    def label(self) -> str:
        return self.name.lower()


class CardKind(enum.IntEnum):
    """A card's type, as the rules tables hold it (the data files spell it ``human``, ``monster``, ``magic``)."""

    HUMAN = 0
    MONSTER = 1
    MAGIC = 2


class Kind(enum.StrEnum):
    """Action kinds: the first word of an action's text. The first seven take no card; the others take one."""

    MIRACLE = "miracle"
    DONE = "done"
    REDRAW = "redraw"
    TOKEN = "token"
    PASS = "pass"
    DRAW = "draw"  # the opponent's deck ran out: draw 1 card as the penalty
    DECLINE = "decline"  # ... or do not
    SET = "set"
    MAGIC = "magic"
    GRANT = "grant"
    USE = "use"
    SKIP = "skip"
    FIRST = "first"
    REVIVE = "revive"


PLAIN_KINDS = (Kind.MIRACLE, Kind.DONE, Kind.REDRAW, Kind.TOKEN, Kind.PASS, Kind.DRAW, Kind.DECLINE)
CARD_KINDS = (Kind.SET, Kind.MAGIC, Kind.GRANT, Kind.USE, Kind.SKIP, Kind.FIRST, Kind.REVIVE)


class EffectType(enum.StrEnum):
    """選択 (the owner chooses), 強制 (fires when its condition holds), 永続 (a grant that fires every battle)."""

    CHOICE = "choice"
    FORCED = "forced"
    PERMANENT = "permanent"


class Step(enum.StrEnum):
    """Work interrupted by a penalty decision, carried out in order once it is taken (innermost first)::

    (DRAW, seat, n)        seat draws n more cards
    (MILL, seat, n)        n more cards go from seat's deck to its graveyard
    (OPS, entry, k)        the effect of ``entry`` goes on from its operation k
    (ADVANCE,)             the battle goes on with the next effect in the queue
    (DRAW_PHASE, k)        the draw phase goes on with the k-th player of the round (0: first, 1: second)
    (DICE, seat)           seat's dice phase goes on (after a redraw)
    """

    DRAW = "draw"
    MILL = "mill"
    OPS = "ops"
    ADVANCE = "advance"
    DRAW_PHASE = "draw_phase"
    DICE = "dice"


# Aliases for the hot paths.
DICE, ORDER, CHOICE, REVIVE, OVER, PENALTY, RESOLVING = Phase
MAIN, CIRCLE, STOCK = Zone
KIND_HUMAN, KIND_MONSTER, KIND_MAGIC = CardKind
(
    A_MIRACLE,
    A_DONE,
    A_REDRAW,
    A_TOKEN,
    A_PASS,
    A_DRAW,
    A_DECLINE,
    A_SET,
    A_MAGIC,
    A_GRANT,
    A_USE,
    A_SKIP,
    A_FIRST,
    A_REVIVE,
) = Kind
STEP_DRAW, STEP_MILL, STEP_OPS, STEP_ADVANCE, STEP_DRAW_PHASE, STEP_DICE = Step
KIND_NONE = -1  # main_kind of the dice token, or of an empty main zone
CHOICE_EFFECT, FORCED, PERMANENT = EffectType

HAND_SIZE = 5  # デッキの上からカードを5枚引きます
MAX_REDRAWS = 3  # 引き直しは3回まで
DRAWS_LOSER, DRAWS_WINNER, DRAWS_TIE = 3, 2, 2  # ドローフェイズ
STARS_TO_WIN = 3
TOKEN_LEVEL = 1  # サイコロトークン (Lv1, no effect)
DECK_SIZE = 30
MAX_COPIES = 2
NO_CARD = -1  # no grant set this round

# Battle queue entries are tuples (level, owner, card, zone).
Entry = tuple[int, int, int, Zone]
# A frame of interrupted work: (Step, ...), see ``Step``.
Frame = tuple[Any, ...]
