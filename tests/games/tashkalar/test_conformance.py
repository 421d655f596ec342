"""The conformance harness over many seeded random playouts, for every mode and player count."""

from typing import Any

import pytest

import cardarena
from cardarena.engine.harness import check_game


def test_conformance_150_seeds() -> None:
    report = check_game(cardarena.load("tashkalar"), range(150), deep_every=4)
    assert report.games == 150
    assert sum(report.results.values()) == 150


def test_conformance_with_resign_option() -> None:
    report = check_game(cardarena.load("tashkalar", resign=True), range(1000, 1010), deep_every=4)
    assert report.games == 10


@pytest.mark.parametrize(
    "options, seeds",
    [
        ({"mode": "highform"}, 100),
        ({"mode": "melee", "players": 3}, 60),
        ({"mode": "melee", "players": 4}, 50),
        ({"teams": True}, 60),
        ({"mode": "highform", "teams": True}, 60),
        ({"mode": "highform", "resign": True}, 10),
        ({"teams": True, "resign": True}, 10),
    ],
    ids=["highform", "melee-3", "melee-4", "teams-deathmatch", "teams-highform", "highform-resign", "teams-resign"],
)
def test_conformance_of_each_mode(options: dict[str, Any], seeds: int) -> None:
    game = cardarena.load("tashkalar", **options)
    report = check_game(game, range(2000, 2000 + seeds), deep_every=5)
    assert report.games == seeds
    # every result has one value per seat, and the games do not all end the same way
    assert all(len(k.split(",")) == game.num_players for k in report.results)
    if seeds >= 40:
        assert len(report.results) >= 2
