"""A Lyabi position: its fields, declared once, and the state protocol delegating to ``rules/`` and ``views``.

Cards are small integers: a ryabi kind indexes the card set's ``r_*`` tables, a magic circle its ``c_*`` tables,
an item ``ITEM_IDS``. A deck is a list whose end is its top. Every decision the rules ask for mid-turn (an item
timing, a crystal's order, a hidden battle set) is a phase of this state, never a callback.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...engine import Action, Rng, State
from ...engine.fields import copied, nested, shared
from . import views
from .constants import NO_ITEM, P_DRAW
from .rules import protocol as rules

if TYPE_CHECKING:
    from .game import LyabiGame  # noqa: F401  (the class names it as its base: State["LyabiGame"])


class LyabiState(State["LyabiGame"]):
    """A Lyabi position. Seats 0 and 1; ``first`` is the first (priority) player chosen by the triangle."""

    FIELDS = (
        *copied("rng"),
        *shared("turn_no", "phase", "actor", "first", "order"),
        *copied("hp"),
        *nested("deck", "hand", "public_hand", "discard", "field"),
        *copied("item", "supply"),
        *shared("supply_mask"),
        *nested("piles"),
        *shared("pile_mask"),
        *copied("item_pile", "removed_ryabi", "removed_circles", "removed_items", "draw_to", "known_top"),
        *shared("actions_left", "main_used"),
        *copied("queue", "battling", "sets"),
        *shared("revealed"),
        *copied("colour"),
        *shared("winner", "pending"),
        *copied("eye_seen"),
        *shared("last_battle", "result", "end_reason"),
    )

    # -- clone: written from FIELDS by `make clones` (cardarena.engine.fields); do not edit by hand --
    def clone(self) -> LyabiState:
        """An independent copy, field by field as LyabiState.FIELDS says."""
        c = LyabiState(self.game, self.seed)
        c.history = self.history.copy()
        c._legal = self._legal
        if self._no_record is not None:
            c._resampled = self._resampled
            c._no_record = self._no_record
        c.rng = self.rng.copy()
        c.turn_no = self.turn_no
        c.phase = self.phase
        c.actor = self.actor
        c.first = self.first
        c.order = self.order
        c.hp = self.hp.copy()
        c.deck = [x.copy() for x in self.deck]
        c.hand = [x.copy() for x in self.hand]
        c.public_hand = [x.copy() for x in self.public_hand]
        c.discard = [x.copy() for x in self.discard]
        c.field = [x.copy() for x in self.field]
        c.item = self.item.copy()
        c.supply = self.supply.copy()
        c.supply_mask = self.supply_mask
        c.piles = [x.copy() for x in self.piles]
        c.pile_mask = self.pile_mask
        c.item_pile = self.item_pile.copy()
        c.removed_ryabi = self.removed_ryabi.copy()
        c.removed_circles = self.removed_circles.copy()
        c.removed_items = self.removed_items.copy()
        c.draw_to = self.draw_to.copy()
        c.known_top = self.known_top.copy()
        c.actions_left = self.actions_left
        c.main_used = self.main_used
        c.queue = self.queue.copy()
        c.battling = self.battling.copy()
        c.sets = self.sets.copy()
        c.revealed = self.revealed
        c.colour = self.colour.copy()
        c.winner = self.winner
        c.pending = self.pending
        c.eye_seen = self.eye_seen.copy()
        c.last_battle = self.last_battle
        c.result = self.result
        c.end_reason = self.end_reason
        return c

    # -- end of the written clone --

    def start(self) -> None:
        """Lay out the initial position (``new_initial_state`` builds the state, then calls this)."""
        game, seed = self.game, self.seed
        c = game.cards
        self.rng = Rng(seed)
        self.turn_no = 0
        self.phase: int = P_DRAW
        self.actor = 0
        self.first = 0
        self.order = (0, 1)
        self.hp = [c.starting_hp, c.starting_hp]
        self.deck: list[list[int]] = [[], []]
        self.hand: list[list[int]] = [[], []]
        # Cards every seat knows to be in a hand (before any hidden set): the initial hand printed on the face-up
        # circle, and the cards drawn before a mid-draw reshuffle (a deck's contents are public at each draw).
        self.public_hand: list[list[int]] = [[], []]
        self.discard: list[list[int]] = [[], []]
        self.field: list[list[int]] = [[], []]
        self.item = [NO_ITEM, NO_ITEM]
        self.supply = list(c.r_count)
        self.supply_mask = 0  # bit k: the supply of ryabi k is not empty
        self.piles: list[list[int]] = [[] for _ in c.levels]
        self.pile_mask = 0  # bit i: the face-down circle pile of level i is not empty
        self.item_pile: list[int] = []
        self.removed_ryabi = [0] * c.num_kinds
        self.removed_circles: list[int] = []
        self.removed_items: list[int] = []
        self.draw_to = [c.hand_size, c.hand_size]
        self.known_top = [0, 0]  # how many top cards of its own deck each seat knows (Mysterious Crystal)
        self.actions_left = 0
        self.main_used = 0
        self.queue: list[int] = []
        self.battling = [False, False]
        self.sets: list[tuple[int, ...] | None] = [None, None]  # () is the dummy
        self.revealed = False
        self.colour = [-1, -1]  # the battle attribute of each set after the reveal (-1: none)
        self.winner = -1
        self.pending = 0  # battle damage waiting on the Mirror of Desire / dealt before the Sword
        self.eye_seen: list[tuple[int, ...] | None] = [None, None]
        self.last_battle: dict[str, Any] | None = None
        self.result: list[float] | None = None
        self.end_reason = ""
        rules.start(self)

    # -- the protocol -------------------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return None if self.result is not None else self.actor

    @property
    def turn(self) -> int:
        return self.turn_no

    def is_terminal(self) -> bool:
        return self.result is not None

    def returns(self) -> list[float]:
        return list(self.result) if self.result is not None else [0.0, 0.0]

    # The rules' functions of a state, as its methods (no extra call on the hot path).
    def _legal_actions(self) -> Sequence[Action]:
        return rules.legal_actions(self)

    def why_not(self, action: Action) -> str | None:
        return rules.why_not(self, action)

    def _apply(self, action: Action) -> None:
        rules.apply(self, action)  # type: ignore[arg-type]  # State.apply passes only this game's own actions

    def observation(self, seat: int | None) -> dict[str, Any]:
        return views.observation(self, seat)

    def _resample(self, seat: int, rng: Rng | random.Random | int) -> LyabiState:
        return views.resample(self, seat, Rng.coerce(rng))
