"""Dice Battle Monsters (ダイスバトルモンスターズ): a dice TCG, first to three stars."""

from .game import DiceBattleGame

GAME = DiceBattleGame

__all__ = ["GAME", "DiceBattleGame"]
