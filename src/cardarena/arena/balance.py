"""Card balance statistics from random battles (how the forces in ``cards.toml`` were tuned).

``card_win_rates`` battles random 8-card builds against each other and reports, for each card, the score
(win 1, draw 1/2, loss 0) of the builds that contain it. A card far above 50 % is too strong for its force.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardarena.engine import Rng, derive_seed

from ..games.laplaplace.cards.table import CardDef, CardTable
from ..games.laplaplace.rules.battle import Battle


@dataclass(frozen=True)
class CardRate:
    card: str
    force: int
    builds: int
    score: float


def card_win_rates(table: CardTable, *, battles: int = 4000, seed: int = 0, size: int = 8) -> list[CardRate]:
    """Per-card score of random ``size``-card builds over ``battles`` battles, best first."""
    cards = table.cards
    n = len(cards)
    rng = Rng(derive_seed(seed, 0xBA1))
    points = [0.0] * n
    seen = [0] * n
    for k in range(battles):
        builds: list[list[CardDef]] = [[cards[rng.randbelow(n)] for _ in range(size)] for _ in (0, 1)]
        out = Battle(builds, Rng(derive_seed(seed, k))).run()
        for s in (0, 1):
            score = 0.5 if out.winner is None else (1.0 if out.winner == s else 0.0)
            for i in {c.index for c in builds[s]}:
                points[i] += score
                seen[i] += 1
    rates = [
        CardRate(c.id, c.force, seen[c.index], points[c.index] / seen[c.index] if seen[c.index] else 0.0) for c in cards
    ]
    return sorted(rates, key=lambda r: -r.score)


def mono_matrix(table: CardTable, *, size: int = 8) -> dict[str, float]:
    """Each "8 copies of one card" build against every other one: its share of points (1, 1/2, 0)."""
    cards = table.cards
    out: dict[str, float] = {}
    for a in cards:
        pts = 0.0
        for b in cards:
            if a is b:
                continue
            for seats in ((a, b), (b, a)):
                res = Battle([[seats[0]] * size, [seats[1]] * size], Rng(0)).run()
                me = 0 if seats[0] is a else 1
                pts += 0.5 if res.winner is None else (1.0 if res.winner == me else 0.0)
        out[a.id] = pts / (2 * (len(cards) - 1))
    return out
