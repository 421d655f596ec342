"""The mail-in league (参加者は、構成に必要な情報を添えて主催者にメールします), run by ``cardarena.arena.league``, and
its command."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import cardarena
from cardarena.arena.league import run_league
from cardarena.cli.laplaplace_cmd import laplaplace_group
from cardarena.engine import CardDataError

BUILDS = Path(cardarena.__file__).parent / "games" / "laplaplace" / "data" / "builds"


def test_league_every_pair_both_seat_orders(tmp_path: Path) -> None:
    n = len(list(BUILDS.glob("*.toml")))
    assert n >= 8
    result = run_league("laplaplace", BUILDS, csv_path=tmp_path / "s.csv")
    assert len(result.matches) == n * (n - 1)
    assert {(m.seat0, m.seat1) for m in result.matches} == {
        (a.build, b.build) for a in result.standings for b in result.standings if a is not b
    }
    for row in result.standings:
        assert row.played == 2 * (n - 1) == row.wins + row.draws + row.losses
    points = [r.points for r in result.standings]
    assert points == sorted(points, reverse=True)
    assert sum(r.wins for r in result.standings) == sum(m.winner is not None for m in result.matches)
    rows = list(csv.DictReader((tmp_path / "s.csv").open(encoding="utf-8")))
    assert [r["build"] for r in rows] == [r.build for r in result.standings]
    assert rows[0]["rank"] == "1" and int(rows[0]["points"]) == result.standings[0].points


def test_league_is_reproducible() -> None:
    a = run_league("laplaplace", BUILDS, seed=3)
    b = run_league("laplaplace", BUILDS, seed=3)
    assert [(r.build, r.points) for r in a.standings] == [(r.build, r.points) for r in b.standings]


def test_league_matches_the_game(tmp_path: Path) -> None:
    """A league battle is the same battle as the game's league scene."""
    result = run_league("laplaplace", BUILDS)
    m = next(m for m in result.matches if m.seat0 == "Knight" and m.seat1 == "Judge")
    s = cardarena.load(
        "laplaplace", build="league", build0=str(BUILDS / "knight.toml"), build1=str(BUILDS / "judge.toml")
    ).new_initial_state(0)
    assert s.turn == m.turns
    assert s.returns() == ([0.0, 0.0] if m.winner is None else ([1.0, -1.0] if m.winner == 0 else [-1.0, 1.0]))


def test_league_errors(tmp_path: Path) -> None:
    with pytest.raises(CardDataError, match="at least 2"):
        run_league("laplaplace", tmp_path)
    shutil.copy(BUILDS / "knight.toml", tmp_path / "a.toml")
    shutil.copy(BUILDS / "knight.toml", tmp_path / "b.toml")
    with pytest.raises(CardDataError, match="also used"):
        run_league("laplaplace", tmp_path)
    (tmp_path / "b.toml").write_text('cards = ["laser"]\n', encoding="utf-8")
    with pytest.raises(CardDataError, match="laser"):
        run_league("laplaplace", tmp_path)


def test_league_command(tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    shutil.copytree(BUILDS, folder)
    runner = CliRunner()
    res = runner.invoke(laplaplace_group, ["league", str(folder), "--matches"])
    assert res.exit_code == 0, res.output
    assert "Laplaplace league:" in res.output and "Knight vs Judge:" in res.output
    assert (folder / "standings.csv").exists()
    res = runner.invoke(laplaplace_group, ["league", str(folder), "--csv", str(tmp_path / "x.csv")])
    assert res.exit_code == 0 and (tmp_path / "x.csv").exists()
    (folder / "bad.toml").write_text("cards = [\n", encoding="utf-8")
    res = runner.invoke(laplaplace_group, ["league", str(folder)])
    assert res.exit_code == 2 and "not valid TOML" in res.output
