"""Laplaplace (ラプラプラス): build a column of 0-8 cards, then watch the automatic battle."""

from .game import Laplaplace, LapState

GAME = Laplaplace

__all__ = ["GAME", "LapState", "Laplaplace"]
