"""ToraBato rules: the state, its legal actions and their effects.

The turn is recovery → draw → main → end (rulebook ゲームの流れ). Priority (RULINGS torabato): the active player
gets it first in every priority step; a player who acts keeps it; when both pass in succession the top of the
stack resolves (then the active player gets priority again) or, with an empty stack, the step ends.
"""

from __future__ import annotations

import random
from typing import Any

from ...engine import Rng, State, zones
from .rules import knowledge
from .actions import (
    ASSIGN_K,
    ATTACK,
    ATTACKER_K,
    BLOCK_K,
    CHOOSE_K,
    DONE,
    MANA_K,
    NO_TARGET,
    OPPONENT,
    PASS,
    PLAY_K,
    RECUR_K,
    REVEAL_K,
    USE_K,
    TAction,
)
from .cards import CARDS_PER_SEAT, NAMES, NUM_CARDS, OWNER_OF, RANK_OF, CardList, CardSpec

# Phases and steps. Priority steps give both players priority; the others are one player's choice.
REVEAL, DRAW, MAIN, DECLARE, SELECT_ATTACKERS, EXECUTE, SELECT_BLOCKERS, BLOCK, DAMAGE, ASSIGN, END, OVER, RECOVERY = (
    range(13)
)
PHASE_NAMES = (
    "first-player reveal",
    "draw phase",
    "main phase",
    "attack: declaration step",
    "attack: choosing attackers",
    "attack: execution step",
    "attack: choosing blockers",
    "attack: defence step",
    "attack: damage step",
    "attack: dividing damage",
    "end phase",
    "game over",
    "recovery phase",
)
PRIORITY_PHASES = frozenset({RECOVERY, DRAW, MAIN, DECLARE, EXECUTE, BLOCK, DAMAGE, END})

# Stack items are tuples (kind, card, controller, target).
SPELL, ABILITY, RECURSION = 0, 1, 2
# Per-card flags of the "this turn" effects (K, 7, Q's target), cleared when those effects end (_end_this_turn).
UNBLOCKABLE, ZEROED, TAPPED_THIS_TURN = 1, 2, 4
HAND_SIZE = 5
MAX_REDEALS = 10

# Prebuilt action values, so legal_actions allocates nothing but the list.
_N = NUM_CARDS
REVEAL_A = [TAction((REVEAL_K, c)) for c in range(_N)]
MANA_A = [TAction((MANA_K, c)) for c in range(_N)]
RECUR_A = [TAction((RECUR_K, c)) for c in range(_N)]
ATTACKER_A = [TAction((ATTACKER_K, c)) for c in range(_N)]
CHOOSE_A = [TAction((CHOOSE_K, c)) for c in range(_N)]
PLAY_A = [[TAction((PLAY_K, c, t)) for t in range(OPPONENT, _N)] for c in range(_N)]
USE_A = [[TAction((USE_K, c, t)) for t in range(OPPONENT, _N)] for c in range(_N)]
BLOCK_A = [[TAction((BLOCK_K, b, a)) for a in range(_N)] for b in range(_N)]
ASSIGN_A = [[TAction((ASSIGN_K, a, b)) for b in range(_N)] for a in range(_N)]
_T0 = -OPPONENT  # offset of target codes in PLAY_A / USE_A rows
_UNTARGETED = frozenset({"gain_mana", "draw", "destroy_all"})  # spell effects that take no target


