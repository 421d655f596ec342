"""Card involvement: which cards, abilities, items, tasks and rules a game's actions and events involve.

This is the raw material of the designer's balance report (``cardarena report``): how often a card is in a deck,
drawn, played or fired, and how its owner fares when it is. Each game says it through three hooks of
:class:`~cardarena.engine.game.Game`:

- :meth:`Game.involvement_catalogue`: everything the game declares that can be involved (every card of the card
  file in use, every ability or effect kind, item, task, flare, and the rules worth watching), as
  :class:`Declared` entries. The report's coverage lists each with the number of games in which it occurred.
- :meth:`Game.initial_involvement`: what the initial state already involves (the cards in each seat's deck or
  build, the opening hands drawn, a school chosen).
- :meth:`Game.involvement`: what one action, taken in ``before`` and leading to ``after``, involves: the cards
  of the action itself (a card played, bought, set, summoned) and every automatic event it set off (cards drawn,
  abilities fired, units destroyed, a rule applied).

The hooks are only called by whoever wants to know (the report's runner clones the state before each action and
asks afterwards); the rules never call them, so playing, searching and ``cardarena bench`` pay nothing for them.

An :class:`Involvement` is ``(seat, kind, name, verb)``: the seat whose card it is (``None`` for a rule or a
card that belongs to no seat), the kind and name of a :class:`Declared` entry, and a verb of :data:`VERBS`, each
of which belongs to one :class:`Stage` (in the deck, available, used, affected).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from .actions import Action
    from .game import State


class Stage(StrEnum):
    """How deeply an involvement touches a card; the report compares a seat's results across them."""

    INCLUDED = "included"  # in the seat's deck, build, school or supply at the start
    AVAILABLE = "available"  # in hand, on offer, affordable: the seat could have used it
    USED = "used"  # the seat played, bought, set, summoned, fired, completed it; a rule that applied
    AFFECTED = "affected"  # something happened to it: destroyed, discarded, milled, countered


#: Every verb a game may use, with its stage. A game needing a new verb adds it here (one vocabulary for all).
VERBS: dict[str, Stage] = {
    "in_deck": Stage.INCLUDED,
    "in_build": Stage.INCLUDED,
    "in_school": Stage.INCLUDED,
    "in_supply": Stage.INCLUDED,
    "drawn": Stage.AVAILABLE,
    "offered": Stage.AVAILABLE,
    "available": Stage.AVAILABLE,
    "played": Stage.USED,
    "bought": Stage.USED,
    "set": Stage.USED,
    "summoned": Stage.USED,
    "fired": Stage.USED,
    "activated": Stage.USED,
    "cast": Stage.USED,
    "attacked": Stage.USED,
    "blocked": Stage.USED,
    "placed": Stage.USED,
    "completed": Stage.USED,
    "applied": Stage.USED,
    "destroyed": Stage.AFFECTED,
    "downed": Stage.AFFECTED,
    "discarded": Stage.AFFECTED,
    "milled": Stage.AFFECTED,
    "countered": Stage.AFFECTED,
    "returned": Stage.AFFECTED,
    "removed": Stage.AFFECTED,
    "spent": Stage.AFFECTED,  # given up as a resource instead of its printed use (ToraBato: set as mana)
}


class Involvement(NamedTuple):
    """One card (ability, item, task, rule...) involved in an action or event, and how."""

    seat: int | None  # whose card it is; None for a rule or a card that belongs to no seat
    kind: str  # "card", "ability", "item", "task", "flare", "effect", "rule", ... (a Declared kind)
    name: str  # the Declared entry's name (a card id, an ability kind, a rule's key)
    verb: str  # a key of VERBS

    @property
    def stage(self) -> Stage:
        return VERBS[self.verb]


class Declared(NamedTuple):
    """Something a game declares that can be involved: the report's coverage lists every one of them."""

    kind: str
    name: str  # the key used in Involvement.name
    label: str  # what a designer calls it ("Fire Drake (card 12)", "§4.2 counterattack")


@dataclass(frozen=True)
class Setup:
    """What one game of the balance report is played with beyond the variant's options: the decks, builds or
    schools its players bring (:meth:`~cardarena.engine.game.Game.report_setup`).

    ``options`` are game options laid over the variant's for this one game (``deck0``, ``build1``,
    ``school0``...), as ``(name, value)`` pairs of plain values (they key the runner's cache of loaded games);
    ``seats`` says in a designer's words what each seat brought ("horde, goblin for imp"), one label per seat:
    the report shows it, controls for it in the card model and builds its matchup table from it. ``kind`` names
    what varies ("deck", "build", "school")."""

    options: tuple[tuple[str, Any], ...]
    seats: tuple[str, ...]
    kind: str = "deck"


def check_involvements(
    catalogue: Iterable[Declared], involvements: Iterable[Involvement], num_players: int
) -> str | None:
    """Why ``involvements`` do not fit ``catalogue`` (an undeclared entry, an unknown verb, a seat out of range),
    or ``None`` when they do. The conformance harness runs it over random games."""
    declared = {(d.kind, d.name) for d in catalogue}
    for inv in involvements:
        if inv.verb not in VERBS:
            return f"{inv}: unknown verb {inv.verb!r} (one of {', '.join(VERBS)})"
        if (inv.kind, inv.name) not in declared:
            return f"{inv}: ({inv.kind!r}, {inv.name!r}) is not in the game's involvement_catalogue()"
        if inv.seat is not None and not 0 <= inv.seat < num_players:
            return f"{inv}: seat {inv.seat} out of range for {num_players} players"
    return None


def apply_involving(state: State, action: Action | str) -> list[Involvement]:
    """Apply ``action`` (or its text) to ``state`` and return what the game says it involved, asked the way the
    balance report asks: with a clone of the state before the action and the state after it."""
    before = state.clone()
    if isinstance(action, str):
        action = state.game.parse_action(state, action)
    state.apply(action)
    return state.game.involvement(before, action, state)
