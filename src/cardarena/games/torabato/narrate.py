"""What a seat learns when an action is taken: the action as it sees it, then one line for every outcome.

Outcomes are read from the two positions, ``before`` and ``after``, and told only as far as the seat may see them:
a stack item resolving (and what it did), combat (who fights whom, damage, unblocked damage milling the deck),
soldiers taking damage, dying or being destroyed, boosts and "this turn" effects, mana gained, cards milled, drawn
(named for the seat's own draws only), taken back from the discard pile or from the mana, the first-player reveal,
a new turn, a new phase or attack step, and the end of the game with its reason.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...engine import Action
from .cards import NAMES, OWNER_OF
from .constants import (
    ABILITY,
    ASSIGN,
    ASSIGN_K,
    CHOOSE_K,
    DAMAGE,
    MANA_K,
    OVER,
    PASS_K,
    RECURSION,
    RETURN_MANA,
    REVEAL,
    REVEAL_K,
    SELECT_ATTACKERS,
    SELECT_BLOCKERS,
    SPELL,
    TAPPED_THIS_TURN,
    UNBLOCKABLE_FLAG,
    ZEROED,
    Effect,
)
from .render import describe, effect_words
from .rules.combat import blockers_of, power

if TYPE_CHECKING:
    from .state import ToraBatoState


def _who(s: int, seat: int | None) -> str:
    return "you" if s == seat else f"seat {s}"


def _whose(s: int, seat: int | None) -> str:
    return "your" if s == seat else f"seat {s}'s"


def seen_by(state: ToraBatoState, action: Action, seat: int | None) -> str:
    """The action as ``seat`` sees it: mana is set face down, a reveal is hidden until both are made, and the
    card 9 takes back is one of the mana cards."""
    actor = state.current_player
    if actor != seat:
        kind = action[0]
        if kind == MANA_K:
            return "sets a card face down as mana"
        if kind == REVEAL_K:
            return "puts a card face down for the first-player reveal"
        if kind == CHOOSE_K and state.pending is not None and state.pending[0] == RETURN_MANA:
            return "takes one of their mana cards back into their hand"
    return describe(state, action)


def narrate(before: ToraBatoState, action: Action, after: ToraBatoState, seat: int | None) -> list[str]:
    """The action as ``seat`` sees it (line 0), then one line per outcome it caused."""
    lines = [seen_by(before, action, seat)]
    kind = action[0]
    if kind == REVEAL_K and before.phase == REVEAL and before.current_player == 1:
        lines.extend(_reveal(before, after, seat))
        if after.phase == REVEAL:  # a tie or a redeal: no zone moves worth telling besides the new hands
            return lines
    if kind == PASS_K and len(after.stack) < len(before.stack):
        lines.append(_resolution(before, after, seat))
    if _combat_happened(before, action, after):
        lines.extend(_combat(before, action))
    elif before.attackers and not after.attackers and after.phase != OVER:
        lines.append("the attack ends: none of its attackers is left on the field")
    lines.extend(_soldiers(before, after, seat))
    new_turn = after.turn_no != before.turn_no and after.phase != OVER
    moves = _moves(before, after, seat, chosen=kind == CHOOSE_K)
    if new_turn:
        a = after.active
        lines.append(
            f"turn {after.turn_no}: {_whose(a, seat)} turn begins — {_whose(a, seat)} mana and soldiers untap,"
            " every soldier heals"
        )
    lines.extend(moves)
    if after.phase != before.phase and after.phase != OVER:
        lines.append(_phase_line(after, seat))
    if after.phase == OVER:
        lines.append(_game_over(after, seat))
    return lines


def _reveal(before: ToraBatoState, after: ToraBatoState, seat: int | None) -> list[str]:
    """Seat 1's reveal shows both cards: who goes first, or a tie."""
    if not after.reveals[1]:  # every card tied: the reveals were cleared for the redeal
        return [
            "every card tied in the first-player reveal: hands go back, decks are shuffled and 5 new cards dealt"
            f" (redeal {after.redeals})"
        ]
    a, b = after.reveals[0][-1], after.reveals[1][-1]
    lines = [f"the first-player reveal: seat 0 shows {NAMES[a]}, seat 1 shows {NAMES[b]}"]
    if after.phase == REVEAL:
        lines.append("a tie: each player reveals another card")
    else:
        lines.append(f"{_who(after.first, seat)} {'go' if after.first == seat else 'goes'} first")
    return lines


