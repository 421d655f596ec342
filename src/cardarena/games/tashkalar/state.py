"""The state of a game in any mode: board, supplies, cards, scores, the turn, and any effect waiting for a choice.

Seats and colours: pieces belong to a colour. Outside team games a seat's colour is its own number; in team games
(4 seats) seats 0 and 2 share colour 0 and seats 1 and 3 colour 1. ``player`` is the seat to decide now,
``active`` the seat whose turn it is (they differ once the turn was handed over to the teammate), ``side`` the
colour of the turn.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ...engine import Action, Rng, State, zones
from ...engine.fields import copied, nested, shared
from . import effects, modes, summoning
from .actions import (
    CHOOSE,
    END,
    HANDOVER,
    PLACE,
    RECALL,
    RESIGN,
    SCORE,
    SKIP,
    card_action,
    flare_against,
    improv_action,
    summon_action,
)
from .board import DUEL_SETUP, ONBOARD, SQ_NAME, bits
from .cards import LEGENDARY, Card
from .constants import (
    BOTTOM,
    CLAIM,
    EFFECT,
    MAIN,
    MELEE_SETUP,
    OVER,
    PHASE_NAMES,
    PICK,
    PICK_END,
    PICK_LEGEND,
    RECALL_PLACE,
    SETUP,
    SUMMON_RECALL,
)
from .pieces import all_pieces, cell, count_pieces, count_upgraded

if TYPE_CHECKING:
    from .game import TashKalarGame


class TashKalarState(State):
    """One position. Hidden: hands, the order of every deck (a player knows the cards they put under theirs)."""

    game: TashKalarGame
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

    def __init__(self, game: TashKalarGame, seed: int) -> None:
        super().__init__(game, seed)
        cs = game.cards
        rules = cs.rules
        self.rng = Rng(seed)
        n = game.num_players
        nc = game.n_col
        self.board = [0] * 144
        self.bb = [0] * 16
        # 18 - players two-sided pieces in deathmatch (a team colour counts once), 17 in High Form
        two = rules.highform_two_sided if game.mode == "highform" else rules.deathmatch_two_sided_base - nc
        self.supply_two = [two] * nc
        self.supply_leg = [rules.legendary_pieces] * nc
        self.score = [0] * nc  # deathmatch points, or High Form task points, per colour
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
        # melee: each seat's scoring board (points per colour) and the colours it improvised with (bits)
        self.mscore: list[list[int]] = [[0] * n for _ in range(n)] if game.mode == "melee" else []
        self.improv = [0] * n
        # High Form: task deck (top = end), the current tasks, the next task, tasks claimed per colour
        self.deck_t: list[int] = []
        self.cur_t: list[int] = []
        self.next_t = -1
        self.t_bottom = 0  # cards known to lie at the bottom of the task deck (put there face up)
        self.claimed: list[list[int]] = [[] for _ in range(nc)]
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
        self.summoned: list[int] = []  # this turn's summons, one entry each: square << 2 | rank
        self.extra = [0, 0, 0]  # extra school, legend, flare cards to draw at the end of this turn
        self.pick_mask = 0  # melee: the colours a point may be scored in now
        self.pick_then = PICK_LEGEND
        self.msetup = 0  # melee setup: commons put so far (bits 8+: colours used)
        # the effect being resolved
        self.resolving = -1
        self.frames: list[tuple[tuple[Any, ...], int, int]] = []  # (steps, next step index, option taken)
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
        self.known_hand: list[list[int]] = [[] for _ in range(n)]
        self.in_extra = False  # this turn is an extra turn
        self.ctx_self = -1
        self.ctx_last = -1
        self.ctx_summon = -1
        self.ctx_marked = 0
        self.pending_summon: tuple[int, int, int] | None = None  # (card, square, orientation index)
        self.recall_mask = 0
        for p in range(n):
            # team games: the teammate who plays first draws the team's 2 legends, the other none
            self._refill(p, initial=True, decks=(0, 2) if game.teams and p >= 2 else (0, 1, 2))
        if game.mode == "highform":
            modes.deal_tasks(self)
            self._start_turn(0)
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
        n = self.game.num_players
        if self.phase != OVER or self.capped:
            return [0.0] * n
        col = self.game.colour_of
        if self.resigned >= 0:
            lost = col[self.resigned]
            return [-1.0 if col[p] == lost else 1.0 for p in range(n)]
        return modes.returns(self)

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
        if destroyed and owner != self.side:
            # 破壊した敵ユニットをゲームボードのわきによける: back to its owner at the end of the turn
            self.destroyed[rank - 1] += 1
            self.dest[3 * owner + rank - 1] += 1
            if self.game.mode != "highform":
                return self._forget(sq)
        if rank == LEGENDARY:
            self.supply_leg[owner] += 1
        else:
            self.supply_two[owner] += 1
        self._forget(sq)

    def _forget(self, sq: int) -> None:
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
            if len(deck) <= self.sideways:
                # the last (upright) card drawn; in team games the bottom cards lie sideways
                self.deck_out[p] = True
            return True
        deck, disc, hand = (
            (self.deck_l, self.disc_l, self.hand_l[p]) if which == 1 else (self.deck_f, self.disc_f, self.hand_f[p])
        )
        if not deck:
            if not disc:
                return False
            zones.shuffle_into(disc, deck, self.rng)
        hand.append(deck.pop())
        return True

    @property
    def aside(self) -> list[int]:
        """Destroyed enemy pieces set aside this turn: [two-sided, legendary] per colour (none in High Form)."""
        d = self.dest
        if self.game.mode == "highform":
            return [0] * (2 * self.game.n_col)
        out = []
        for o in range(self.game.n_col):
            out += [d[3 * o] + d[3 * o + 1], d[3 * o + 2]]
        return out

    @property
    def sideways(self) -> int:
        return self.game.cards.rules.team_sideways if self.game.teams else 0

    def _refill(self, p: int, *, initial: bool = False, decks: tuple[int, ...] = (0, 1, 2)) -> None:
        """Draw up to 3 beings, 2 legends, 1 flare (the decks in ``decks``), then the extra cards."""
        rules = self.game.cards.rules
        if self.known_hand[p]:
            # a known card that left the hand is no longer known there (drawing it again is secret)
            held = self.hand_b[p] + self.hand_l[p] + self.hand_f[p]
            self.known_hand[p] = [c for c in self.known_hand[p] if c in held]
        for which, hand, limit in (
            (0, self.hand_b[p], rules.hand_beings),
            (1, self.hand_l[p], rules.hand_legends),
            (2, self.hand_f[p], rules.hand_flares),
        ):
            if which in decks:
                while len(hand) < limit and self._draw(p, which):
                    pass
        if not initial:
            for which in decks:
                for _ in range(self.extra[which]):
                    self._draw(p, which)
        self.known_bottom[p] = min(self.known_bottom[p], len(self.deck_s[p]))

    def flare_halves(self, p: int, card: Card, against: int = -1) -> tuple[bool, bool]:
        """Which halves of a flare seat ``p`` may use now: an opponent's upgraded pieces and pieces minus own
        (in melee, the opponent ``against`` that the player chose to compare with)."""
        up = low = False
        me = self.game.colour_of[p]
        mine_up, mine = count_upgraded(self.bb, me), count_pieces(self.bb, me)
        for o in range(self.game.n_col) if against < 0 else (against,):
            if o != me:
                up = up or count_upgraded(self.bb, o) - mine_up >= card.upper
                low = low or count_pieces(self.bb, o) - mine >= card.lower
        return up, low

    def flare_actions(self) -> list[Action]:
        """The flares the player to act may invoke now (melee: against each opponent it works against)."""
        p = self.player
        cs = self.cards()
        out: list[Action] = []
        if self.game.mode == "melee":
            for c in self.hand_f[p]:
                for o in range(self.game.num_players):
                    if o != p and any(self.flare_halves(p, cs[c], o)):
                        out.append(flare_against(cs[c].id, o))
            return out
        for c in self.hand_f[p]:
            if any(self.flare_halves(p, cs[c])):
                out.append(card_action("flare", cs[c].id))
        return out

    # -- legal actions --------------------------------------------------------------------------------------
    def _legal_actions(self) -> list[Action]:
        acts = self._decisions()
        if self.game.teams and self.phase == EFFECT and not self.handed:
            acts.append(HANDOVER)  # チーム戦: the turn may be handed over during an effect
        if self.game.resign:
            acts.append(RESIGN)  # 2人ゲーム…プレイヤーはいつでも投了することができる (last: see playout_actions)
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
            # 残りのそのほかのカードを望む枚数だけ山札の底に戻す: any remaining card, each under its own deck
            cs = self.cards()
            p = self.player
            return [
                *(card_action("bottom", cs[c].id) for hand in (self.hand_b, self.hand_l, self.hand_f) for c in hand[p]),
                SKIP,
            ]
        if ph == RECALL_PLACE:
            return [PLACE[sq] for sq in bits(self.empty_mask())]
        if ph == SUMMON_RECALL:
            return [RECALL[sq] for sq in bits(self.recall_mask)]
        if ph == PICK:
            return [SCORE[c] for c in bits(self.pick_mask)]
        if ph == CLAIM:
            return [*modes.claim_actions(self), SKIP]
        if ph == MELEE_SETUP:
            return modes.melee_setup_actions(self)
        return []

    def _main_actions(self) -> list[Action]:
        p = self.player
        side = self.side
        out: list[Action] = []
        cs = self.cards()
        if self.actions > 0:
            if self.supply_two[side] > 0:
                out.extend([PLACE[sq] for sq in bits(self.empty_mask())])
            else:
                base = side << 2
                out.extend([RECALL[sq] for sq in bits(self.bb[base | 1] | self.bb[base | 2])])
            if self.handed:
                # the teammate spends the remaining actions on placing commons only, and invokes no flare
                out.append(END)
                return out
            for c, sq, o in self.summons():
                out.append(summon_action(cs[c].id, sq, cs[c].orients[o].name))
            if self.game.mode == "melee":
                for c, sq, o, using in summoning.improvised_summons(self):
                    out.append(improv_action(cs[c].id, sq, cs[c].orients[o].name, using))
            if not self.discarded:
                out.extend([card_action("discard", cs[c].id) for c in self.hand_b[p]])
            if self.game.teams:
                out.append(HANDOVER)
        elif self.handed:
            return [END]
        out.extend(self.flare_actions())
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
            # 投了: the resigning seat (in team games its team) loses at once, whatever the points
            p = self.player
            self.resigned = p
            col = self.game.colour_of
            losers = [s for s in range(self.game.num_players) if col[s] == col[p]]
            self.trigger = f"seat {p} resigned" + (
                f": seats {losers[0]} and {losers[1]} lose" if len(losers) > 1 else ""
            )
            self.phase = OVER
            return
        if kind == "handover":
            mate = self.game.mate(self.active)
            self.hand_l[mate].extend(self.hand_l[self.active])  # 手札の伝説級カードをチームメイトに渡す
            self.hand_l[self.active] = []
            self.handed = True
            self.player = mate
            return
        if ph == EFFECT:
            effects.apply_choice(self, action)
            return
        if ph == SETUP:
            own = action[1]
            other = DUEL_SETUP[1] if own == DUEL_SETUP[0] else DUEL_SETUP[0]
            self.put(own, self.side, 1)
            self.put(other, 1 - self.side, 1)
            self._start_turn(0)
            return
        if ph == MELEE_SETUP:
            modes.apply_melee_setup(self, action)
            if self.msetup & 0xFF == len(modes.MELEE_SETUP_PAIRS):
                self._start_turn(0)
            return
        if ph == PICK:
            self.mscore[self.active][action[1]] += 1
            self.pick_mask = 0
            if self.pick_then == PICK_LEGEND:
                self.phase = EFFECT
                effects.start(self, self.cards()[self.resolving].steps)
            else:
                self._end_turn_claim()
            return
        if ph == CLAIM:
            if kind == "claim":
                modes.claim(self, self.game.tasks.by_id[action[1]].index)  # type: ignore[union-attr]
            self._end_turn_finish()
            return
        if ph == BOTTOM:
            if kind == "skip":
                self._back_to_main()
                return
            self._put_under(self.game.cards.by_id[action[1]])
            p = self.player
            if not (self.hand_b[p] or self.hand_l[p] or self.hand_f[p]):
                self._back_to_main()
            return
        if ph == RECALL_PLACE:
            self.put(action[1], self.side, 1)
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
            self.put(action[1], self.side, 1)
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
            if not (self.hand_b[p] or self.hand_l[p] or self.hand_f[p]):
                self._back_to_main()
        elif kind == "flare":
            self._flare(self.game.cards.by_id[action[1]], action[2] if len(action) == 3 else -1)
        elif kind == "end":
            self._end_turn()
        else:  # pragma: no cover - legal_actions never lists anything else
            raise AssertionError(f"unexpected action {action!r}")

    def _put_under(self, card: Card) -> None:
        """After the discard action: ``card`` from the player's hand goes under its own deck.

        A being goes under the player's school deck (its place there is known to that player, ``known_bottom``;
        in team games it lies sideways, the bottom 6 always being the sideways ones); a legend under the shared
        legend deck, a flare under the shared flare deck.
        """
        p = self.player
        c = card.index
        if card.kind == "being":
            self.hand_b[p].remove(c)
            self.deck_s[p].insert(0, c)
            self.known_bottom[p] += 1
        elif card.kind == "legend":
            self.hand_l[p].remove(c)
            self.deck_l.insert(0, c)
        else:
            self.hand_f[p].remove(c)
            self.deck_f.insert(0, c)

    def _summon(self, action: Action) -> None:
        card = self.game.cards.by_id[action[1]]
        sq = action[2]
        oi = next(i for i, o in enumerate(card.orients) if o.name == action[3])
        p = self.player
        self.actions -= 1
        if len(action) == 5:
            # 即興召喚: this enemy colour cannot be used again for an improvised summon
            self.improv[p] |= 1 << (self.board[action[4]] >> 2)
        (self.hand_l if card.kind == "legend" else self.hand_b)[p].remove(card.index)
        self.resolving = card.index
        if self.board[sq]:
            self.remove(sq, destroyed=True)
        if not self.has_supply(self.side, card.rank):
            mask = summoning.recall_mask(self, card, card.orients[oi], sq)
            self.pending_summon = (card.index, sq, oi)
            self.recall_mask = mask
            self.phase = SUMMON_RECALL
            return
        self._summon_place(card.index, sq, oi)

    def _summon_place(self, c: int, sq: int, oi: int) -> None:
        card = self.cards()[c]
        self.put(sq, self.side, card.rank)
        self.summoned.append(sq << 2 | card.rank)
        legend_point = card.rank == LEGENDARY and self.game.mode != "highform"
        if legend_point and self.game.mode == "deathmatch":
            self.score[self.side] += 1
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
        if legend_point and self.game.mode == "melee":
            # 乱戦: a legend summon scores 1 in a colour of the player's choice
            self.phase = PICK
            self.pick_then = PICK_LEGEND
            self.pick_mask = modes.enemy_mask(self)
            return
        self.phase = EFFECT
        effects.start(self, card.steps)

    def _flare(self, card: Card, against: int = -1) -> None:
        p = self.player
        up, low = self.flare_halves(p, card, against)
        self.hand_f[p].remove(card.index)
        mode = self.game.mode
        if mode == "melee":
            self.mscore[against][p] += 1  # the chosen opponent scores 1 in the invoker's colour
        elif mode == "deathmatch":
            for o in range(self.game.n_col):
                if o != self.side:
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
            self.disc_s[self.active].append(card.index)
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
        """With no action left and no flare to invoke, the turn ends by itself (at once after a handover)."""
        if self.actions > 0:
            return
        if not self.handed and self.flare_actions():
            return
        self._end_turn()

    def _start_turn(self, p: int) -> None:
        self.player = p
        self.active = p
        self.side = self.game.colour_of[p]
        self.handed = False
        self.phase = MAIN
        self.actions = 1 if self.turn_no == 1 else 2
        self.discarded = False
        self.destroyed = [0, 0, 0]
        self.dest = [0] * len(self.dest)
        self.summoned = []
        self.extra = [0, 0, 0]

    def _end_turn(self) -> None:
        """End of turn: score destroyed pieces, return them; then (melee) pick, (High Form) claim, and draw."""
        self.player = self.active
        mode = self.game.mode
        if mode == "deathmatch":
            dc, dh, dl = self.destroyed
            self.score[self.side] += 2 * dl + dh + dc // 2
        elif mode == "melee":
            self.pick_mask = modes.score_melee_turn(self)
        if mode != "highform":
            dest = self.dest
            for o in range(self.game.n_col):
                self.supply_two[o] += dest[3 * o] + dest[3 * o + 1]
                self.supply_leg[o] += dest[3 * o + 2]
            self.dest = [0] * len(dest)
        if self.pick_mask:
            # 2 or 3 odd commons of different colours: one point in one of those colours
            self.phase = PICK
            self.pick_then = PICK_END
            return
        self._end_turn_claim()

    def _end_turn_claim(self) -> None:
        if self.game.mode == "highform" and modes.claim_actions(self):
            self.phase = CLAIM  # ターン終了時、条件が適合するタスクカードを1枚だけ獲得できる
            return
        self._end_turn_finish()

    def _end_turn_finish(self) -> None:
        p = self.active
        g = self.game
        if g.teams:
            mate = g.mate(p)
            self.hand_l[mate].extend(self.hand_l[p])
            self.hand_l[p] = []
            self._refill(p, decks=(0, 2))
            self._refill(mate, decks=(1,))  # the teammate draws legends up to 2 (and any extra legend)
        else:
            self._refill(p)
        n = g.num_players
        if self.final_left < 0:
            reasons = modes.end_reasons(self)
            if self.deck_out[p]:
                reasons.append(f"seat {p} drew the last {'upright ' if g.teams else ''}card of their school deck")
            if reasons:
                self.trigger = f"end triggered on turn {self.turn_no} by seat {p}: " + " and ".join(reasons)
                self.final_left = n
        elif not self.in_extra:
            # an extra turn is not one of the final round's turns
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
        extra = self.extra_turns > 0
        self.extra_turns -= extra
        self._start_turn(p if extra else (p + 1) % n)
        self.in_extra = extra

    def points(self, colour: int) -> int:
        """A colour's points now: deathmatch points, or (High Form) task points plus its legendary pieces."""
        if self.game.mode == "highform":
            return self.score[colour] + self.bb[colour << 2 | 3].bit_count()
        return self.score[colour]

    # -- copies ---------------------------------------------------------------------------------------------
    def __getstate__(self) -> Any:
        """Pickle the base fields and the slots (``pickle`` sets the slots back from the second item)."""
        return super().__getstate__(), {n: getattr(self, n) for n in self.__slots__}

    def resample(self, seat: int, rng: Rng | random.Random | int) -> TashKalarState:
        r = Rng.coerce(rng)
        c = self.clone()
        n = self.game.num_players
        # only the known cards still held are known (a card that left the hand may be redrawn unseen)
        c.known_hand = [[x for x in c.known_hand[p] if x in c._held(p)] for p in range(n)]
        for p in range(n):
            if p == seat:
                # own deck: the order above the cards you put under it is unknown to you too
                k = c.known_bottom[p]
                top = c.deck_s[p][k:]
                r.shuffle(top)
                c.deck_s[p][k:] = top
                continue
            known = c.known_hand[p]
            keep = [x for x in c.hand_b[p] if x in known]  # taken from the discard pile in sight of all
            pool = [x for x in c.hand_b[p] if x not in known] + c.deck_s[p]
            r.shuffle(pool)
            h = len(c.hand_b[p]) - len(keep)
            c.hand_b[p] = keep + pool[:h]
            c.deck_s[p] = pool[h:]
        mate = self.game.mate(seat) if self.game.teams else -1
        for hands, deck_name, shared in ((c.hand_l, "deck_l", True), (c.hand_f, "deck_f", False)):
            deck: list[int] = getattr(c, deck_name)
            pool = deck.copy()
            # a team's legends are shared: the teammate's legends are known
            hidden = [p for p in range(n) if p != seat and not (shared and p == mate)]
            kept = {p: [x for x in hands[p] if x in c.known_hand[p]] for p in hidden}
            for p in hidden:
                pool.extend(x for x in hands[p] if x not in kept[p])
            r.shuffle(pool)
            for p in hidden:
                h = len(hands[p]) - len(kept[p])
                hands[p] = kept[p] + pool[:h]
                del pool[:h]
            setattr(c, deck_name, pool)
        if c.deck_t:
            k = c.t_bottom
            top = c.deck_t[k:]
            r.shuffle(top)
            c.deck_t = c.deck_t[:k] + top
        c.rng = r.fork()
        return c

    # -- views ----------------------------------------------------------------------------------------------
    def _held(self, p: int) -> list[int]:
        return self.hand_b[p] + self.hand_l[p] + self.hand_f[p]

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
            "destroyed_by_colour": self.dest.copy(),
            "extra_draws": self.extra.copy(),
            "extra_turns": self.extra_turns,
            "known_hand_cards": [self._names([c for c in self.known_hand[p] if c in self._held(p)]) for p in range(n)],
            "extra_turn_now": self.in_extra,
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
        g = self.game
        if g.teams:
            obs["school_deck_sideways"] = [min(self.sideways, len(d)) for d in self.deck_s]
            obs["turn_seat"] = self.active
            obs["handed_over"] = self.handed
            obs["colour_of_seat"] = list(g.colour_of)
        if g.mode == "melee":
            obs["colour_scores"] = [row.copy() for row in self.mscore]
            obs["improvised_colours"] = [[o for o in range(n) if self.improv[p] >> o & 1] for p in range(n)]
            obs["pick_colours"] = list(bits(self.pick_mask))
            obs["setup_done"] = self.msetup & 0xFF
        if g.tasks is not None:
            ts = g.tasks.tasks
            obs["tasks"] = [ts[t].id for t in self.cur_t]
            obs["next_task"] = ts[self.next_t].id if self.next_t >= 0 else None
            obs["task_deck"] = len(self.deck_t)
            obs["task_deck_bottom"] = [ts[t].id for t in self.deck_t[: self.t_bottom]]
            obs["claimed"] = [[ts[t].id for t in cl] for cl in self.claimed]
            obs["points"] = [self.points(c) for c in range(g.n_col)]
            obs["summoned_this_turn"] = [[SQ_NAME[e >> 2] for e in self.summoned if e & 3 == r] for r in (1, 2, 3)]
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
            if g.teams:
                obs["team_legends"] = self._names(self.hand_l[g.mate(seat)])
        return obs

    def why_illegal(self, action: Action) -> str:
        from .explain import why_illegal

        return why_illegal(self, action)
