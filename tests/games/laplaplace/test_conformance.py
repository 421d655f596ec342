"""The conformance harness over random builds and battles (all three build scenes)."""

from __future__ import annotations

from pathlib import Path

import cardarena
from cardarena.engine.harness import check_game

BUILDS = Path(cardarena.__file__).parent / "games" / "laplaplace" / "data" / "builds"


def test_conformance_blind_200_seeds() -> None:
    report = check_game(cardarena.load("laplaplace"), range(200), deep_every=2)
    assert report.games == 200
    assert len(report.results) == 3  # wins for either seat and draws all happen


def test_conformance_open_100_seeds() -> None:
    report = check_game(cardarena.load("laplaplace", build="open"), range(100), deep_every=3)
    assert report.games == 100 and report.decisions == 100 * 24


def test_conformance_league_and_fixed_builds() -> None:
    league = cardarena.load(
        "laplaplace", build="league", build0=str(BUILDS / "knight.toml"), build1=str(BUILDS / "mirror.toml")
    )
    assert check_game(league, range(5)).decisions == 0
    half = cardarena.load("laplaplace", build1=str(BUILDS / "trickster.toml"), identical="coin")
    assert check_game(half, range(30), deep_every=1).games == 30
