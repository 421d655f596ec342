"""ToraBato (とらバト): a TCG-like duel played with playing cards (rulebook seeds/torabato.txt)."""

from .game import ToraBatoGame
from .state import ToraBatoState

GAME = ToraBatoGame

__all__ = ["GAME", "ToraBatoGame", "ToraBatoState"]
