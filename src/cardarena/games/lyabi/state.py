"""Lyabi's rules: the state and its turn structure (rulebook sections named in the comments).

Cards are small integers: a ryabi kind indexes the card set's ``r_*`` tables, a magic circle its ``c_*`` tables,
an item ``ITEM_IDS``. A deck is a list whose end is its top. Every decision the rules ask for mid-turn (an item
timing, a crystal's order, a hidden battle set) is a phase of this state, never a callback.
"""

from __future__ import annotations

import random
from itertools import permutations
from math import floor
from typing import TYPE_CHECKING, Any

from ...engine import Rng, State, zones
from .actions import DECLINE, LyabiAction, use
from .data import (
    AUTO_ITEMS,
    BEATS,
    BRUSH,
    COLOURS,
    CRYSTAL,
    EYE,
    HERB,
    MIRROR,
    ORB,
    STONE,
    SWORD,
)

if TYPE_CHECKING:
    from .game import LyabiGame

# Decision phases.
P_DRAW, P_MAIN, P_ITEM, P_ORDER, P_EYE, P_SET, P_BRUSH, P_MIRROR, P_SWORD, P_OVER = range(10)
PHASE_NAMES = ("draw", "main", "item", "crystal", "eye", "set", "brush", "mirror", "sword", "over")
# The item each timing window is for; every holder of a face-down item is asked at the window, so that being
# asked reveals nothing about which item they hold (the only choice of a holder of another item is "decline").
WINDOW_ITEM = {P_DRAW: ORB, P_EYE: EYE, P_BRUSH: BRUSH, P_MIRROR: MIRROR, P_SWORD: SWORD}
WINDOW_USE = {
    P_DRAW: [use("orb"), DECLINE],
    P_EYE: [use("eye"), DECLINE],
    P_MIRROR: [use("mirror"), DECLINE],
    P_SWORD: [use("sword"), DECLINE],
}
ONLY_DECLINE = [DECLINE]
NO_ITEM = -1


