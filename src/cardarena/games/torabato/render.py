"""Text views of ToraBato: the table as one seat sees it (panels, and the plain text that joins them), plain-words
descriptions of actions, and how the terminal groups the choices.

Only what ``observation(seat)`` shows is drawn: the opponent's hand and mana cards are backs (``[?]``), with the
cards every player knows to be there (shown in the reveal, taken back from the discard pile) named.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine import Action, Panel
from .cards import NAMES
from .constants import (
    ASSIGN,
    ASSIGN_K,
    ATTACK_K,
    ATTACKER_K,
    BLOCK,
    BLOCK_K,
    CHOOSE_K,
    DAMAGE,
    DECLARE,
    DONE_K,
    DRAW,
    END,
    EXECUTE,
    MAIN,
    MANA_K,
    NO_TARGET,
    OPPONENT,
    OVER,
    PASS_K,
    PLAY_K,
    RECOVERY,
    RECUR_K,
    REGROW,
    REVEAL,
    REVEAL_K,
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


def effect_words(state: ToraBatoState, card: int, target: int) -> str:
    """What a spell does, in words, with its target."""
    s = state.game.spec[card]
    assert s.effect is not None  # every spell has one (cards.py)
    return _EFFECT_WORDS[s.effect].format(
        amount=s.amount, target=_target_name(state, target), attack=s.attack, health=s.health
    )


def describe(state: ToraBatoState, action: Action) -> str:
    """The action in plain words, with its cost."""
    kind = action[0]
    if kind == PLAY_K:
        card, target = action[1], action[2]
        s = state.game.spec[card]
        if s.kind == SOLDIER:
            return f"{action} — summon {NAMES[card]} {s.attack}/{s.health} ({s.cost} mana)"
        words = effect_words(state, card, target)
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


#: What passing does with an empty stack, by phase (both players passing in succession ends the step).
_PASS_WORDS = {
    RECOVERY: "Go on to the draw",
    DRAW: "Go on to the main phase",
    MAIN: "End main phase",
    END: "End the turn",
    DECLARE: "Go on to choosing attackers",
    EXECUTE: "Go on to blocks",
    BLOCK: "Go on to combat damage",
    DAMAGE: "Deal combat damage",
}


def step_words(state: ToraBatoState, action: Action) -> str:
    """What ``pass`` or ``done`` does in this step, in a button's words ("Let it resolve", "End main phase", "No
    blocks"): the same ``pass`` lets a spell resolve, ends a phase or moves the attack on, and the table and the
    terminal's menu say which (see :func:`choice_label`). Other actions: their text.

    >>> import cardarena
    >>> from cardarena.games.torabato.actions import parse
    >>> s = cardarena.load("torabato").new_initial_state(0)
    >>> step_words(s, parse("pass"))
    'Pass'
    """
    kind = action[0]
    if kind == PASS_K:
        if state.stack:
            return "Let it resolve"
        return _PASS_WORDS.get(state.phase, "Pass")
    if kind == DONE_K:
        if state.phase == SELECT_BLOCKERS:
            return "Done blocking" if state.blocks else "No blocks"
        if state.phase == SELECT_ATTACKERS:
            return "Attack with these" if state.attackers else "No attack after all"
        return "Done"
    return str(action)


def choice_label(state: ToraBatoState, action: Action) -> tuple[str, str]:
    """``(group, detail)`` for the terminal's menu: one group per card played or used (its targets are the
    details), one group per blocker and per divided attacker, and one group for each kind that picks a card
    (``mana``, ``recur``, ``attacker``, ``choose``, ``reveal``: the cards are the details).

    >>> import cardarena
    >>> from cardarena.games.torabato.actions import parse
    >>> s = cardarena.load("torabato").new_initial_state(0)
    >>> choice_label(s, parse("mana 7S")), choice_label(s, parse("play 2S @opp")), choice_label(s, parse("pass"))
    (('mana', '7S'), ('play 2S', '@opp'), ('pass', 'Pass'))

    ``pass`` and ``done`` have what they do in this step as their detail (:func:`step_words`).
    """
    kind = action[0]
    if kind in (PLAY_K, USE_K):
        card, target = action[1], action[2]
        detail = "" if target == NO_TARGET else "@opp" if target == OPPONENT else f"@{NAMES[target]}"
        return f"{kind} {NAMES[card]}", detail
    if kind in (BLOCK_K, ASSIGN_K):
        return f"{kind} {NAMES[action[1]]}", NAMES[action[2]]
    if kind in (MANA_K, RECUR_K, ATTACKER_K, CHOOSE_K, REVEAL_K):
        return str(kind), NAMES[action[1]]
    if kind in (PASS_K, DONE_K):
        return str(kind), step_words(state, action)
    return str(kind), ""


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


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _seat_name(s: int, seat: int | None) -> str:
    return "You" if s == seat else f"Seat {s}"


def waiting_on(state: ToraBatoState, seat: int | None) -> str:
    """Who must act and what is expected of them, with what passing would do."""
    if state.phase == OVER:
        return f"Game over: {state.end_reason}. Result {state.returns()}"
    actor = state.current_player
    you = " (you)" if actor == seat else ""
    if state.pending is not None:
        what = (
            "choose a card from the discard pile to return to hand ('choose CARD')"
            if state.pending[0] == REGROW
            else "choose a mana card to return to hand ('choose CARD')"
        )
    elif state.phase == REVEAL:
        what = "reveal a card ('reveal CARD')"
    elif state.phase in (SELECT_ATTACKERS, SELECT_BLOCKERS, ASSIGN):
        what = state.phase.text.split(": ")[1]
    else:
        if state.stack:
            then = "the top of the stack resolves"
        else:
            then = "the step ends" if state.phase != MAIN else "the main phase ends"
        if state.passes:
            what = f"has priority (the other player has passed: a pass now and {then})"
        else:
            what = f"has priority (when both pass in succession, {then})"
    return f"Waiting on seat {actor}{you}: {what}"


def _status(state: ToraBatoState, seat: int | None) -> Panel:
    lines: list[str] = []
    if state.phase == REVEAL:
        n = min(len(state.reveals[0]), len(state.reveals[1]))
        lines.append(f"Deciding the first player (lower card goes first; A = 1, Joker = 0). Redeals: {state.redeals}")
        for s in (0, 1):
            shown = [NAMES[c] for c in state.reveals[s][:n]]
            if s == seat and len(state.reveals[s]) > n:
                shown.append(f"({NAMES[state.reveals[s][-1]]} face down)")
            elif len(state.reveals[s]) > n:
                shown.append("[?] face down")
            lines.append(f"seat {s} has shown: {' '.join(shown) or '-'}")
    else:
        who = f"you (seat {state.active})" if seat == state.active else f"seat {state.active}"
        lines.append(f"Turn {state.turn_no} — {who} to play — {state.phase.text} — first player: seat {state.first}")
        if state.turn_no <= 2 and state.reveals[0] and len(state.reveals[0]) == len(state.reveals[1]):
            pairs = ", ".join(f"{NAMES[a]} vs {NAMES[b]}" for a, b in zip(*state.reveals, strict=True))
            lines.append(f"(first-player reveal, seat 0 vs seat 1: {pairs})")
    if state.phase != OVER:
        lines.append(f"now: {state.phase.guide}")
    lines.append(waiting_on(state, seat))
    return Panel("Table", tuple(lines), key="table")


def _player(state: ToraBatoState, s: int, seat: int | None) -> list[Panel]:
    """A player's zones: hand, deck and mana; soldiers; discard pile."""
    name = f"You (seat {s})" if s == seat else f"Seat {s}"
    pool = f", +{state.pool[s]} this turn" if state.pool[s] else ""
    lines = [
        f"deck {len(state.deck[s])} · mana {state.available_mana(s)} available"
        f" ({_count(len(state.mana[s]), 'card')}, {state.tapped_mana[s]} tapped{pool})"
    ]
    if s == seat:
        hand = [f"{NAMES[c]}({state.game.spec[c].cost})" for c in sorted(state.hand[s])]
        lines.append(f"hand: {' '.join(hand) or '-'}")
        if state.mana[s]:
            lines.append(f"mana cards: {' '.join(NAMES[c] for c in sorted(state.mana[s]))}")
    else:
        lines.append(f"hand: {_count(len(state.hand[s]), 'card')} {'[?]' * len(state.hand[s])}".rstrip())
        if state.known[s]:
            in_hand, in_mana = state.known_in_hand(s), state.known_in_mana(s)
            unsure = [c for c in state.known[s] if c not in in_hand and c not in in_mana]
            for label, cards in (
                ("known in hand", in_hand),
                ("known among mana", in_mana),
                ("in hand or mana", unsure),
            ):
                if cards:
                    lines.append(f"{label}: {' '.join(NAMES[c] for c in cards)}")
    soldiers = [_soldier(state, c) for c in state.field[s]] or ["-"]
    discard = " ".join(NAMES[c] for c in state.discard[s]) or "-"
    return [
        Panel(f"{name} — hand, deck, mana", tuple(lines), seat=s, key=f"seat{s}"),
        Panel(f"{name} — soldiers", tuple(soldiers), seat=s, key=f"soldiers{s}"),
        Panel(f"{name} — discard pile ({len(state.discard[s])})", (discard,), seat=s, key=f"discard{s}"),
    ]


