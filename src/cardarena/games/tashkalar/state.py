"""The state of a game in any mode: board, supplies, cards, scores, the turn, and any effect waiting for a choice.

Seats and colours: pieces belong to a colour. Outside team games a seat's colour is its own number; in team games
(4 seats) seats 0 and 2 share colour 0 and seats 1 and 3 colour 1. ``player`` is the seat to decide now,
``active`` the seat whose turn it is (they differ once the turn was handed over to the teammate), ``side`` the
colour of the turn.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...engine import Action, Rng, State
from ...engine.fields import copied, nested, shared
from . import rules, views
from .cards.data import Step
from .constants import MELEE_SETUP, OVER, PICK_LEGEND, SETUP
from .rules import modes
from .rules.decks import refill
from .rules.turns import start_turn

if TYPE_CHECKING:
    from .game import TashKalarGame  # noqa: F401  (the class names it as its base: State["TashKalarGame"])


class TashKalarState(State["TashKalarGame"]):
    """One position. Hidden: hands, the order of every deck (a player knows the cards they put under theirs)."""

    rng: Rng
    board: list[int]  # per square (16 * y + x): 0 or owner << 2 | rank (rules/pieces.py)
    bb: list[int]  # per cell value: the bit set of the squares holding it
    supply_two: list[int]  # per colour: two-sided pieces in the supply
    supply_leg: list[int]  # per colour: legendary pieces in the supply
    score: list[int]  # per colour: deathmatch points, or High Form task points
    school: list[str]  # per seat: its school's id (never changed)
    deck_s: list[list[int]]  # per seat: the school deck (top = end)
    hand_b: list[list[int]]  # per seat: beings in hand
    disc_s: list[list[int]]  # per seat: the school discard pile
    known_bottom: list[int]  # per seat: cards it put under its school deck (known to it)
    deck_l: list[int]
    deck_f: list[int]
    hand_l: list[list[int]]
    hand_f: list[list[int]]
    disc_l: list[int]
    disc_f: list[int]
    deck_out: list[bool]  # per seat: drew the last (upright) card of its school deck
    trigger: str  # what triggered the end, in words ("" before)
    final_left: int  # turns left in the final round (-1: not triggered)
    resigned: int  # the seat that resigned (-1: none)
    capped: bool  # the safety cap of turns ended the game (a draw)
    mscore: list[list[int]]  # melee: each seat's scoring board (points per colour)
    improv: list[int]  # melee: per seat, the colours it improvised with (bits)
    deck_t: list[int]  # High Form: the task deck (top = end)
    cur_t: list[int]  # High Form: the current tasks
    next_t: int  # High Form: the next task (-1: none)
    t_bottom: int  # High Form: tasks known to lie at the bottom of the task deck
    claimed: list[list[int]]  # High Form: per colour, the tasks claimed
    player: int  # the seat to decide now
    active: int  # the seat whose turn it is
    side: int  # the colour of the turn
    handed: bool  # teams: the turn was handed over to the teammate
    turn_no: int
    phase: int  # a Phase (held as its int value, compared with the constants' aliases)
    actions: int  # actions left this turn
    discarded: bool  # the discard action was used this turn
    destroyed: list[int]  # enemy commons, heroics, legendaries destroyed this turn
    dest: list[int]  # the same per owner: [common, heroic, legendary] per colour
    summoned: list[int]  # this turn's summons, one entry each: square << 2 | rank
    extra: list[int]  # extra school, legend, flare cards to draw at the end of this turn
    pick_mask: int  # melee: the colours a point may be scored in now
    pick_then: int  # melee: a PickThen, what follows the colour pick
    msetup: int  # melee setup: commons put so far (bits 8+: colours used)
    resolving: int  # the card whose effect is being resolved (-1: none)
    frames: list[tuple[tuple[Step, ...], int, int]]  # (steps, next step index, tag): rules/effects.py
    flare_parts: tuple[bool, bool]  # the halves of the flare being resolved (upper, lower)
    prog_n: int
    prev_done: bool
    prog_picked: int
    mover: int
    mover_left: int
    mover_dir: int
    pool: int
    reps: int
    step_destroyed: int
    prev_destroyed: int
    eff_destroyed: int
    extra_turns: int  # extra turns the turn player takes after this one (effect "extra_turn")
    known_hand: list[list[int]]  # per seat: cards every seat knows it holds (taken from a public discard pile)
    in_extra: bool  # this turn is an extra turn
    ctx_self: int  # the effect's own piece (-1: none)
    ctx_last: int  # the last piece or square chosen (-1: none)
    ctx_summon: int  # the summon square (-1: none)
    ctx_marked: int  # the pattern's marked squares (bits)
    pending_summon: tuple[int, int, int] | None  # out of units: (card, square, orientation index)
    recall_mask: int  # out of units: the pieces that may be taken back for the pending summon

    FIELDS = (
        *copied("rng", "board", "bb", "supply_two", "supply_leg", "score"),
        *shared("school"),
        *nested("deck_s", "hand_b", "disc_s"),
        *copied("known_bottom", "deck_l", "deck_f"),
        *nested("hand_l", "hand_f"),
        *copied("disc_l", "disc_f", "deck_out"),
        *shared("trigger", "final_left", "resigned", "capped"),
        *nested("mscore"),
        *copied("improv", "deck_t", "cur_t"),
        *shared("next_t", "t_bottom"),
        *nested("claimed"),
        *shared("player", "active", "side", "handed", "turn_no", "phase", "actions", "discarded"),
        *copied("destroyed", "dest", "summoned", "extra"),
        *shared("pick_mask", "pick_then", "msetup", "resolving"),
        *copied("frames"),
        *shared("flare_parts", "prog_n", "prev_done", "prog_picked", "mover", "mover_left", "mover_dir", "pool"),
        *shared("reps", "step_destroyed", "prev_destroyed", "eff_destroyed", "extra_turns"),
        *nested("known_hand"),
        *shared("in_extra", "ctx_self", "ctx_last", "ctx_summon", "ctx_marked", "pending_summon", "recall_mask"),
    )
    # the fields live in slots: a clone then fills fixed places instead of growing a dict of 70 keys
    __slots__ = tuple(f.name for f in FIELDS)

    # -- clone: written from FIELDS by `make clones` (cardarena.engine.fields); do not edit by hand --
    def clone(self) -> TashKalarState:
        """An independent copy, field by field as TashKalarState.FIELDS says."""
        c = TashKalarState(self.game, self.seed)
        c.history = self.history.copy()
        c._legal = self._legal
        if self._no_record is not None:
            c._resampled = self._resampled
            c._no_record = self._no_record
        c.rng = self.rng.copy()
        c.board = self.board.copy()
        c.bb = self.bb.copy()
        c.supply_two = self.supply_two.copy()
        c.supply_leg = self.supply_leg.copy()
        c.score = self.score.copy()
        c.school = self.school
        c.deck_s = [x.copy() for x in self.deck_s]
        c.hand_b = [x.copy() for x in self.hand_b]
        c.disc_s = [x.copy() for x in self.disc_s]
        c.known_bottom = self.known_bottom.copy()
        c.deck_l = self.deck_l.copy()
        c.deck_f = self.deck_f.copy()
        c.hand_l = [x.copy() for x in self.hand_l]
        c.hand_f = [x.copy() for x in self.hand_f]
        c.disc_l = self.disc_l.copy()
        c.disc_f = self.disc_f.copy()
        c.deck_out = self.deck_out.copy()
        c.trigger = self.trigger
        c.final_left = self.final_left
        c.resigned = self.resigned
        c.capped = self.capped
        c.mscore = [x.copy() for x in self.mscore]
        c.improv = self.improv.copy()
        c.deck_t = self.deck_t.copy()
        c.cur_t = self.cur_t.copy()
        c.next_t = self.next_t
        c.t_bottom = self.t_bottom
        c.claimed = [x.copy() for x in self.claimed]
        c.player = self.player
        c.active = self.active
        c.side = self.side
        c.handed = self.handed
        c.turn_no = self.turn_no
        c.phase = self.phase
        c.actions = self.actions
        c.discarded = self.discarded
        c.destroyed = self.destroyed.copy()
        c.dest = self.dest.copy()
        c.summoned = self.summoned.copy()
        c.extra = self.extra.copy()
        c.pick_mask = self.pick_mask
        c.pick_then = self.pick_then
        c.msetup = self.msetup
        c.resolving = self.resolving
        c.frames = self.frames.copy()
        c.flare_parts = self.flare_parts
        c.prog_n = self.prog_n
        c.prev_done = self.prev_done
        c.prog_picked = self.prog_picked
        c.mover = self.mover
        c.mover_left = self.mover_left
        c.mover_dir = self.mover_dir
        c.pool = self.pool
        c.reps = self.reps
        c.step_destroyed = self.step_destroyed
        c.prev_destroyed = self.prev_destroyed
        c.eff_destroyed = self.eff_destroyed
        c.extra_turns = self.extra_turns
        c.known_hand = [x.copy() for x in self.known_hand]
        c.in_extra = self.in_extra
        c.ctx_self = self.ctx_self
        c.ctx_last = self.ctx_last
        c.ctx_summon = self.ctx_summon
        c.ctx_marked = self.ctx_marked
        c.pending_summon = self.pending_summon
        c.recall_mask = self.recall_mask
        return c

    # -- end of the written clone --

    def start(self) -> None:
        """Lay out the initial position (``new_initial_state`` builds the state, then calls this)."""
        game, seed = self.game, self.seed
        cs = game.cards
        rules = cs.rules
        self.rng = Rng(seed)
        n = game.seats
        nc = game.n_col
        self.board = [0] * 144
        self.bb = [0] * 16
        # 18 - players two-sided pieces in deathmatch (a team colour counts once), 17 in High Form
        two = rules.highform_two_sided if game.mode == "highform" else rules.deathmatch_two_sided_base - nc
        self.supply_two = [two] * nc
        self.supply_leg = [rules.legendary_pieces] * nc
        self.score = [0] * nc  # deathmatch points, or High Form task points, per colour
        self.school = game.choose_schools(self.rng)
        self.deck_s = []
        for p in range(n):
            deck = list(cs.schools[self.school[p]].cards)
            self.rng.shuffle(deck)
            self.deck_s.append(deck)
        self.hand_b = [[] for _ in range(n)]
        self.disc_s = [[] for _ in range(n)]
        self.known_bottom = [0] * n
        self.deck_l = list(cs.legends)
        self.rng.shuffle(self.deck_l)
        self.deck_f = list(cs.flares)
        self.rng.shuffle(self.deck_f)
        self.hand_l = [[] for _ in range(n)]
        self.hand_f = [[] for _ in range(n)]
        self.disc_l = []
        self.disc_f = []
        self.deck_out = [False] * n
        self.trigger = ""
        self.final_left = -1
        self.resigned = -1
        self.capped = False
        # melee: each seat's scoring board (points per colour) and the colours it improvised with (bits)
        self.mscore = [[0] * n for _ in range(n)] if game.mode == "melee" else []
        self.improv = [0] * n
        # High Form: task deck (top = end), the current tasks, the next task, tasks claimed per colour
        self.deck_t = []
        self.cur_t = []
        self.next_t = -1
        self.t_bottom = 0  # cards known to lie at the bottom of the task deck (put there face up)
        self.claimed = [[] for _ in range(nc)]
        # the turn
        self.player = n - 1  # the second player (4th in teams, last in melee) sets up first
        self.active = n - 1
        self.side = game.colour_of[n - 1]
        self.handed = False
        self.turn_no = 1
        self.phase = SETUP
        self.actions = 0
        self.discarded = False
        self.destroyed = [0, 0, 0]  # enemy commons, heroics, legendaries destroyed this turn
        self.dest = [0] * (3 * nc)  # the same per owner: [common, heroic, legendary] per colour
        self.summoned = []  # this turn's summons, one entry each: square << 2 | rank
        self.extra = [0, 0, 0]  # extra school, legend, flare cards to draw at the end of this turn
        self.pick_mask = 0  # melee: the colours a point may be scored in now
        self.pick_then = PICK_LEGEND
        self.msetup = 0  # melee setup: commons put so far (bits 8+: colours used)
        # the effect being resolved
        self.resolving = -1
        self.frames = []  # (steps, next step index, option taken)
        self.flare_parts = (False, False)
        self.prog_n = 0
        self.prev_done = False
        self.prog_picked = 0
        self.mover = -1
        self.mover_left = 0
        self.mover_dir = 0
        self.pool = -1
        self.reps = 0
        self.step_destroyed = self.prev_destroyed = self.eff_destroyed = 0
        self.extra_turns = 0  # extra turns the turn player takes after this one (effect "extra_turn")
        # cards every seat knows to be in a seat's hand: taken from a (public) discard pile by an effect
        self.known_hand = [[] for _ in range(n)]
        self.in_extra = False  # this turn is an extra turn
        self.ctx_self = -1
        self.ctx_last = -1
        self.ctx_summon = -1
        self.ctx_marked = 0
        self.pending_summon = None  # (card, square, orientation index)
        self.recall_mask = 0
        for p in range(n):
            # team games: the teammate who plays first draws the team's 2 legends, the other none
            refill(self, p, initial=True, decks=(0, 2) if game.teams and p >= 2 else (0, 1, 2))
        if game.mode == "highform":
            modes.deal_tasks(self)
            start_turn(self, 0)
        elif game.mode == "melee":
            self.phase = MELEE_SETUP

    # -- protocol -------------------------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.player

    @property
    def turn(self) -> int:
        return self.turn_no

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        n = self.game.seats
        if self.phase != OVER or self.capped:
            return [0.0] * n
        col = self.game.colour_of
        if self.resigned >= 0:
            lost = col[self.resigned]
            return [-1.0 if col[p] == lost else 1.0 for p in range(n)]
        return modes.returns(self)

    def _legal_actions(self) -> Sequence[Action]:
        return rules.legal_actions(self)

    def _apply(self, action: Action) -> None:
        rules.apply(self, action)

    def _resample(self, seat: int, rng: Rng | random.Random | int) -> TashKalarState:
        return views.resample(self, seat, rng)

    def observation(self, seat: int | None) -> dict[str, Any]:
        return views.observation(self, seat)

    def why_not(self, action: Action) -> str | None:
        return rules.why_not(self, action)
