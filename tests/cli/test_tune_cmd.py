"""``cardarena tune``: a tiny tune end to end (the trials as they end, the tables, --json, --write into a copy of a
model), Ctrl-C keeping the trials in the store, and its mistakes as one line each."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from cardarena.agents import make_agent
from cardarena.agents.expert import NET_SETTINGS, ExpertAgent
from cardarena.agents.valuenet import ValueNet
from cardarena.arena import tuning
from cardarena.arena.training import TrainConfig, train
from cardarena.cli.main import cli
from cardarena.engine import load


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("model") / "torabato.npz"
    train(TrainConfig("torabato", games=6, rounds=0, positions=4, hidden=(8,), epochs=2), out)
    return out


@pytest.fixture
def model(tiny_model: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "torabato.npz"
    copy.write_bytes(tiny_model.read_bytes())
    return copy


def tiny(model: Path, *more: str) -> list[str]:
    return [
        "tune",
        "torabato",
        "--agent",
        f"expert:iterations=4,model={model}",
        "--against",
        "heuristic",
        "--trials",
        "3",
        "--pairs",
        "1",
        "--confirm-pairs",
        "2",
        "--range",
        "c=1.5:2.5",  # the untuned c=1 is outside: the best settings always differ from the untuned ones
        "--max-slowdown",
        "0",
        *more,
    ]


def test_a_tiny_tune_writes_the_best_settings_into_the_model_and_the_expert_plays_them(model: Path) -> None:
    result = invoke(*tiny(model, "--write", "--force", "--json"))
    assert result.exit_code == 0, result.output
    assert [line.partition(":")[0] for line in result.stderr.splitlines()] == ["trial 1/3", "trial 2/3", "trial 3/3"]
    summary = json.loads(result.stdout)
    assert summary["written"] == str(model) and len(summary["trials"]) == 3
    assert summary["space"] == {
        "c": "1.5:2.5",
        "depth": "0:60",
        "rollout": "random|heuristic",
        "prior": "0:1",
        "candidates": "0:12",
    }
    best = summary["best"]["settings"]
    assert set(best) == {"c", "depth", "rollout", "prior", "candidates"} and 1.5 <= best["c"] <= 2.5
    confirmation = summary["confirmation"]
    assert confirmation["untuned"]["games"] == confirmation["tuned"]["games"] == 4
    gain = confirmation["gain"]
    assert gain == pytest.approx(confirmation["tuned"]["score"] - confirmation["untuned"]["score"], abs=1e-3)
    assert summary["note"].startswith("note: the settings were tuned at 4 iterations a decision; the model's expert")
    meta = ValueNet.load(model).meta
    assert meta["search"] == best
    assert meta["tuning"]["command"].startswith("cardarena tune torabato --agent expert:iterations=4,model=")
    assert meta["tuning"]["gain"] == gain and meta["tuning"]["against"] == "heuristic"
    agent = make_agent(f"expert:model={model}", 0)
    assert isinstance(agent, ExpertAgent)
    plays = NET_SETTINGS["iterations"]  # the tiny model ships no settings: the expert's defaults
    assert agent.settings(load("torabato")) == {"iterations": plays, **best}  # the model's iterations stay
    played = invoke("strength", "torabato", "--agents", f"expert:iterations=4,model={model},heuristic", "-n", "1")
    assert played.exit_code == 0, played.output


def test_the_tables_name_the_trials_and_the_confirmation(model: Path) -> None:
    result = invoke(*tiny(model))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "torabato (torabato): the best of 3 trials against heuristic" in out
    assert "confirmation: 2 fresh rounds, every seat order, against heuristic" in out
    assert "untuned" in out and "tuned (#" in out and "gain" in out and "written" not in out
    assert ValueNet.load(model).meta.get("tuning") is None  # without --write the model is untouched


def test_ctrl_c_keeps_the_finished_trials_in_the_store(
    model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = tmp_path / "tune.db"
    real = tuning.measure
    calls = {"n": 0}

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(tuning, "measure", interrupted)
    stopped = invoke(*tiny(model, "--store", str(store)))
    assert stopped.exit_code == 130
    assert f"interrupted: the finished trials are kept in {store}; the same command goes on" in stopped.stderr
    assert stopped.stderr.count("trial 1/3") == 1 and "trial 2/3" not in stopped.stderr
    monkeypatch.setattr(tuning, "measure", real)
    again = invoke(*tiny(model, "--store", str(store), "--json"))
    assert again.exit_code == 0, again.output
    assert "trial 1/3" not in again.stderr and "trial 2/3" in again.stderr  # the first trial came from the store
    assert len(json.loads(again.stdout)["trials"]) == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--range", "c=3:1"], "error: --range 'c=3:1': LOW must be below HIGH"),
        (["--params", "c,iterations"], "error: iterations is not tuned: the tuning keeps the budget of a decision"),
        (["--params", "c", "--range", "depth=0:3"], "error: --range 'depth=0:3': depth is not tuned here"),
        (["--force"], "error: --force goes with --write"),
        (["--agent", "heuristic"], "error: cardarena tune tunes the expert's search settings"),
        (["--against", "nobody"], "error: unknown agent 'nobody'"),
        (["--max-slowdown", "0.5"], "error: --max-slowdown must be at least 1 (or 0: no limit), got 0.5"),
    ],
)
def test_a_mistake_is_one_line_and_plays_nothing(model: Path, args: list[str], message: str) -> None:
    result = invoke(*tiny(model), *args)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(message), result.stderr
    assert result.stderr.count("\n") == 1 and "trial" not in result.stderr


def test_the_help_names_the_tuned_settings() -> None:
    from cardarena.cli import tune_cmd

    assert tune_cmd.TUNABLE == tuning.TUNABLE
    result = invoke("tune", "--help")
    assert result.exit_code == 0 and "c,depth,rollout,prior,candidates" in result.output


def test_an_unknown_game_is_one_line() -> None:
    result = invoke("tune", "chess")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: unknown game 'chess'; valid games:")


def test_a_gain_within_the_noise_is_not_written(model: Path) -> None:
    """Two fresh deals cannot show that the tuned settings are better: without --force the model stays as it was,
    and the note says why, with the interval."""
    before = model.read_bytes()
    result = invoke(*tiny(model, "--write", "--json"))
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    low = summary["confirmation"]["gain_ci95"][0]
    assert low <= 0 and summary["written"] is None
    assert "not written" in summary["note"] and "not clearly better" in summary["note"]
    assert model.read_bytes() == before
