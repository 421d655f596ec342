"""Building positions for scenario tests: cards by id, dice chosen by the test."""

from __future__ import annotations

from typing import Any

import cardarena
from cardarena.games.dicebattle.cards import Tables
from cardarena.games.dicebattle.constants import NO_CARD, Phase
from cardarena.games.dicebattle.rules.battle import begin
from cardarena.games.dicebattle.state import DiceBattleState, Side

FILLER = "slime"


def new_state(deck0: str = "horde", deck1: str = "arcana", seed: int = 0, **options: Any) -> DiceBattleState:
    state = cardarena.load("dicebattle", deck0=deck0, deck1=deck1, **options).new_initial_state(seed)
    assert isinstance(state, DiceBattleState)
    return state


def tables(state: DiceBattleState) -> Tables:
    return state.game.tables


def cards(state: DiceBattleState, names: list[str]) -> list[int]:
    return [tables(state).by_id[n] for n in names]


def names(state: DiceBattleState, indices: list[int]) -> list[str]:
    return [tables(state).cards[c].id for c in indices]


def edit_side(state: DiceBattleState, seat: int, **fields: object) -> None:
    """Set fields of one seat's ``Side`` (a copy, put in place with ``State.edit``)."""
    sides = list(state.sides)
    side = sides[seat].copy()
    for name, value in fields.items():
        setattr(side, name, value)
    sides[seat] = side
    state.edit(sides=sides)


def arrange(
    state: DiceBattleState,
    *,
    first: int = 0,
    roll: int = 6,
    hands: tuple[list[str], list[str]] | None = None,
    decks: tuple[list[str], list[str]] | None = None,
    graves: tuple[list[str], list[str]] | None = None,
    stars: tuple[int, int] = (0, 0),
    miracle: tuple[bool, bool] = (True, True),
    revival: tuple[bool, bool] = (True, True),
) -> DiceBattleState:
    """Start ``first``'s dice phase with its die showing ``roll``. Decks are listed top card first."""
    sides: list[Side] = []
    for seat, old in enumerate(state.sides):
        side = old.copy()
        if hands is not None:
            side.hand = cards(state, hands[seat])
        if decks is not None:
            side.deck = list(reversed(cards(state, decks[seat])))
        if graves is not None:
            side.grave = cards(state, graves[seat])
        side.stars = stars[seat]
        side.miracle = miracle[seat]
        side.revival = revival[seat]
        side.known = []
        side.roll = roll if seat == first else 0
        sides.append(side)
    state.edit(sides=sides, first=first, log=(), phase=Phase.DICE, actor=first)
    return state


def set_roll(state: DiceBattleState, seat: int, roll: int) -> None:
    """Replace the die of ``seat`` (the test plays the die)."""
    edit_side(state, seat, roll=roll)


def act(state: DiceBattleState, *texts: str) -> None:
    for text in texts:
        state.apply_text(text)


def battle(
    state: DiceBattleState,
    *,
    first: int = 0,
    main: tuple[list[str], list[str]] = ([], []),
    circle: tuple[list[str], list[str]] = ([], []),
    grant: tuple[str | None, str | None] = (None, None),
    stock: tuple[list[str], list[str]] = ([], []),
    token: tuple[bool, bool] = (False, False),
    rolls: tuple[int, int] = (6, 6),
    **kw: Any,
) -> DiceBattleState:
    """Both players have set these cards; turn them face up and resolve up to the first decision."""
    arrange(state, first=first, roll=rolls[first], **kw)
    for seat in (0, 1):
        edit_side(
            state,
            seat,
            roll=rolls[seat],
            main=cards(state, main[seat]),
            circle=cards(state, circle[seat]),
            grant=tables(state).by_id[grant[seat]] if grant[seat] else NO_CARD,
            stock=cards(state, stock[seat]),
            token=token[seat],
        )
    state.edit(actor=1 - first)
    begin(state)
    state.edit()  # the legal actions are listed afresh
    return state


def last_battle(state: DiceBattleState) -> tuple[int, int, int]:
    """(level of seat 0, level of seat 1, winner or -1) of the last battle."""
    for e in reversed(state.events()):
        if e[0] == "battle":
            return e[1], e[2], e[3]
    raise AssertionError("no battle yet")


def fired(state: DiceBattleState) -> list[tuple[int, str]]:
    """(seat, card id) of every effect that took effect, in order."""
    return [(e[1], tables(state).cards[e[2]].id) for e in state.events() if e[0] == "effect"]


def legal(state: DiceBattleState) -> list[str]:
    return [str(a) for a in state.legal_actions()]
