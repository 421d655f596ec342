"""Building Lyabi positions for scenario tests: names in, a state in a chosen phase out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cardarena
from cardarena.games.lyabi.constants import ITEM_IDS, NO_ITEM
from cardarena.games.lyabi.game import LyabiGame
from cardarena.games.lyabi.rules import battle as battle_rules
from cardarena.games.lyabi.rules import turns
from cardarena.games.lyabi.state import LyabiState

GAME = cardarena.load("lyabi")
assert isinstance(GAME, LyabiGame)


def kinds(game: LyabiGame, names: Sequence[str]) -> list[int]:
    return [game.codec.kind_of[n] for n in names]


def position(
    *,
    game: LyabiGame = GAME,
    seed: int = 1,
    first: int = 0,
    hands: Sequence[Sequence[str]] | None = None,
    decks: Sequence[Sequence[str]] | None = None,
    discards: Sequence[Sequence[str]] | None = None,
    fields: Sequence[Sequence[str]] | None = None,
    items: Sequence[str | None] | None = None,
    hp: Sequence[int] | None = None,
) -> LyabiState:
    """A fresh state with the given zones (card names; decks are listed bottom to top, the last is drawn first)."""
    st = game.new_initial_state(seed)
    changes: dict[str, Any] = {"first": first, "order": (first, 1 - first)}
    if hands is not None:
        changes["hand"] = [kinds(game, h) for h in hands]
        changes["public_hand"] = [[], []]  # no card of a made-up hand is publicly known
    if decks is not None:
        changes["deck"] = [kinds(game, d) for d in decks]
    if discards is not None:
        changes["discard"] = [kinds(game, d) for d in discards]
    if fields is not None:
        changes["field"] = [[game.codec.circle_of[n] for n in f] for f in fields]
    if items is not None:
        changes["item"] = [NO_ITEM if name is None else ITEM_IDS.index(name) for name in items]
    if hp is not None:
        changes["hp"] = list(hp)
    st.edit(**changes)
    return st


def main_phase(st: LyabiState, seat: int) -> LyabiState:
    turns.start_main(st, seat)
    st.edit()  # the position was built by hand: clear the legal-action cache
    return st


def item_phase(st: LyabiState, seat: int) -> LyabiState:
    turns.start_item(st, seat)
    st.edit()
    return st


def battle(st: LyabiState) -> LyabiState:
    if battle_rules.start_battle(st):
        turns.end_phase(st)
    st.edit()
    return st


def new_turn(st: LyabiState) -> LyabiState:
    turns.begin_turn(st)
    st.edit()
    return st


def texts(st: LyabiState) -> list[str]:
    return [str(a) for a in st.legal_actions()]


def names(game: LyabiGame, ks: Sequence[int]) -> list[str]:
    return sorted(game.cards.r_names[k] for k in ks)


def play(st: LyabiState, *actions: str) -> LyabiState:
    for a in actions:
        st.apply_text(a)
    return st


def set_supply(st: LyabiState, counts: dict[str, int] | None = None, *, default: int | None = None) -> None:
    """Set supply counts (names not given keep their count, or take ``default``)."""
    c = st.game.cards
    supply = list(st.supply)
    for k, n in enumerate(c.r_names):
        if counts is not None and n in counts:
            supply[k] = counts[n]
        elif default is not None:
            supply[k] = default
    st.edit(supply=supply, supply_mask=sum(1 << k for k, n in enumerate(supply) if n))
