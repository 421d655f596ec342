"""Tash-Kalar arena: summon beings by matching patterns of your pieces on a 69-square board (deathmatch duel)."""

from .game import TashKalarGame

GAME = TashKalarGame

__all__ = ["GAME", "TashKalarGame"]
