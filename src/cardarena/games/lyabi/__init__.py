"""Lyabi (リャビ): a deck-building duel on the blue-green-red colour triangle."""

from .game import LyabiGame

GAME = LyabiGame

__all__ = ["GAME", "LyabiGame"]
