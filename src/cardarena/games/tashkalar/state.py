"""The state of a deathmatch duel: board, supplies, cards, the turn, and any effect waiting for a choice."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ...engine import Action, Rng, State
from . import effects, summoning
from .actions import CHOOSE, END, PLACE, RECALL, RESIGN, SKIP, card_action, summon_action
from .board import DUEL_SETUP, ONBOARD, SQ_NAME, bits
from .cards import LEGENDARY, Card
from .pieces import all_pieces, cell, count_pieces, count_upgraded

if TYPE_CHECKING:
    from .game import TashGame

# phases
SETUP, MAIN, EFFECT, BOTTOM, RECALL_PLACE, SUMMON_RECALL, OVER = range(7)
PHASE_NAMES = ("setup", "main", "effect", "bottom", "recall-place", "summon-recall", "over")
DECKS = ("school", "legend", "flare")


class TashState(State):
    """One position. Hidden: hands, the order of every deck (a player knows the cards they put under theirs)."""

    game: TashGame

    def __init__(self, game: TashGame, seed: int) -> None:
        super().__init__(game, seed)
        cs = game.cards
        rules = cs.rules
        self.rng = Rng(seed)
        n = game.num_players
        self.board = [0] * 144
        self.bb = [0] * 8
        two = rules.deathmatch_two_sided_base - n
        self.supply_two = [two] * n
        self.supply_leg = [rules.legendary_pieces] * n
        self.score = [0] * n
        self.school = game.choose_schools(self.rng)
        self.deck_s: list[list[int]] = []
        for p in range(n):
            deck = list(cs.schools[self.school[p]].cards)
            self.rng.shuffle(deck)
            self.deck_s.append(deck)
        self.hand_b: list[list[int]] = [[] for _ in range(n)]
        self.disc_s: list[list[int]] = [[] for _ in range(n)]
        self.known_bottom = [0] * n
        self.deck_l = list(cs.legends)
        self.rng.shuffle(self.deck_l)
        self.deck_f = list(cs.flares)
        self.rng.shuffle(self.deck_f)
        self.hand_l: list[list[int]] = [[] for _ in range(n)]
        self.hand_f: list[list[int]] = [[] for _ in range(n)]
        self.disc_l: list[int] = []
        self.disc_f: list[int] = []
        self.deck_out = [False] * n
        self.trigger = ""
        self.final_left = -1
        self.resigned = -1
        self.capped = False
        # the turn
        self.player = 1  # the second player places the setup commons first
        self.turn_no = 1
        self.phase = SETUP
        self.actions = 0
        self.discarded = False
        self.destroyed = [0, 0, 0]  # enemy commons, heroics, legendaries destroyed this turn
        self.aside = [0] * (2 * n)  # destroyed enemy pieces set aside this turn: [two-sided, legendary] per owner
        self.extra = [0, 0, 0]  # extra school, legend, flare cards to draw at the end of this turn
        # the effect being resolved
        self.resolving = -1
        self.frames: list[tuple[tuple[Any, ...], int, int]] = []  # (steps, next step index, option taken)
        self.flare_parts = (False, False)
        self.prog_n = 0
        self.prev_done = False
        self.prog_picked = 0
        self.mover = -1
        self.mover_left = 0
        self.pool = -1
        self.ctx_self = -1
        self.ctx_last = -1
        self.ctx_summon = -1
        self.ctx_marked = 0
        self.pending_summon: tuple[int, int, int] | None = None  # (card, square, orientation index)
        self.recall_mask = 0
        for p in range(n):
            self._refill(p, initial=True)

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
        n = self.game.num_players
        if self.phase != OVER or self.capped:
            return [0.0] * n
        if self.resigned >= 0:
            return [-1.0 if p == self.resigned else 1.0 for p in range(n)]
        key = [(self.score[p], count_upgraded(self.bb, p), count_pieces(self.bb, p)) for p in range(n)]
        best = max(key)
        if key.count(best) > 1:
            return [0.0] * n
        return [1.0 if k == best else -1.0 for k in key]

    def cards(self) -> tuple[Card, ...]:
        return self.game.cards.cards

    # -- pieces ---------------------------------------------------------------------------------------------
    def put(self, sq: int, owner: int, rank: int) -> None:
        """Take a piece of ``rank`` from ``owner``'s supply and set it on the empty square ``sq``."""
        c = cell(owner, rank)
        self.board[sq] = c
        self.bb[c] |= 1 << sq
        if rank == LEGENDARY:
            self.supply_leg[owner] -= 1
        else:
            self.supply_two[owner] -= 1

    def remove(self, sq: int, *, destroyed: bool) -> None:
        """Take the piece on ``sq`` off the board, back to its owner; ``destroyed`` counts it for scoring."""
        c = self.board[sq]
        owner, rank = c >> 2, c & 3
        self.board[sq] = 0
        self.bb[c] &= ~(1 << sq)
        if destroyed and owner != self.player:
            # 破壊した敵ユニットをゲームボードのわきによける: back to its owner at the end of the turn
            self.destroyed[rank - 1] += 1
            self.aside[2 * owner + (rank == LEGENDARY)] += 1
        elif rank == LEGENDARY:
            self.supply_leg[owner] += 1
        else:
            self.supply_two[owner] += 1
        if sq == self.ctx_self:
            self.ctx_self = -1
        if self.pool > 0:
            self.pool &= ~(1 << sq)

    def flip(self, sq: int, rank: int) -> None:
        """Turn the two-sided piece on ``sq`` to its ``rank`` side (common/heroic)."""
        c = self.board[sq]
        self.bb[c] &= ~(1 << sq)
        c = (c & ~3) | rank
        self.board[sq] = c
        self.bb[c] |= 1 << sq

    def has_supply(self, owner: int, rank: int) -> bool:
        return (self.supply_leg if rank == LEGENDARY else self.supply_two)[owner] > 0

    def empty_mask(self) -> int:
        return ONBOARD & ~all_pieces(self.bb)

    # -- cards ----------------------------------------------------------------------------------------------
    def _draw(self, p: int, which: int) -> bool:
        """Draw one card of deck ``which`` (0 school, 1 legend, 2 flare) for ``p``; False if none is left."""
        if which == 0:
            deck = self.deck_s[p]
            if not deck:
                return False
            self.hand_b[p].append(deck.pop())
            if not deck:
                self.deck_out[p] = True
            return True
        deck, disc, hand = (
            (self.deck_l, self.disc_l, self.hand_l[p]) if which == 1 else (self.deck_f, self.disc_f, self.hand_f[p])
        )
        if not deck:
            if not disc:
                return False
            deck.extend(disc)
            disc.clear()
            self.rng.shuffle(deck)
        hand.append(deck.pop())
        return True

    def _refill(self, p: int, *, initial: bool = False) -> None:
        rules = self.game.cards.rules
        for which, hand, limit in (
            (0, self.hand_b[p], rules.hand_beings),
            (1, self.hand_l[p], rules.hand_legends),
            (2, self.hand_f[p], rules.hand_flares),
        ):
            while len(hand) < limit and self._draw(p, which):
                pass
        if not initial:
            for which in range(3):
                for _ in range(self.extra[which]):
                    self._draw(p, which)
        self.known_bottom[p] = min(self.known_bottom[p], len(self.deck_s[p]))

    def flare_halves(self, p: int, card: Card) -> tuple[bool, bool]:
        """Which halves of a flare ``p`` may use now: the best opponent's upgraded pieces and pieces minus own."""
        up = low = False
        mine_up, mine = count_upgraded(self.bb, p), count_pieces(self.bb, p)
        for o in range(self.game.num_players):
            if o != p:
                up = up or count_upgraded(self.bb, o) - mine_up >= card.upper
                low = low or count_pieces(self.bb, o) - mine >= card.lower
        return up, low

    # -- legal actions --------------------------------------------------------------------------------------
    def _legal_actions(self) -> list[Action]:
        acts = self._decisions()
        if self.game.options["resign"]:
            acts.append(RESIGN)  # 2人ゲーム…プレイヤーはいつでも投了することができる
        return acts

    def _decisions(self) -> list[Action]:
        ph = self.phase
        if ph == MAIN:
            return self._main_actions()
        if ph == EFFECT:
            return effects.choices(self)
        if ph == SETUP:
            return [CHOOSE[DUEL_SETUP[0]], CHOOSE[DUEL_SETUP[1]]]
        if ph == BOTTOM:
            cs = self.cards()
            return [*(card_action("bottom", cs[c].id) for c in self.hand_b[self.player]), SKIP]
        if ph == RECALL_PLACE:
            return [PLACE[sq] for sq in bits(self.empty_mask())]
        if ph == SUMMON_RECALL:
            return [RECALL[sq] for sq in bits(self.recall_mask)]
        return []

    def _main_actions(self) -> list[Action]:
        p = self.player
        out: list[Action] = []
        cs = self.cards()
        if self.actions > 0:
            if self.supply_two[p] > 0:
                out.extend([PLACE[sq] for sq in bits(self.empty_mask())])
            else:
                base = p << 2
                out.extend([RECALL[sq] for sq in bits(self.bb[base | 1] | self.bb[base | 2])])
            for c, sq, o in self.summons():
                out.append(summon_action(cs[c].id, sq, cs[c].orients[o].name))
            if not self.discarded:
                out.extend([card_action("discard", cs[c].id) for c in self.hand_b[p]])
        for c in self.hand_f[p]:
            if any(self.flare_halves(p, cs[c])):
                out.append(card_action("flare", cs[c].id))
        out.append(END)
        return out

    def summons(self) -> list[tuple[int, int, int]]:
        """Every legal summon (card, summon square, orientation index) of the player to act, in a stable order."""
        return summoning.legal_summons(self)

    # -- applying -------------------------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        kind = action[0]
        ph = self.phase
        if kind == "resign":
            self.resigned = self.player
            self.trigger = f"seat {self.player} resigned"
            self.phase = OVER
            return
        if ph == EFFECT:
            effects.apply_choice(self, action)
            return
        if ph == SETUP:
            own = action[1]
            other = DUEL_SETUP[1] if own == DUEL_SETUP[0] else DUEL_SETUP[0]
            self.put(own, self.player, 1)
            self.put(other, 1 - self.player, 1)
            self._start_turn(0)
            return
        if ph == BOTTOM:
            if kind == "skip":
                self._back_to_main()
                return
            c = self.game.cards.by_id[action[1]].index
            hand = self.hand_b[self.player]
            hand.remove(c)
            self.deck_s[self.player].insert(0, c)
            self.known_bottom[self.player] += 1
            if not hand:
                self._back_to_main()
            return
        if ph == RECALL_PLACE:
            self.put(action[1], self.player, 1)
            self._back_to_main()
            return
        if ph == SUMMON_RECALL:
            assert self.pending_summon is not None
            self.remove(action[1], destroyed=False)
            c, sq, oi = self.pending_summon
            self.pending_summon = None
            self.recall_mask = 0
            self._summon_place(c, sq, oi)
            return
        # main phase
        p = self.player
        if kind == "place":
            self.actions -= 1
            self.put(action[1], p, 1)
            self._after_action()
        elif kind == "recall":
            self.actions -= 1
            self.remove(action[1], destroyed=False)
            self.phase = RECALL_PLACE
        elif kind == "summon":
            self._summon(action)
        elif kind == "discard":
            self.actions -= 1
            self.discarded = True
            c = self.game.cards.by_id[action[1]].index
            self.hand_b[p].remove(c)
            self.disc_s[p].append(c)
            self.phase = BOTTOM
            if not self.hand_b[p]:
                self._back_to_main()
        elif kind == "flare":
            self._flare(self.game.cards.by_id[action[1]])
        elif kind == "end":
            self._end_turn()
        else:  # pragma: no cover - legal_actions never lists anything else
            raise AssertionError(f"unexpected action {action!r}")

    def _summon(self, action: Action) -> None:
        card = self.game.cards.by_id[action[1]]
        sq = action[2]
        oi = next(i for i, o in enumerate(card.orients) if o.name == action[3])
        p = self.player
        self.actions -= 1
        (self.hand_l if card.kind == "legend" else self.hand_b)[p].remove(card.index)
        self.resolving = card.index
        if self.board[sq]:
            self.remove(sq, destroyed=True)
        if not self.has_supply(p, card.rank):
            mask = summoning.recall_mask(self, card, card.orients[oi], sq)
            self.pending_summon = (card.index, sq, oi)
            self.recall_mask = mask
            self.phase = SUMMON_RECALL
            return
        self._summon_place(card.index, sq, oi)

    def _summon_place(self, c: int, sq: int, oi: int) -> None:
        card = self.cards()[c]
        p = self.player
        self.put(sq, p, card.rank)
        if card.rank == LEGENDARY:
            self.score[p] += 1
        o = card.orients[oi]
        marked = 0
        for shift in o.marked:
            t = sq + shift
            if t >= 0:
                marked |= 1 << t
        self.ctx_marked = marked & ONBOARD
        self.ctx_self = sq
        self.ctx_last = sq
        self.ctx_summon = sq
        self.phase = EFFECT
        effects.start(self, card.steps)

    def _flare(self, card: Card) -> None:
        p = self.player
        up, low = self.flare_halves(p, card)
        self.hand_f[p].remove(card.index)
        for o in range(self.game.num_players):
            if o != p:
                self.score[o] += 1
        self.resolving = card.index
        self.flare_parts = (up, low)
        self.ctx_self = -1
        self.ctx_last = -1
        self.ctx_summon = -1
        self.ctx_marked = 0
        self.phase = EFFECT
        steps = (card.upper_steps if up else ()) + (card.lower_steps if low else ())
        effects.start(self, steps)

    def finish_effect(self) -> None:
        """The effect is over: the card goes to its discard pile and the turn goes on."""
        card = self.cards()[self.resolving]
        if card.kind == "being":
            self.disc_s[self.player].append(card.index)
        elif card.kind == "legend":
            self.disc_l.append(card.index)
        else:
            self.disc_f.append(card.index)
        self.resolving = -1
        self.flare_parts = (False, False)
        self.ctx_self = self.ctx_last = self.ctx_summon = -1
        self.ctx_marked = 0
        self._back_to_main()

    def _back_to_main(self) -> None:
        self.phase = MAIN
        self._after_action()

    def _after_action(self) -> None:
        """With no action left and no flare to invoke, the turn ends by itself."""
        if self.actions > 0:
            return
        p = self.player
        cs = self.cards()
        if any(any(self.flare_halves(p, cs[c])) for c in self.hand_f[p]):
            return
        self._end_turn()

    def _start_turn(self, p: int) -> None:
        self.player = p
        self.phase = MAIN
        self.actions = 1 if self.turn_no == 1 else 2
        self.discarded = False
        self.destroyed = [0, 0, 0]
        self.aside = [0] * (2 * self.game.num_players)
        self.extra = [0, 0, 0]

    def _end_turn(self) -> None:
        p = self.player
        dc, dh, dl = self.destroyed
        self.score[p] += 2 * dl + dh + dc // 2
        for o in range(self.game.num_players):
            self.supply_two[o] += self.aside[2 * o]
            self.supply_leg[o] += self.aside[2 * o + 1]
        self.aside = [0] * len(self.aside)
        self._refill(p)
        rules = self.game.cards.rules
        n = self.game.num_players
        if self.final_left < 0:
            reasons = []
            if max(self.score) >= rules.deathmatch_target:
                reasons.append(f"{rules.deathmatch_target} points")
            if self.deck_out[p]:
                reasons.append(f"seat {p} drew the last card of their school deck")
            if reasons:
                self.trigger = f"end triggered on turn {self.turn_no} by seat {p}: " + " and ".join(reasons)
                self.final_left = n
        else:
            self.final_left -= 1
            if self.final_left == 0:
                self.phase = OVER
                return
        if self.turn_no >= self.game.options["max_turns"]:
            self.capped = True
            self.trigger = f"the safety cap of {self.turn_no} turns was reached (a draw)"
            self.phase = OVER
            return
        self.turn_no += 1
        self._start_turn((p + 1) % n)

    # -- copies ---------------------------------------------------------------------------------------------
    def clone(self) -> TashState:
        c = TashState.__new__(TashState)
        d = c.__dict__
        d.update(self.__dict__)
        c.history = self.history.copy()
        c.rng = self.rng.copy()
        c.board = self.board.copy()
        c.bb = self.bb.copy()
        c.supply_two = self.supply_two.copy()
        c.supply_leg = self.supply_leg.copy()
        c.score = self.score.copy()
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
        c.destroyed = self.destroyed.copy()
        c.aside = self.aside.copy()
        c.extra = self.extra.copy()
        c.frames = self.frames.copy()
        return c

    def resample(self, seat: int, rng: Rng | random.Random | int) -> TashState:
        r = Rng.coerce(rng)
        c = self.clone()
        n = self.game.num_players
        for p in range(n):
            if p == seat:
                # own deck: the order above the cards you put under it is unknown to you too
                k = c.known_bottom[p]
                top = c.deck_s[p][k:]
                r.shuffle(top)
                c.deck_s[p][k:] = top
                continue
            pool = c.hand_b[p] + c.deck_s[p]
            r.shuffle(pool)
            h = len(c.hand_b[p])
            c.hand_b[p] = pool[:h]
            c.deck_s[p] = pool[h:]
        for hands, deck_name in ((c.hand_l, "deck_l"), (c.hand_f, "deck_f")):
            deck: list[int] = getattr(c, deck_name)
            pool = deck.copy()
            for p in range(n):
                if p != seat:
                    pool.extend(hands[p])
            r.shuffle(pool)
            for p in range(n):
                if p != seat:
                    h = len(hands[p])
                    hands[p] = pool[:h]
                    del pool[:h]
            setattr(c, deck_name, pool)
        c.rng = r.fork()
        return c

    # -- views ----------------------------------------------------------------------------------------------
    def _names(self, cards: list[int]) -> list[str]:
        cs = self.cards()
        return [cs[c].id for c in cards]

    def observation(self, seat: int | None) -> dict[str, Any]:
        cs = self.cards()
        n = self.game.num_players
        obs: dict[str, Any] = {
            "turn": self.turn_no,
            "phase": PHASE_NAMES[self.phase],
            "player": self.player,
            "actions": self.actions,
            "discarded": self.discarded,
            "board": {SQ_NAME[sq]: [self.board[sq] >> 2, self.board[sq] & 3] for sq in bits(all_pieces(self.bb))},
            "supply_two_sided": self.supply_two.copy(),
            "supply_legendary": self.supply_leg.copy(),
            "score": self.score.copy(),
            "schools": list(self.school),
            "hand_sizes": [[len(self.hand_b[p]), len(self.hand_l[p]), len(self.hand_f[p])] for p in range(n)],
            "school_deck_sizes": [len(d) for d in self.deck_s],
            "cards_put_under": self.known_bottom.copy(),
            "legend_deck": len(self.deck_l),
            "flare_deck": len(self.deck_f),
            "school_discards": [self._names(d) for d in self.disc_s],
            "legend_discard": self._names(self.disc_l),
            "flare_discard": self._names(self.disc_f),
            "destroyed_this_turn": self.destroyed.copy(),
            "set_aside": self.aside.copy(),
            "extra_draws": self.extra.copy(),
            "drew_last_school_card": self.deck_out.copy(),
            "final_turns_left": self.final_left,
            "trigger": self.trigger,
            "resolving": cs[self.resolving].id if self.resolving >= 0 else None,
            "effect": effects.describe_progress(self),
            "pending_summon": (
                None
                if self.pending_summon is None
                else [cs[self.pending_summon[0]].id, SQ_NAME[self.pending_summon[1]], self.pending_summon[2]]
            ),
            "recall_choices": [SQ_NAME[s] for s in bits(self.recall_mask)],
            "result": self.returns() if self.phase == OVER else None,
        }
        if seat is not None:
            k = self.known_bottom[seat]
            obs["seat"] = seat
            obs["hand"] = {
                "beings": self._names(self.hand_b[seat]),
                "legends": self._names(self.hand_l[seat]),
                "flares": self._names(self.hand_f[seat]),
            }
            obs["my_deck_bottom"] = self._names(self.deck_s[seat][:k])
            obs["my_deck_cards"] = sorted(self._names(self.deck_s[seat]))
        return obs

    def snapshot(self) -> dict[str, Any]:
        snap = self.observation(None)
        snap.update(
            rng=self.rng.state,
            school_decks=[self._names(d) for d in self.deck_s],
            hands=[
                [self._names(self.hand_b[p]), self._names(self.hand_l[p]), self._names(self.hand_f[p])]
                for p in range(self.game.num_players)
            ],
            legend_deck_order=self._names(self.deck_l),
            flare_deck_order=self._names(self.deck_f),
            history=[str(a) for a in self.history],
        )
        return snap

    def why_illegal(self, action: Action) -> str:
        from .explain import why_illegal

        return why_illegal(self, action)