def _stack(state: ToraBatoState) -> Panel:
    lines = []
    for kind, card, ctrl, target in reversed(state.stack):
        what = ("cast", "ability of", "recursion of")[kind]
        t = "" if target == NO_TARGET else f" → {_target_name(state, target)}"
        zero = " (deals 0)" if state.flags[card] & ZEROED and kind == SPELL else ""
        lines.append(f"seat {ctrl}: {what} {NAMES[card]}{t}{zero}")
    return Panel("Stack (top first)", tuple(lines) or ("empty",), key="stack")


def board(state: ToraBatoState, seat: int | None) -> list[Panel]:
    """The table as ``seat`` sees it: the status (turn, step and what it expects), the opponent's zones, the stack,
    your zones (spectators: seat 0's, then seat 1's)."""
    order = [1 - seat, seat] if seat is not None else [0, 1]
    return [_status(state, seat), *_player(state, order[0], seat), _stack(state), *_player(state, order[1], seat)]


def render(state: ToraBatoState, seat: int | None) -> str:
    """The panels of :func:`board` as plain text: each title, then its lines indented."""
    lines: list[str] = []
    for panel in board(state, seat):
        lines.append(f"{panel.title}:")
        lines.extend(f"  {line}" for line in panel.lines)
    return "\n".join(lines)
