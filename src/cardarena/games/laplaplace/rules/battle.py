"""The automatic battle: two built columns fight until one HP reaches 0 or the turn-30 judgement.

The battle has no decisions. :class:`Battle` runs it from two builds (lists of cards, top first) and an Rng
(used only for the last first-player tie-break, and for the ``identical=coin`` option), writing a log a person
can follow when given a list. Every battle ends by the judgement after turn 30 at the latest, and only identical
builds draw (「以下の条件によっても決着がつかないバトルはありません」).
Rulebook sections are quoted in the docstrings; RULINGS.md (laplaplace) fills the gaps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardarena.engine import Rng

from ..cards.abilities import OTHER, Ability
from ..cards.table import CardDef

JUDGE_TURN = 30  # バトルが30ターンを超えたら: the judgement after turn 30
FIRING_CAP = 200  # safety net per action phase; the rules should never need it (counted in Outcome)
# Safety nets for events, needed only by card files whose events can trigger themselves without end (e.g. a
# [ダウンレス] event that makes a target list on <E:my_target_list>): an event nested deeper than NEST_CAP, or
# beyond EVENT_CAP event firings in one phase, does not fire (counted in Outcome, like FIRING_CAP).
NEST_CAP = 60
EVENT_CAP = 1000


class BattleOver(Exception):
    """Raised the moment a character's HP reaches 0 or less (or a judgement ends the battle)."""

    def __init__(self, winner: int | None, reason: str) -> None:
        super().__init__(reason)
        self.winner = winner
        self.reason = reason


class Unit:
    """One card in play in a column."""

    __slots__ = ("card", "in_play", "side", "up")

    def __init__(self, card: CardDef, side: int) -> None:
        self.card = card
        self.side = side
        self.up = True
        self.in_play = True


class Hit:
    """One damage hit being resolved (events change ``amount`` or nullify it)."""

    __slots__ = ("amount", "nullified", "source", "src_side")

    def __init__(self, amount: int, source: Unit, src_side: int) -> None:
        self.amount = amount
        self.source = source
        self.src_side = src_side
        self.nullified = False


class Flag:
    """A yes/no answer an event can set: an effect ignored by its target, an event negated."""

    __slots__ = ("set",)

    def __init__(self) -> None:
        self.set = False


@dataclass
class Outcome:
    winner: int | None
    reason: str
    turns: int
    hp: list[int]
    base: list[int]
    cards: list[int]
    safety_stops: int = 0


def _answers(build: Sequence[CardDef]) -> frozenset[str]:
    """The event triggers the cards of a build answer."""
    kinds: set[str] = set()
    for c in build:
        kinds.update(c.events)
        if any(c.src_damage):
            kinds.add("my_damage")
        if any(c.dst_damage):
            kinds.add("enemy_damage")
    return frozenset(kinds)


