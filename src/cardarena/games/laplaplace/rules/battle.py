"""The automatic battle: two built columns fight until one HP reaches 0 or the turn-30 judgement.

The battle has no decisions. :class:`Battle` runs it from two builds (lists of cards, top first) and an Rng
(used only for the last first-player tie-break, and for the ``identical=coin`` option), writing a log a person
can follow when given a list. Every battle ends by the judgement after turn 30 at the latest, and only identical
builds draw (「以下の条件によっても決着がつかないバトルはありません」).
Rulebook sections are quoted in the docstrings; RULINGS.md (laplaplace) fills the gaps.
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import mypyc_attr

from ..cards import Ability
from ..constants import FIRING_CAP, JUDGE_TURN, Identical
from .abilities import Abilities
from .board import BattleOver, Outcome, Unit
from .judgement import judgement

RACE_PERIODS: Final = 4  # the longest repeat of turns the race skip looks for

# a turn's end as the race skip compares it: (cards and up/down of both columns, HP of P0, HP of P1, whether HP
# could have mattered in the turn: speeds tied or a recovery, the safety stops so far)
TurnEnd = tuple[tuple[object, ...], int, int, bool, int]


@mypyc_attr(allow_interpreted_subclasses=True)  # involvement.TracedBattle watches a battle
class Battle(Abilities):
    """One battle. ``run()`` returns the :class:`~.board.Outcome`; ``log`` (if a list) receives the text.

    ``run`` is ``reveal()`` then ``play_turn()`` (``decide_first``, ``action_phase`` for each side, ``up_phase``)
    until a result; the steps are public so scenario tests can build a position and play one step. A step that
    ends the battle raises :class:`~.board.BattleOver`.
    """

    # -- the whole battle -----------------------------------------------------------------------------------
    def run(self) -> Outcome:
        try:
            self.reveal()
            seen: list[tuple[object, ...]] = []  # the position after each turn
            ends: list[TurnEnd] = [self._race_end()]  # what the race skip compares: the reveal, then each turn
            while True:
                if self.turn >= JUDGE_TURN:
                    self.judgement()
                self.turn += 1
                self.play_turn()
                seen.append(self.position())
                self.stops_seen.append(self.safety_stops)
                if self.skip_loops:
                    self._skip_loop(seen)
                if self.log is None and self.skip_races:
                    self._skip_race(ends)
        except BattleOver as end:
            self.depth = 0
            if self.log is not None:
                self.end_turn_summary()
                self.key(f"Result: {end.reason}")
            return Outcome(
                end.winner,
                end.reason,
                max(self.turn, 1),
                list(self.hp),
                list(self.base),
                [len(self.cols[0]), len(self.cols[1])],
                self.safety_stops,
            )

    def _skip_loop(self, seen: list[tuple[object, ...]]) -> None:
        """If this turn ended where the last turn (or the one before) ended, the battle is in a loop that
        repeats until the judgement: jump over whole loops (same result, far fewer steps)."""
        for period in (1, 2):
            if len(seen) > period and seen[-1] == seen[-1 - period]:
                jump = (JUDGE_TURN - self.turn) // period * period
                if jump > 0:
                    if self.log is not None:
                        what = "nothing changes" if period == 1 else "the last two turns repeat"
                        self.key(f"Turns {self.turn + 1}-{self.turn + jump}: {what} (a loop until the judgement)")
                    self.turn += jump
                    # the skipped turns would have hit the safety nets as often as the turns of the loop did
                    if len(self.stops_seen) > period:
                        per_loop = self.stops_seen[-1] - self.stops_seen[-1 - period]
                        self.safety_stops += per_loop * (jump // period)
                return

    def _skip_race(self, ends: list[TurnEnd]) -> None:
        """If this turn ended with the columns as they ended ``p`` turns ago (p = 1-4; the reveal counts as the end
        of turn 0: the same cards in the same places, up and down alike), the next turns repeat those ``p`` turns,
        taking
        the same HP off each side every ``p`` turns, for as long as nothing that reads HP would act otherwise: jump
        over whole repeats, to the last one before a character could fall, an HP condition could change, or the
        judgement. HP only falls inside such turns (no recovery in them), so the lowest HP of a repeat is the HP
        at its end.

        What reads HP: the first player when speeds tie (then no jump); "HP at most half the base HP" (Second
        Wind; it must stay false); damage to the characters above their base HP (Judgement; each side must stay
        on its side of its base HP); a recovery without that limit (then no jump). Two copies of a card in play
        act alike, so places are compared by card. Only an unlogged battle jumps (the hot path of search): a
        logged battle plays every turn, and ``views.battle_log`` checks that it ends with the same outcome.
        """
        hp, base = self.hp, self.base
        ends.append(self._race_end())
        key = ends[-1][0]
        for period in range(1, min(RACE_PERIODS, len(ends) - 1) + 1):
            if ends[-1 - period][0] == key:
                break
        else:
            return
        if any(e[3] for e in ends[-period:]):
            return  # speeds tied (HP may choose the first player) or a character recovered in the repeat
        start = ends[-1 - period]
        before = [start[1], start[2]]
        drop = [before[0] - hp[0], before[1] - hp[1]]
        if min(drop) < 0 or max(drop) == 0:
            return  # HP rose, or nothing changed (the loop skip's case)
        jump = (JUDGE_TURN - self.turn) // period  # whole repeats
        for s in (0, 1):
            if drop[s]:
                jump = min(jump, (hp[s] - 1) // drop[s])  # every HP stays at 1 or more
        above_base = False
        for s in (0, 1):
            for u in self.cols[s]:
                card = u.card
                if card.free_heal:
                    return
                above_base |= card.above_base
                if card.hp_limit:  # "HP at most half the base HP" must stay false for this side
                    if 2 * hp[s] <= base[s]:
                        return
                    if drop[s]:
                        jump = min(jump, (hp[s] - base[s] // 2 - 1) // drop[s])
        if above_base:
            for s in (0, 1):
                if before[s] > base[s]:  # above its base HP: it must stay there
                    if hp[s] <= base[s]:
                        return
                    if drop[s]:
                        jump = min(jump, (hp[s] - base[s] - 1) // drop[s])
        if jump <= 0:
            return
        for s in (0, 1):
            hp[s] -= drop[s] * jump
        self.turn += period * jump
        self.safety_stops += (ends[-1][4] - start[4]) * jump
        ends.clear()  # the turns before the jump are no template for the turns after it

    def _race_end(self) -> TurnEnd:
        """This turn's end as the race skip compares it. Each place is one number: the card's index, doubled, plus
        1 when up. The last first player is left out: it chooses only when speeds tie, and then nothing jumps."""
        c0, c1 = self.cols
        key = (tuple([u.card.index * 2 + u.up for u in c0]), tuple([u.card.index * 2 + u.up for u in c1]))
        return key, self.hp[0], self.hp[1], self.speed_tied or self.healed == self.turn, self.safety_stops

    def reveal(self) -> None:
        """構成の開示 and ビルド: base HP, initial HP, build abilities; identical builds draw; 0 HP loses."""
        for s in (0, 1):
            if self.log is not None:
                self.key(f"{self.who(s)} reveals {self.column_text(s)}: base HP {self.base[s]}")
        if [c.id for c in self.builds[0]] == [c.id for c in self.builds[1]]:
            if self.identical == Identical.COIN:
                winner = self.rng.randbelow(2)
                raise BattleOver(winner, f"identical builds; a coin decides: {self.who(winner)} wins")
            raise BattleOver(None, "identical builds: a draw")
        for s in (0, 1):
            self.hp[s] = self.base[s]
            for u in self.cols[s]:
                for ab in u.card.build:
                    self._build_ability(s, u, ab)
            if self.log is not None:
                self.key(f"{self.who(s)} initial HP {self.hp[s]}")
        dead = [s for s in (0, 1) if self.hp[s] <= 0]
        if len(dead) == 1:
            raise BattleOver(1 - dead[0], f"{self.who(1 - dead[0])} wins: {self.who(dead[0])} starts with 0 HP")
        if len(dead) == 2:
            self.turn = 1
            if self.log is not None:
                self.say("Turn 1 (both characters start with 0 HP)")
            self.decide_first()
            raise BattleOver(self.first, f"{self.who(self.first)} wins: both start with 0 HP and it is first in turn 1")

    def _build_ability(self, side: int, u: Unit, ab: Ability) -> None:
        for e in ab.effects:
            if e.op == "initial_hp_plus_half_base":
                before = self.hp[side]
                self.hp[side] += self.base[side] // 2
                if self.log is not None:
                    self.key(f"{self.name(u)} (build): initial HP {before} -> {self.hp[side]}")

    def play_turn(self) -> int:
        self.depth = 0
        if self.log is not None:
            self.start_turn_summary()
            self.say(
                f"Turn {self.turn}: P0 HP {self.hp[0]}/{self.base[0]} {self.column_text(0)} | "
                f"P1 HP {self.hp[1]}/{self.base[1]} {self.column_text(1)}"
            )
        self.depth = 1
        self.decide_first()
        self.action_phase(self.first)
        self.action_phase(1 - self.first)
        upped = self.up_phase()
        self.depth = 0
        if self.log is not None:
            self.end_turn_summary()
        return upped

    # -- 先攻後攻決定フェイズ ---------------------------------------------------------------------------------
    def decide_first(self) -> None:
        """Speed = base HP (+ events); then HP; then cards in play; then last turn's second; then a coin."""
        self.bonus = [0, 0]
        self.phase_events = 0
        for s in (0, 1):
            if "first_player_phase" in self.answers[s]:
                for u in list(self.cols[s]):
                    for ab in u.card.events.get("first_player_phase", ()):
                        if u.up and u.in_play:
                            self._fire_event(s, u, ab, None, None)
        speed = [self.base[0] + self.bonus[0], self.base[1] + self.bonus[1]]
        self.bonus = [0, 0]
        self.speed_tied = speed[0] == speed[1]
        why = ""
        by_coin = False
        if speed[0] != speed[1]:
            first = 0 if speed[0] > speed[1] else 1
            if self.log is not None:
                why = f"speed {speed[first]} vs {speed[1 - first]}"
        elif self.hp[0] != self.hp[1]:
            first = 0 if self.hp[0] > self.hp[1] else 1
            why = f"speed tied at {speed[0]}; HP {self.hp[first]} vs {self.hp[1 - first]}"
        elif len(self.cols[0]) != len(self.cols[1]):
            first = 0 if len(self.cols[0]) > len(self.cols[1]) else 1
            why = f"speed and HP tied; {len(self.cols[first])} cards vs {len(self.cols[1 - first])}"
        elif self.last_first is not None:
            first = 1 - self.last_first
            why = "speed, HP and cards tied; it was second last turn"
        else:
            first = self.rng.randbelow(2)
            why = "speed, HP and cards tied; a coin decides"
            by_coin = True
        if self.last_first is None and not by_coin:
            self.first_of_turn1 = first
        self.first = first
        self.last_first = first
        if self.log is not None:
            self.say(f"First player: {self.who(first)} ({why})")

    # -- アクションフェイズ -------------------------------------------------------------------------------------
    def action_phase(self, side: int) -> None:
        """Fire the topmost card whose action can fire, again and again, until none can."""
        self.depth = 1
        if self.log is not None:
            self.say(f"{self.who(side)} action phase")
        self.depth = 2
        self.phase_events = 0
        col = self.cols[side]
        fired = 0
        while True:
            # the topmost card that can fire: up, <トップ> satisfied (or lifted), every <L:…> holding
            for i, u in enumerate(col):
                if not u.up:
                    continue
                ab = u.card.action
                if ab is None:
                    continue
                if ab.top and i > 0 and (i + 1 >= len(col) or not col[i + 1].card.lifts_above):
                    continue
                if ab.limits and not self._limits_hold(side, ab, None):
                    continue
                break
            else:
                return
            fired += 1
            if fired > FIRING_CAP:
                self.safety_stops += 1
                if self.log is not None:
                    self.say(f"(safety stop: more than {FIRING_CAP} firings in one phase)")
                return
            self._fire_action(side, u, ab)

    # -- アップフェイズ and the judgement -----------------------------------------------------------------------
    def up_phase(self) -> int:
        """Up every down card, except those that stay down (<常態> no_up_phase); returns how many."""
        self.depth = 1
        total = 0
        for s in (0, 1):
            upped = 0
            stay: list[str] = []
            for u in self.cols[s]:
                if not u.up:
                    if u.card.no_up_phase:
                        stay.append(u.card.name)
                    else:
                        u.up = True
                        upped += 1
            total += upped
            if self.log is not None and (upped or stay):
                text = f"{self.who(s)} up phase: {upped} card(s) up"
                if stay:
                    text += f"; staying down: {', '.join(stay)}"
                self.say(text)
        return total

    def judgement(self) -> None:
        """The judgement after turn 30 (:func:`.judgement.judgement`): it always ends the battle."""
        judgement(self)
