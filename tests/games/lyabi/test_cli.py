"""The faces of the game: `cardarena rules lyabi` and a whole game of `cardarena play lyabi --vs random`."""

from __future__ import annotations

import json

from click.testing import CliRunner

import cardarena
from cardarena.cli.main import cli
from cardarena.cli.play import run_play


def test_rules_shows_summary_rulings_and_every_assumed_value() -> None:
    result = CliRunner().invoke(cli, ["rules", "lyabi"])
    assert result.exit_code == 0, result.output
    out = result.output
    for text in ("## Setup", "## Rulings", "Double-charge", "circle_replace", "max_turns", "(assumed)"):
        assert text in out
    game = cardarena.load("lyabi")
    for name in game.cards.r_names + game.cards.c_names:  # type: ignore[attr-defined]
        assert f"- {name}:" in out
    for item in ("crystal", "eye", "brush", "sword", "stone", "mirror", "orb", "herb"):
        assert f"`{item}`" in out
    assert "starting HP 20 (assumed)" in out


def test_a_person_can_play_to_the_end() -> None:
    """Always answering "1" (as `yes 1 | cardarena play lyabi --vs random --seed 3` does) finishes the game."""
    lines: list[str] = []
    state = run_play(
        cardarena.load("lyabi"),
        seat=0,
        opponent="random",
        seed=3,
        auto=True,
        record=None,
        ask=lambda prompt: "1",
        echo=lines.append,
    )
    assert state.is_terminal()
    text = "\n".join(lines)
    assert "Game over" in text
    assert "hand: " in text and "discard pile: " in text and "Waiting on: seat" in text
    assert "face down" in text  # the opponent's set is shown only as face down, its size hidden
    assert "seat 1 (random): set face down (revealed when both have set)" in text
    assert "card face down" not in text and "cards face down" not in text


def test_simulate_is_deterministic() -> None:
    runner = CliRunner()
    a = runner.invoke(cli, ["simulate", "lyabi", "-n", "30", "--seed", "5", "--json"])
    b = runner.invoke(cli, ["simulate", "lyabi", "-n", "30", "--seed", "5", "--json"])
    assert a.exit_code == 0 and a.output == b.output
    summary = json.loads(a.output)
    assert summary["errors"] == 0 and summary["games"] == 30


def test_bad_option_and_bad_file_are_clear_errors(tmp_path: object) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["rules", "lyabi", "--option", "cards=/nonexistent/cards.toml"])
    assert result.exit_code != 0 and "/nonexistent/cards.toml" in result.output
    result = runner.invoke(cli, ["rules", "lyabi", "--option", "circle_replace=maybe"])
    assert result.exit_code != 0 and "circle_replace" in result.output
