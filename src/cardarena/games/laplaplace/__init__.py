"""Laplaplace (ラプラプラス): build a column of 0-8 cards, then watch the automatic battle.

The package follows docs/DEVELOPING.md: ``game`` > ``render`` > ``state`` > ``views`` > ``rules/`` > ``actions`` >
``cards/`` > ``constants``, with the data files in ``data/``.
"""

from .game import LaplaplaceGame
from .state import LaplaplaceState

GAME = LaplaplaceGame

__all__ = ["GAME", "LaplaplaceGame", "LaplaplaceState"]
