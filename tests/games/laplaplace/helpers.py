"""Helpers for Laplaplace scenario tests: battles from card ids, forces read from the data file."""

from __future__ import annotations

from cardarena.engine import Rng
from cardarena.games.laplaplace.cards import CardDef, load_cards
from cardarena.games.laplaplace.rules import Battle, Unit

TABLE = load_cards()


def card(card_id: str) -> CardDef:
    found = TABLE.find(card_id)
    assert found is not None, card_id
    return found


def force(*ids: str) -> int:
    """Total force of the cards ``ids`` (the base HP of that column)."""
    return sum(card(i).force for i in ids)


def battle(top0: list[str], top1: list[str], *, seed: int = 0, **kwargs: object) -> Battle:
    """A battle between two columns given by card ids, top first, with a log."""
    return Battle([[card(i) for i in top0], [card(i) for i in top1]], Rng(seed), log=[], **kwargs)  # type: ignore[arg-type]


def ready(top0: list[str], top1: list[str], *, first: int = 0, hp: tuple[int, int] | None = None) -> Battle:
    """A battle after the reveal, in turn 1, with ``first`` as the first player and optional HP values."""
    b = battle(top0, top1)
    b.reveal()
    b.turn = 1
    b.first = first
    b.last_first = first
    if hp is not None:
        b.hp = list(hp)
    return b


def ids(b: Battle, side: int) -> list[str]:
    return [u.card.id for u in b.cols[side]]


def ups(b: Battle, side: int) -> list[bool]:
    return [u.up for u in b.cols[side]]


def unit(b: Battle, side: int, index: int) -> Unit:
    return b.cols[side][index]
