"""Training the expert's value network, as a designer reproduces it: ``cardarena train`` writes a model that the
expert plays with, the same seed writes the same weights (whatever ``--jobs``), and the run's record (its rounds,
their learning curves) travels in the file. A smoke version of the shipped models' training (``make models``)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from click.testing import CliRunner

from cardarena.agents import SeatView, make_agent
from cardarena.agents.expert import ExpertAgent
from cardarena.agents.valuenet import ValueNet
from cardarena.arena.training import TrainConfig, train
from cardarena.cli.main import cli
from cardarena.engine import load

SMALL = TrainConfig(game="laplaplace", games=30, rounds=1, selfplay_games=3, iterations=4, epochs=2, positions=4)


def weights(path: Path) -> list[np.ndarray]:
    return [a for layer in ValueNet.load(path).layers for a in layer]


def test_the_train_command_writes_a_model_the_expert_plays_with(tmp_path: Path) -> None:
    out, png = tmp_path / "lp.npz", tmp_path / "curve.png"
    argv = ["train", "laplaplace", "--games", "30", "--rounds", "1", "--selfplay-games", "3", "--iterations", "4"]
    argv += ["--epochs", "2", "--positions", "4", "--out", str(out), "--plot", str(png), "--json"]
    result = CliRunner().invoke(cli, argv)
    assert result.exit_code == 0, result.output
    record = json.loads(result.output.strip().splitlines()[-1])
    assert record["key"] == "laplaplace" and record["path"] == str(out)
    assert [r["round"] for r in record["rounds"]] == [0, 1] and record["rounds"][1]["agent"].startswith("expert:")
    assert all(len(r["curve"]) == 3 for r in record["rounds"])  # epoch 0 and two epochs, per round
    assert png.stat().st_size > 5000 and png.read_bytes()[:4] == b"\x89PNG"
    game = load("laplaplace")
    agent = make_agent(f"expert:iterations=6,model={out}", 1)
    state = game.new_initial_state(3)
    while len(state.playout_actions()) < 2:
        state.apply(state.legal_actions()[0])
    seat = state.current_player
    assert seat is not None
    assert agent.act(SeatView(state, seat)) in state.legal_actions()
    assert isinstance(agent, ExpertAgent) and agent.model == "laplaplace"


def test_the_same_seed_writes_the_same_weights_whatever_the_jobs(tmp_path: Path) -> None:
    train(SMALL, tmp_path / "a.npz", jobs=1)
    train(SMALL, tmp_path / "b.npz", jobs=2)
    other = TrainConfig(**{**SMALL.__dict__, "seed": 1})
    train(other, tmp_path / "c.npz", jobs=1)
    a, b, c = weights(tmp_path / "a.npz"), weights(tmp_path / "b.npz"), weights(tmp_path / "c.npz")
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))


def test_retraining_keeps_the_settings_tuned_for_the_model_it_replaces(tmp_path: Path) -> None:
    path = tmp_path / "m.npz"
    train(SMALL, path)
    net = ValueNet.load(path)
    net.meta["search"] = {"iterations": 9, "c": 0.3}
    net.save(path)
    train(SMALL, path)
    assert ValueNet.load(path).meta["search"] == {"iterations": 9, "c": 0.3}


def test_bad_training_options_are_refused_in_one_line() -> None:
    result = CliRunner().invoke(cli, ["train", "laplaplace", "--games", "0"])
    assert result.exit_code == 2 and "must be ≥ 1" in result.output
    result = CliRunner().invoke(cli, ["train", "laplaplace", "--hidden", "a,b"])
    assert result.exit_code == 2 and "--hidden" in result.output
    result = CliRunner().invoke(cli, ["train", "nosuchgame"])
    assert result.exit_code != 0 and "nosuchgame" in result.output
