"""Helpers for the usual card zones. A deck is a list whose *end* is its top, so drawing is ``pop()``."""

from __future__ import annotations

from typing import TypeVar

from .rng import Rng

T = TypeVar("T")


def draw(deck: list[T], hand: list[T], n: int = 1) -> int:
    """Move up to ``n`` cards from the top of ``deck`` to ``hand``; returns how many moved."""
    moved = min(n, len(deck))
    for _ in range(moved):
        hand.append(deck.pop())
    return moved


def mill(deck: list[T], pile: list[T], n: int) -> int:
    """Move up to ``n`` cards from the top of ``deck`` onto ``pile``; returns how many moved."""
    return draw(deck, pile, n)


def shuffle_into(source: list[T], deck: list[T], rng: Rng) -> None:
    """Put every card of ``source`` into ``deck`` and shuffle ``deck``; ``source`` is emptied."""
    deck.extend(source)
    source.clear()
    rng.shuffle(deck)


def remove_one(zone: list[T], card: T) -> None:
    """Remove one copy of ``card`` from ``zone`` (``ValueError`` if absent)."""
    zone.remove(card)
