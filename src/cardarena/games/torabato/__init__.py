"""ToraBato (とらバト): a TCG-like duel played with playing cards (rulebook seeds/torabato.txt)."""

from .game import ToraBato
from .state import ToraBatoState

GAME = ToraBato

__all__ = ["GAME", "ToraBato", "ToraBatoState"]
