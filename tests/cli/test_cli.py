"""The command line contract (DESIGN.md, Command line), run in-process with click's runner."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cardarena.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), input=input)
    return result.exit_code, result.output


def test_games_lists_ids_names_versions_and_players() -> None:
    code, out = run("games", "--json")
    assert code == 0
    rows = {r["id"]: r for r in json.loads(out)}
    assert rows["torabato"] == {"id": "torabato", "name": "ToraBato", "version": "3", "players": [2]}


def test_rules_prints_the_game_doc_and_options() -> None:
    code, out = run("rules", "torabato")
    assert code == 0
    doc = (ROOT / "src" / "cardarena" / "games" / "torabato" / "rules.md").read_text(encoding="utf-8")
    assert out.startswith(doc) and "max_turns" in out
    assert out.splitlines()[2] == "## How to play in the terminal"  # issue 13: the rules start with how to play


def test_unknown_game_and_option_are_clear_errors() -> None:
    code, out = run("rules", "chess")
    assert code == 2 and "valid games:" in out and "torabato" in out
    code, out = run("simulate", "torabato", "--option", "colour=red", "-n", "1")
    assert code == 2 and "valid options: cards, lasting_boosts, max_turns, recovery_priority" in out
    code, out = run("simulate", "torabato", "--option", "max_turns", "-n", "1")
    assert code == 2 and "name=value" in out
    code, out = run("simulate", "torabato", "--agents", "genius", "-n", "1")
    assert code == 2 and "valid agents: random" in out


def test_simulate_json_is_deterministic_and_independent_of_jobs() -> None:
    args = ("simulate", "torabato", "-n", "30", "--seed", "5", "--json")
    code, one = run(*args)
    assert code == 0
    summary = json.loads(one)
    assert summary["errors"] == 0 and summary["games"] == 30
    assert sum(summary["wins"]) + summary["draws"] == 30
    for key in ("game", "games", "seed", "agents", "wins", "draws", "mean_turns", "mean_decisions", "errors"):
        assert key in summary
    assert run(*args)[1] == one
    assert run(*args, "--jobs", "2")[1] == one


def test_simulate_records_replay_and_verify(tmp_path: Path) -> None:
    code, _ = run("simulate", "torabato", "-n", "3", "--seed", "2", "--record", str(tmp_path), "--json")
    assert code == 0
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    code, out = run("replay", str(files[0]), "--verify")
    assert code == 0 and "verified" in out
    record = json.loads(files[0].read_text(encoding="utf-8"))
    record["result"] = [9.0, 9.0]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    code, out = run("replay", str(bad), "--verify")
    assert code == 2 and "differs" in out
    record["actions"][3] = "fly away"
    bad.write_text(json.dumps(record), encoding="utf-8")
    code, out = run("replay", str(bad))
    assert code == 2 and "action 4" in out


def test_play_against_random_to_the_end_with_typed_input() -> None:
    """A person answering '1' (or junk, then '1') at every prompt reaches the end of the game."""
    answers = "hello\n99\n?\nboard\n" + "1\n" * 4000
    code, out = run("play", "torabato", "--vs", "random", "--seed", "4", input=answers)
    assert code == 0, out
    assert "not accepted" in out and "no choice number 99" in out
    assert "Game over" in out
    assert "Your choices (" in out and "hand:" in out and "Waiting on seat" in out


def test_play_record_can_be_replayed(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    code, _ = run("play", "torabato", "--seed", "9", "--record", str(path), input="1\n" * 4000)
    assert code == 0 and path.exists()
    assert run("replay", str(path), "--verify")[0] == 0


def test_play_quit_leaves_cleanly() -> None:
    code, out = run("play", "torabato", "--seed", "1", input="quit\n")
    assert code == 0 and "You left the game." in out


def test_bench_json_shape() -> None:
    code, out = run("bench", "torabato", "--seconds", "0.2", "--json")
    assert code == 0
    (row,) = json.loads(out)["results"]
    assert row["game"] == "torabato" and row["decisions_per_s"] > 0 and row["clone_us"] > 0


def test_laplaplace_league_is_registered(tmp_path: Path) -> None:
    builds = ROOT / "src" / "cardarena" / "games" / "laplaplace" / "data" / "builds"
    csv = tmp_path / "standings.csv"
    code, out = run("laplaplace", "league", str(builds), "--csv", str(csv))
    assert code == 0, out
    assert "standings written" in out and csv.read_text(encoding="utf-8").count("\n") >= 9


def test_play_skip_passes_until_the_next_turn() -> None:
    code, out = run("play", "torabato", "--seed", "4", input="1\n1\nskip\n" + "skip\n" * 400 + "1\n" * 3000)
    assert code == 0, out
    assert "passing whenever possible until turn" in out and "Game over" in out


def test_play_does_not_show_how_many_cards_a_blind_build_holds() -> None:
    code, out = run("play", "laplaplace", "--seat", "1", "--seed", "3", input="quit\n")
    assert code == 0 and "adds" not in out


def test_bench_accepts_options() -> None:
    code, out = run("bench", "torabato", "--seconds", "0.1", "--option", "max_turns=4", "--json")
    assert code == 0 and json.loads(out)["results"][0]["game"] == "torabato"
    code, out = run("bench", "torabato", "--seconds", "0.1", "--option", "speed=4")
    assert code == 2 and "valid options" in out


def test_simulate_and_bench_take_agent_specs() -> None:
    code, out = run("simulate", "dicebattle", "-n", "4", "--agents", "ismcts:iterations=20,c=0.7,random", "--json")
    assert code == 0, out
    summary = json.loads(out)
    assert summary["agents"] == ["ismcts:iterations=20,c=0.7", "random"] and summary["errors"] == 0
    code, out = run("bench", "dicebattle", "--agent", "ismcts:iterations=20", "--json")
    assert code == 0, out
    (row,) = json.loads(out)["results"]
    assert row["agent"] == "ismcts:iterations=20" and row["positions"] == 6 and row["iterations_per_s"] > 0
    code, out = run("simulate", "dicebattle", "--agents", "ismcts:depth=-1,random")
    assert code == 2 and "option 'depth'" in out


def test_simulate_takes_agents_repeated_or_separated_by_commas() -> None:
    """One --agents form for every run command (docs/agents.md): --agents A --agents B is --agents A,B."""
    rest = ["-n", "2", "--seed", "3", "--json"]
    code, commas = run("simulate", "dicebattle", "--agents", "flatmc:worlds=2,depth=3,heuristic", *rest)
    assert code == 0, commas
    code, repeated = run(
        "simulate", "dicebattle", "--agents", "flatmc:worlds=2,depth=3", "--agents", "heuristic", *rest
    )
    assert code == 0, repeated
    assert json.loads(commas)["agents"] == ["flatmc:worlds=2,depth=3", "heuristic"]
    assert json.loads(commas) == json.loads(repeated)
    code, out = run("simulate", "dicebattle", "--agents", "random", "--agents", "random", "--agents", "random")
    assert code == 2 and "2 seats; got 3 agents" in out