class LyabiState(State):
    """A Lyabi position. Seats 0 and 1; ``first`` is the first (priority) player chosen by the triangle."""

    game: LyabiGame

    def __init__(self, game: LyabiGame, seed: int) -> None:
        super().__init__(game, seed)
        c = game.cards
        self.rng = Rng(seed)
        self.turn_no = 0
        self.phase = P_DRAW
        self.actor = 0
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
        self.piles: list[list[int]] = [[] for _ in c.levels]
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
        self._setup()
        self.supply_mask = sum(1 << k for k, n in enumerate(self.supply) if n)
        self.pile_mask = sum(1 << i for i, p in enumerate(self.piles) if p)
        self._begin_turn()

    # -- setup (ゲームの準備) -------------------------------------------------------------------------------
    def _setup(self) -> None:
        c = self.game.cards
        rng = self.rng
        for k in range(len(c.c_names)):
            self.piles[c.c_level_index[k]].extend([k] * c.c_count[k])
        lv0 = self.piles[0]
        # 5./6. each player takes a random setup circle; equal colours: both go back, shuffle and take again.
        while True:
            rng.shuffle(lv0)
            a, b = lv0[-1], lv0[-2]
            if c.c_colour[a] != c.c_colour[b]:
                break
        lv0.pop()
        lv0.pop()
        self.field = [[a], [b]]
        # The player whose circle beats the other's is first player for the whole game.
        self.first = 0 if BEATS[c.c_colour[a]] == c.c_colour[b] else 1
        self.order = (self.first, 1 - self.first)
        for pile in self.piles[1:]:
            rng.shuffle(pile)
        # 7. the initial deck and hand printed on the circle, taken out of the supply.
        for s in (0, 1):
            colour = c.c_colour[self.field[s][0]]
            hand, deck = c.start_hand[colour], c.start_deck[colour]
            assert hand is not None and deck is not None  # validated by the data loader
            self.hand[s] = list(hand)
            self.public_hand[s] = list(hand)
            self.deck[s] = list(deck)
            for k in (*hand, *deck):
                self.supply[k] -= 1
            rng.shuffle(self.deck[s])
        self.item_pile = [i for i, spec in enumerate(c.items) for _ in range(spec.count)]
        rng.shuffle(self.item_pile)

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

    def _legal_actions(self) -> list[LyabiAction]:
        phase, s = self.phase, self.actor
        moves = self.game.moves
        if phase == P_MAIN:
            stone = self.item[s] == STONE and self.main_used == 0
            return moves.main(
                tuple(sorted(self.hand[s])), self.supply_mask, self.pile_mask, tuple(sorted(self.field[s])), stone
            )
        if phase == P_SET:
            return moves.sets(tuple(sorted(self.hand[s])))
        if phase == P_ITEM:
            return moves.item(tuple(sorted(self.hand[s])))
        if phase == P_BRUSH:
            if self.item[s] != BRUSH:
                return ONLY_DECLINE
            return [use("brush", name) for i, name in enumerate(COLOURS) if i != self.colour[s]] + ONLY_DECLINE
        if phase == P_ORDER:
            return self._orders()
        if self.item[s] == WINDOW_ITEM[phase]:
            return WINDOW_USE[phase]
        return ONLY_DECLINE

    def _orders(self) -> list[LyabiAction]:
        """Mysterious Crystal: every distinct order of the looked-at cards, top of the deck first."""
        names = self.game.cards.r_names
        top = self.deck[self.actor][-self.known_top[self.actor] :][::-1]
        seqs = sorted(set(permutations(top)))
        return [LyabiAction(("order", *(names[k] for k in seq))) for seq in seqs]

    def why_illegal(self, action: Any) -> str:
        from .explain import why_illegal

        return why_illegal(self, LyabiAction(action))

    # -- applying actions ---------------------------------------------------------------------------------
    def _apply(self, action: Any) -> None:
        if type(action) is not LyabiAction:  # a plain Action tuple of the same value
            action = LyabiAction(action)
        kind = action[0]
        s = self.actor
        phase = self.phase
        if phase == P_MAIN:
            self._apply_main(s, action)
        elif phase == P_ITEM:
            if kind == "item":
                self._pay(s, action.pay)
                self._take_item(s)
            else:
                self._after_item(s)
        elif phase == P_ORDER:
            kinds = [self.game.codec.kind_of[n] for n in action[1:]]
            n = len(kinds)
            self.deck[s][-n:] = kinds[::-1]
            self._after_item(s)
        elif phase == P_SET:
            self._apply_set(s, action)
        else:
            used = kind == "use"
            if used:
                self._use_item(s)
            if phase == P_DRAW:
                if used:
                    self.draw_to[s] = int(self.game.cards.items[ORB].value)  # type: ignore[arg-type]
                self._next_draw_window()
            elif phase == P_EYE:
                if used:
                    self.eye_seen[s] = tuple(sorted(self.hand[1 - s]))
                self._next_eye_window()
            elif phase == P_BRUSH:
                if used:
                    self.colour[s] = COLOURS.index(action[2])
                    self._log(**{f"brush_seat{s}": action[2]})
                self._next_brush_window()
            elif phase == P_MIRROR:
                if used:
                    self._mirror()
                else:
                    self._deal()
            elif phase == P_SWORD:
                if used:
                    extra = int(self.game.cards.items[SWORD].value)  # type: ignore[arg-type]
                    self.hp[1 - s] -= extra
                    self._log(sword=extra)
                    if self._check_hp():
                        return
                self._cleanup()

    def _use_item(self, s: int) -> None:
        """An item is used once, then removed from the game face up (public)."""
        self.removed_items.append(self.item[s])
        self.item[s] = NO_ITEM

    def _pay(self, s: int, pay: tuple[str, ...]) -> None:
        kind_of = self.game.codec.kind_of
        hand, discard = self.hand[s], self.discard[s]
        for name in pay:
            k = kind_of[name]
            hand.remove(k)
            discard.append(k)
        self._forget(s, pay)

    def _forget(self, s: int, shown: tuple[str, ...]) -> None:
        """Cards that left a hand face up (paid, or revealed in battle) are no longer known to be in it."""
        known = self.public_hand[s]
        if known:
            kind_of = self.game.codec.kind_of
            for name in shown:
                k = kind_of[name]
                if k in known:
                    known.remove(k)

    def _gain(self, s: int, k: int) -> None:
        """A gained ryabi goes from the supply to the discard pile."""
        self.supply[k] -= 1
        if not self.supply[k]:
            self.supply_mask &= ~(1 << k)
        self.discard[s].append(k)

    # -- the turn (ターンの流れ) ----------------------------------------------------------------------------
    def _begin_turn(self) -> None:
        if self.turn_no >= self.game.options["max_turns"]:
            self._finish([0.0, 0.0], f"the turn limit ({self.turn_no}) was reached")
            return
        self.turn_no += 1
        hand_size = self.game.cards.hand_size
        self.draw_to = [hand_size, hand_size]
        self.queue = [s for s in self.order if self.item[s] != NO_ITEM]
        self._next_draw_window()

    def _next_draw_window(self) -> None:
        if self.queue:
            self.phase, self.actor = P_DRAW, self.queue.pop(0)
            return
        self._draw_phase()

    def _draw_phase(self) -> None:
        """ドローフェイズ: each player draws until holding 3; an empty deck is refilled from the discard pile."""
        lost = [not self._draw(s) for s in self.order]
        if lost[0] or lost[1]:
            if lost[0] and lost[1]:
                self._finish([0.0, 0.0], "both decks ran out")
            else:
                loser = self.order[0] if lost[0] else self.order[1]
                self._finish(self._win_for(1 - loser), f"seat {loser}'s deck ran out")
            return
        self._start_main(self.first)

    def _draw(self, s: int) -> bool:
        """Draw up to ``draw_to[s]``; False if deck and discard run out before the hand holds the hand size."""
        hand, deck, discard = self.hand[s], self.deck[s], self.discard[s]
        target = self.draw_to[s]
        while len(hand) < target:
            if not deck:
                if not discard:
                    return len(hand) >= self.game.cards.hand_size
                zones.shuffle_into(discard, deck, self.rng)
                self.known_top[s] = 0
                # The old deck (public contents) is all in the hand now: every seat knows these cards.
                self.public_hand[s] = hand.copy()
            hand.append(deck.pop())
            if self.known_top[s]:
                self.known_top[s] -= 1
        if not deck:  # the whole deck (public contents) was drawn: every seat knows the hand
            self.public_hand[s] = hand.copy()
        return True

    # -- main phase (メインフェイズ) -------------------------------------------------------------------------
    def _start_main(self, s: int) -> None:
        self.phase, self.actor = P_MAIN, s
        self.actions_left, self.main_used = 1, 0
        if not self.hand[s]:
            self._start_item(s)

    def _apply_main(self, s: int, action: LyabiAction) -> None:
        kind = action[0]
        c = self.game.cards
        kind_of = self.game.codec.kind_of
        if kind == "pass":
            self._start_item(s)
            return
        if kind == "use":  # Space-Time Stone: a second main-phase action this turn
            self._use_item(s)
            self.actions_left += 1
            return
        self._pay(s, action.pay)
        if kind == "buy":
            self._gain(s, kind_of[action[1]])
        elif kind == "split":
            for name in action[2:]:
                self._gain(s, kind_of[name])
        else:  # place
            level = self.game.codec.level_of[action[1]]
            field = self.field[s]
            if action[2]:
                old = self.game.codec.circle_of[action[2]]
                field.remove(old)
                self.removed_circles.append(old)
            pile = self.piles[level]
            field.append(pile.pop())
            if not pile:
                self.pile_mask &= ~(1 << level)
            assert len(field) <= c.max_circles
        self.main_used += 1
        self.actions_left -= 1
        if self.actions_left <= 0 or not self.hand[s]:
            self._start_item(s)

    # -- item phase (アイテム取得フェイズ) --------------------------------------------------------------------
    def _start_item(self, s: int) -> None:
        hand = self.hand[s]
        # Asked whenever the player holds cards (a public fact), even if they cannot pay: skipping a hand that
        # totals less than the item cost would tell the opponent so.
        if self.item_pile and hand:
            self.phase, self.actor = P_ITEM, s
            return
        self._after_item(s)

    def _take_item(self, s: int) -> None:
        if self.item[s] != NO_ITEM:  # the item already held is removed from the game
            self.removed_items.append(self.item[s])
        new = self.item_pile.pop()
        self.item[s] = new
        if new not in AUTO_ITEMS:
            self._after_item(s)
            return
        self._use_item(s)  # 取得時自動発動: resolves now
        if new == HERB:
            o = 1 - s
            if self.item[o] != NO_ITEM:
                self.removed_items.append(self.item[o])
                self.item[o] = NO_ITEM
            self._after_item(s)
            return
        assert new == CRYSTAL
        look = int(self.game.cards.items[CRYSTAL].value)  # type: ignore[arg-type]
        deck = self.deck[s]
        n = min(look, len(deck))
        self.known_top[s] = max(self.known_top[s], n)
        if n >= 2:  # asked even if every order is the same: not asking would show the cards are alike
            self.phase, self.actor = P_ORDER, s
            return
        self._after_item(s)

    def _after_item(self, s: int) -> None:
        if s == self.first:
            self._start_main(1 - s)
        else:
            self._start_battle()

    # -- battle phase (バトルフェイズ) -----------------------------------------------------------------------
    def _start_battle(self) -> None:
        """A player may battle with ≥1 card in hand and a circle on the field; if neither may, skip."""
        hand, field = self.hand, self.field
        self.battling = [bool(hand[0]) and bool(field[0]), bool(hand[1]) and bool(field[1])]
        if not (self.battling[0] or self.battling[1]):
            self._end_phase()
            return
        self.queue = [s for s in self.order if self.battling[s] and self.item[s] != NO_ITEM]
        self._next_eye_window()

    def _next_eye_window(self) -> None:
        if self.queue:
            self.phase, self.actor = P_EYE, self.queue.pop(0)
            return
        self.queue = [s for s in self.order if self.battling[s]]
        self._next_set()

    def _next_set(self) -> None:
        if self.queue:
            self.phase, self.actor = P_SET, self.queue.pop(0)
            return
        self._reveal()

    def _apply_set(self, s: int, action: LyabiAction) -> None:
        if action[1] == "dummy":
            self.sets[s] = ()
        else:
            kind_of = self.game.codec.kind_of
            kinds = tuple(kind_of[n] for n in action[1:])
            for k in kinds:
                self.hand[s].remove(k)
            self.sets[s] = kinds
        self._next_set()

    def _reveal(self) -> None:
        """2_1: the sets are revealed together."""
        self.revealed = True
        r_colour = self.game.cards.r_colour
        for s in (0, 1):
            cards = self.sets[s]
            self.colour[s] = r_colour[cards[0]] if cards else -1
        names = self.game.cards.r_names
        for s in (0, 1):
            cards = self.sets[s]
            if cards:
                self._forget(s, tuple(names[k] for k in cards))
        self.last_battle = {
            "turn": self.turn_no,
            "sets": [None if x is None else ("dummy" if not x else [names[k] for k in x]) for x in self.sets],
        }
        self.queue = [s for s in self.order if self.sets[s] and self.item[s] != NO_ITEM]
        self._next_brush_window()

    def _next_brush_window(self) -> None:
        if self.queue:
            self.phase, self.actor = P_BRUSH, self.queue.pop(0)
            return
        self._resolve()

    def _resolve(self) -> None:
        """3: the triangle decides; the winner's damage is summed over its circles of the battle attribute."""
        c0, c1 = self.colour
        if c0 >= 0 and c1 >= 0:
            winner = -1 if c0 == c1 else (0 if BEATS[c0] == c1 else 1)
        elif c0 >= 0:
            winner = 0
        elif c1 >= 0:
            winner = 1
        else:
            winner = -1
        self.winner = winner
        if winner < 0:
            self._log(winner=None, damage=0)
            self._cleanup()
            return
        self.pending = self.battle_damage(winner)
        self._log(winner=winner, damage=self.pending)
        loser = 1 - winner
        if self.pending > 0 and self.item[loser] != NO_ITEM:
            self.phase, self.actor = P_MIRROR, loser
            return
        self._deal()

    def battle_damage(self, winner: int) -> int:
        """Σ over the winner's circles whose colour is the battle attribute of floor(ATK × times [× times])."""
        cards = self.game.cards
        battle = self.sets[winner]
        assert battle
        second = battle[1] if len(battle) > 1 else None
        colour = self.colour[winner]
        return sum(
            cards.damage(circle, battle[0], second) for circle in self.field[winner] if cards.c_colour[circle] == colour
        )

    def _mirror(self) -> None:
        """Mirror of Desire: the damage is prevented and the attacker takes part of it, rounded down."""
        reflect = self.game.cards.items[MIRROR].value
        back = floor(self.pending * reflect)  # type: ignore[operator]
        self.hp[self.winner] -= back
        self._log(damage=0, mirrored=back)
        self.pending = 0
        if self._check_hp():
            return
        self._cleanup()

    def _deal(self) -> None:
        winner = self.winner
        self.hp[1 - winner] -= self.pending
        if self._check_hp():
            return
        if self.pending > 0 and self.item[winner] != NO_ITEM:
            self.phase, self.actor = P_SWORD, winner
            return
        self._cleanup()

    def _cleanup(self) -> None:
        """4: battle ryabi of both players are removed from the game; the dummy goes back."""
        for s in (0, 1):
            cards = self.sets[s]
            if cards:
                for k in cards:
                    self.removed_ryabi[k] += 1
        self.sets = [None, None]
        self.battling = [False, False]
        self.revealed = False
        self.colour = [-1, -1]
        self.winner = -1
        self.pending = 0
        self.eye_seen = [None, None]
        self._end_phase()

    def _end_phase(self) -> None:
        """エンドフェイズ: each player discards the rest of their hand."""
        for s in (0, 1):
            self.discard[s].extend(self.hand[s])
            self.hand[s].clear()
            self.public_hand[s] = []
        self._begin_turn()

    def _log(self, **facts: Any) -> None:
        """Add public facts about the current battle (a new dict: clones share the old one)."""
        self.last_battle = {**(self.last_battle or {}), **facts}

    # -- the end ------------------------------------------------------------------------------------------
    @staticmethod
    def _win_for(seat: int) -> list[float]:
        return [1.0, -1.0] if seat == 0 else [-1.0, 1.0]

    def _check_hp(self) -> bool:
        """HP 0 or less loses; both at once is a draw."""
        down = [self.hp[0] <= 0, self.hp[1] <= 0]
        if not (down[0] or down[1]):
            return False
        if down[0] and down[1]:
            self._finish([0.0, 0.0], "both players fell to 0 HP")
        else:
            loser = 0 if down[0] else 1
            self._finish(self._win_for(1 - loser), f"seat {loser} fell to 0 HP")
        return True

    def _finish(self, result: list[float], reason: str) -> None:
        self.result = result
        self.end_reason = reason
        self.phase = P_OVER
        self.queue = []

    # -- hidden information -------------------------------------------------------------------------------
    def observation(self, seat: int | None) -> dict[str, Any]:
        from .views import observation

        return observation(self, seat)

    def resample(self, seat: int, rng: Rng | random.Random | int) -> LyabiState:
        from .views import resample

        return resample(self, seat, Rng.coerce(rng))

    def snapshot(self) -> dict[str, Any]:
        return {
            "rng": self.rng.state,
            "turn": self.turn_no,
            "phase": PHASE_NAMES[self.phase],
            "actor": self.actor,
            "first": self.first,
            "hp": list(self.hp),
            "deck": [list(x) for x in self.deck],
            "hand": [list(x) for x in self.hand],
            "public_hand": [list(x) for x in self.public_hand],
            "discard": [list(x) for x in self.discard],
            "field": [list(x) for x in self.field],
            "item": list(self.item),
            "supply": list(self.supply),
            "piles": [list(x) for x in self.piles],
            "item_pile": list(self.item_pile),
            "removed_ryabi": list(self.removed_ryabi),
            "removed_circles": list(self.removed_circles),
            "removed_items": list(self.removed_items),
            "draw_to": list(self.draw_to),
            "known_top": list(self.known_top),
            "actions_left": self.actions_left,
            "main_used": self.main_used,
            "queue": list(self.queue),
            "battling": list(self.battling),
            "sets": [None if x is None else list(x) for x in self.sets],
            "revealed": self.revealed,
            "colour": list(self.colour),
            "winner": self.winner,
            "pending": self.pending,
            "eye_seen": [None if x is None else list(x) for x in self.eye_seen],
            "last_battle": self.last_battle,
            "result": self.result,
            "end_reason": self.end_reason,
            "history": [str(a) for a in self.history],
        }

    def clone(self) -> LyabiState:
        c = LyabiState.__new__(LyabiState)
        self._copy_base_into(c)
        c.rng = self.rng.copy()
        c.turn_no = self.turn_no
        c.phase = self.phase
        c.actor = self.actor
        c.first = self.first
        c.order = self.order
        c.hp = self.hp.copy()
        d, h, x, f = self.deck, self.hand, self.discard, self.field
        c.deck = [d[0].copy(), d[1].copy()]
        c.hand = [h[0].copy(), h[1].copy()]
        ph = self.public_hand
        c.public_hand = [ph[0].copy(), ph[1].copy()]
        c.discard = [x[0].copy(), x[1].copy()]
        c.field = [f[0].copy(), f[1].copy()]
        c.item = self.item.copy()
        c.supply = self.supply.copy()
        c.supply_mask = self.supply_mask
        c.piles = [p.copy() for p in self.piles]
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
