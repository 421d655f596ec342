"""Build ToraBato positions for scenario tests by card name."""

from __future__ import annotations

from collections.abc import Iterable

import cardarena
from cardarena.games.torabato.cards import BY_NAME, CARDS_PER_SEAT, NAMES
from cardarena.games.torabato.constants import MAIN, Phase
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
    phase: Phase = MAIN,
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
    zones = {name: [ids(given[0]), ids(given[1])] for name, given in (("hand", hands), ("field", field))}
    zones["mana"] = [ids(mana[0]), ids(mana[1])]
    zones["discard"] = [ids(discard[0]), ids(discard[1])]
    deck = []
    for seat in (0, 1):
        used = set(zones["hand"][seat] + zones["field"][seat] + zones["mana"][seat] + zones["discard"][seat])
        given = decks[seat]
        if given is None:
            deck.append([c for c in range(seat * CARDS_PER_SEAT, (seat + 1) * CARDS_PER_SEAT) if c not in used])
        else:
            deck.append(ids(given))
    entered = [0] * len(state.entered)
    for n in new:
        entered[cid(n)] = turn_no
    state.edit(
        turn_no=turn_no,
        first=0,
        active=active,
        phase=phase,
        priority=active,
        passes=0,
        reveals=[[], []],
        known=[[], []],
        placements=[knowledge.NOTHING_KNOWN, knowledge.NOTHING_KNOWN],
        deck=deck,
        tapped_mana=[0, 0],
        pool=[0, 0],
        entered=entered,
        **zones,
    )
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
