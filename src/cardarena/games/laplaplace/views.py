"""What a seat may know: the observation, the worlds consistent with it (resample), and the battle log.

Hidden until the reveal: the other seat's build (blind: even its size) and, in the open scene, the other seat's
open cards until both have shown 4. After the battle everything is public.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from cardarena.engine import Rng

from .constants import MAX_CARDS, OPEN, OPEN_CARDS
from .rules import fight_logged, phase

if TYPE_CHECKING:
    from .state import LaplaplaceState


def battle_log(state: LaplaplaceState) -> list[str]:
    """The battle log a person can follow (empty before the battle).

    The battle is deterministic given the builds and the Rng state it started from, so the log (and its summary)
    is written by running it again with logging on the first time someone asks; the two runs must agree.
    """
    if state.outcome is None:
        return []
    if state.battle_log is None:
        rng = Rng(0)
        rng.state = state.battle_rng
        again, log, summary = fight_logged(state, rng)
        if again != state.outcome:
            raise RuntimeError("the logged battle differs from the played one (a bug in rules/)")
        state.battle_log = log
        state.battle_summary = summary
    return state.battle_log


def battle_summary(state: LaplaplaceState) -> list[str]:
    """The battle in a few lines (empty before the battle): the reveal and initial HP, one line per turn (who
    went first, the damage each side dealt, HP, the key events: cards removed, downed or upped by an effect,
    effects ignored, events negated, damage reflected, recoveries), the loops skipped, the judgement, the result."""
    if state.outcome is None:
        return []
    if state.battle_summary is None:
        battle_log(state)
    assert state.battle_summary is not None
    return state.battle_summary


def observation(state: LaplaplaceState, seat: int | None) -> dict[str, Any]:
    cards = state.game.table.cards
    scene = state.game.scene
    over = state.outcome is not None
    revealed = scene is OPEN and len(state.shown[1]) >= OPEN_CARDS
    obs: dict[str, Any] = {
        "scene": scene.value,
        "phase": phase(state).value,
        "to_act": state.current_player,
        "done": list(state.done),
    }
    seats = []
    for s in (0, 1):
        mine = seat == s
        view: dict[str, Any] = {}
        if mine or over:
            view["build"] = [cards[i].id for i in state.builds[s]]
            view["base_hp"] = sum(cards[i].force for i in state.builds[s])
        if scene is OPEN:
            view["open"] = [cards[i].id for i in state.shown[s]] if (mine or revealed or over) else None
        seats.append(view)
    obs["seats"] = seats
    if state.outcome is not None:
        o = state.outcome
        obs["result"] = {
            "winner": o.winner,
            "reason": o.reason,
            "turns": o.turns,
            "hp": list(o.hp),
            "base_hp": list(o.base),
        }
        obs["log"] = list(battle_log(state))
    return obs


def resample(state: LaplaplaceState, seat: int, rng: Rng | random.Random | int) -> LaplaplaceState:
    """Redraw what ``seat`` cannot see: the other seat's hidden cards (and, where hidden, their number); reseed the
    future coin.

    Blind: a finished build has 0-8 cards, one still being made (the other seat is to act) 0-7; the most is drawn
    half the time (every card adds HP, so full builds are the likeliest), any fewer the other half. Open: the other's
    open cards until both have shown 4 (as many as it showed, in card-list order); then its build: its 4 open
    cards and 4 others in any order when finished; while being made, 0-7 cards of which as many open ones as still
    leave room for the rest (how many it added is not seen either).
    """
    r = Rng.coerce(rng)
    c = state.clone()
    if state.outcome is not None:
        return c
    n = len(state.game.table)
    other = 1 - seat
    if state.game.scene is OPEN:
        if len(c.shown[1]) < OPEN_CARDS:
            if c.shown[other]:  # the other's open cards are still hidden
                c.shown[other] = sorted(r.randbelow(n) for _ in c.shown[other])
        elif c.done[other] or c.current_player == other:
            size = MAX_CARDS if c.done[other] else _hidden_size(r, MAX_CARDS - 1)
            opens = list(c.shown[other])  # known, in card-list order
            r.shuffle(opens)
            least = max(0, size - (MAX_CARDS - OPEN_CARDS))  # open cards placed so that the rest still fit
            placed = least + r.randbelow(min(size, OPEN_CARDS) - least + 1)
            pool = [*opens[:placed], *(r.randbelow(n) for _ in range(size - placed))]
            r.shuffle(pool)
            c.builds[other] = pool
    elif c.done[other] or c.current_player == other:
        # a finished build has 0-8 cards; one still being made (the other seat is to act) 0-7
        size = _hidden_size(r, MAX_CARDS if c.done[other] else MAX_CARDS - 1)
        c.builds[other] = [r.randbelow(n) for _ in range(size)]
    c.rng = Rng(r.next64())
    return c


def _hidden_size(r: Rng, most: int) -> int:
    """The size of a build whose size is hidden: ``most`` half the time, else 0 to ``most - 1`` alike."""
    return most if r.randbelow(2) == 0 else r.randbelow(most)
