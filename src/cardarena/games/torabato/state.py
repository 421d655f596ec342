"""The ToraBato position: its fields, declared once, the initial position, and the state protocol.

The rules are functions in :mod:`.rules`; what a seat may know is in :mod:`.views`. Seat 0 is player A (spades,
clubs), seat 1 player B (hearts, diamonds).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...engine import Action, Rng, State
from ...engine.fields import copied, nested, shared
from . import views
from .constants import CARDS_PER_SEAT, HAND_SIZE, NUM_CARDS, OVER, REVEAL, Phase
from .rules import board, dispatch, knowledge
from .rules.turns import to_act

if TYPE_CHECKING:
    from .game import ToraBatoGame  # noqa: F401  (the class names it as its base: State["ToraBatoGame"])


class ToraBatoState(State["ToraBatoGame"]):
    """A ToraBato position. The card table and the options live on the game (``self.game``)."""

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

    # -- clone: written from FIELDS by `make clones` (cardarena.engine.fields); do not edit by hand --
    def clone(self) -> ToraBatoState:
        """An independent copy, field by field as ToraBatoState.FIELDS says."""
        c = ToraBatoState(self.game, self.seed)
        c.history = self.history.copy()
        c._legal = self._legal
        if self._no_record is not None:
            c._resampled = self._resampled
            c._no_record = self._no_record
        c.rng = self.rng.copy()
        c.turn_no = self.turn_no
        c.active = self.active
        c.first = self.first
        c.phase = self.phase
        c.priority = self.priority
        c.passes = self.passes
        c.deck = [x.copy() for x in self.deck]
        c.hand = [x.copy() for x in self.hand]
        c.discard = [x.copy() for x in self.discard]
        c.mana = [x.copy() for x in self.mana]
        c.tapped_mana = self.tapped_mana.copy()
        c.pool = self.pool.copy()
        c.mana_set = self.mana_set
        c.attacked = self.attacked
        c.field = [x.copy() for x in self.field]
        c.tapped = self.tapped.copy()
        c.damage = self.damage.copy()
        c.atk_boost = self.atk_boost.copy()
        c.hp_boost = self.hp_boost.copy()
        c.entered = self.entered.copy()
        c.flags = self.flags.copy()
        c.stack = self.stack.copy()
        c.pending = self.pending
        c.attackers = self.attackers.copy()
        c.blocks = self.blocks.copy()
        c.assigned = self.assigned.copy()
        c.reveals = [x.copy() for x in self.reveals]
        c.redeals = self.redeals
        c.known = [x.copy() for x in self.known]
        c.placements = self.placements.copy()
        c.result = self.result
        c.end_reason = self.end_reason
        return c

    # -- end of the written clone --

    def start(self) -> None:
        """Lay out the initial position (``new_initial_state`` builds the state, then calls this)."""
        seed = self.seed
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
    @property
    def current_player(self) -> int | None:
        return to_act(self)

    @property
    def turn(self) -> int:
        return max(self.turn_no, 1)

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        return list(self.result) if self.result is not None else [0.0, 0.0]

    # The rules are functions of a state: these methods are those functions (no extra call on the hot path).
    def _legal_actions(self) -> Sequence[Action]:
        return dispatch.legal_actions(self)

    def why_not(self, action: Action) -> str | None:
        return dispatch.why_not(self, action)

    def _apply(self, action: Action) -> None:
        dispatch.apply(self, action)

    def observation(self, seat: int | None) -> dict[str, Any]:
        return views.observation(self, seat)

    def _resample(self, seat: int, rng: Rng | random.Random | int) -> ToraBatoState:
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
