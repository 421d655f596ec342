"""The balance tool that tuned the forces: per-card scores of random builds (``cardarena.arena.balance``)."""

from __future__ import annotations

from collections.abc import Sequence

import cardarena
from cardarena.arena.balance import action_win_rates, line_matrix
from cardarena.engine import Action, Rng, State
from cardarena.games.laplaplace.constants import MAX_CARDS, Kind

from .helpers import TABLE


def full_builds(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    """Random 8-card builds: a random card each time, never ``done``."""
    adds = [a for a in legal if a[0] == Kind.ADD]
    return adds[rng.randbelow(len(adds))]


def test_card_win_rates_cover_every_card() -> None:
    game = cardarena.load("laplaplace")
    rates = action_win_rates(game, games=300, seed=4, policy=full_builds)
    assert sorted(r.action for r in rates) == sorted(f"add {c.id}" for c in TABLE.cards)
    assert all(0.0 <= r.score <= 1.0 and r.games > 0 for r in rates)
    assert [r.score for r in rates] == sorted((r.score for r in rates), reverse=True)
    assert action_win_rates(game, games=300, seed=4, policy=full_builds) == rates  # seeded


def test_mono_builds_of_force_zero_cards_lose() -> None:
    """A column of only force-0 cards has 0 HP and loses every mono battle (Pierce's counterweight)."""
    scores = line_matrix(cardarena.load("laplaplace"), {c.id: [f"add {c.id}"] * MAX_CARDS for c in TABLE.cards})
    for c in TABLE.cards:
        if c.force == 0:
            assert scores[c.id] < 0.1
