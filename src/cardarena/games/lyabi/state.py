"""A Lyabi position: its fields, declared once, and the state protocol delegating to ``rules/`` and ``views``.

Cards are small integers: a ryabi kind indexes the card set's ``r_*`` tables, a magic circle its ``c_*`` tables,
an item ``ITEM_IDS``. A deck is a list whose end is its top. Every decision the rules ask for mid-turn (an item
timing, a crystal's order, a hidden battle set) is a phase of this state, never a callback.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...engine import Rng, State
from ...engine.fields import copied, nested, shared
from . import rules, views
from .constants import NO_ITEM, P_DRAW, Phase

if TYPE_CHECKING:
    from .game import LyabiGame


class LyabiState(State):
    """A Lyabi position. Seats 0 and 1; ``first`` is the first (priority) player chosen by the triangle."""

    game: LyabiGame
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
    if TYPE_CHECKING:  # derived from FIELDS by the kernel
        clone: Callable[[], LyabiState]
        snapshot: Callable[[], dict[str, Any]]

    def __init__(self, game: LyabiGame, seed: int) -> None:
        super().__init__(game, seed)
        c = game.cards
        self.rng = Rng(seed)
        self.turn_no = 0
        self.phase: Phase = P_DRAW
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
    _legal_actions = rules.legal_actions
    why_not = rules.why_not
    _apply = rules.apply  # type: ignore[assignment]  # State.apply passes only this game's own actions

    def observation(self, seat: int | None) -> dict[str, Any]:
        return views.observation(self, seat)

    def resample(self, seat: int, rng: Rng | random.Random | int) -> LyabiState:
        return views.resample(self, seat, Rng.coerce(rng))
