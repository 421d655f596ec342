"""``cardarena bench --compare`` (both builds side by side), and the build named by ``--version`` and ``bench``
(docs/speed.md). Behaviour only: what is measured and printed, never how fast."""

from __future__ import annotations

import json
import re
import sys

import click
import pytest
from click.testing import CliRunner

import cardarena
from cardarena.cli import bench_compare
from cardarena.cli.main import cli

QUICK = ["--seconds", "0.05", "--agent", "ismcts:iterations=5", "--simulate-games", "2", "--report-games", "0"]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_version_and_bench_name_the_build_that_runs() -> None:
    code, out, _ = run("--version")
    assert code == 0 and cardarena.BUILD in out and cardarena.__version__ in out
    code, out, _ = run("bench", "torabato", "--seconds", "0.05")
    assert code == 0 and f"build: {cardarena.BUILD}" in out
    code, out, _ = run("bench", "torabato", "--seconds", "0.05", "--json")
    assert code == 0 and json.loads(out)["build"] == cardarena.BUILD


def test_compare_measures_each_build_in_its_own_process_with_ratios_and_the_anchor() -> None:
    code, out, err = run("bench", "--compare", "torabato", *QUICK, "--json")
    assert code == 0, out + err
    assert "measuring torabato" in err  # progress goes to stderr, the JSON alone to stdout
    result = json.loads(out)
    compiled = bench_compare.compiled_present()
    assert result["compiled_present"] is compiled
    assert result["plan"]["simulate_games"] == 2 and result["plan"]["report_games"] == 0
    (row,) = result["results"]
    assert row["configuration"] == "torabato"
    assert row["pure"]["compiled"] is False and "pure Python" in row["pure"]["build"]
    for key in ("decisions_per_s", "games_per_s", "clone_us", "iterations_per_s", "simulate_s"):
        assert row["pure"][key] > 0, key
    assert row["pure"]["report_s"] is None  # --report-games 0: not timed
    if compiled:
        assert row["compiled"]["compiled"] is True
        assert row["ratio"]["decisions_per_s"] == round(
            row["compiled"]["decisions_per_s"] / row["pure"]["decisions_per_s"], 2
        )
    else:
        assert "compiled" not in row and "ratio" not in row
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        assert result["anchor"] is None
    else:
        assert result["anchor"]["game"] == "openspiel hearts" and result["anchor"]["decisions_per_s"] > 0


def test_compare_table_shows_both_builds_or_says_the_compiled_one_is_missing() -> None:
    code, out, _ = run("bench", "--compare", "dicebattle", *QUICK)
    assert code == 0
    assert "pure" in out and "compiled" in out
    words = " ".join(out.split())  # the notes wrap at the terminal's width
    if bench_compare.compiled_present():
        assert re.search(r"\bratio\b", out) and "no compiled build" not in words
    else:
        assert not re.search(r"\bratio\b", out)
        assert "no compiled build runs in this checkout" in words and "make compiled" in words


def test_compare_passes_game_options_to_every_measure_and_the_timed_commands() -> None:
    """Tash-Kalar's modes reach the measuring processes and the timed ``simulate``/``report`` command lines."""
    options = {"mode": "deathmatch", "players": 4, "teams": True}
    assert ("tashkalar", options) in bench_compare.CONFIGURATIONS
    simulate, report = bench_compare._cli_runs("tashkalar", options, bench_compare.Plan(report_games=3))
    assert simulate[:8] == ["simulate", "tashkalar", "-o", "mode=deathmatch", "-o", "players=4", "-o", "teams=true"]
    assert report[report.index("-n") + 1] == "3" and "--jobs" in report
    plan = bench_compare.Plan(seconds=0.02, agent="ismcts:iterations=5", positions=1)
    measured = bench_compare.measure("tashkalar", {"mode": "melee", "players": 4}, plan)
    assert measured["decisions_per_s"] > 0


def test_compare_refuses_an_unknown_game_or_agent_before_measuring() -> None:
    code, _, err = run("bench", "--compare", "nosuchgame", *QUICK)
    assert code != 0 and "measuring" not in err
    code, _, err = run("bench", "--compare", "torabato", "--seconds", "0.05", "--agent", "nosuchagent")
    assert code != 0 and "measuring" not in err
    code, _, err = run("bench", "--compare", "--option", "mode=melee", *QUICK)
    assert code != 0 and "measuring" not in err


def test_markdown_puts_pure_compiled_and_ratio_in_each_cell() -> None:
    pure = {"decisions_per_s": 1000.0, "games_per_s": 10.0, "clone_us": 4.0, "iterations_per_s": 100.0}
    compiled = {"decisions_per_s": 2500.0, "games_per_s": 25.0, "clone_us": 2.0, "iterations_per_s": 250.0}
    result = {
        "results": [
            {
                "configuration": "torabato",
                "pure": pure,
                "compiled": compiled,
                "ratio": bench_compare.ratios(pure, compiled),
            },
            {"configuration": "lyabi", "pure": pure},
        ],
        "anchor": {"game": "openspiel hearts", "decisions_per_s": 5000.0, "games_per_s": 50.0},
    }
    lines = bench_compare.markdown(result).splitlines()
    assert lines[0].startswith("| configuration | decisions/s | games/s | clone µs |")
    assert lines[2].startswith(
        "| torabato | 1,000 → 2,500 (**×2.50**) | 10.0 → 25.0 (**×2.50**) | 4.00 → 2.00 (**×0.50**)"
    )
    assert lines[3].startswith("| lyabi | 1,000 | 10.0 | 4.00 | 100 | - |")
    assert lines[4].startswith("| openspiel hearts (C++) | 5,000 | 50.0 |")


def test_a_failing_measuring_process_shows_its_error() -> None:
    with pytest.raises(click.ClickException, match=r"the pure build.s process failed.*\n.*boom"):
        bench_compare._run([sys.executable, "-c", "import sys; sys.exit('boom')"], "pure")
