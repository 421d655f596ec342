"""The balance tool that tuned the forces: per-card scores of random builds."""

from __future__ import annotations

from cardarena.arena.balance import card_win_rates, mono_matrix

from .helpers import TABLE


def test_card_win_rates_cover_every_card() -> None:
    rates = card_win_rates(TABLE, battles=300, seed=4)
    assert sorted(r.card for r in rates) == sorted(c.id for c in TABLE.cards)
    assert all(0.0 <= r.score <= 1.0 and r.builds > 0 for r in rates)
    assert [r.score for r in rates] == sorted((r.score for r in rates), reverse=True)
    assert card_win_rates(TABLE, battles=300, seed=4) == rates  # seeded


def test_mono_builds_of_force_zero_cards_lose() -> None:
    """A column of only force-0 cards has 0 HP and loses every mono battle (Pierce's counterweight)."""
    scores = mono_matrix(TABLE)
    for c in TABLE.cards:
        if c.force == 0:
            assert scores[c.id] < 0.1
