"""``cardarena ladder GAME``: every strength rated on one Elo scale, anchored at random = 0 (issue 31, point 4).

A person runs a tiny ladder (random, the heuristic and a cheap expert), reads ordered ratings with intervals and
seconds per decision, writes them into a ladder file next to another game's entry, and prints the docs' table.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from cardarena.agents.levels import LEVELS
from cardarena.arena.ladder import STRENGTHS, strength_entrants
from cardarena.cli.main import cli

TINY = ["--strength", "random", "--strength", "easy", "--strength", "expert=expert:iterations=8"]


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_a_tiny_ladder_rates_random_below_the_heuristic_and_the_expert_and_writes_the_file(tmp_path: Path) -> None:
    ladder_file = tmp_path / "ladder.json"
    other = {"lyabi": {"anchor": "random = 0", "strengths": {"random": {"spec": "random", "elo": 0}}}}
    ladder_file.write_text(json.dumps(other), encoding="utf-8")
    code, out = run(
        "ladder", "torabato", *TINY, "-n", "6", "--seed", "3", "--json", "--write", "--file", str(ladder_file)
    )
    assert code == 0, out
    entry: dict[str, Any] = json.loads(out.splitlines()[0])
    assert entry["key"] == "torabato" and entry["anchor"] == "random = 0" and entry["pairs"] == 6
    assert entry["games"] == 3 * 6 * 2 and entry["errors"] == 0  # 3 pairings, 6 deals, both seat orders
    rows = entry["strengths"]
    assert set(rows) == {"random", "easy", "expert"}
    assert rows["easy"]["spec"] == "heuristic" and rows["expert"]["spec"] == "expert:iterations=8"
    assert rows["random"]["elo"] == rows["random"]["low"] == rows["random"]["high"] == 0  # the anchor
    for name in ("easy", "expert"):  # both beat random: above it, with an interval around the rating
        row = rows[name]
        assert row["low"] < row["elo"] < row["high"] and row["elo"] > 100, row
        assert row["decisions"] > 0 and row["seconds_per_decision"] > 0
    assert rows["expert"]["seconds_per_decision"] > rows["random"]["seconds_per_decision"]  # a search thinks longer
    scores = {(p["a"], p["b"]): p["score"] for p in entry["pairings"]}
    assert scores[("random", "easy")] < 0.2 and scores[("random", "expert")] < 0.2
    # --write merged this game's entry beside the other game's
    written = json.loads(ladder_file.read_text(encoding="utf-8"))
    assert set(written) == {"lyabi", "torabato"} and written["lyabi"] == other["lyabi"]
    assert written["torabato"]["strengths"] == rows
    assert written["torabato"]["command"].startswith("cardarena ladder torabato --strength random")
    # the markdown table of docs/agents.md, from the file
    code, table = run("ladder", "--markdown", "--file", str(ladder_file))
    assert code == 0, table
    lines = table.splitlines()
    assert lines[0] == "| configuration | pairs | random | easy | expert |"
    torabato = next(line for line in lines if line.startswith("| torabato |"))
    assert f"+{rows['easy']['elo']} [{rows['easy']['low']:+d}, {rows['easy']['high']:+d}]" in torabato


def test_the_ladder_table_and_a_store_that_resumes(tmp_path: Path) -> None:
    store = tmp_path / "ladder.sqlite"
    args = ["ladder", "dicebattle", "--strength", "random", "--strength", "easy", "-n", "3", "--store", str(store)]
    code, out = run(*args)
    assert code == 0, out
    assert "random" in out and "easy" in out and "heuristic" in out and "s / decision" in out
    first = json.loads(run(*args, "--json")[1].splitlines()[0])  # read back from the store: the same ratings
    code, again = run(*args, "--json")
    assert (
        code == 0
        and json.loads(again.splitlines()[0])["strengths"]["easy"]["elo"] == (first["strengths"]["easy"]["elo"])
    )


def test_the_default_strengths_are_every_offered_label_and_mistakes_are_clear() -> None:
    assert ("random", *LEVELS) == STRENGTHS and "expert" in STRENGTHS
    names = [name for name, _ in strength_entrants("lyabi")]
    assert names == ["random", "easy", "normal", "hard", "expert"]
    code, out = run("ladder", "torabato", "--strength", "easy", "--strength", "hard", "-n", "1")
    assert code != 0 and "anchored at random" in out
    code, out = run("ladder", "torabato", "--strength", "random", "--strength", "grandmaster", "-n", "1")
    assert code != 0 and "unknown strength 'grandmaster'" in out
    code, out = run("ladder", "torabato", "--strength", "random", "--strength", "x=nosuchagent", "-n", "1")
    assert code != 0 and "nosuchagent" in out
    code, out = run("ladder", "torabato", "--strength", "random", "--strength", "x=expert:model=/no/such.npz")
    assert code != 0 and "/no/such.npz" in out and "cannot be read" in out
    code, out = run("ladder")
    assert code != 0 and "name a game" in out


def _tiny_model(path: Path, game_id: str, scale: float) -> None:
    import numpy as np

    import cardarena
    from cardarena.agents.valuenet import ValueNet

    size = cardarena.load(game_id).observation_encoder().size
    rng = np.random.default_rng(0)
    layers = [(rng.normal(0, scale, (size, 4)), np.zeros(4)), (rng.normal(0, scale, (4, 1)), np.zeros(1))]
    ValueNet(layers, {"key": game_id}).save(path)


def test_an_experts_rating_names_its_model_and_a_store_of_another_model_is_not_resumed(tmp_path: Path) -> None:
    """The expert's row keeps which model file it played with (the lobby shows a rating only for the model shipped
    now); a store of games played with another model is refused rather than mixed in."""
    model = tmp_path / "tiny.npz"
    _tiny_model(model, "dicebattle", 0.1)
    store = tmp_path / "ladder.sqlite"
    args = ["ladder", "dicebattle", "--strength", "random", "--strength", f"expert=expert:iterations=4,model={model}"]
    args += ["-n", "2", "--store", str(store), "--json"]
    code, out = run(*args)
    assert code == 0, out
    row = json.loads(out.splitlines()[0])["strengths"]["expert"]
    assert len(row["model"]) == 12 and row["decisions"] > 0
    _tiny_model(model, "dicebattle", 0.5)  # retrained: another file at the same path
    code, out = run(*args)
    assert code != 0 and "model:expert" in out, out
