"""The conformance harness over many seeded random playouts of the deathmatch duel."""

import cardarena
from cardarena.engine.harness import check_game


def test_conformance_150_seeds() -> None:
    report = check_game(cardarena.load("tashkalar"), range(150), deep_every=4)
    assert report.games == 150
    assert sum(report.results.values()) == 150


def test_conformance_with_resign_option() -> None:
    report = check_game(cardarena.load("tashkalar", resign=True), range(1000, 1010), deep_every=4)
    assert report.games == 10