class ToraBatoState(State):
    """A ToraBato position. Seat 0 is player A (spades, clubs), seat 1 player B (hearts, diamonds)."""

    def __init__(self, game: Any, seed: int, cards: CardList) -> None:
        super().__init__(game, seed)
        self.cards = cards
        self.spec: tuple[CardSpec, ...] = tuple(cards.specs[RANK_OF[c]] for c in range(NUM_CARDS))
        self.rng = Rng(seed)
        self.max_turns: int = game.options["max_turns"]
        self.turn_no = 0
        self.active = 0
        self.first = -1
        self.phase = REVEAL
        self.priority = 0
        self.passes = 0
        self.deck: list[list[int]] = []
        for seat in (0, 1):
            deck = list(range(seat * CARDS_PER_SEAT, (seat + 1) * CARDS_PER_SEAT))
            self.rng.shuffle(deck)
            self.deck.append(deck)
        self.hand: list[list[int]] = [[], []]
        self.discard: list[list[int]] = [[], []]
        self.mana: list[list[int]] = [[], []]
        self.tapped_mana = [0, 0]
        self.pool = [0, 0]
        self.mana_set = False
        self.attacked = False
        self.field: list[list[int]] = [[], []]
        self.tapped = [False] * NUM_CARDS
        self.damage = [0] * NUM_CARDS
        self.atk_boost = [0] * NUM_CARDS
        self.hp_boost = [0] * NUM_CARDS
        self.entered = [0] * NUM_CARDS
        self.flags = [0] * NUM_CARDS
        self.stack: list[tuple[int, int, int, int]] = []
        self.pending: tuple[str, int] | None = None
        self.attackers: list[int] = []
        self.blocks: list[tuple[int, int]] = []
        self.assigned: list[tuple[int, int]] = []
        self.reveals: list[list[int]] = [[], []]
        self.redeals = 0
        # Cards in a hand or among the mana cards whose identity every player knows (shown in the reveal,
        # or taken back from the public discard pile). They stay known while they stay in hand or mana.
        self.known: list[list[int]] = [[], []]
        # Where the known cards can be, as every player can work out: each possible placement is the set of known
        # cards among the mana cards (a bit mask of card ids); the others are in hand. See _track_*.
        self.placements: list[knowledge.Placements] = [knowledge.NOTHING_KNOWN, knowledge.NOTHING_KNOWN]
        self.result: list[float] | None = None
        self.end_reason = ""
        for seat in (0, 1):
            self._draw(seat, HAND_SIZE)

    # -- protocol ------------------------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        phase = self.phase
        if phase == OVER:
            return None
        if self.pending is not None:
            return self.pending[1]
        if phase in PRIORITY_PHASES:
            return self.priority
        if phase == REVEAL:
            return 0 if len(self.reveals[0]) == len(self.reveals[1]) else 1
        if phase == SELECT_BLOCKERS:
            return 1 - self.active
        return self.active

    @property
    def turn(self) -> int:
        return max(self.turn_no, 1)

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        return list(self.result) if self.result is not None else [0.0, 0.0]

    # -- helpers -------------------------------------------------------------------------------------------
    def available_mana(self, seat: int) -> int:
        return self.pool[seat] + len(self.mana[seat]) - self.tapped_mana[seat]

    def attack_of(self, card: int) -> int:
        return self.spec[card].attack + self.atk_boost[card]

    def health_of(self, card: int) -> int:
        return self.spec[card].health + self.hp_boost[card]

    def on_field(self, card: int) -> bool:
        return card in self.field[OWNER_OF[card]]

    def is_sick(self, card: int) -> bool:
        """Summoning sickness: a soldier that entered this turn cannot attack or use abilities."""
        return self.entered[card] == self.turn_no

    def _draw(self, seat: int, n: int) -> None:
        """Draw up to ``n`` cards; drawing from an empty deck draws nothing."""
        zones.draw(self.deck[seat], self.hand[seat], n)

    def _mill(self, seat: int, n: int) -> None:
        """Damage to a player: that many top cards of their deck go to their discard pile."""
        zones.mill(self.deck[seat], self.discard[seat], n)

    def _pay(self, seat: int, cost: int) -> None:
        """Pay from the mana gained this turn first, then tap untapped mana cards."""
        from_pool = min(self.pool[seat], cost)
        self.pool[seat] -= from_pool
        self.tapped_mana[seat] += cost - from_pool

    def _open_priority(self, phase: int) -> None:
        self.phase = phase
        self.priority = self.active
        self.passes = 0

    def _leave_field(self, card: int) -> None:
        """A soldier goes from the field to its owner's discard pile, losing damage, boosts and tapping."""
        owner = OWNER_OF[card]
        self.field[owner].remove(card)
        self.discard[owner].append(card)
        self.tapped[card] = False
        self.damage[card] = self.atk_boost[card] = self.hp_boost[card] = self.flags[card] = 0

    def _check_deaths(self) -> None:
        """Soldiers whose health has reached 0 are put into the discard pile."""
        for seat in (0, 1):
            for card in [c for c in self.field[seat] if self.damage[c] >= self.health_of(c)]:
                self._leave_field(card)

    def _make_known(self, seat: int, card: int) -> None:
        """``card`` is now in ``seat``'s hand and every player knows it (no placement has it among the mana)."""
        self.known[seat].append(card)

    def known_in_hand(self, seat: int) -> list[int]:
        """Known cards that every player can tell are in ``seat``'s hand."""
        return knowledge.surely_in_hand(self.placements[seat], self.known[seat])

    def known_in_mana(self, seat: int) -> list[int]:
        """Known cards that every player can tell are among ``seat``'s mana cards."""
        return knowledge.surely_in_mana(self.placements[seat], self.known[seat])

    def _finish(self, result: list[float], reason: str) -> None:
        self.result = result
        self.end_reason = reason
        self.phase = OVER
        self.pending = None

    # -- legal actions -------------------------------------------------------------------------------------
    def _legal_actions(self) -> list[TAction]:
        if self.pending is not None:
            return self._pending_choices()
        phase = self.phase
        if phase in PRIORITY_PHASES:
            return self._priority_actions(self.priority)
        if phase == REVEAL:
            seat = 0 if len(self.reveals[0]) == len(self.reveals[1]) else 1
            shown = self.reveals[seat]
            return [REVEAL_A[c] for c in sorted(self.hand[seat]) if c not in shown]
        if phase == SELECT_ATTACKERS:
            acts = [ATTACKER_A[c] for c in self._eligible_attackers()]
            if self.attackers:
                acts.append(DONE)
            return acts
        if phase == SELECT_BLOCKERS:
            return [*self._possible_blocks(), DONE]
        if phase == ASSIGN:
            attacker, blockers, _ = self._assignment_needed()
            return [ASSIGN_A[attacker][b] for b in blockers]
        raise AssertionError(f"no decisions in phase {phase}")

    def _pending_choices(self) -> list[TAction]:
        assert self.pending is not None
        kind, seat = self.pending
        zone = self.discard[seat] if kind == "regrow" else self.mana[seat]
        return [CHOOSE_A[c] for c in sorted(set(zone))]

    def _eligible_attackers(self) -> list[int]:
        active = self.active
        chosen = self.attackers
        return [c for c in self.field[active] if not self.tapped[c] and not self.is_sick(c) and c not in chosen]

    def _possible_blocks(self) -> list[TAction]:
        defender = 1 - self.active
        busy = {b for b, _ in self.blocks}
        targets = [a for a in self.attackers if self.on_field(a) and not self.flags[a] & UNBLOCKABLE]
        acts: list[TAction] = []
        for b in self.field[defender]:
            if self.tapped[b] or b in busy:
                continue
            row = BLOCK_A[b]
            acts.extend(row[a] for a in targets)
        return acts

    def _soldiers(self) -> list[int]:
        return self.field[0] + self.field[1]

    def _priority_actions(self, seat: int) -> list[TAction]:
        acts = [PASS]
        avail = self.available_mana(seat)
        own_turn = seat == self.active
        sorcery = own_turn and self.phase == MAIN and not self.stack
        spec = self.spec
        if sorcery and not self.mana_set:
            acts.extend(MANA_A[c] for c in self.hand[seat])
        soldiers: list[int] | None = None
        for c in self.hand[seat]:
            s = spec[c]
            if s.cost > avail:
                continue
            row = PLAY_A[c]
            if s.kind == "soldier":
                if sorcery:
                    acts.append(row[_T0 + NO_TARGET])
                continue
            if s.timing == "own" and not own_turn:
                continue
            effect = s.effect
            if effect in _UNTARGETED:
                acts.append(row[_T0 + NO_TARGET])
            elif effect == "return_mana":
                if self.mana[seat]:
                    acts.append(row[_T0 + NO_TARGET])
            else:
                if soldiers is None:
                    soldiers = self._soldiers()
                if effect == "damage":
                    acts.append(row[_T0 + OPPONENT])
                acts.extend(row[_T0 + t] for t in soldiers)
                if effect == "prevent":
                    acts.extend(
                        row[_T0 + item[1]]
                        for item in self.stack
                        if item[0] == SPELL and spec[item[1]].effect == "damage"
                    )
        turn_no = self.turn_no
        for c in self.field[seat]:
            s = spec[c]
            ability = s.ability
            if ability is None or s.ability_cost > avail or self.entered[c] == turn_no:
                continue
            row = USE_A[c]
            if ability == "tap":
                if not self.tapped[c]:
                    if soldiers is None:
                        soldiers = self._soldiers()
                    acts.extend(row[_T0 + t] for t in soldiers if t != c and not self.tapped[t])
            elif ability == "regrow":
                if self.discard[seat]:
                    acts.append(row[_T0 + NO_TARGET])
            elif ability == "unblockable":
                if not self.flags[c] & UNBLOCKABLE:
                    acts.append(row[_T0 + NO_TARGET])
            else:
                acts.append(row[_T0 + NO_TARGET])
        if own_turn:
            recurring = [item[1] for item in self.stack if item[0] == RECURSION]
            for c in self.discard[seat]:
                r = spec[c].recur_cost
                if r is not None and r <= avail and c not in recurring:
                    acts.append(RECUR_A[c])
            if sorcery and not self.attacked and self._eligible_attackers():
                acts.append(ATTACK)
        return acts

    def why_illegal(self, action: Any) -> str:
        """A plain-words reason why ``action`` is not legal now."""
        if self.phase == OVER:
            return "the game is over"
        kind = action[0]
        seat = self.current_player
        assert seat is not None
        expected = {
            REVEAL: REVEAL_K,
            SELECT_ATTACKERS: ATTACKER_K,
            SELECT_BLOCKERS: BLOCK_K,
            ASSIGN: ASSIGN_K,
        }
        if self.pending is not None:
            if kind == CHOOSE_K:
                where = "discard pile" if self.pending[0] == "regrow" else "mana cards"
                return f"{NAMES[action[1]]} is not among your {where}"
            return f"seat {seat} must first choose a card for the resolving effect ('choose CARD')"
        if self.phase in expected and kind not in (expected[self.phase], "done"):
            return f"now is the {PHASE_NAMES[self.phase]}: expected '{expected[self.phase]} ...'"
        if self.phase in PRIORITY_PHASES and kind in (
            REVEAL_K,
            ATTACKER_K,
            BLOCK_K,
            ASSIGN_K,
            CHOOSE_K,
            "done",
        ):
            return f"there is nothing to {kind} now ({PHASE_NAMES[self.phase]})"
        card = action[1] if len(action) > 1 else -1
        sorcery = seat == self.active and self.phase == MAIN and not self.stack
        if kind in (MANA_K, PLAY_K) and card not in self.hand[seat]:
            return f"{NAMES[card]} is not in your hand"
        if kind == MANA_K:
            if self.mana_set:
                return "you have already set mana this turn"
            return "mana can be set only in your own main phase, outside an attack, with an empty stack"
        if kind == PLAY_K:
            s = self.spec[card]
            if s.cost > self.available_mana(seat):
                return f"{NAMES[card]} costs {s.cost} mana and you have {self.available_mana(seat)}"
            if s.kind == "soldier" and not sorcery:
                return "soldiers are summoned only in your own main phase, outside an attack, with an empty stack"
            if s.timing == "own" and seat != self.active:
                return f"{NAMES[card]} cannot be cast on the opponent's turn (相手ターンで使用不可)"
            return "that target is not allowed for this card (see the list of choices)"
        if kind == USE_K:
            if card not in self.field[seat]:
                return f"{NAMES[card]} is not one of your soldiers on the field"
            s = self.spec[card]
            if s.ability is None:
                return f"{NAMES[card]} has no ability"
            if self.is_sick(card):
                return f"{NAMES[card]} entered this turn and cannot use its ability yet"
            if s.ability_cost > self.available_mana(seat):
                return f"the ability costs {s.ability_cost} mana and you have {self.available_mana(seat)}"
            return "that target is not allowed for this ability (see the list of choices)"
        if kind == RECUR_K:
            if card not in self.discard[seat]:
                return f"{NAMES[card]} is not in your discard pile"
            if seat != self.active:
                return "cards return from the discard pile only on your own turn"
            return f"{NAMES[card]} cannot return from the discard pile now (cost or card)"
        if kind == "attack":
            if self.attacked:
                return "you have already attacked this turn"
            if not sorcery:
                return "an attack is declared in your own main phase with an empty stack"
            return "you have no untapped soldier that can attack (soldiers that entered this turn cannot)"
        return "it is not one of the legal actions now"

    # -- applying actions ----------------------------------------------------------------------------------
    def _apply(self, action: TAction) -> None:  # type: ignore[override]
        kind = action[0]
        if kind == "pass":
            self._pass()
        elif kind == PLAY_K:
            self._play(action[1], action[2])
        elif kind == USE_K:
            self._use(action[1], action[2])
        elif kind == MANA_K:
            seat = self.priority
            known = self.known[seat]
            self.placements[seat] = knowledge.after_mana_set(
                self.placements[seat], known, len(self.hand[seat]) - len(known)
            )
            self.hand[seat].remove(action[1])
            self.mana[seat].append(action[1])
            self.mana_set = True
            self.passes = 0
        elif kind == RECUR_K:
            seat = self.priority
            self._pay(seat, self.spec[action[1]].recur_cost or 0)
            self.stack.append((RECURSION, action[1], seat, NO_TARGET))
            self.passes = 0
        elif kind == CHOOSE_K:
            self._choose(action[1])
        elif kind == REVEAL_K:
            self._reveal(action[1])
        elif kind == "attack":
            self.attacked = True
            self._open_priority(DECLARE)
        elif kind == ATTACKER_K:
            self.attackers.append(action[1])
            self.tapped[action[1]] = True
            if not self._eligible_attackers():
                self._open_priority(EXECUTE)
        elif kind == BLOCK_K:
            self.blocks.append((action[1], action[2]))
            if not self._possible_blocks():
                self._open_priority(BLOCK)
        elif kind == ASSIGN_K:
            self.assigned.append((action[1], action[2]))
            if self._assignment_needed()[0] < 0:
                self._combat_damage()
        elif kind == "done":
            self._open_priority(EXECUTE if self.phase == SELECT_ATTACKERS else BLOCK)
        else:  # pragma: no cover - parse_action and legality make this unreachable
            raise AssertionError(kind)

    def _play(self, card: int, target: int) -> None:
        seat = self.priority
        s = self.spec[card]
        known = self.known[seat]
        self.placements[seat] = knowledge.after_play(
            self.placements[seat], known, card, len(self.hand[seat]) - len(known)
        )
        if card in known:
            known.remove(card)
        self.hand[seat].remove(card)
        self._pay(seat, s.cost)
        self.passes = 0
        if s.kind == "soldier":
            self.field[seat].append(card)
            self.entered[card] = self.turn_no
        elif s.timing == "instant_off_stack":  # 5: takes effect at once, off the stack; the caster keeps priority
            self._resolve_spell(s, card, seat, target)
            self.discard[seat].append(card)
            self._after_effect()
        else:
            self.stack.append((SPELL, card, seat, target))

    def _use(self, card: int, target: int) -> None:
        seat = self.priority
        s = self.spec[card]
        self._pay(seat, s.ability_cost)
        if s.ability == "tap":
            self.tapped[card] = True
        self.stack.append((ABILITY, card, seat, target))
        self.passes = 0

    def _pass(self) -> None:
        if self.passes == 0:
            self.passes = 1
            self.priority = 1 - self.priority
        elif self.stack:
            self._resolve_top()
            if self.phase != OVER:
                self.priority = self.active
                self.passes = 0
        else:
            self._end_step()

    def _resolve_top(self) -> None:
        kind, card, seat, target = self.stack.pop()
        s = self.spec[card]
        if kind == SPELL:
            self._resolve_spell(s, card, seat, target)
            self.discard[seat].append(card)
            self.flags[card] = 0
        elif kind == ABILITY:
            ability = s.ability
            if ability == "regrow":
                if self.discard[seat]:
                    self.pending = ("regrow", seat)
            elif ability == "fortify":
                if self.on_field(card):
                    self.hp_boost[card] += s.health_boost
            elif ability == "tap":
                # 「このターン兵士1体を使用済みにする」: the target untaps when this turn's effects end. A target that
                # is already tapped (it attacked, or paid for its own Q meanwhile) is left as it is.
                if self.on_field(target) and not self.tapped[target]:
                    self.tapped[target] = True
                    self.flags[target] |= TAPPED_THIS_TURN
            elif ability == "unblockable" and self.on_field(card):
                self.flags[card] |= UNBLOCKABLE
        elif card in self.discard[seat]:  # recursion: the card must still be in the discard pile
            self.discard[seat].remove(card)
            self.hand[seat].append(card)
            self._make_known(seat, card)
        self._after_effect()

    def _after_effect(self) -> None:
        """Soldiers at 0 health die; a choice with a single possibility is taken at once."""
        self._check_deaths()
        if self.pending is not None and len(self._pending_choices()) == 1:
            self._choose(self._pending_choices()[0][1])

    def _resolve_spell(self, s: CardSpec, card: int, seat: int, target: int) -> None:
        effect = s.effect
        if effect == "damage":
            amount = 0 if self.flags[card] & ZEROED else s.amount
            if target == OPPONENT:
                self._mill(1 - seat, amount)
            elif self.on_field(target):
                self.damage[target] += amount
        elif effect == "destroy":
            if self.on_field(target):
                self._leave_field(target)
        elif effect == "gain_mana":
            self.pool[seat] += s.amount
        elif effect == "draw":
            self._draw(seat, s.amount)
        elif effect == "prevent":
            if self.on_field(target) or any(item[1] == target for item in self.stack):
                self.flags[target] |= ZEROED
        elif effect == "boost":
            if self.on_field(target):
                self.atk_boost[target] += s.attack
                self.hp_boost[target] += s.health
        elif effect == "return_mana":
            if self.mana[seat]:
                self.pending = ("return_mana", seat)
        elif effect == "destroy_all":
            for seat_ in (0, 1):
                for c in list(self.field[seat_]):
                    self._leave_field(c)

    def _choose(self, card: int) -> None:
        assert self.pending is not None
        kind, seat = self.pending
        self.pending = None
        if kind == "regrow":
            self.discard[seat].remove(card)
            self._make_known(seat, card)
        else:
            # Mana cards are interchangeable when paying: the player is taken to have tapped the card they
            # now take back, so a tapped card returns first (RULINGS-style reading, see rules.md).
            self.placements[seat] = knowledge.after_mana_return(
                self.placements[seat], self.known[seat], len(self.mana[seat])
            )
            self.mana[seat].remove(card)
            if self.tapped_mana[seat] > 0:
                self.tapped_mana[seat] -= 1
        self.hand[seat].append(card)
        self.passes = 0  # priority stays where it was: the active player's after a resolution

    # -- the first-player reveal ---------------------------------------------------------------------------
    def _reveal(self, card: int) -> None:
        seat = 0 if len(self.reveals[0]) == len(self.reveals[1]) else 1
        self.reveals[seat].append(card)
        if seat == 0:
            return
        for s in (0, 1):
            self._make_known(s, self.reveals[s][-1])
        v0 = self.spec[self.reveals[0][-1]].value
        v1 = self.spec[self.reveals[1][-1]].value
        if v0 != v1:
            self._start_game(0 if v0 < v1 else 1)
        elif len(self.reveals[0]) == HAND_SIZE:
            # Every card tied: hands go back, decks are shuffled and five cards dealt again.
            self.redeals += 1
            if self.redeals >= MAX_REDEALS:
                self._start_game(self.rng.randbelow(2))
                return
            for s in (0, 1):
                zones.shuffle_into(self.hand[s], self.deck[s], self.rng)
                self._draw(s, HAND_SIZE)
            self.reveals = [[], []]
            self.known = [[], []]
            self.placements = [knowledge.NOTHING_KNOWN, knowledge.NOTHING_KNOWN]

    def _start_game(self, first: int) -> None:
        self.first = first
        self._begin_turn(first)

    # -- turn structure ------------------------------------------------------------------------------------
    def _begin_turn(self, seat: int) -> None:
        self.turn_no += 1
        if self.turn_no > self.max_turns:
            self._finish([0.0, 0.0], f"the turn cap ({self.max_turns}) was reached")
            return
        self.active = seat
        self.mana_set = False
        self.attacked = False
        self.pool = [0, 0]
        # Recovery phase: the previous turn's "this turn" effects end together with the healing (option
        # lasting_boosts; with lasting_boosts=false they have already ended with that turn); your mana and
        # soldiers untap; every soldier of both players heals.
        self._end_this_turn()
        self.tapped_mana[seat] = 0
        for c in self.field[seat]:
            self.tapped[c] = False
        self.damage = [0] * NUM_CARDS
        if self.game.options["recovery_priority"]:
            self._open_priority(RECOVERY)
        else:
            self._draw_phase()

    def _draw_phase(self) -> None:
        """Draw 1 card, then priority; skipped on the first player's first turn."""
        seat = self.active
        if self.turn_no == 1:
            self._open_priority(MAIN)
        else:
            self._draw(seat, 1)
            self._open_priority(DRAW)

    def _end_step(self) -> None:
        """Both players passed with an empty stack: the current step or phase ends."""
        phase = self.phase
        if phase == RECOVERY:
            self._draw_phase()
        elif phase == DRAW:
            self._open_priority(MAIN)
        elif phase == MAIN:
            self._open_priority(END)
        elif phase == END:
            self._end_of_turn()
        elif phase == DECLARE:
            if self._eligible_attackers():
                self.phase = SELECT_ATTACKERS
            else:
                self._end_attack()
        elif not any(self.on_field(a) for a in self.attackers):
            self._end_attack()
        elif phase == EXECUTE:
            if self._possible_blocks():
                self.phase = SELECT_BLOCKERS
            else:
                self._open_priority(BLOCK)
        elif phase == BLOCK:
            self._open_priority(DAMAGE)
        elif phase == DAMAGE:
            if self._assignment_needed()[0] >= 0:
                self.phase = ASSIGN
            else:
                self._combat_damage()

    def _end_of_turn(self) -> None:
        """At each end phase a player with no cards in their deck loses; both at once is a draw.

        Then the turn ends. By default (option ``lasting_boosts``) its "this turn" effects (8, 10, K, 7, Q's tap)
        end in the next recovery phase together with the healing, so a soldier saved by a boost stays saved. With
        ``lasting_boosts=false`` they end now, while damage stays until the recovery phase, so a soldier whose
        damage reaches its printed health dies now.
        """
        empty = [not self.deck[0], not self.deck[1]]
        if empty[0] and empty[1]:
            self._finish([0.0, 0.0], "both decks are empty at the end phase")
        elif empty[0] or empty[1]:
            loser = 0 if empty[0] else 1
            result = [1.0, 1.0]
            result[loser] = -1.0
            self._finish(result, f"seat {loser}'s deck is empty at the end phase")
        else:
            if not self.game.options["lasting_boosts"]:
                self._end_this_turn()
                self._check_deaths()
            self._begin_turn(1 - self.active)

    def _end_this_turn(self) -> None:
        """The "this turn" effects end: 8's and 10's boosts, K's and 7's effects, and Q's tap (its target untaps)."""
        flags = self.flags
        for c in self.field[0] + self.field[1]:
            if flags[c] & TAPPED_THIS_TURN:
                self.tapped[c] = False
        self.atk_boost = [0] * NUM_CARDS
        self.hp_boost = [0] * NUM_CARDS
        self.flags = [0] * NUM_CARDS

    def _end_attack(self) -> None:
        self.attackers = []
        self.blocks = []
        self.assigned = []
        self._open_priority(MAIN)

    # -- combat --------------------------------------------------------------------------------------------
    def _power(self, card: int) -> int:
        return 0 if self.flags[card] & ZEROED else max(0, self.attack_of(card))

    def _blockers_of(self, attacker: int) -> list[int]:
        return [b for b, a in self.blocks if a == attacker]

    def _assignment_needed(self) -> tuple[int, list[int], int]:
        """The first attacker whose damage the attacker must still divide: (attacker, living blockers, left)."""
        for a in self.attackers:
            if not self.on_field(a):
                continue
            living = [b for b in self._blockers_of(a) if self.on_field(b)]
            power = self._power(a)
            if len(living) < 2 or power == 0:
                continue
            left = power - sum(1 for x, _ in self.assigned if x == a)
            if left > 0:
                return a, living, left
        return -1, [], 0

    def _combat_damage(self) -> None:
        """Step 4: all combat damage at once; unblocked damage mills the defender's deck."""
        defender = 1 - self.active
        hits: list[tuple[int, int]] = []
        mill = 0
        for a in self.attackers:
            if not self.on_field(a):
                continue
            blockers = self._blockers_of(a)
            power = self._power(a)
            if not blockers:
                mill += power
                continue
            living = [b for b in blockers if self.on_field(b)]
            if len(living) == 1:
                hits.append((living[0], power))
            elif living:
                hits.extend((b, 1) for x, b in self.assigned if x == a and b in living)
        for b, a in self.blocks:
            if self.on_field(b) and self.on_field(a):
                hits.append((a, self._power(b)))
        for card, amount in hits:
            self.damage[card] += amount
        self._mill(defender, mill)
        self._check_deaths()
        self._end_attack()

    # -- observation, resample, clone ----------------------------------------------------------------------
    def observation(self, seat: int | None) -> dict[str, Any]:
        players = []
        for s in (0, 1):
            mine = seat == s
            p: dict[str, Any] = {
                "deck": len(self.deck[s]),
                "hand_size": len(self.hand[s]),
                "discard": [NAMES[c] for c in self.discard[s]],
                "mana_count": len(self.mana[s]),
                "mana_tapped": self.tapped_mana[s],
                "mana_pool": self.pool[s],
                "available_mana": self.available_mana(s),
                "known_in_hand_or_mana": [NAMES[c] for c in self.known[s]],
                "known_in_hand": [NAMES[c] for c in self.known_in_hand(s)],
                "known_in_mana": [NAMES[c] for c in self.known_in_mana(s)],
                "soldiers": [self._soldier_view(c) for c in self.field[s]],
            }
            if mine:
                p["hand"] = [NAMES[c] for c in sorted(self.hand[s])]
                p["mana"] = [NAMES[c] for c in sorted(self.mana[s])]
            players.append(p)
        n = min(len(self.reveals[0]), len(self.reveals[1]))
        reveals = [[NAMES[c] for c in self.reveals[s][:n]] for s in (0, 1)]
        if seat is not None and len(self.reveals[seat]) > n:
            reveals[seat].append(NAMES[self.reveals[seat][-1]])
        obs: dict[str, Any] = {
            "seat": seat,
            "turn": self.turn_no,
            "phase": PHASE_NAMES[self.phase],
            "active": self.active if self.turn_no else None,
            "first_player": self.first if self.first >= 0 else None,
            "to_act": self.current_player,
            "priority": self.priority if self.phase in PRIORITY_PHASES else None,
            "passes": self.passes,
            "mana_set_this_turn": self.mana_set,
            "attacked_this_turn": self.attacked,
            "reveals": reveals,
            "redeals": self.redeals,
            "players": players,
            "stack": [self._stack_view(item) for item in self.stack],
            "attack": {
                "attackers": [NAMES[a] for a in self.attackers],
                "blocks": [[NAMES[b], NAMES[a]] for b, a in self.blocks],
                "assigned": [[NAMES[a], NAMES[b]] for a, b in self.assigned],
            },
            "pending": list(self.pending) if self.pending else None,
            "result": self.returns() if self.result is not None else None,
            "end_reason": self.end_reason,
        }
        return obs

    def _soldier_view(self, c: int) -> dict[str, Any]:
        return {
            "card": NAMES[c],
            "attack": self.attack_of(c),
            "health": self.health_of(c),
            "damage": self.damage[c],
            "tapped": self.tapped[c],
            "sick": self.is_sick(c),
            "unblockable": bool(self.flags[c] & UNBLOCKABLE),
            "zeroed": bool(self.flags[c] & ZEROED),
            "tapped_this_turn": bool(self.flags[c] & TAPPED_THIS_TURN),
        }

    def _stack_view(self, item: tuple[int, int, int, int]) -> dict[str, Any]:
        kind, card, seat, target = item
        return {
            "kind": ("spell", "ability", "recursion")[kind],
            "card": NAMES[card],
            "controller": seat,
            "target": None if target == NO_TARGET else "opponent" if target == OPPONENT else NAMES[target],
            "zeroed": bool(self.flags[card] & ZEROED),
        }

    def snapshot(self) -> dict[str, Any]:
        return {
            "rng": self.rng.state,
            "turn_no": self.turn_no,
            "active": self.active,
            "first": self.first,
            "phase": self.phase,
            "priority": self.priority,
            "passes": self.passes,
            "deck": self.deck,
            "hand": self.hand,
            "discard": self.discard,
            "mana": self.mana,
            "tapped_mana": self.tapped_mana,
            "pool": self.pool,
            "mana_set": self.mana_set,
            "attacked": self.attacked,
            "field": self.field,
            "tapped": self.tapped,
            "damage": self.damage,
            "atk_boost": self.atk_boost,
            "hp_boost": self.hp_boost,
            "entered": self.entered,
            "flags": self.flags,
            "stack": [list(i) for i in self.stack],
            "pending": list(self.pending) if self.pending else None,
            "attackers": self.attackers,
            "blocks": [list(b) for b in self.blocks],
            "assigned": [list(a) for a in self.assigned],
            "reveals": self.reveals,
            "known": self.known,
            "placements": [list(p) for p in self.placements],
            "redeals": self.redeals,
            "result": self.result,
            "end_reason": self.end_reason,
            "history": [str(a) for a in self.history],
        }

    def clone(self) -> ToraBatoState:
        c = ToraBatoState.__new__(ToraBatoState)
        self._copy_base_into(c)
        c.cards = self.cards
        c.spec = self.spec
        c.rng = self.rng.copy()
        c.max_turns = self.max_turns
        c.turn_no = self.turn_no
        c.active = self.active
        c.first = self.first
        c.phase = self.phase
        c.priority = self.priority
        c.passes = self.passes
        c.deck = [self.deck[0].copy(), self.deck[1].copy()]
        c.hand = [self.hand[0].copy(), self.hand[1].copy()]
        c.discard = [self.discard[0].copy(), self.discard[1].copy()]
        c.mana = [self.mana[0].copy(), self.mana[1].copy()]
        c.tapped_mana = self.tapped_mana.copy()
        c.pool = self.pool.copy()
        c.mana_set = self.mana_set
        c.attacked = self.attacked
        c.field = [self.field[0].copy(), self.field[1].copy()]
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
        c.reveals = [self.reveals[0].copy(), self.reveals[1].copy()]
        c.redeals = self.redeals
        c.known = [self.known[0].copy(), self.known[1].copy()]
        c.placements = self.placements.copy()  # tuples, replaced and never changed in place
        c.result = self.result
        c.end_reason = self.end_reason
        return c

    def resample(self, seat: int, rng: Rng | random.Random | int) -> ToraBatoState:
        """Redraw what ``seat`` cannot see: its own deck order, and the opponent's deck, hand and mana cards.

        Cards whose identity is public (``known``: shown in the reveal, or taken back from the discard pile)
        stay among the opponent's hand and mana cards, in one of the placements the public history allows
        (chosen uniformly); the unseen cards are dealt at random. A reveal the opponent has committed but not
        yet shown is redrawn with the rest.
        """
        r = Rng.coerce(rng)
        c = self.clone()
        c.rng = r.fork()
        r.shuffle(c.deck[seat])
        o = 1 - seat
        known = self.known[o]
        unknown = [k for k in c.hand[o] + c.mana[o] + c.deck[o] if k not in known]
        r.shuffle(unknown)
        n_mana, n_hand = len(c.mana[o]), len(c.hand[o])
        mana, hand = knowledge.draw_split(self.placements[o], known, n_hand, n_mana, r)
        while len(mana) < n_mana:
            mana.append(unknown.pop())
        while len(hand) < n_hand:
            hand.append(unknown.pop())
        r.shuffle(hand)
        r.shuffle(mana)
        c.hand[o] = hand
        c.mana[o] = mana
        c.deck[o] = unknown
        n_shown = min(len(self.reveals[0]), len(self.reveals[1]))
        if len(self.reveals[o]) > n_shown:  # the opponent's committed, still hidden reveal
            choices = [k for k in c.hand[o] if k not in c.reveals[o][:n_shown]]
            c.reveals[o][-1] = choices[r.randbelow(len(choices))]
        c._legal = None
        return c
