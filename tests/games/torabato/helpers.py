"""Build ToraBato positions for scenario tests by card name."""

from __future__ import annotations

from collections.abc import Iterable

import cardarena
from cardarena.games.torabato.cards import BY_NAME, CARDS_PER_SEAT, NAMES
from cardarena.games.torabato.constants import MAIN
from cardarena.games.torabato.rules import knowledge
from cardarena.games.torabato.state import ToraBatoState


def cid(name: str) -> int:
    return BY_NAME[name.upper()]


def ids(names: Iterable[str]) -> list[int]:
    return [cid(n) for n in names]


def names(cards: Iterable[int]) -> list[str]:
    return [NAMES[c] for c in cards]


def position(
    *,
    active: int = 0,
    hands: tuple[list[str], list[str]] = ([], []),
    field: tuple[list[str], list[str]] = ([], []),
    mana: tuple[list[str], list[str]] = ([], []),
    discard: tuple[list[str], list[str]] = ([], []),
    decks: tuple[list[str] | None, list[str] | None] = (None, None),
    new: Iterable[str] = (),
    turn_no: int = 5,
    phase: int = MAIN,
    max_turns: int = 200,
    cards: str | None = None,
    recovery_priority: bool = False,
    lasting_boosts: bool | None = None,
) -> ToraBatoState:
    """A position in ``active``'s main phase with priority, nothing tapped, no damage.

    Decks default to every card of the seat not placed elsewhere (sorted, so the *last* listed is on top).
    Soldiers in ``new`` entered this turn (summoning sickness).
    """
    options: dict[str, object] = {"max_turns": max_turns, "cards": cards, "recovery_priority": recovery_priority}
    if lasting_boosts is not None:  # otherwise the game's default reading
        options["lasting_boosts"] = lasting_boosts
    game = cardarena.load("torabato", **options)
    state = game.new_initial_state(0)
    state.turn_no = turn_no
    state.first = 0
    state.active = active
    state.phase = phase
    state.priority = active
    state.passes = 0
    state.reveals = [[], []]
    state.known = [[], []]
    state.placements = [knowledge.NOTHING_KNOWN, knowledge.NOTHING_KNOWN]
    for seat in (0, 1):
        state.hand[seat] = ids(hands[seat])
        state.field[seat] = ids(field[seat])
        state.mana[seat] = ids(mana[seat])
        state.discard[seat] = ids(discard[seat])
        used = set(state.hand[seat] + state.field[seat] + state.mana[seat] + state.discard[seat])
        given = decks[seat]
        if given is None:
            state.deck[seat] = [c for c in range(seat * CARDS_PER_SEAT, (seat + 1) * CARDS_PER_SEAT) if c not in used]
        else:
            state.deck[seat] = ids(given)
        state.tapped_mana[seat] = 0
        state.pool[seat] = 0
    state.entered = [0] * len(state.entered)
    for n in new:
        state.entered[cid(n)] = turn_no
    state._legal = None
    return state


def texts(state: ToraBatoState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def do(state: ToraBatoState, *actions: str) -> ToraBatoState:
    """Apply action texts in order."""
    for text in actions:
        state.apply_text(text)
    return state


def pass_until(state: ToraBatoState, predicate: object, limit: int = 50) -> ToraBatoState:
    """Pass priority until ``predicate(state)`` holds."""
    assert callable(predicate)
    for _ in range(limit):
        if predicate(state):
            return state
        state.apply_text("pass")
    raise AssertionError("condition not reached by passing")
