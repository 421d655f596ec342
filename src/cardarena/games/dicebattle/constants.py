"""Enums and fixed numbers of the rules: a leaf that every module of the game may import.

The hot paths use the module-level aliases (``DICE = Phase.DICE``), which compare at int (or str) speed.
"""

from __future__ import annotations

import enum
from typing import Any, Final


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
    """A card's type (the data files spell it ``human``, ``monster``, ``magic``); the rules tables hold its value as
    a plain int (``KIND_HUMAN``...)."""

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


# Aliases for the hot paths: Final, so that compiled modules read them as constants, not as module attributes.
DICE: Final = Phase.DICE
ORDER: Final = Phase.ORDER
CHOICE: Final = Phase.CHOICE
REVIVE: Final = Phase.REVIVE
OVER: Final = Phase.OVER
PENALTY: Final = Phase.PENALTY
RESOLVING: Final = Phase.RESOLVING
MAIN: Final = Zone.MAIN
CIRCLE: Final = Zone.CIRCLE
STOCK: Final = Zone.STOCK
# Card kinds as the rules tables hold them (``Tables.kind``): CardKind's values as plain ints, which compiled code
# compares without a call.
KIND_HUMAN: Final = 0
KIND_MONSTER: Final = 1
KIND_MAGIC: Final = 2
assert tuple(CardKind) == (KIND_HUMAN, KIND_MONSTER, KIND_MAGIC)
A_MIRACLE: Final = Kind.MIRACLE
A_DONE: Final = Kind.DONE
A_REDRAW: Final = Kind.REDRAW
A_TOKEN: Final = Kind.TOKEN
A_PASS: Final = Kind.PASS
A_DRAW: Final = Kind.DRAW
A_DECLINE: Final = Kind.DECLINE
A_SET: Final = Kind.SET
A_MAGIC: Final = Kind.MAGIC
A_GRANT: Final = Kind.GRANT
A_USE: Final = Kind.USE
A_SKIP: Final = Kind.SKIP
A_FIRST: Final = Kind.FIRST
A_REVIVE: Final = Kind.REVIVE
STEP_DRAW: Final = Step.DRAW
STEP_MILL: Final = Step.MILL
STEP_OPS: Final = Step.OPS
STEP_ADVANCE: Final = Step.ADVANCE
STEP_DRAW_PHASE: Final = Step.DRAW_PHASE
STEP_DICE: Final = Step.DICE
KIND_NONE: Final = -1  # main_kind of the dice token, or of an empty main zone
CHOICE_EFFECT: Final = EffectType.CHOICE
FORCED: Final = EffectType.FORCED
PERMANENT: Final = EffectType.PERMANENT

HAND_SIZE: Final = 5  # デッキの上からカードを5枚引きます
MAX_REDRAWS: Final = 3  # 引き直しは3回まで
DRAWS_LOSER: Final = 3  # ドローフェイズ
DRAWS_WINNER: Final = 2
DRAWS_TIE: Final = 2
STARS_TO_WIN: Final = 3
TOKEN_LEVEL: Final = 1  # サイコロトークン (Lv1, no effect)
DECK_SIZE: Final = 30
MAX_COPIES: Final = 2
NO_CARD: Final = -1  # no grant set this round

# Battle queue entries are tuples (level, owner, card, zone).
Entry = tuple[int, int, int, Zone]
# A frame of interrupted work: (Step, ...), see ``Step``.
Frame = tuple[Any, ...]
