"""``cardarena replay FILE --analyse``: a player reads where their game went wrong, decision by decision, on a short
record of every game (tiny search budgets)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardarena.cli.main import cli

SPEC = "expert:iterations=8"
GAMES = [
    ("torabato", ["max_turns=6"]),
    ("lyabi", ["max_turns=6"]),
    ("dicebattle", []),
    ("laplaplace", []),
    ("tashkalar", ["max_turns=6"]),
    ("tashkalar", ["mode=melee", "players=4", "max_turns=4"]),
]


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def _record(tmp_path: Path, game: str, options: list[str]) -> Path:
    out = tmp_path / "records"
    opts = [x for o in options for x in ("-o", o)]
    code, text = run("simulate", game, "-n", "1", "--seed", "7", *opts, "--record", str(out))
    assert code == 0, text
    (path,) = out.glob("*.json")
    return path


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g + "-" + "-".join(o) for g, o in GAMES])
def test_replay_analyse_prints_each_seats_decisions_and_a_summary(tmp_path: Path, game: str, options: list) -> None:
    path = _record(tmp_path, game, options)
    code, out = run("replay", str(path), "--analyse", "--agent", SPEC, "--seat", "0")
    assert code == 0, out
    assert f"analysed by {SPEC}" in out and "from each seat's information only" in out
    assert "seat 0" in out and "p(win)" in out and "best" in out and "swing" in out
    assert "seat 0: " in out and "decisions (" in out and "mistake(s)" in out
    assert "seat 1" not in out.replace("seat 1:", "")  # --seat 0: the other seats are not analysed
    code, text = run("replay", str(path), "--analyse", "--agent", SPEC, "--seat", "0", "--json")
    assert code == 0, text
    data = json.loads(text)
    assert data["seats"] == [0] and data["agent"] == SPEC and data["decisions"]
    rated = [d for d in data["decisions"] if not d["forced"]]
    for d in rated:
        assert 0 <= d["p_played"] <= d["p_best"] <= 1 and d["swing"] >= 0
    assert data["summary"]["0"]["decisions"] == len(data["decisions"])


def test_replay_analyse_every_seat_by_default_and_refuses_a_cheating_or_bad_analyst(tmp_path: Path) -> None:
    path = _record(tmp_path, "dicebattle", [])
    code, text = run("replay", str(path), "--analyse", "--agent", SPEC, "--json")
    assert code == 0 and json.loads(text)["seats"] == [0, 1]
    code, out = run("replay", str(path), "--analyse", "--agent", "mcts:iterations=8")
    assert code != 0 and "hidden cards" in out
    code, out = run("replay", str(path), "--analyse", "--agent", "heuristic")
    assert code != 0 and "search agent" in out
    code, out = run("replay", str(path), "--json")
    assert code != 0 and "--json goes with --analyse" in out
    code, out = run("replay", str(path), "--analyse", "--agent", SPEC, "--seat", "5")
    assert code != 0 and "--seat must be in 0..1" in out