class Battle:
    """One battle. ``run()`` returns the :class:`Outcome`; ``log`` (if a list) receives the text.

    ``run`` is ``reveal()`` then ``play_turn()`` (``decide_first``, ``action_phase`` for each side, ``up_phase``)
    until a result; the steps are public so scenario tests can build a position and play one step. A step that
    ends the battle raises :class:`BattleOver`.
    """

    def __init__(
        self,
        builds: Sequence[Sequence[CardDef]],
        rng: Rng,
        *,
        log: list[str] | None = None,
        identical: str = "draw",
    ) -> None:
        self.cols: list[list[Unit]] = [[Unit(c, s) for c in builds[s]] for s in (0, 1)]
        self.builds = [list(builds[0]), list(builds[1])]
        self.rng = rng
        self.log = log
        self.identical = identical
        self.hp = [0, 0]
        self.base = [sum(c.force for c in builds[0]), sum(c.force for c in builds[1])]
        self.bonus = [0, 0]
        self.turn = 0
        self.first = 0
        self.last_first: int | None = None
        self.first_of_turn1: int | None = None  # turn 1's first player when the rules chose it (not the coin)
        self.depth = 0
        self.safety_stops = 0
        self.firings = 0
        self.nest = 0  # events being resolved inside one another
        self.phase_events = 0  # event firings in the current phase
        self.stops_seen: list[int] = []  # safety_stops after each turn (kept exact by loop skipping)
        # Fast paths: which kinds of answer each side holds at all (a stale "yes" after a removal is harmless).
        self.answers = [_answers(builds[0]), _answers(builds[1])]

    # -- log ------------------------------------------------------------------------------------------------
    def say(self, text: str) -> None:
        if self.log is not None:
            self.log.append("  " * self.depth + text)

    @staticmethod
    def who(side: int) -> str:
        return f"P{side}"

    def name(self, u: Unit) -> str:
        return f"P{u.side} {u.card.name}"

    def column_text(self, side: int) -> str:
        cells = [u.card.name + ("" if u.up else "(down)") for u in self.cols[side]]
        return "[" + ", ".join(cells) + "]" if cells else "[]"

    # -- the whole battle -----------------------------------------------------------------------------------
    def run(self) -> Outcome:
        try:
            self.reveal()
            seen: list[tuple[object, ...]] = []  # the position after each turn
            while True:
                if self.turn >= JUDGE_TURN:
                    self.judgement()
                self.turn += 1
                self.play_turn()
                seen.append(self.position())
                self.stops_seen.append(self.safety_stops)
                self._skip_loop(seen)
        except BattleOver as end:
            self.depth = 0
            if self.log is not None:
                self.say(f"Result: {end.reason}")
            return Outcome(
                end.winner,
                end.reason,
                max(self.turn, 1),
                list(self.hp),
                list(self.base),
                [len(self.cols[0]), len(self.cols[1])],
                self.safety_stops,
            )

    def position(self) -> tuple[object, ...]:
        """Everything that decides the rest of the battle (after turn 1 no chance is left)."""
        c0, c1 = self.cols
        # units compare by identity, so the tuples of units capture the order of the columns (base HP follows)
        return (
            tuple(c0),
            tuple(c1),
            tuple([u.up for u in c0]),
            tuple([u.up for u in c1]),
            self.hp[0],
            self.hp[1],
            self.last_first,
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
                        self.say(f"Turns {self.turn + 1}-{self.turn + jump}: {what} (a loop until the judgement)")
                    self.turn += jump
                    # the skipped turns would have hit the safety nets as often as the turns of the loop did
                    if len(self.stops_seen) > period:
                        per_loop = self.stops_seen[-1] - self.stops_seen[-1 - period]
                        self.safety_stops += per_loop * (jump // period)
                return

    def reveal(self) -> None:
        """構成の開示 and ビルド: base HP, initial HP, build abilities; identical builds draw; 0 HP loses."""
        for s in (0, 1):
            if self.log is not None:
                self.say(f"{self.who(s)} reveals {self.column_text(s)}: base HP {self.base[s]}")
        if [c.id for c in self.builds[0]] == [c.id for c in self.builds[1]]:
            if self.identical == "coin":
                winner = self.rng.randbelow(2)
                raise BattleOver(winner, f"identical builds; a coin decides: {self.who(winner)} wins")
            raise BattleOver(None, "identical builds: a draw")
        for s in (0, 1):
            self.hp[s] = self.base[s]
            for u in self.cols[s]:
                for ab in u.card.build:
                    self._build_ability(s, u, ab)
            if self.log is not None:
                self.say(f"{self.who(s)} initial HP {self.hp[s]}")
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
                    self.say(f"{self.name(u)} (build): initial HP {before} -> {self.hp[side]}")

    def play_turn(self) -> int:
        self.depth = 0
        if self.log is not None:
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
                ab = u.card.action
                if ab is None or not u.up:
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

    def _fire_action(self, side: int, u: Unit, ab: Ability) -> None:
        self.firings += 1
        if self.log is not None:
            self.say(f"{self.name(u)} fires")
        self.depth += 1
        self._pay(side, u, ab)
        plain = ab.plain_damage
        if plain is not None:  # fast path for the commonest action, "damage enemy N [xM]"
            for _ in range(plain[1]):
                self._hit(side, u, 1 - side, plain[0], ab.unblockable)
        else:
            self._run(side, u, ab, None)
        self.depth -= 1

    def _pay(self, side: int, u: Unit, ab: Ability) -> None:
        """Before the effect: down the firing card, or remove it ([除去]), or neither ([ダウンレス])."""
        if ab.remove:
            self._remove(u)
        elif not ab.downless:
            self._down(u, side)

    # -- events ---------------------------------------------------------------------------------------------
    def _limits_hold(self, side: int, ab: Ability, trig: object) -> bool:
        for cond in ab.limits:
            if cond == "hp_at_most_half_base":
                ok = 2 * self.hp[side] <= self.base[side]
            elif cond == "shared_up_card":
                ok = self._shared_up(side) is not None
            else:  # source_in_play
                ok = isinstance(trig, Hit) and trig.source.in_play
            if not ok:
                return False
        return True

    def _fire_event(self, side: int, u: Unit, ab: Ability, trig: object, cause: int | None) -> None:
        """An event fires: down it (unless noted), let the enemy negate it, then run its effect.

        ``cause`` is the side whose card's ability triggered this event (``None`` for a phase trigger).
        """
        if ab.limits and not self._limits_hold(side, ab, trig):
            return
        if self.nest >= NEST_CAP or self.phase_events >= EVENT_CAP:
            self.safety_stops += 1
            if self.log is not None:
                why = f"{NEST_CAP} events inside one another" if self.nest >= NEST_CAP else f"{EVENT_CAP} events"
                self.say(f"(safety stop: {self.name(u)} does not fire after {why})")
            return
        self.firings += 1
        self.phase_events += 1
        if self.log is not None:
            self.say(f"{self.name(u)} fires (event)")
        self.depth += 1
        self.nest += 1
        try:
            self._pay(side, u, ab)
            if cause is not None and cause != side and self._negated(cause, side):
                if self.log is not None:
                    self.say(f"{self.name(u)}'s effect is negated")
            else:
                self._run(side, u, ab, trig)
        finally:
            self.nest -= 1
            self.depth -= 1

    def _negated(self, counter_side: int, event_side: int) -> bool:
        """``counter_side``'s <E:enemy_event> cards answer an event of ``event_side``, top to bottom."""
        flag = Flag()
        for u in list(self.cols[counter_side]):
            if flag.set:
                break
            if u.up and u.in_play:
                for ab in u.card.events.get("enemy_event", ()):
                    if not flag.set and u.up and u.in_play:
                        self._fire_event(counter_side, u, ab, flag, event_side)
        return flag.set

    # -- state changes --------------------------------------------------------------------------------------
    def _down(self, u: Unit, cause: int) -> None:
        """Down ``u``; the card right below may answer (<E:above_downed>)."""
        if not u.up or not u.in_play:
            return
        u.up = False
        if "above_downed" not in self.answers[u.side]:
            return
        col = self.cols[u.side]
        i = col.index(u)
        if i + 1 < len(col):
            below = col[i + 1]
            if below.up:
                for ab in below.card.events.get("above_downed", ()):
                    if below.up and below.in_play:
                        self._fire_event(below.side, below, ab, u, cause)

    def _remove(self, u: Unit) -> None:
        if not u.in_play:
            return
        u.in_play = False
        self.cols[u.side].remove(u)
        before = self.base[u.side]
        self.base[u.side] -= u.card.force
        if self.log is not None:
            self.say(f"{self.name(u)} is removed: base HP {before} -> {self.base[u.side]}")

    def _hit(self, src_side: int, src: Unit, dst: int, amount: int, unblockable: bool) -> None:
        """One damage hit: increases, then reductions, then reflection; HP falls; then other answers."""
        if dst == src_side:
            self._lose_hp(dst, amount, src)
            return
        h = Hit(amount, src, src_side)
        cols = self.cols
        src_answers = "my_damage" in self.answers[src_side]
        dst_answers = not unblockable and "enemy_damage" in self.answers[dst]
        if not (src_answers or dst_answers):
            self._lose_hp(dst, amount, src)
            return
        for stage in range(OTHER):
            if src_answers:
                for u in list(cols[src_side]):
                    for ab in u.card.src_damage[stage]:
                        if u.up and u.in_play and not h.nullified and h.amount >= max(1, ab.trigger_min):
                            self._fire_event(src_side, u, ab, h, src_side)
            if dst_answers:
                for u in list(cols[dst]):
                    for ab in u.card.dst_damage[stage]:
                        if u.up and u.in_play and not h.nullified and h.amount >= max(1, ab.trigger_min):
                            self._fire_event(dst, u, ab, h, src_side)
        if h.nullified or h.amount <= 0:
            if self.log is not None:
                self.say(f"{self.name(src)}'s hit on {self.who(dst)} deals no damage")
            return
        self._lose_hp(dst, h.amount, src)
        if src_answers:
            for u in list(cols[src_side]):
                for ab in u.card.src_damage[OTHER]:
                    if u.up and u.in_play:
                        self._fire_event(src_side, u, ab, h, src_side)
        if dst_answers:
            for u in list(cols[dst]):
                for ab in u.card.dst_damage[OTHER]:
                    if u.up and u.in_play:
                        self._fire_event(dst, u, ab, h, src_side)

    def _lose_hp(self, side: int, amount: int, src: Unit) -> None:
        before = self.hp[side]
        self.hp[side] -= amount
        if self.log is not None:
            own = " (its own side)" if src.side == side else ""
            self.say(f"{self.name(src)} hits {self.who(side)}{own} for {amount}: HP {before} -> {self.hp[side]}")
        if self.hp[side] <= 0:
            raise BattleOver(1 - side, f"{self.who(1 - side)} wins: {self.who(side)} HP {self.hp[side]}")

    # -- effects --------------------------------------------------------------------------------------------
    def _shared_up(self, side: int) -> Unit | None:
        """The topmost up card of ``side`` whose same card is up on the enemy side."""
        enemy_up = {u.card.id for u in self.cols[1 - side] if u.up}
        for u in self.cols[side]:
            if u.up and u.card.id in enemy_up:
                return u
        return None

    def _aim(self, side: int, t: Unit | None) -> Unit | None:
        """``t`` becomes the target of ``side``'s effect; an enemy card may answer and ignore it."""
        if t is None or t.side == side or not t.up:
            return t
        events = t.card.events.get("targeted")
        if not events:
            return t
        flag = Flag()
        for ab in events:
            if t.up and t.in_play and not flag.set:
                self._fire_event(t.side, t, ab, flag, side)
        return None if flag.set else t

    def _run(self, side: int, me: Unit, ab: Ability, trig: object) -> None:
        target: Unit | None = None
        target2: Unit | None = None
        targets: list[Unit] = []
        for e in ab.effects:
            op = e.op
            if op == "damage":
                who, amount, times = e.args
                for _ in range(times):
                    if who == "enemy":
                        self._hit(side, me, 1 - side, amount, ab.unblockable)
                    elif who == "self":
                        self._hit(side, me, side, amount, ab.unblockable)
                    else:  # above_base: every character whose HP is above its base HP, the second player first
                        for s in (1 - self.first, self.first):
                            if self.hp[s] > self.base[s]:
                                self._hit(side, me, s, amount, ab.unblockable)
            elif op == "list":
                col = self.cols[1 - side if e.args[0] == "enemy" else side]
                kind = e.args[1]
                if kind == "up":
                    targets = [u for u in col if u.up]
                elif kind == "not_bottom":
                    targets = col[:-1]
                else:
                    targets = list(col)
                self._list_made(side, targets)
            elif op == "pick":
                how = e.args[0]
                if how == "topmost":
                    t = targets[0] if targets else None
                elif how == "above":
                    t = trig if isinstance(trig, Unit) and trig.in_play else None
                elif how == "source":
                    t = trig.source if isinstance(trig, Hit) and trig.source.in_play else None
                else:
                    t = self._shared_up(side)
                target = self._aim(side, t)
                if t is not None and self.log is not None:
                    self.say(f"target: {self.name(t)}" + (" (ignores the effect)" if target is None else ""))
            elif op == "pick2":
                t2: Unit | None = None
                if target is not None:
                    for u in self.cols[1 - side]:
                        if u.up and u.card.id == target.card.id:
                            t2 = u
                            break
                target2 = self._aim(side, t2)
                if t2 is not None and self.log is not None:
                    self.say(f"target 2: {self.name(t2)}" + (" (ignores the effect)" if target2 is None else ""))
            elif op in ("down", "up", "remove", "swap_below"):
                t = target if e.args[0] == "target" else target2
                if t is None or not t.in_play:
                    continue
                if op == "down":
                    if t.up and self.log is not None:
                        self.say(f"{self.name(t)} is downed")
                    self._down(t, side)
                elif op == "up":
                    if not t.up:
                        t.up = True
                        if self.log is not None:
                            self.say(f"{self.name(t)} is upped")
                elif op == "remove":
                    self._remove(t)
                else:
                    col = self.cols[t.side]
                    i = col.index(t)
                    if i + 1 < len(col):
                        col[i], col[i + 1] = col[i + 1], col[i]
                        if self.log is not None:
                            self.say(f"{self.name(t)} swaps with {col[i].card.name} below it")
            elif op == "remove_self":
                self._remove(me)
            elif op == "heal_to_base":
                if self.hp[side] < self.base[side]:
                    before = self.hp[side]
                    self.hp[side] = self.base[side]
                    if self.log is not None:
                        self.say(f"{self.who(side)} recovers: HP {before} -> {self.hp[side]}")
            elif op in ("ignore_effect", "negate_event"):
                if isinstance(trig, Flag):
                    trig.set = True
            elif op == "modify":
                if isinstance(trig, Hit):
                    before = trig.amount
                    trig.amount = max(0, trig.amount + e.args[0])
                    if self.log is not None:
                        self.say(f"damage {before} -> {trig.amount}")
            elif op == "reflect":
                if isinstance(trig, Hit):
                    trig.nullified = True
                    if self.log is not None:
                        self.say(f"the {trig.amount} damage is nullified and sent back")
                    self._hit(side, me, 1 - side, trig.amount, False)
            elif op == "prefer":
                self._prefer(side, me, e.args[0], trig)
            elif op == "speed":
                self.bonus[side] += e.args[0]
                if self.log is not None:
                    self.say(f"{self.who(side)} speed +{e.args[0]} for this phase")

    def _list_made(self, side: int, targets: list[Unit]) -> None:
        """自分の能力でターゲットリストが発生: this side's <E:my_target_list> cards filter it, top to bottom."""
        if "my_target_list" not in self.answers[side]:
            return
        for u in list(self.cols[side]):
            for ab in u.card.events.get("my_target_list", ()):
                if u.up and u.in_play:
                    self._fire_event(side, u, ab, targets, side)

    def _prefer(self, side: int, me: Unit, what: str, trig: object) -> None:
        if not isinstance(trig, list) or not me.in_play:
            return
        col = self.cols[side]
        i = col.index(me)
        if i == 0:
            if self.log is not None:
                self.say("no card above: no preference")
            return
        above = col[i - 1].card
        if what == "category_of_above":
            keep = [u for u in trig if u.card.category == above.category]
            label = f"category {above.category}"
        else:
            keep = [u for u in trig if u.card.number == above.number]
            label = f"number {above.number}"
        if keep:
            trig[:] = keep
            if self.log is not None:
                self.say(f"target list narrowed to {label}: {', '.join(u.card.name for u in keep)}")
        else:
            if self.log is not None:
                self.say(f"no {label} in the target list: unchanged")

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
        """After turn 30 (バトルが30ターンを超えたら…判定): higher HP; then higher base HP; then more cards in play;
        then the first player of turn 1, if the rules (not the coin) chose it; then the revealed builds compared
        card by card (:func:`compare_builds`). Only identical builds, which never get here, are left undecided."""
        hp, base = self.hp, self.base
        n = [len(self.cols[0]), len(self.cols[1])]
        if self.log is not None:
            self.say(f"Turn {JUDGE_TURN} is over: judgement")
        for label, v in (("HP", hp), ("base HP", base), ("cards in play", n)):
            if v[0] != v[1]:
                w = 0 if v[0] > v[1] else 1
                raise BattleOver(w, f"{self.who(w)} wins the judgement on {label} ({v[w]} vs {v[1 - w]})")
        w1 = self.first_of_turn1
        if w1 is not None:
            raise BattleOver(w1, f"{self.who(w1)} wins the judgement: HP, base HP and cards tied; first in turn 1")
        place = compare_builds(self.builds[0], self.builds[1])
        if place is None:  # only reachable when a test skips the reveal, which draws identical builds at once
            raise BattleOver(None, "identical builds: a draw")
        w, i = place
        mine = self.builds[w][i].name
        theirs = self.builds[1 - w][i].name if i < len(self.builds[1 - w]) else "no card"
        raise BattleOver(
            w,
            f"{self.who(w)} wins the judgement: HP, base HP, cards and turn 1 tied; "
            f"the builds first differ at place {i + 1}: {mine} beats {theirs}",
        )


def compare_builds(a: Sequence[CardDef], b: Sequence[CardDef]) -> tuple[int, int] | None:
    """The last tie-break of the judgement, a fixed order of builds: ``(winner, place)`` or ``None`` if identical.

    The two revealed columns are read from the top; at the first place where they differ, a card beats no card,
    then the card of higher force wins (force is HP and speed), then the card listed earlier in the card list.
    It depends only on the two builds (never on seats or chance), and two different builds always differ.
    """
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x.index != y.index:
            if x.force != y.force:
                return (0 if x.force > y.force else 1), i
            return (0 if x.index < y.index else 1), i
    if len(a) != len(b):
        return (0 if len(a) > len(b) else 1), min(len(a), len(b))
    return None
