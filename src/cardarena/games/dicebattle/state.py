"""The state of a game of Dice Battle Monsters: the two sides, the round, and the dice phase.

The battle phase (effect order and resolution), the reward, Revival and draw phases live in :mod:`.battle`;
what a seat may see in :mod:`.view`; hidden-information resampling in :mod:`.hidden`.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from cardarena.engine import Action, Rng, State, zones

from . import render, views
from .actions import (
    DECLINE,
    DONE,
    KIND_HUMAN,
    KIND_MAGIC,
    KIND_MONSTER,
    MIRACLE,
    PASS,
    PENALTY_DRAW,
    REDRAW,
    TOKEN,
    Tables,
)
from .constants import (
    CHOICE,
    DICE,
    HAND_SIZE,
    MAX_REDRAWS,
    ORDER,
    OVER,
    PENALTY,
    PHASE_NAMES,
    RESOLVING,
    TOKEN_LEVEL,
    ZONE_NAMES,
    Entry,
    Frame,
)
from .rules import battle

if TYPE_CHECKING:
    from .game import DiceBattleGame


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

    def __init__(self, deck: list[int]) -> None:
        self.deck = deck
        self.hand: list[int] = []
        self.grave: list[int] = []
        self.main: list[int] = []  # face down until the battle phase
        self.circle: list[int] = []  # magic circle, face down until the battle phase
        self.grant = -1  # the grant set this round, face down until the battle phase (-1: none)
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

    def spent(self, t: Tables) -> int:
        """How much of the die the cards set this round use (units, magic, the new grant)."""
        main = self.main
        total = 0
        if main:
            # The first unit uses its cost; monsters joining it use their join cost (異例 free_join: nothing).
            total = t.cost[self.roll][main[0]]
            join = t.join[self.roll]
            for k in range(1, len(main)):
                total += join[main[k]]
        for c in self.circle:
            total += t.level[c]
        if self.grant >= 0:
            total += t.grant_level[self.grant]
        return total

    def snapshot(self, t: Tables) -> dict[str, Any]:
        return {
            "deck": t.ids(self.deck),
            "hand": t.ids(self.hand),
            "grave": t.ids(self.grave),
            "main": t.ids(self.main),
            "circle": t.ids(self.circle),
            "grant": t.cards[self.grant].id if self.grant >= 0 else None,
            "stock": t.ids(self.stock),
            "token": self.token,
            "stars": self.stars,
            "miracle": self.miracle,
            "revival": self.revival,
            "roll": self.roll,
            "redraws": self.redraws,
            "known": t.ids(self.known),
            "stuck": [self.stuck, self.stuck_roll],
            "mod": self.mod,
            "cancelled": self.cancelled,
            "tie_win": self.tie_win,
            "keep": t.ids(self.keep),
            "fired": t.ids(self.fired),
            "used": t.ids(self.used),
        }


# A public event log kept as a linked list of immutable tuples ((event, ...), previous), so clones share it.
Log = tuple[tuple[Any, ...], Any] | None


class DiceBattleState(State):
    game: DiceBattleGame

    def __init__(self, game: DiceBattleGame, seed: int) -> None:
        super().__init__(game, seed)
        self.t = game.tables
        self.rng = Rng(seed)
        self.sides = [Side(list(game.decks[0].cards)), Side(list(game.decks[1].cards))]
        self.first = 0
        self.round = 1
        self.phase = DICE
        self.actor = 0
        self.queue: list[Entry] = []
        self.current: Entry | None = None  # the choice effect waiting on use / skip
        self.after: tuple[Frame, ...] = ()  # work waiting on a penalty decision, innermost first (see Frame)
        self.battle_winner = -1  # -1: tie
        self.winner: int | None = None  # at the end: 0, 1, or None for a draw
        self.log: Log = None
        # Setup: both shuffle and draw 5, then a seeded coin decides the first player.
        for seat, side in enumerate(self.sides):
            self.rng.shuffle(side.deck)
            self.draw(seat, HAND_SIZE)
        self.first = self.rng.randbelow(2)
        self.event("first", self.first)
        self.start_round()

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

    def clone(self) -> DiceBattleState:
        c = DiceBattleState.__new__(DiceBattleState)
        self._copy_base_into(c)
        c.t = self.t
        c.rng = self.rng.copy()
        c.sides = [self.sides[0].copy(), self.sides[1].copy()]
        c.first = self.first
        c.round = self.round
        c.phase = self.phase
        c.actor = self.actor
        c.queue = self.queue.copy()
        c.current = self.current
        c.after = self.after  # immutable, shared
        c.battle_winner = self.battle_winner
        c.winner = self.winner
        c.log = self.log
        return c

    def snapshot(self) -> dict[str, Any]:
        t = self.t
        return {
            "rng": self.rng.state,
            "round": self.round,
            "first": self.first,
            "phase": PHASE_NAMES[self.phase],
            "actor": self.actor,
            "queue": [[lv, o, t.cards[c].id, ZONE_NAMES[z]] for lv, o, c, z in self.queue],
            "current": None if self.current is None else [t.cards[self.current[2]].id, ZONE_NAMES[self.current[3]]],
            "after": [frame_json(t, f) for f in self.after],
            "battle_winner": self.battle_winner,
            "winner": self.winner,
            "sides": [s.snapshot(t) for s in self.sides],
            "log": [list(map(str, e)) for e in self.events()],
            "history": [str(a) for a in self.history],
        }

    def observation(self, seat: int | None) -> dict[str, Any]:
        return render.observation(self, seat)

    def resample(self, seat: int, rng: Rng | random.Random | int) -> DiceBattleState:
        return views.resample(self, seat, Rng.coerce(rng))

    def why_illegal(self, action: Action) -> str:
        return render.why_illegal(self, action)

    # -- events
    def event(self, *entry: Any) -> None:
        self.log = (entry, self.log)

    def events(self, limit: int | None = None) -> list[tuple[Any, ...]]:
        """Public events, oldest first (the last ``limit`` of them)."""
        out: list[tuple[Any, ...]] = []
        node = self.log
        while node is not None and (limit is None or len(out) < limit):
            out.append(node[0])
            node = node[1]
        out.reverse()
        return out

    # -- cards moving
    def draw(self, seat: int, n: int) -> None:
        """Draw ``n`` cards; an emptied deck is refilled from the graveyard at once (see :meth:`deck_out`)."""
        self.take_top("draw", seat, n)

    def take_top(self, kind: str, seat: int, n: int) -> None:
        """Move the top ``n`` cards of ``seat``'s deck to its hand (``draw``) or graveyard (``mill``).

        A deck that runs out is refilled from the graveyard at once; if that puts the opponent's penalty
        decision up, the cards still to move wait as a frame and the caller must stop (``phase == PENALTY``).
        """
        side = self.sides[seat]
        to = side.hand if kind == "draw" else side.grave
        for k in range(n):
            if not side.deck:
                self.deck_out(seat)  # emptied earlier while the graveyard was empty
                if self.phase == PENALTY:
                    self.defer((kind, seat, n - k))
                    return
                if not side.deck:
                    return  # deck and graveyard both empty: nothing to take
            c = side.deck.pop()
            to.append(c)
            if kind == "mill":
                self.event("mill", seat, c)
            if not side.deck:
                self.deck_out(seat)
                if self.phase == PENALTY:
                    if k + 1 < n:
                        self.defer((kind, seat, n - k - 1))
                    return

    def deck_out(self, seat: int) -> None:
        """デッキが無くなった場合: shuffle the graveyard face down as the new deck; then the opponent decides
        whether to draw 1 as a penalty (「引くことができます」), at once: a ``penalty`` decision."""
        side = self.sides[seat]
        if side.deck or not side.grave:
            return
        zones.shuffle_into(side.grave, side.deck, self.rng)
        self.event("reshuffle", seat, len(side.deck))
        opp = self.sides[1 - seat]
        if opp.deck or opp.grave:  # an opponent with no card anywhere to draw has nothing to decide
            self.phase = PENALTY
            self.actor = 1 - seat

    def defer(self, frame: Frame) -> None:
        """Keep work interrupted by a penalty decision (called innermost first, as the rules unwind)."""
        self.after = (*self.after, frame)

    def decide_penalty(self, take: bool) -> None:
        """The opponent draws the penalty card or declines; then the interrupted work goes on."""
        seat = self.actor
        frames = self.after
        self.after = ()
        self.phase = RESOLVING
        self.event("penalty", seat, take)
        if take:
            self.draw(seat, 1)
        for k, frame in enumerate(frames):
            if self.phase == PENALTY:  # interrupted again: the new frames come before the rest
                self.after += frames[k:]
                return
            self.resume(frame)
        assert self.phase != RESOLVING, "a penalty decision interrupted nothing that sets the next decision"

    def resume(self, frame: Frame) -> None:
        kind = frame[0]
        if kind == "draw" or kind == "mill":
            self.take_top(kind, frame[1], frame[2])
        elif kind == "ops":
            battle.run_ops(self, frame[1], frame[2])
        elif kind == "advance":
            battle.advance(self)
        elif kind == "draw_phase":
            battle.draw_phase(self, frame[1])
        else:  # dice
            self.phase = DICE
            self.actor = frame[1]

    def setter(self) -> int:
        """The seat whose dice phase is under way (also while a penalty decision interrupts it), else -1."""
        if self.phase == DICE:
            return self.actor
        if self.phase == PENALTY:
            for frame in self.after:
                if frame[0] == "dice":
                    return int(frame[1])
        return -1

    def in_battle(self) -> bool:
        """Effects are resolving (set cards face up, battle levels in play), possibly waiting on a penalty."""
        phase = self.phase
        if phase in (ORDER, CHOICE):
            return True
        return phase == PENALTY and any(frame[0] == "advance" for frame in self.after)

    # -- rounds and the dice phase
    def start_round(self) -> None:
        for side in self.sides:
            side.roll = 0
        self.event("round", self.round, self.first)
        self.start_dice(self.first)

    def start_dice(self, seat: int) -> None:
        side = self.sides[seat]
        side.roll = self.rng.randint(1, 6)
        side.redraws = 0
        side.stuck = 0
        self.phase = DICE
        self.actor = seat
        self.event("roll", seat, side.roll)

    def _legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == DICE:
            return self._dice_actions()
        t = self.t
        if phase == CHOICE:
            assert self.current is not None
            c = self.current[2]
            return [t.actions["use"][c], t.actions["skip"][c]]
        if phase == ORDER:
            return [t.actions["first"][c] for c in sorted(battle.order_group(self))]
        if phase == PENALTY:
            return [PENALTY_DRAW, DECLINE]
        # REVIVE
        revive = t.actions["revive"]
        return [*(revive[c] for c in sorted(set(self.sides[self.actor].used))), PASS]

    def _dice_actions(self) -> list[Action]:
        t = self.t
        side = self.sides[self.actor]
        roll = side.roll
        cost = t.cost[roll]
        kind = t.kind
        hand = sorted(set(side.hand))
        acts: list[Action] = []
        if not side.main:
            if side.miracle:
                acts.append(MIRACLE)
            a_set = t.actions["set"]
            acts.extend(a_set[c] for c in hand if kind[c] != KIND_MAGIC and cost[c] <= roll)
            if len(acts) == (1 if side.miracle else 0):
                acts.append(REDRAW if side.hand and side.redraws < MAX_REDRAWS else TOKEN)
            return acts
        room = roll - side.spent(t)
        main_kind = kind[side.main[0]]
        level = t.level
        if main_kind == KIND_MONSTER:
            # A joining monster uses its join cost: 0 for 異例 free_join, so it may join even when room is 0.
            a_set = t.actions["set"]
            join = t.join[roll]
            acts.extend(a_set[c] for c in hand if kind[c] == KIND_MONSTER and join[c] <= room)
        if room > 0:
            if main_kind == KIND_MONSTER:
                a_magic = t.actions["magic"]
                with_monster = t.with_monster
                acts.extend(a_magic[c] for c in hand if with_monster[c] and level[c] <= room)
            else:
                a_magic = t.actions["magic"]
                acts.extend(a_magic[c] for c in hand if kind[c] == KIND_MAGIC and level[c] <= room)
            if side.grant < 0:
                a_grant = t.actions["grant"]
                grant_level = t.grant_level
                acts.extend(a_grant[c] for c in hand if 0 < grant_level[c] <= room)
        acts.append(DONE)
        return acts

    def _apply(self, action: Action) -> None:
        kind = action[0]
        if self.phase == DICE:
            self._apply_dice(kind, action)
        elif kind == "draw" or kind == "decline":
            self.decide_penalty(kind == "draw")
        elif kind == "use" or kind == "skip":
            battle.choose_effect(self, kind == "use")
        elif kind == "first":
            battle.choose_first(self, self.t.by_id[action[1]])
        elif kind == "revive":
            battle.revive(self, self.t.by_id[action[1]])
        else:  # pass
            battle.revive(self, -1)

    def _apply_dice(self, kind: str, action: Action) -> None:
        seat = self.actor
        side = self.sides[seat]
        if kind == "miracle":
            side.miracle = False
            side.roll = self.rng.randint(1, 6)
            self.event("miracle", seat, side.roll)
        elif kind == "done":
            self.finish_dice()
        elif kind == "redraw":
            self.redraw(seat)
        elif kind == "token":
            side.token = True
            side.stuck = len(side.hand)  # the hand shown to hold no unit that fits the die
            side.stuck_roll = side.roll
            self.event("token", seat)
            self.finish_dice()
        else:
            c = self.t.by_id[action[1]]
            side.hand.remove(c)
            if kind == "set":
                side.main.append(c)
            elif kind == "magic":
                side.circle.append(c)
            else:
                side.grant = c

    def redraw(self, seat: int) -> None:
        """Nothing can be set: show the hand, shuffle it into the deck, draw as many again."""
        side = self.sides[seat]
        shown = sorted(side.hand)
        self.event("redraw", seat, tuple(shown))
        side.known.clear()
        zones.shuffle_into(side.hand, side.deck, self.rng)
        side.redraws += 1
        self.draw(seat, len(shown))
        if self.phase == PENALTY:
            self.defer(("dice", seat))

    def finish_dice(self) -> None:
        if self.actor == self.first:
            self.start_dice(1 - self.first)
        else:
            battle.begin(self)

    # -- helpers used by the battle and the views
    def main_kind(self, seat: int) -> int:
        """KIND_HUMAN, KIND_MONSTER, or -1 for the dice token / nothing."""
        side = self.sides[seat]
        if side.token or not side.main:
            return -1
        return self.t.kind[side.main[0]]

    def base_level(self, seat: int) -> int:
        side = self.sides[seat]
        if side.token:
            return TOKEN_LEVEL
        if not side.main:
            return 0
        level = self.t.level
        if self.t.kind[side.main[0]] == KIND_HUMAN:
            return level[side.main[0]]
        return sum(level[c] for c in side.main)

    def unit_level(self, seat: int) -> int:
        """The main unit's level now: its base level plus this battle's changes (never below 0)."""
        return self.base_level(seat) + self.sides[seat].mod

    def shift_level(self, seat: int, n: int) -> None:
        """Change the main unit's level by ``n`` at once, clamped at 0: a later +N starts from 0 (no hidden debt)."""
        side = self.sides[seat]
        side.mod = max(side.mod + n, -self.base_level(seat))


def frame_json(t: Tables, frame: Frame) -> list[Any]:
    """A frame of interrupted work, JSON-ready (cards by id)."""
    if frame[0] == "ops":
        lv, owner, c, zone = frame[1]
        return ["ops", [lv, owner, t.cards[c].id, ZONE_NAMES[zone]], frame[2]]
    return list(frame)