def _item_words(st: ToraBatoState, item: tuple[int, int, int, int]) -> str:
    source, card, _, target = item
    if source == SPELL:
        return f"{NAMES[card]} ({effect_words(st, card, target)})"
    if source == ABILITY:
        return f"{NAMES[card]}'s ability"
    return f"recursion of {NAMES[card]} (back to hand)"


def _resolution(before: ToraBatoState, after: ToraBatoState, seat: int | None) -> str:
    """Both players passed: the top of the stack resolves. Says so, and when it did nothing, why."""
    item = before.stack[-1]
    source, card, ctrl, target = item
    line = f"both passed: {_whose(ctrl, seat)} {_item_words(before, item)} resolves"
    effect = before.game.spec[card].effect if source == SPELL else None
    gone = target >= 0 and target not in before.field[OWNER_OF[target]]
    if gone and not any(it[1] == target for it in before.stack[:-1]):
        return line + f": it does nothing, {NAMES[target]} has left"
    if source == SPELL and before.flags[card] & ZEROED and effect == Effect.DAMAGE:
        return line + ": it deals 0 damage (7)"
    if source == RECURSION and card not in before.discard[ctrl]:
        return line + f": it does nothing, {NAMES[card]} has left the discard pile"
    return line


def _combat_happened(before: ToraBatoState, action: Action, after: ToraBatoState) -> bool:
    """Combat damage was dealt by this action: the last pass of the damage step, or the last point divided."""
    if not before.attackers or after.attackers:
        return False
    if before.phase == ASSIGN:
        return True
    return before.phase == DAMAGE and action[0] == PASS_K and not before.stack and before.passes == 1


def _combat(before: ToraBatoState, action: Action) -> list[str]:
    """Who fought whom and the damage each dealt (the deaths and the milling follow as their own lines)."""
    st = before
    assigned = list(st.assigned)
    if action[0] == ASSIGN_K:
        assigned.append((action[1], action[2]))
    defender = 1 - st.active
    lines = []
    alive = st.field[0] + st.field[1]
    for a in st.attackers:
        if a not in alive:
            continue
        pw = power(st, a)
        blockers = blockers_of(st, a)
        if not blockers:
            lines.append(f"combat: {NAMES[a]} is unblocked and deals {pw} damage to seat {defender} (mills {pw})")
            continue
        living = [b for b in blockers if b in alive]
        if not living:
            lines.append(f"combat: {NAMES[a]} was blocked, and its blockers are gone: it deals no damage")
            continue
        if len(living) == 1:
            dealt = f"{NAMES[a]} deals {pw} to {NAMES[living[0]]}"
        else:
            parts = [f"{sum(1 for x, y in assigned if x == a and y == b)} to {NAMES[b]}" for b in living]
            dealt = f"{NAMES[a]} deals {', '.join(parts)}"
        back = ", ".join(f"{NAMES[b]} deals {power(st, b)} to {NAMES[a]}" for b in living)
        lines.append(f"combat: {NAMES[a]} fights {' and '.join(NAMES[b] for b in living)}: {dealt}; {back}")
    return lines


def _soldiers(before: ToraBatoState, after: ToraBatoState, seat: int | None) -> list[str]:
    """Damage, deaths, boosts and "this turn" effects of the soldiers (and of a spell made to deal 0)."""
    lines = []
    destroyed_by_effect = False
    if len(after.stack) < len(before.stack):
        source, card, _, _ = before.stack[-1]
        effect = before.game.spec[card].effect if source == SPELL else None
        destroyed_by_effect = effect in (Effect.DESTROY, Effect.DESTROY_ALL)
    for s in (0, 1):
        for c in before.field[s]:
            if c not in after.field[s]:
                if destroyed_by_effect:
                    lines.append(f"{NAMES[c]} ({_whose(s, seat)} soldier) is destroyed and goes to the discard pile")
                else:
                    lines.append(f"{NAMES[c]} ({_whose(s, seat)} soldier) dies and goes to the discard pile")
        for c in after.field[s]:
            new = c not in before.field[s]
            got = after.damage[c] - (0 if new else before.damage[c])
            if got > 0:
                lines.append(f"{NAMES[c]} takes {got} damage ({after.damage[c]} of {after.health_of(c)} health)")
            if not new and after.turn_no == before.turn_no:
                da = after.atk_boost[c] - before.atk_boost[c]
                dh = after.hp_boost[c] - before.hp_boost[c]
                if da > 0 or dh > 0:
                    lines.append(
                        f"{NAMES[c]} gets +{da}/+{dh} this turn (now {after.attack_of(c)}/{after.health_of(c)})"
                    )
            flags = after.flags[c] & ~(0 if new else before.flags[c])
            if flags & ZEROED:
                lines.append(f"{NAMES[c]} deals 0 damage this turn")
            if flags & UNBLOCKABLE_FLAG:
                lines.append(f"{NAMES[c]} cannot be blocked this turn")
            if flags & TAPPED_THIS_TURN:
                lines.append(f"{NAMES[c]} is tapped for this turn")
    for _, c, _, _ in after.stack:
        if after.flags[c] & ZEROED and not before.flags[c] & ZEROED:
            lines.append(f"{NAMES[c]} on the stack will deal 0 damage")
    return lines


