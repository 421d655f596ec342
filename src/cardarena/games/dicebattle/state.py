"""The state of a game of Dice Battle Monsters: its fields, declared once, and the protocol, delegating to
:mod:`.rules` (what may be done and what it does) and :mod:`.views` (what a seat may know)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardarena.engine import Action, Rng, State
from cardarena.engine.fields import copied, nested, shared

from . import rules, views
from .constants import DICE, HAND_SIZE, NO_CARD, OVER, Phase
from .rules.deck import draw
from .rules.log import event, log_snapshot
from .rules.turns import start_round

if TYPE_CHECKING:
    from .constants import Entry, Frame
    from .game import DiceBattleGame  # noqa: F401  (the class names it as its base: State["DiceBattleGame"])
    from .rules.log import Log


class Side:
    """One player's cards and counters. Lists of card indices; a deck's top is its end."""

    __slots__ = (
        "cancelled",
        "circle",
        "deck",
        "fired",
        "grant",
        "grave",
        "hand",
        "keep",
        "known",
        "main",
        "miracle",
        "mod",
        "redraws",
        "revival",
        "roll",
        "stars",
        "stock",
        "stuck",
        "stuck_roll",
        "tie_win",
        "token",
        "used",
    )
    LISTS = ("deck", "hand", "grave", "main", "circle", "stock", "known", "keep", "fired", "used")

    def __init__(self, deck: list[int]) -> None:
        self.deck = deck
        self.hand: list[int] = []
        self.grave: list[int] = []
        self.main: list[int] = []  # face down until the battle phase
        self.circle: list[int] = []  # magic circle, face down until the battle phase
        self.grant = NO_CARD  # the grant set this round, face down until the battle phase
        self.stock: list[int] = []  # grants revealed and still waiting in the stock zone
        self.token = False  # the dice token is in the main zone
        self.stars = 0
        self.miracle = True  # 奇跡 face up
        self.revival = True  # 復活 face up
        self.roll = 0
        self.redraws = 0
        self.known: list[int] = []  # cards the opponent knows to be in this hand (revived, salvaged, kept)
        # After the dice token: at least ``stuck`` cards of this hand are known not to be units that fit a die of
        # ``stuck_roll`` (the hand that could set nothing), until this player's next dice phase.
        self.stuck = 0
        self.stuck_roll = 0
        # battle-phase scratch
        self.mod = 0
        self.cancelled = False
        self.tie_win = False
        self.keep: list[int] = []
        self.fired: list[int] = []  # grants fired this battle, to the graveyard at its end
        self.used: list[int] = []  # own cards used in the last battle (what Revival may take back)

    def copy(self) -> Side:
        s = Side.__new__(Side)
        s.deck = self.deck.copy()
        s.hand = self.hand.copy()
        s.grave = self.grave.copy()
        s.main = self.main.copy()
        s.circle = self.circle.copy()
        s.grant = self.grant
        s.stock = self.stock.copy()
        s.token = self.token
        s.stars = self.stars
        s.miracle = self.miracle
        s.revival = self.revival
        s.roll = self.roll
        s.redraws = self.redraws
        s.known = self.known.copy()
        s.stuck = self.stuck
        s.stuck_roll = self.stuck_roll
        s.mod = self.mod
        s.cancelled = self.cancelled
        s.tie_win = self.tie_win
        s.keep = self.keep.copy()
        s.fired = self.fired.copy()
        s.used = self.used.copy()
        return s

    def snapshot(self) -> dict[str, Any]:
        """Every field, JSON-ready (cards as indices into the game's card pool)."""
        return {name: (list(v) if isinstance(v := getattr(self, name), list) else v) for name in self.__slots__}


class DiceBattleState(State["DiceBattleGame"]):
    rng: Rng
    sides: list[Side]
    first: int  # the first player of this round
    round: int
    phase: Phase
    actor: int  # the seat the game waits on
    queue: list[Entry]  # effects still to resolve in this battle, in order
    current: Entry | None  # the choice effect waiting on use / skip
    after: tuple[Frame, ...]  # work waiting on a penalty decision, innermost first (see ``Step``)
    battle_winner: int  # of the last battle; -1: a tie
    winner: int | None  # at the end: 0, 1, or None for a draw
    log: Log  # the public events: (newest, older log), () when empty; shared by clones

    FIELDS = (
        *copied("rng"),
        *nested("sides"),
        *shared("first", "round", "phase", "actor"),
        *copied("queue"),
        *shared("current", "after", "battle_winner", "winner"),
        *shared("log", snapshot=log_snapshot),
    )

    # -- clone: written from FIELDS by `make clones` (cardarena.engine.fields); do not edit by hand --
    def clone(self) -> DiceBattleState:
        """An independent copy, field by field as DiceBattleState.FIELDS says."""
        c = DiceBattleState(self.game, self.seed)
        c.history = self.history.copy()
        c._legal = self._legal
        if self._no_record is not None:
            c._resampled = self._resampled
            c._no_record = self._no_record
        c.rng = self.rng.copy()
        c.sides = [x.copy() for x in self.sides]
        c.first = self.first
        c.round = self.round
        c.phase = self.phase
        c.actor = self.actor
        c.queue = self.queue.copy()
        c.current = self.current
        c.after = self.after
        c.battle_winner = self.battle_winner
        c.winner = self.winner
        c.log = self.log
        return c

    # -- end of the written clone --

    def start(self) -> None:
        """Lay out the initial position (``new_initial_state`` builds the state, then calls this)."""
        game, seed = self.game, self.seed
        self.rng = Rng(seed)
        self.sides = [Side(list(game.decks[0].cards)), Side(list(game.decks[1].cards))]
        self.first = 0
        self.round = 1
        self.phase = DICE
        self.actor = 0
        self.queue = []
        self.current = None
        self.after = ()
        self.battle_winner = -1
        self.winner = None
        self.log = ()
        # Setup: both shuffle and draw 5, then a seeded coin decides the first player.
        for seat, side in enumerate(self.sides):
            self.rng.shuffle(side.deck)
            draw(self, seat, HAND_SIZE)
        self.first = self.rng.randbelow(2)
        event(self, "first", self.first)
        start_round(self)

    # -- protocol
    @property
    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.actor

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        if self.phase != OVER or self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    @property
    def turn(self) -> int:
        return self.round

    # The rules are functions of the state (one call less on the hot path than a method that calls them).
    def _legal_actions(self) -> Sequence[Action]:
        return rules.legal_actions(self)

    def why_not(self, action: Action) -> str | None:
        return rules.why_not(self, action)

    def _apply(self, action: Action) -> None:
        rules.apply(self, action)

    def observation(self, seat: int | None) -> dict[str, Any]:
        return views.observation(self, seat)

    def _resample(self, seat: int, rng: Rng | random.Random | int) -> DiceBattleState:
        return views.resample(self, seat, Rng.coerce(rng))

    def events(self, limit: int | None = None) -> list[tuple[Any, ...]]:
        """Public events, oldest first (the last ``limit`` of them)."""
        return views.events(self, limit)
