"""The other commands of issue 13 point 2 and point 6: ``rules`` (the game's page from the top, the terminal's
commands, the options), ``simulate --json`` (wins by seat, the options in force), ``--record DIR`` (where it wrote),
``replay --step`` (every position as a seat saw it), and the README's Python example."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

import cardarena
from cardarena.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), input=input)
    return result.exit_code, result.output


def test_rules_shows_the_page_from_the_top_then_the_terminal_commands_then_the_options() -> None:
    for game_id, has_pass in (("torabato", True), ("laplaplace", False)):
        code, out = run("rules", game_id)
        assert code == 0
        doc = (ROOT / "src" / "cardarena" / "games" / game_id / "rules.md").read_text(encoding="utf-8")
        assert out.startswith(doc.rstrip())
        commands = out.index("## Terminal commands")
        options = out.index("## Options (current values)")
        assert len(doc.rstrip()) <= commands < options
        assert (":skip" in out[commands:options]) is has_pass
        assert ":hint" in out[commands:options] and "max_turns" in out[options:]


def test_simulate_json_labels_wins_by_seat_and_lists_the_options_in_force(tmp_path: Path) -> None:
    code, out = run("simulate", "torabato", "-n", "6", "--seed", "2", "--option", "max_turns=30", "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["wins_by_seat"] == {"seat 0": summary["wins"][0], "seat 1": summary["wins"][1]}
    assert summary["options_in_force"]["max_turns"] == 30 and "lasting_boosts" in summary["options_in_force"]
    for key in ("game", "games", "seed", "agents", "wins", "draws", "mean_turns", "mean_decisions", "errors"):
        assert key in summary  # DESIGN's keys are kept
    assert "records" not in summary
    code, out = run("simulate", "torabato", "-n", "3", "--seed", "2", "--record", str(tmp_path / "r"), "--json")
    records = json.loads(out)["records"]
    assert records == {"dir": str((tmp_path / "r").resolve()), "files": 3}
    code, out = run("simulate", "torabato", "-n", "2", "--seed", "2", "--record", str(tmp_path / "s"))
    assert code == 0 and f"2 record(s) in {(tmp_path / 's').resolve()}" in out
    assert "options: " in out and "max_turns=200" in out


def test_replay_step_shows_every_position_as_the_seat_saw_it(tmp_path: Path) -> None:
    code, _ = run("simulate", "lyabi", "-n", "1", "--seed", "4", "--record", str(tmp_path))
    assert code == 0
    (path,) = tmp_path.glob("*.json")
    final = cardarena.replay(path)
    game = final.game
    for seat in (1, None):
        args = ["replay", str(path), "--step"] + ([] if seat is None else ["--seat", str(seat)])
        code, out = run(*args)
        assert code == 0, out
        state = game.new_initial_state(final.seed)
        shown = 0
        at = 0
        for action in final.history:
            mover = state.current_player
            before = state.clone()
            state.apply(action)
            lines = game.narrate(before, action, state, seat)
            if not lines:
                continue
            shown += 1
            line = f"#{shown} seat {mover}: {lines[0]}"
            at = out.index(line, at) + len(line)
        assert len(re.findall(r"^#\d+ seat", out, flags=re.M)) == shown > 10
        assert out.rstrip().endswith(f"{len(final.history)} actions replayed; result {final.returns()}")
    code, out = run("replay", str(path), "--step", "--seat", "5")
    assert code == 2 and "--seat must be in 0..1" in out


def test_replay_step_waits_for_enter_in_a_terminal_and_q_stops(tmp_path: Path) -> None:
    from cardarena.cli.screen import Screen
    from cardarena.cli.stepper import NEXT, step_through

    state = cardarena.load("torabato").new_initial_state(2)
    for _ in range(12):
        state.apply(state.legal_actions()[0])
    out: list[str] = []
    answers = iter(["", "", "q"])
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return next(answers)

    shown = step_through(state, 0, Screen(out.append), ask=ask)
    assert asked == [NEXT + " "] * 3 and shown == 3
    assert sum(1 for line in out if line.startswith("#")) == 2


def test_the_readme_python_example_runs() -> None:
    """README's Python section: text input through ``state.apply("...")``."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Python", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    assert 'state.apply("' in block
    exec(compile(block, "README.md", "exec"), {"print": lambda *a: None})
