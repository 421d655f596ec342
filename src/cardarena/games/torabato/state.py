"""The ToraBato position: its fields, declared once, the initial position, and the state protocol.

The rules are functions in :mod:`.rules`; what a seat may know is in :mod:`.views`. Seat 0 is player A (spades,
clubs), seat 1 player B (hearts, diamonds).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...engine import Rng, State
from ...engine.fields import copied, nested, shared
from . import rules, views
from .constants import CARDS_PER_SEAT, HAND_SIZE, NUM_CARDS, OVER, REVEAL, Phase
from .rules import board, knowledge
from .rules.turns import to_act

if TYPE_CHECKING:
    from .game import ToraBatoGame


class ToraBatoState(State):
    """A ToraBato position. The card table and the options live on the game (``self.game``)."""

    game: ToraBatoGame
    rng: Rng
    turn_no: int  # 0 during the first-player reveal
    active: int  # the seat whose turn it is
    first: int  # the first player, -1 before the reveal decides
    phase: Phase
    priority: int  # the seat with priority in a priority step
    passes: int  # 1 once the other player has passed in succession
    deck: list[list[int]]  # per seat, the top is the last card
    hand: list[list[int]]
    discard: list[list[int]]
    mana: list[list[int]]  # face-down mana cards
    tapped_mana: list[int]  # per seat, how many mana cards are tapped
    pool: list[int]  # per seat, mana gained this turn (5)
    mana_set: bool
    attacked: bool
    field: list[list[int]]  # soldiers, per seat
    tapped: list[bool]  # per card id
    damage: list[int]
    atk_boost: list[int]
    hp_boost: list[int]
    entered: list[int]  # per card id: the turn it entered the field
    flags: list[int]  # per card id: UNBLOCKABLE_FLAG | ZEROED | TAPPED_THIS_TURN
    stack: list[tuple[int, int, int, int]]  # (Source, card, controller, target); the top is the last
    pending: tuple[Any, int] | None  # (Pending, seat): a choice while an effect resolves
    attackers: list[int]
    blocks: list[tuple[int, int]]  # (blocker, attacker)
    assigned: list[tuple[int, int]]  # (attacker, blocker): one point of damage each
    reveals: list[list[int]]  # per seat, the cards put down in the first-player reveal
    redeals: int
    known: list[list[int]]  # per seat, cards in hand or mana whose identity every player knows
    placements: list[knowledge.Placements]  # per seat, where the known cards can be (tuples, never changed)
    result: list[float] | None
    end_reason: str

    FIELDS = (
        *copied("rng"),
        *shared("turn_no", "active", "first", "phase", "priority", "passes"),
        *nested("deck", "hand", "discard", "mana"),
        *copied("tapped_mana", "pool"),
        *shared("mana_set", "attacked"),
        *nested("field"),
        *copied("tapped", "damage", "atk_boost", "hp_boost", "entered", "flags", "stack"),
        *shared("pending"),
        *copied("attackers", "blocks", "assigned"),
        *nested("reveals"),
        *shared("redeals"),
        *nested("known"),
        *copied("placements"),
        *shared("result", "end_reason"),
    )
    if TYPE_CHECKING:  # derived from FIELDS by the kernel
        clone: Callable[[], ToraBatoState]
        snapshot: Callable[[], dict[str, Any]]

    def __init__(self, game: ToraBatoGame, seed: int) -> None:
        super().__init__(game, seed)
        self.rng = Rng(seed)
        self.turn_no = 0
        self.active = 0
        self.first = -1
        self.phase = REVEAL
        self.priority = 0
        self.passes = 0
        self.deck = []
        for seat in (0, 1):
            deck = list(range(seat * CARDS_PER_SEAT, (seat + 1) * CARDS_PER_SEAT))
            self.rng.shuffle(deck)
            self.deck.append(deck)
        self.hand = [[], []]
        self.discard = [[], []]
        self.mana = [[], []]
        self.tapped_mana = [0, 0]
        self.pool = [0, 0]
        self.mana_set = False
        self.attacked = False
        self.field = [[], []]
        self.tapped = [False] * NUM_CARDS
        self.damage = [0] * NUM_CARDS
        self.atk_boost = [0] * NUM_CARDS
        self.hp_boost = [0] * NUM_CARDS
        self.entered = [0] * NUM_CARDS
        self.flags = [0] * NUM_CARDS
        self.stack = []
        self.pending = None
        self.attackers = []
        self.blocks = []
        self.assigned = []
        self.reveals = [[], []]
        self.redeals = 0
        self.known = [[], []]
        self.placements = [knowledge.NOTHING_KNOWN, knowledge.NOTHING_KNOWN]
        self.result = None
        self.end_reason = ""
        for seat in (0, 1):
            board.draw(self, seat, HAND_SIZE)

    # -- the protocol --------------------------------------------------------------------------------------------
    current_player = property(to_act)

    @property
    def turn(self) -> int:
        return max(self.turn_no, 1)

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        return list(self.result) if self.result is not None else [0.0, 0.0]

    # The rules are functions of a state: these methods are those functions (no extra call on the hot path).
    _legal_actions = rules.legal_actions
    why_not = rules.why_not
    _apply = rules.apply

    def observation(self, seat: int | None) -> dict[str, Any]:
        return views.observation(self, seat)

    def resample(self, seat: int, rng: Rng | random.Random | int) -> ToraBatoState:
        return views.resample(self, seat, rng)

    # -- facts the table and the tests read ----------------------------------------------------------------------
    def available_mana(self, seat: int) -> int:
        return board.available_mana(self, seat)

    def attack_of(self, card: int) -> int:
        return board.attack_of(self, card)

    def health_of(self, card: int) -> int:
        return board.health_of(self, card)

    def is_sick(self, card: int) -> bool:
        return board.is_sick(self, card)

    def known_in_hand(self, seat: int) -> list[int]:
        return views.known_in_hand(self, seat)

    def known_in_mana(self, seat: int) -> list[int]:
        return views.known_in_mana(self, seat)
