"""The state of a game of Dice Battle Monsters: its fields, declared once, and the protocol, delegating to
:mod:`.rules` (what may be done and what it does) and :mod:`.views` (what a seat may know)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardarena.engine import Action, Rng, State
from cardarena.engine.fields import copied, nested, shared

from . import views
from .constants import DICE, HAND_SIZE, NO_CARD, OVER, Phase
from .rules import protocol
from .rules.deck import draw
from .rules.log import event, log_snapshot
from .rules.turns import start_round

if TYPE_CHECKING:
    from .constants import Entry, Frame
    from .game import DiceBattleGame  # noqa: F401  (the class names it as its base: State["DiceBattleGame"])
    from .rules.log import Log


class Side:
    """One player's cards and counters. Lists of card indices; a deck's top is its end.

    Made by :meth:`new` (a side at the start of the game) or :meth:`copy`, each of which sets every field (a native
    class when compiled: no ``__init__`` to run, so a copy builds nothing it then throws away)."""

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

    deck: list[int]
    hand: list[int]
    grave: list[int]
    main: list[int]  # face down until the battle phase
    circle: list[int]  # magic circle, face down until the battle phase
    grant: int  # the grant set this round (NO_CARD: none), face down until the battle phase
    stock: list[int]  # grants revealed and still waiting in the stock zone
    token: bool  # the dice token is in the main zone
    stars: int
    miracle: bool  # 奇跡 face up
    revival: bool  # 復活 face up
    roll: int
    redraws: int
    known: list[int]  # cards the opponent knows to be in this hand (revived, salvaged, kept)
    # After the dice token: at least ``stuck`` cards of this hand are known not to be units that fit a die of
    # ``stuck_roll`` (the hand that could set nothing), until this player's next dice phase.
    stuck: int
    stuck_roll: int
    # battle-phase scratch
    mod: int
    cancelled: bool
    tie_win: bool
    keep: list[int]
    fired: list[int]  # grants fired this battle, to the graveyard at its end
    used: list[int]  # own cards used in the last battle (what Revival may take back)

    @staticmethod
    def new(deck: list[int]) -> Side:
        """A side at the start of the game: ``deck`` and nothing else, both special cards face up."""
        s = Side()
        s.deck = deck
        s.hand = []
        s.grave = []
        s.main = []
        s.circle = []
        s.grant = NO_CARD
        s.stock = []
        s.token = False
        s.stars = 0
        s.miracle = True
        s.revival = True
        s.roll = 0
        s.redraws = 0
        s.known = []
        s.stuck = 0
        s.stuck_roll = 0
        s.mod = 0
        s.cancelled = False
        s.tie_win = False
        s.keep = []
        s.fired = []
        s.used = []
        return s

    def copy(self) -> Side:
        s = Side()
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
        """Every field, JSON-ready (cards as indices into the game's card pool), by name in alphabetical order."""
        return {
            "cancelled": self.cancelled,
            "circle": list(self.circle),
            "deck": list(self.deck),
            "fired": list(self.fired),
            "grant": self.grant,
            "grave": list(self.grave),
            "hand": list(self.hand),
            "keep": list(self.keep),
            "known": list(self.known),
            "main": list(self.main),
            "miracle": self.miracle,
            "mod": self.mod,
            "redraws": self.redraws,
            "revival": self.revival,
            "roll": self.roll,
            "stars": self.stars,
            "stock": list(self.stock),
            "stuck": self.stuck,
            "stuck_roll": self.stuck_roll,
            "tie_win": self.tie_win,
            "token": self.token,
            "used": list(self.used),
        }


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
        self.sides = [Side.new(list(game.decks[0].cards)), Side.new(list(game.decks[1].cards))]
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

    # The rules are functions of the state (:mod:`.rules.protocol`).
    def _legal_actions(self) -> Sequence[Action]:
        return protocol.legal_actions(self)

    def why_not(self, action: Action) -> str | None:
        return protocol.why_not(self, action)

    def _apply(self, action: Action) -> None:
        protocol.apply(self, action)

    def observation(self, seat: int | None) -> dict[str, Any]:
        return views.observation(self, seat)

    def _resample(self, seat: int, rng: Rng | random.Random | int) -> DiceBattleState:
        return views.resample(self, seat, Rng.coerce(rng))

    def events(self, limit: int | None = None) -> list[tuple[Any, ...]]:
        """Public events, oldest first (the last ``limit`` of them)."""
        return views.events(self, limit)
