"""Numbers and codes of the rules, shared by the rules modules."""

from __future__ import annotations

from typing import Any

# Phases: who is waiting on what. PENALTY: the opponent of a player whose deck ran out decides on the penalty
# draw, in the middle of whatever emptied the deck (the rest waits as frames, see ``Frame``). RESOLVING is never
# seen from outside: the rules are carrying out those frames after the decision.
DICE, ORDER, CHOICE, REVIVE, OVER, PENALTY, RESOLVING = 0, 1, 2, 3, 4, 5, 6
PHASE_NAMES = ("dice", "order", "choice", "revive", "over", "penalty", "resolving")

HAND_SIZE = 5  # デッキの上からカードを5枚引きます
MAX_REDRAWS = 3  # 引き直しは3回まで
DRAWS_LOSER, DRAWS_WINNER, DRAWS_TIE = 3, 2, 2  # ドローフェイズ
STARS_TO_WIN = 3
TOKEN_LEVEL = 1  # サイコロトークン (Lv1, no effect)

# Battle queue entries are tuples (level, owner, card, zone).
MAIN, CIRCLE, STOCK = 0, 1, 2
ZONE_NAMES = ("main", "circle", "stock")
Entry = tuple[int, int, int, int]

# Work interrupted by a penalty decision, carried out in order once it is taken (innermost first):
#   ("draw", seat, n)      seat draws n more cards
#   ("mill", seat, n)      n more cards go from seat's deck to its graveyard
#   ("ops", entry, k)      the effect of ``entry`` goes on from its operation k
#   ("advance",)           the battle goes on with the next effect in the queue
#   ("draw_phase", k)      the draw phase goes on with the k-th player of the round (0: first, 1: second)
#   ("dice", seat)         seat's dice phase goes on (after a redraw)
Frame = tuple[Any, ...]
