"""The conformance harness on ToraBato over 200 seeds (DESIGN.md, Tests)."""

from __future__ import annotations

import cardarena
from cardarena.engine.harness import check_game


def test_harness_200_seeds() -> None:
    report = check_game(cardarena.load("torabato"), range(200), deep_every=9)
    assert report.games == 200
    # Random play ends both ways and sometimes in a draw; no game reaches the turn cap.
    assert {"1,-1", "-1,1"} <= set(report.results)


def test_harness_with_a_short_turn_cap() -> None:
    report = check_game(cardarena.load("torabato", max_turns=6), range(20), deep_every=3)
    assert report.results == {"0,0": 20}


def test_harness_with_the_other_readings() -> None:
    """The options recovery_priority and lasting_boosts (rules.md rulings 2 and 7)."""
    game = cardarena.load("torabato", recovery_priority=True, lasting_boosts=False)
    assert check_game(game, range(20), deep_every=5).games == 20
