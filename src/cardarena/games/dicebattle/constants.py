"""Numbers and codes of the rules, shared by the rules modules."""

from __future__ import annotations

# Phases: who is waiting on what.
DICE, ORDER, CHOICE, REVIVE, OVER = 0, 1, 2, 3, 4
PHASE_NAMES = ("dice", "order", "choice", "revive", "over")

HAND_SIZE = 5  # デッキの上からカードを5枚引きます
MAX_REDRAWS = 3  # 引き直しは3回まで
DRAWS_LOSER, DRAWS_WINNER, DRAWS_TIE = 3, 2, 2  # ドローフェイズ
STARS_TO_WIN = 3
TOKEN_LEVEL = 1  # サイコロトークン (Lv1, no effect)

# Battle queue entries are tuples (level, owner, card, zone).
MAIN, CIRCLE, STOCK = 0, 1, 2
ZONE_NAMES = ("main", "circle", "stock")
Entry = tuple[int, int, int, int]
