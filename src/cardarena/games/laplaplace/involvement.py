"""Laplaplace's hooks for the balance report (:mod:`cardarena.engine.involvement`): what each build decision and
each battle involves.

The only decisions are the builds: ``add CARD`` and ``show CARD`` put a card in the seat's build (``in_build``;
a build read from a file is in the initial state). The battle has no decisions: it is fought inside the action
that completes the second build (in the league scene, inside the initial state). Its events are derived by
fighting it again from the Rng state it started from (``state.battle_rng``, as ``views.battle_log`` does) with a
:class:`TracedBattle`: a subclass of the rules' :class:`~.rules.Battle` that only watches (every override calls
the rules' own method and records what it did), so the played battle, the hot path of ``cardarena bench`` and of
search, runs the rules' class untouched and pays nothing. The traced battle is unlogged, exactly as the played
one: it skips the same loops and races and reaches the same outcome.

What a battle involves (each entry once per action: the report counts games, not firings):

- ``card`` ``fired``: an ability of the card fired (action, event or build ability); ``activated``: its always-on
  ability took effect (Lift let the card above it fire a ``<トップ>`` action from below the top);
  ``downed`` / ``removed``: another card's effect downed it or removed it from play (a card downing or removing
  itself to pay for its own firing is not counted); ``countered``: its event was negated (Nullify) or the target
  of its effect ignored it (Decoy).
- ``effect`` ``applied``: an effect of the ability language ran (every effect of a fired ability that was not
  negated; ``no_up_phase`` when it keeps a card down in the up phase; ``above_ignores_top`` with Lift).
- ``rule`` ``applied``: the first-player tie-breaks (HP, cards in play, the player second last turn, the coin),
  a hit that dealt no damage, a loop until the judgement (ruling 13), a safety stop (ruling 14).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardarena.engine import Action, Declared, Involvement, Rng

from .cards import Ability, CardDef, CardTable
from .constants import ADD, SHOW
from .rules import Battle, Unit
from .rules.build import battle_builds

if TYPE_CHECKING:
    from .state import LaplaplaceState

#: The rules worth watching, with the rulebook section (or ruling) each one follows.
RULES: dict[str, str] = {
    "first-player-hp": "先攻後攻決定フェイズ: speeds tied, the higher HP goes first",
    "first-player-cards": "先攻後攻決定フェイズ: speeds and HP tied, more cards in play goes first",
    "first-player-alternate": "先攻後攻決定フェイズ: speeds, HP and cards tied, last turn's second player goes first",
    "first-player-coin": "先攻後攻決定フェイズ: everything tied in turn 1, a coin chooses the first player",
    "hit-nullified": "ダメージ: a hit reduced to 0 or nullified deals no damage",
    "loop": "ruling 13: the battle repeats itself until the judgement (turns skipped)",
    "safety-stop": "ruling 14: a safety net stopped an action phase or an event",
}

#: What each effect of the ability language does, for the labels (docs/games/laplaplace.md, "The ability language").
EFFECTS: dict[str, str] = {
    "damage": "damage (to the enemy, its own side or every character above its base HP)",
    "list": "a target list (ターゲットリスト)",
    "pick": "pick a target from the list",
    "pick2": "pick a second target (the enemy's same card)",
    "down": "down the target",
    "up": "up the target",
    "remove": "remove the target from play",
    "swap_below": "swap the target with the card below it",
    "heal_to_base": "recover HP to the base HP",
    "initial_hp_plus_half_base": "initial HP + half the base HP (build ability)",
    "remove_self": "remove this card from play",
    "ignore_effect": "ignore the effect targeting this card",
    "modify": "change a hit's damage",
    "reflect": "nullify a hit and send it back",
    "prefer": "narrow the target list (category or number of the card above)",
    "speed": "speed bonus in the first-player phase",
    "negate_event": "negate an enemy event",
    "no_up_phase": "stays down in the up phase (always on)",
    "above_ignores_top": "the card above ignores <トップ> (always on)",
}


def catalogue(table: CardTable) -> list[Declared]:
    """Every card of the card list in use, every effect its abilities use, and the rules worth watching."""
    out = [Declared("card", c.id, f"{c.name} ({c.id}, force {c.force}, {c.category})") for c in table.cards]
    ops = sorted({e.op for c in table.cards for a in c.abilities for e in a.effects})
    out += [Declared("effect", op, f"{op}: {EFFECTS.get(op, op)}") for op in ops]
    out += [Declared("rule", key, label) for key, label in RULES.items()]
    return out


#: Each end of a battle, named after ``Outcome.reason`` (written by ``rules/battle.py`` and ``rules/judgement.py``).
ENDS: dict[str, str] = {
    "ko": "決着: a character's HP falls to 0 or less in the battle",
    "zero-hp-start": "ビルド: a character starts with 0 HP and loses before turn 1",
    "both-zero-hp": "ビルド (RULINGS): both start with 0 HP, turn 1's first player wins",
    "judgement-hp": "決着, judgement after turn 30: higher HP",
    "judgement-base-hp": "決着, judgement after turn 30: HP tied, higher base HP",
    "judgement-cards": "決着, judgement after turn 30: HP and base HP tied, more cards in play",
    "judgement-first-player": "決着, judgement after turn 30 (ruling 17): all tied, turn 1's first player",
    "judgement-builds": "決着, judgement after turn 30 (ruling 17): all tied, the builds compared card by card",
    "identical-draw": "構成の開示: identical builds draw",
    "identical-coin": "構成の開示 (option identical=coin): identical builds, a coin chooses the winner",
    "turn-cap": "the max_turns safety cap (never reached: the judgement after turn 30 comes first)",
}


def end_conditions() -> list[Declared]:
    return [Declared("end", key, label) for key, label in ENDS.items()]


def end_condition(state: LaplaplaceState) -> str:
    """The end of the terminal ``state``'s battle, read from its outcome's reason."""
    o = state.outcome
    if o is None:
        raise ValueError("end_condition needs a terminal state (the battle has not been fought)")
    reason = o.reason
    if reason.startswith("identical builds: a draw"):
        return "identical-draw"
    if reason.startswith("identical builds;"):
        return "identical-coin"
    if "both start with 0 HP" in reason:
        return "both-zero-hp"
    if "starts with 0 HP" in reason:
        return "zero-hp-start"
    if "the judgement on HP" in reason:
        return "judgement-hp"
    if "the judgement on base HP" in reason:
        return "judgement-base-hp"
    if "the judgement on cards in play" in reason:
        return "judgement-cards"
    if "first in turn 1" in reason:
        return "judgement-first-player"
    if "the builds first differ" in reason:
        return "judgement-builds"
    return "ko"


# -- the build decisions -----------------------------------------------------------------------------------------
def initial(state: LaplaplaceState) -> list[Involvement]:
    """The builds read from files (options ``build0``/``build1``, the league scene); and, when both builds are
    fixed, the battle the initial state has already fought."""
    found: dict[Involvement, None] = {}
    for seat, fixed in enumerate(state.game.fixed):
        if fixed is not None:
            for c in fixed.cards:
                found[Involvement(seat, "card", c.id, "in_build")] = None
    if state.outcome is not None:
        found.update(dict.fromkeys(battle(state)))
    return list(found)


def involvement(before: LaplaplaceState, action: Action, after: LaplaplaceState) -> list[Involvement]:
    """``add``/``show`` put the card in the acting seat's build; the action that completes the second build also
    fights the battle, whose events follow."""
    found: list[Involvement] = []
    seat = before.current_player
    kind = action[0]
    if seat is not None and kind in (ADD, SHOW):
        found.append(Involvement(seat, "card", action[1], "in_build"))
    if before.outcome is None and after.outcome is not None:
        found += battle(after)
    return found


# -- the battle ----------------------------------------------------------------------------------------------------
def battle(state: LaplaplaceState) -> list[Involvement]:
    """What the battle of the terminal ``state`` involved, fought again by a :class:`TracedBattle` from the Rng
    state it started from. The state is not changed (its Rng is copied)."""
    rng = Rng(0)
    rng.state = state.battle_rng
    traced = TracedBattle(battle_builds(state), rng, identical=state.game.identical)
    if traced.run().safety_stops:
        traced.record(None, "rule", "safety-stop", "applied")
    return list(traced.found)


class TracedBattle(Battle):
    """A battle that records, as :class:`Involvement` entries, the cards, effects and rules it involves.

    It only watches: every override calls the rules' own method, so it fights the same battle as
    :class:`~.rules.Battle` (a test checks the outcomes agree over random battles). ``firing`` is the stack of
    cards whose ability is being resolved (events nest), so a change can be told from the card's own cost.
    """

    def __init__(self, builds: Sequence[Sequence[CardDef]], rng: Rng, *, identical: str) -> None:
        super().__init__(builds, rng, identical=identical)
        self.found: dict[Involvement, None] = {}
        self.firing: list[Unit] = []
        self.negated: list[bool] = []  # per event being resolved: whether the enemy negated it
        self.hits: list[list[int]] = []  # per hit being resolved: the HP losses it caused

    def record(self, seat: int | None, kind: str, name: str, verb: str) -> None:
        self.found[Involvement(seat, kind, name, verb)] = None

    def _fired(self, side: int, u: Unit, ab: Ability, *, ran: bool = True) -> None:
        self.record(side, "card", u.card.id, "fired")
        if ran:
            for e in ab.effects:
                self.record(side, "effect", e.op, "applied")

    # -- firing ---------------------------------------------------------------------------------------------
    def _fire_action(self, side: int, u: Unit, ab: Ability) -> None:
        col = self.cols[side]
        i = col.index(u)
        if ab.top and i > 0:  # only Lift right below lets a <トップ> action fire from below the top
            self.record(side, "card", col[i + 1].card.id, "activated")
            self.record(side, "effect", "above_ignores_top", "applied")
        self._fired(side, u, ab)
        self.firing.append(u)
        try:
            super()._fire_action(side, u, ab)
        finally:
            self.firing.pop()

    def _fire_event(self, side: int, u: Unit, ab: Ability, trig: object, cause: int | None) -> None:
        firings = self.firings
        self.firing.append(u)
        self.negated.append(False)
        try:
            super()._fire_event(side, u, ab, trig, cause)
        finally:
            self.firing.pop()
            negated = self.negated.pop()
            if self.firings > firings:  # it fired (nothing else counts a firing when it does not)
                self._fired(side, u, ab, ran=not negated)
                if negated:
                    self.record(side, "card", u.card.id, "countered")

    def _negated(self, counter_side: int, event_side: int) -> bool:
        negated = super()._negated(counter_side, event_side)
        if negated:
            self.negated[-1] = True
        return negated

    def _build_ability(self, side: int, u: Unit, ab: Ability) -> None:
        self._fired(side, u, ab)
        super()._build_ability(side, u, ab)

    # -- what happens to cards ------------------------------------------------------------------------------
    def _by_another(self, u: Unit) -> bool:
        """Whether ``u`` is being changed by another card's ability (not paying for its own firing)."""
        return bool(self.firing) and self.firing[-1] is not u

    def _down(self, u: Unit, cause: int) -> None:
        if u.up and u.in_play and self._by_another(u):
            self.record(u.side, "card", u.card.id, "downed")
        super()._down(u, cause)

    def _remove(self, u: Unit) -> None:
        if u.in_play and self._by_another(u):
            self.record(u.side, "card", u.card.id, "removed")
        super()._remove(u)

    def _aim(self, side: int, t: Unit | None) -> Unit | None:
        target = super()._aim(side, t)
        if t is not None and target is None and self.firing:
            me = self.firing[-1]
            self.record(me.side, "card", me.card.id, "countered")
        return target

    def _hit(self, src_side: int, src: Unit, dst: int, amount: int, unblockable: bool) -> None:
        self.hits.append([])
        try:
            super()._hit(src_side, src, dst, amount, unblockable)
            if not self.hits[-1]:
                self.record(None, "rule", "hit-nullified", "applied")
        finally:
            self.hits.pop()

    def _lose_hp(self, side: int, amount: int, src: Unit) -> None:
        if self.hits:
            self.hits[-1].append(amount)
        super()._lose_hp(side, amount, src)

    # -- the turn -------------------------------------------------------------------------------------------
    def decide_first(self) -> None:
        last = self.last_first
        super().decide_first()
        if not self.speed_tied:
            return
        if self.hp[0] != self.hp[1]:
            rule = "first-player-hp"
        elif len(self.cols[0]) != len(self.cols[1]):
            rule = "first-player-cards"
        elif last is not None:
            rule = "first-player-alternate"
        else:
            rule = "first-player-coin"
        self.record(None, "rule", rule, "applied")

    def up_phase(self) -> int:
        for s in (0, 1):
            for u in self.cols[s]:
                if not u.up and u.card.no_up_phase:
                    self.record(s, "effect", "no_up_phase", "applied")
        return super().up_phase()

    def _skip_loop(self, seen: list[tuple[object, ...]]) -> None:
        turn = self.turn
        super()._skip_loop(seen)
        if self.turn != turn:
            self.record(None, "rule", "loop", "applied")
