"""Text views of ToraBato: the table as one seat sees it, and plain-words descriptions of actions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine import Action
from .cards import NAMES
from .constants import (
    ASSIGN,
    ASSIGN_K,
    ATTACK_K,
    BLOCK_K,
    DONE_K,
    MANA_K,
    NO_TARGET,
    OPPONENT,
    OVER,
    PASS_K,
    PLAY_K,
    RECUR_K,
    REGROW,
    REVEAL,
    SELECT_ATTACKERS,
    SELECT_BLOCKERS,
    SOLDIER,
    SPELL,
    TAPPED_THIS_TURN,
    UNBLOCKABLE_FLAG,
    USE_K,
    ZEROED,
    Ability,
    Effect,
    Timing,
)

if TYPE_CHECKING:
    from .state import ToraBatoState

_EFFECT_WORDS = {
    Effect.DAMAGE: "{amount} damage to {target}",
    Effect.DESTROY: "destroy {target}",
    Effect.GAIN_MANA: "gain {amount} mana this turn",
    Effect.DRAW: "draw {amount} cards",
    Effect.PREVENT: "damage from {target} becomes 0 this turn",
    Effect.BOOST: "{target} gets +{attack}/+{health} this turn",
    Effect.RETURN_MANA: "return one of your mana cards to your hand",
    Effect.DESTROY_ALL: "destroy every soldier",
}
_ABILITY_WORDS = {
    Ability.REGROW: "return a card from your discard pile to your hand",
    Ability.FORTIFY: "+0/+{health_boost} this turn",
    Ability.TAP: "tap this soldier and tap {target} this turn",
    Ability.UNBLOCKABLE: "cannot be blocked this turn",
}


def _target_name(state: ToraBatoState, target: int) -> str:
    if target == OPPONENT:
        return "the opponent (mills their deck)"
    if target == NO_TARGET:
        return "-"
    return NAMES[target]


def describe(state: ToraBatoState, action: Action) -> str:
    """The action in plain words, with its cost."""
    kind = action[0]
    if kind == PLAY_K:
        card, target = action[1], action[2]
        s = state.game.spec[card]
        if s.kind == SOLDIER:
            return f"{action} — summon {NAMES[card]} {s.attack}/{s.health} ({s.cost} mana)"
        assert s.effect is not None  # every spell has one (cards.py)
        words = _EFFECT_WORDS[s.effect].format(
            amount=s.amount, target=_target_name(state, target), attack=s.attack, health=s.health
        )
        if s.timing == Timing.INSTANT_OFF_STACK:
            words += " (at once, off the stack)"
        return f"{action} — cast {NAMES[card]} ({s.cost} mana): {words}"
    if kind == USE_K:
        card, target = action[1], action[2]
        s = state.game.spec[card]
        assert s.ability is not None  # only soldiers with an ability are used
        words = _ABILITY_WORDS[s.ability].format(health_boost=s.health_boost, target=_target_name(state, target))
        return f"{action} — {NAMES[card]}'s ability ({s.ability_cost} mana): {words}"
    if kind == RECUR_K:
        s = state.game.spec[action[1]]
        return f"{action} — pay {s.recur_cost} mana: {NAMES[action[1]]} from your discard pile to your hand"
    if kind == MANA_K:
        return f"{action} — set {NAMES[action[1]]} face down as mana"
    if kind == PASS_K:
        return "pass"
    if kind == ATTACK_K:
        return "attack — declare this turn's attack"
    if kind == BLOCK_K:
        return f"{action} — {NAMES[action[1]]} blocks {NAMES[action[2]]}"
    if kind == ASSIGN_K:
        return f"{action} — 1 point of {NAMES[action[1]]}'s damage to {NAMES[action[2]]}"
    if kind == DONE_K:
        return "done"
    return str(action)


def _soldier(state: ToraBatoState, c: int) -> str:
    bits = [f"{NAMES[c]} {state.attack_of(c)}/{state.health_of(c)}"]
    if state.damage[c]:
        bits.append(f"dmg {state.damage[c]}")
    if state.tapped[c]:
        bits.append("tapped this turn" if state.flags[c] & TAPPED_THIS_TURN else "tapped")
    if state.is_sick(c):
        bits.append("new")
    if c in state.attackers:
        bits.append("attacking")
    blocked = [NAMES[a] for b, a in state.blocks if b == c]
    if blocked:
        bits.append(f"blocking {blocked[0]}")
    if state.flags[c] & UNBLOCKABLE_FLAG:
        bits.append("unblockable")
    if state.flags[c] & ZEROED:
        bits.append("deals 0")
    return "[" + ", ".join(bits) + "]"


def render(state: ToraBatoState, seat: int | None) -> str:
    lines: list[str] = []
    if state.phase == REVEAL:
        n = min(len(state.reveals[0]), len(state.reveals[1]))
        lines.append(f"Deciding the first player (lower card goes first; A = 1, Joker = 0). Redeals: {state.redeals}")
        for s in (0, 1):
            shown = [NAMES[c] for c in state.reveals[s][:n]]
            lines.append(f"  seat {s} has shown: {' '.join(shown) or '-'}")
    else:
        who = "you" if seat == state.active else f"seat {state.active}"
        lines.append(
            f"Turn {state.turn_no} — {who} (seat {state.active}) to play — {state.phase.text}"
            f" — first player: seat {state.first}"
        )
        if state.turn_no <= 2 and state.reveals[0] and len(state.reveals[0]) == len(state.reveals[1]):
            pairs = ", ".join(f"{NAMES[a]} vs {NAMES[b]}" for a, b in zip(*state.reveals, strict=True))
            lines.append(f"  (first-player reveal, seat 0 vs seat 1: {pairs})")
    order = [1 - seat, seat] if seat is not None else [0, 1]
    for s in order:
        label = "You" if s == seat else f"Seat {s}"
        lines.append(
            f"{label} (seat {s}): deck {len(state.deck[s])}, hand {len(state.hand[s])}, "
            f"mana {state.available_mana(s)} available ({len(state.mana[s])} cards, {state.tapped_mana[s]} tapped"
            f"{', +' + str(state.pool[s]) + ' this turn' if state.pool[s] else ''})"
        )
        if s == seat and state.mana[s]:
            lines.append(f"  mana cards: {' '.join(NAMES[c] for c in sorted(state.mana[s]))}")
        soldiers = " ".join(_soldier(state, c) for c in state.field[s]) or "-"
        lines.append(f"  soldiers: {soldiers}")
        lines.append(f"  discard: {' '.join(NAMES[c] for c in state.discard[s]) or '-'}")
        if s == seat:
            hand = []
            for c in sorted(state.hand[s]):
                sp = state.game.spec[c]
                hand.append(f"{NAMES[c]}({sp.cost})")
            lines.append(f"  hand: {' '.join(hand) or '-'}")
    if state.stack:
        lines.append("Stack (top first):")
        for kind, card, ctrl, target in reversed(state.stack):
            what = ("cast", "ability of", "recursion of")[kind]
            t = "" if target == NO_TARGET else f" → {_target_name(state, target)}"
            zero = " (deals 0)" if state.flags[card] & ZEROED and kind == SPELL else ""
            lines.append(f"  seat {ctrl}: {what} {NAMES[card]}{t}{zero}")
    if state.phase == OVER:
        lines.append(f"Game over: {state.end_reason}. Result {state.returns()}")
    else:
        actor = state.current_player
        you = " (you)" if actor == seat else ""
        if state.pending is not None:
            what = "choose a card from the discard pile" if state.pending[0] == REGROW else "choose a mana card"
        elif state.phase == REVEAL:
            what = "reveal a card"
        elif state.phase in (SELECT_ATTACKERS, SELECT_BLOCKERS, ASSIGN):
            what = state.phase.text.split(": ")[1]
        else:
            passed = " (the other player has passed)" if state.passes else ""
            what = f"has priority{passed}"
        lines.append(f"Waiting on seat {actor}{you}: {what}")
    return "\n".join(lines)
