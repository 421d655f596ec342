"""Building Lyabi positions for scenario tests: names in, a state in a chosen phase out."""

from __future__ import annotations

from collections.abc import Sequence

import cardarena
from cardarena.games.lyabi.data import ITEM_IDS
from cardarena.games.lyabi.game import LyabiGame
from cardarena.games.lyabi.state import NO_ITEM, LyabiState

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
    st.first = first
    st.order = (first, 1 - first)
    for s in (0, 1):
        if hands is not None:
            st.hand[s] = kinds(game, hands[s])
            st.public_hand[s] = []  # no card of a made-up hand is publicly known
        if decks is not None:
            st.deck[s] = kinds(game, decks[s])
        if discards is not None:
            st.discard[s] = kinds(game, discards[s])
        if fields is not None:
            st.field[s] = [game.codec.circle_of[n] for n in fields[s]]
        if items is not None:
            name = items[s]
            st.item[s] = NO_ITEM if name is None else ITEM_IDS.index(name)
        if hp is not None:
            st.hp[s] = hp[s]
    st._legal = None
    return st


def main_phase(st: LyabiState, seat: int) -> LyabiState:
    st._start_main(seat)
    st._legal = None
    return st


def item_phase(st: LyabiState, seat: int) -> LyabiState:
    st._start_item(seat)
    st._legal = None
    return st


def battle(st: LyabiState) -> LyabiState:
    st._start_battle()
    st._legal = None
    return st


def new_turn(st: LyabiState) -> LyabiState:
    st._begin_turn()
    st._legal = None
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
    for k, n in enumerate(c.r_names):
        if counts is not None and n in counts:
            st.supply[k] = counts[n]
        elif default is not None:
            st.supply[k] = default
    st.supply_mask = sum(1 << k for k, n in enumerate(st.supply) if n)
    st._legal = None