def _moves(before: ToraBatoState, after: ToraBatoState, seat: int | None, *, chosen: bool) -> list[str]:
    """Cards that moved between a player's deck, hand, mana and discard pile, as far as the seat may see them
    (``chosen``: the action was the choice of the card, which its own line already tells)."""
    lines = []
    for s in (0, 1):
        if after.pool[s] > before.pool[s]:
            lines.append(
                f"{_who(s, seat)} {'gain' if s == seat else 'gains'} {after.pool[s] - before.pool[s]} mana this turn"
            )
        deck = set(before.deck[s])
        milled = [c for c in after.discard[s] if c in deck]
        if milled:
            lines.append(
                f"{len(milled)} card{'s' if len(milled) > 1 else ''} milled from {_whose(s, seat)} deck to the"
                f" discard pile: {' '.join(NAMES[c] for c in milled)} ({len(after.deck[s])} left)"
            )
        old_hand = set(before.hand[s])
        # in card order: the order of a hand's list is no part of what the seat sees (a world resampled for it may
        # hold the same hand in another order), so the narration must not depend on it
        drawn = sorted(c for c in after.hand[s] if c in deck and c not in old_hand)
        if drawn:
            if s == seat:
                lines.append(f"you draw {' '.join(NAMES[c] for c in drawn)}")
            else:
                n = len(drawn)
                lines.append(f"seat {s} draws {n} card{'s' if n > 1 else ''}")
        elif s == after.active and after.turn_no != before.turn_no and before.turn_no and not before.deck[s]:
            lines.append(f"{_who(s, seat)} cannot draw: the deck is empty")
        discard = set(before.discard[s])
        back = [c for c in after.hand[s] if c in discard and c not in old_hand]
        if back:
            lines.append(
                f"{' '.join(NAMES[c] for c in back)} {'goes' if len(back) == 1 else 'go'} back from"
                f" {_whose(s, seat)} discard pile to {'your' if s == seat else 'their'} hand"
            )
        mana = set(before.mana[s])
        unmana = [c for c in after.hand[s] if c in mana and c not in old_hand]
        if unmana:
            if s == seat:
                lines.append(f"you take {' '.join(NAMES[c] for c in unmana)} back from your mana into your hand")
            elif not chosen:
                lines.append(f"seat {s} takes one of their mana cards back into their hand")
    return lines


def _plain(guide: str) -> str:
    """A step's guide without the terminal's command syntax: the story is read in the browser too.

    >>> _plain("the defender blocks ('block BLOCKER ATTACKER'), one attacker per blocker, then 'done'")
    'the defender blocks, one attacker per blocker, then done'
    """
    return re.sub(r" \('[^']*'\)", "", guide).replace("'done'", "done")


def _phase_line(after: ToraBatoState, seat: int | None) -> str:
    actor = after.current_player
    assert actor is not None
    if after.phase in (SELECT_ATTACKERS, SELECT_BLOCKERS, ASSIGN):
        return f"now: {after.phase.text} — {_who(actor, seat)} ({_plain(after.phase.guide)})"
    return f"now: {after.phase.text} of {_whose(after.active, seat)} turn"


def _game_over(after: ToraBatoState, seat: int | None) -> str:
    result = after.returns()
    if result[0] == result[1]:
        outcome = "a draw"
    else:
        winner = 0 if result[0] > result[1] else 1
        outcome = "you win" if winner == seat else f"seat {winner} wins"
    return f"game over: {after.end_reason} — {outcome}"
