"""Abilities in battle: actions and events fire, damage is dealt and answered, and effects change the columns.

Rulebook: 能力 (<A> actions, <E:…> events, [除去], [ダウンレス], [迎撃不可]), ダメージ (increases, reductions,
reflection) and ターゲット (target lists and targets). The ability language itself is in ``cards/abilities.py``.
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import mypyc_attr

from ..cards import Ability, Effect
from ..constants import EVENT_CAP, NEST_CAP, OTHER
from .board import BattleOver, Board, Flag, Hit, Unit

_OTHER: Final = int(OTHER)  # the last stage of damage events, as a plain int for the hot loop


def _paying(ab: Ability) -> str:
    """What firing does to the card itself, for the log: it downs itself unless [ダウンレス] or [除去]."""
    return "" if ab.remove or ab.downless else " and downs itself"


@mypyc_attr(allow_interpreted_subclasses=True)  # involvement.TracedBattle watches a battle
class Abilities(Board):
    """The firing of abilities on a :class:`~.board.Board` (the turn structure is in :mod:`.battle`)."""

    def _fire_action(self, side: int, u: Unit, ab: Ability) -> None:
        self.firings += 1
        if self.log is not None:
            self.say(f"{self.name(u)} fires{_paying(ab)}")
            self.fired[side].append(u.card.name)
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
            self.say(f"{self.name(u)} fires (event){_paying(ab)}")
        self.depth += 1
        self.nest += 1
        try:
            self._pay(side, u, ab)
            if cause is not None and cause != side and self._negated(cause, side):
                if self.log is not None:
                    self.say(f"{self.name(u)}'s effect is negated")
                    self.note(f"{self.who(cause)} negates {self.name(u)}")
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
            self.note(f"{self.name(u)} removed")

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
        for stage in range(_OTHER):
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
                for ab in u.card.src_damage[_OTHER]:
                    if u.up and u.in_play:
                        self._fire_event(src_side, u, ab, h, src_side)
        if dst_answers:
            for u in list(cols[dst]):
                for ab in u.card.dst_damage[_OTHER]:
                    if u.up and u.in_play:
                        self._fire_event(dst, u, ab, h, src_side)

    def _lose_hp(self, side: int, amount: int, src: Unit) -> None:
        before = self.hp[side]
        self.hp[side] -= amount
        if self.log is not None:
            self.dealt[src.side] += amount if src.side != side else 0
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
        """Carry out the effects of ``ab`` in order; ``target``/``target2``/the target list live for one ability."""
        target: Unit | None = None
        target2: Unit | None = None
        targets: list[Unit] = []
        for e in ab.effects:
            op = e.op
            if op == "damage":
                self._damage(side, me, ab, e)
            elif op == "list":
                targets = self._target_list(side, e)
            elif op == "pick":
                target = self._pick(side, e.args[0], targets, trig)
            elif op == "pick2":
                target2 = self._pick2(side, target)
            elif op in ("down", "up", "remove", "swap_below"):
                t = target if e.args[0] == "target" else target2
                if t is not None and t.in_play:
                    self._change(side, op, t)
            else:
                self._answer(side, me, e, trig)

    def _damage(self, side: int, me: Unit, ab: Ability, e: Effect) -> None:
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

    def _target_list(self, side: int, e: Effect) -> list[Unit]:
        """ターゲットリスト: the cards of one column (all, up, or all but the bottom one), then filtered."""
        col = self.cols[1 - side if e.args[0] == "enemy" else side]
        kind = e.args[1]
        if kind == "up":
            targets = [u for u in col if u.up]
        elif kind == "not_bottom":
            targets = col[:-1]
        else:
            targets = list(col)
        self._list_made(side, targets)
        return targets

    def _pick(self, side: int, how: str, targets: list[Unit], trig: object) -> Unit | None:
        if how == "topmost":
            t = targets[0] if targets else None
        elif how == "above":
            t = trig if isinstance(trig, Unit) and trig.in_play else None
        elif how == "source":
            t = trig.source if isinstance(trig, Hit) and trig.source.in_play else None
        else:
            t = self._shared_up(side)
        if t is not None and self.log is not None:
            self.say(f"target: {self.name(t)}")
        target = self._aim(side, t)
        if t is not None and target is None and self.log is not None:
            self.say(f"{self.name(t)} ignores the effect")
            self.note(f"{self.name(t)} ignores the effect")
        return target

    def _pick2(self, side: int, target: Unit | None) -> Unit | None:
        t2: Unit | None = None
        if target is not None:
            for u in self.cols[1 - side]:
                if u.up and u.card.id == target.card.id:
                    t2 = u
                    break
        if t2 is not None and self.log is not None:
            self.say(f"target 2: {self.name(t2)}")
        target2 = self._aim(side, t2)
        if t2 is not None and target2 is None and self.log is not None:
            self.say(f"{self.name(t2)} ignores the effect")
            self.note(f"{self.name(t2)} ignores the effect")
        return target2

    def _change(self, side: int, op: str, t: Unit) -> None:
        """``down``, ``up``, ``remove`` or ``swap_below`` a target in play."""
        if op == "down":
            if t.up and self.log is not None:
                self.say(f"{self.name(t)} is downed")
                self.note(f"{self.name(t)} downed")
            self._down(t, side)
        elif op == "up":
            if not t.up:
                t.up = True
                if self.log is not None:
                    self.say(f"{self.name(t)} is upped")
                    self.note(f"{self.name(t)} upped")
        elif op == "remove":
            self._remove(t)
        else:
            col = self.cols[t.side]
            i = col.index(t)
            if i + 1 < len(col):
                col[i], col[i + 1] = col[i + 1], col[i]
                if self.log is not None:
                    self.say(f"{self.name(t)} swaps with {col[i].card.name} below it")
                    self.note(f"{self.name(t)} swapped down")

    def _answer(self, side: int, me: Unit, e: Effect, trig: object) -> None:
        """The other effects: on the firing card or side, or answering the trigger (a hit, a flag, a list)."""
        op = e.op
        if op == "remove_self":
            self._remove(me)
        elif op == "heal_to_base":
            if self.hp[side] < self.base[side]:
                before = self.hp[side]
                self.hp[side] = self.base[side]
                self.healed = self.turn
                if self.log is not None:
                    self.say(f"{self.who(side)} recovers: HP {before} -> {self.hp[side]}")
                    self.note(f"{self.who(side)} recovers to HP {self.hp[side]}")
        elif op in ("ignore_effect", "negate_event"):
            if isinstance(trig, Flag):
                trig.set = True
        elif op == "modify":
            if isinstance(trig, Hit):
                before = trig.amount
                trig.amount = max(0, trig.amount + e.args[0])
                if self.log is not None:
                    self.say(f"damage {before} -> {trig.amount}")
                    self.note(f"{self.name(me)}: damage {before} -> {trig.amount}")
        elif op == "reflect":
            if isinstance(trig, Hit):
                trig.nullified = True
                if self.log is not None:
                    self.say(f"the {trig.amount} damage is nullified and sent back")
                    self.note(f"{self.name(me)} reflects {trig.amount} damage")
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
