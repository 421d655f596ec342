"""The conformance harness (every protocol check, including the hidden-information leak test) over 200+ seeds."""

import cardarena
from cardarena.engine.harness import check_game


def test_conformance_200_seeds() -> None:
    report = check_game(cardarena.load("lyabi"), range(200), deep_every=4)
    assert report.games == 200
    assert sum(report.results.values()) == 200


def test_conformance_with_circle_replace() -> None:
    report = check_game(cardarena.load("lyabi", circle_replace=True), range(1000, 1030), deep_every=7)
    assert report.games == 30


def test_conformance_short_games_end_in_draws() -> None:
    report = check_game(cardarena.load("lyabi", max_turns=3), range(2000, 2020), deep_every=3)
    assert report.games == 20
    assert all(len(key.split(",")) == 2 for key in report.results)
