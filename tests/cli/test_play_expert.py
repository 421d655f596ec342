"""``cardarena play GAME --vs expert``: a person plays a whole short game against the expert in every game, and the
strength labels of the browser (``--vs hard``) work in the terminal too (issue 31, done criteria and point 4).

The person types ``1`` at every prompt (the first choice); the expert searches 8 iterations a decision so that each
game takes about a second. Where a trained model ships for the game (``agents/models/KEY.npz``), the command says
the expert plays with it, so a model that no longer loads or fits the game's encoding fails here.
"""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner

import cardarena
from cardarena.agents.expert import model_for, model_path
from cardarena.agents.levels import level_spec
from cardarena.cli.main import cli

SETUPS: list[tuple[str, dict[str, Any]]] = [(g, {}) for g in cardarena.games()] + [
    ("tashkalar", {"mode": "highform"}),
    ("tashkalar", {"mode": "melee", "players": 4}),
]


def _option_args(options: dict[str, Any]) -> list[str]:
    return [w for k, v in options.items() for w in ("-o", f"{k}={v}")]


@pytest.mark.parametrize(
    ("game_id", "options"), SETUPS, ids=[g + "".join(f"-{v}" for v in o.values()) for g, o in SETUPS]
)
def test_a_whole_game_against_the_expert_with_typed_input(game_id: str, options: dict[str, Any]) -> None:
    args = ["play", game_id, *_option_args(options), "--vs", "expert:iterations=8", "--seed", "5"]
    result = CliRunner().invoke(cli, args, input="1\n" * 3000)
    assert result.exit_code == 0, result.output[-3000:]
    out = result.output
    assert "Game over after" in out, out[-2000:]
    assert "(expert:iterations=8):" in out  # the expert's own moves were played and told
    game = cardarena.load(game_id, **options)
    if model_path(game).exists():
        assert model_for(game) is not None, f"{model_path(game)} does not fit {game_id}'s encoding"
        assert out.startswith("The expert plays with its trained model"), out[:300]
    else:
        assert out.startswith("The expert has no trained model for this game"), out[:300]


def test_the_strength_labels_stand_for_the_browsers_specs() -> None:
    """``--vs hard`` is the lobby's Hard AI: in Tash-Kalar its own setting, in ToraBato the generic one."""
    for game_id, label in (("tashkalar", "hard"), ("torabato", "normal")):
        args = ["play", game_id, "--vs", label, "--seed", "2"]
        result = CliRunner().invoke(cli, args, input="1\n" * 5 + "quit\n")
        assert result.exit_code == 0, result.output
        assert f"({level_spec(label, game_id)}):" in result.output, result.output[-2000:]
    result = CliRunner().invoke(cli, ["play", "torabato", "--vs", "grandmaster"], input="quit\n")
    assert result.exit_code != 0 and "grandmaster" in result.output
    result = CliRunner().invoke(cli, ["play", "torabato", "--vs", "expert:model=/no/such.npz"], input="quit\n")
    assert result.exit_code != 0 and "/no/such.npz" in result.output
