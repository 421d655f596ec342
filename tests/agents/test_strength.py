"""The strength tool: paired seeds in every seat order, draws as half, Wilson's interval, any number of jobs."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

import cardarena
from cardarena.arena import bench_agent
from cardarena.arena.strength import Outcome, play_one, result_for, strength, summarise, wilson
from cardarena.cli.main import cli
from cardarena.engine import OptionError, derive_seed


def without_time(summary: dict) -> dict:  # type: ignore[type-arg]
    return {k: v for k, v in summary.items() if k != "time"}


def test_wilson_interval() -> None:
    assert wilson(0.5, 0) == (0.0, 1.0)
    lo, hi = wilson(0.5, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.4038, 0.5962)
    lo, hi = wilson(0.0, 20)
    assert lo == 0.0 and 0.16 < hi < 0.17  # 0 of 20 still allows up to about 16%
    lo, hi = wilson(1.0, 200)
    assert 0.98 < lo < 0.985 and hi == 1.0


def test_summary_counts_draws_as_half() -> None:
    game = cardarena.load("dicebattle")
    results = ["win"] * 6 + ["draw"] * 2 + ["loss"] * 2 + ["error"]
    outcomes = [
        Outcome(i, i // 2, i % 2, 0, r, 10, 5, 0.1, 0.2, "boom" if r == "error" else None)
        for i, r in enumerate(results)
    ]
    summary = summarise(game, ("a", "b"), 0, 6, outcomes)
    assert (summary["wins"], summary["draws"], summary["losses"], summary["errors"]) == (6, 2, 2, 1)
    assert summary["score"] == 0.7 and summary["ci95"] == [round(x, 4) for x in wilson(0.7, 10)]
    assert summary["error_samples"][0]["error"] == "boom"


def test_the_summary_counts_rounds_won_split_and_lost_from_every_seat() -> None:
    game = cardarena.load("dicebattle")
    # rounds: won both seats, won one lost one, drew one, lost both, an error (left out)
    results = ["win", "win", "win", "loss", "draw", "win", "loss", "loss", "error", "win"]
    outcomes = [Outcome(i, i // 2, i % 2, 0, r, 10, 5, 0.1, 0.2) for i, r in enumerate(results)]
    summary = summarise(game, ("a", "b"), 0, 5, outcomes)
    assert summary["rounds"] == {"won_every_seat": 1, "split": 2, "lost_every_seat": 1}
    unfinished = summarise(game, ("a", "b"), 0, 2, outcomes[:3])  # round 1 has one game of two
    assert unfinished["rounds"] == {"won_every_seat": 1, "split": 0, "lost_every_seat": 0}


def test_a_round_deals_the_same_game_once_per_seat_of_a() -> None:
    game = cardarena.load("tashkalar", mode="melee", players=3, max_turns=4)
    outcomes = [play_one(game, ("random", "random"), i, seed=5) for i in range(6)]
    assert [(o.pair, o.a_seat) for o in outcomes] == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    assert {o.seed for o in outcomes[:3]} == {derive_seed(5, 0)} and outcomes[3].seed == derive_seed(5, 1)
    assert all(o.result in ("win", "draw", "loss") for o in outcomes)


def test_the_same_seed_gives_the_same_results_for_any_number_of_jobs() -> None:
    one = strength("dicebattle", ("flatmc:worlds=2", "random"), pairs=6, seed=3, jobs=1)
    two = strength("dicebattle", ("flatmc:worlds=2", "random"), pairs=6, seed=3, jobs=2)
    assert without_time(one) == without_time(two)
    assert one["games"] == 12 and len(one["score_by_a_seat"]) == 2
    other = strength("dicebattle", ("flatmc:worlds=2", "random"), pairs=6, seed=4, jobs=1)
    assert without_time(other) != without_time(one)


def test_a_stored_run_resumes_where_it_stopped_and_gives_the_uninterrupted_summary(tmp_path: Path) -> None:
    whole = strength("dicebattle", ("heuristic", "random"), pairs=4, seed=7)
    store = tmp_path / "run.jsonl"
    with pytest.raises(KeyboardInterrupt):  # stopped after the third game, as Ctrl-C would
        strength("dicebattle", ("heuristic", "random"), pairs=4, seed=7, store=store, progress=_interrupt_at(3))
    assert len(store.read_text().splitlines()) == 1 + 3  # the identity, then the three finished games
    calls: list[int] = []
    resumed = strength(
        "dicebattle", ("heuristic", "random"), pairs=4, seed=7, store=store, progress=lambda d, t: calls.append(d)
    )
    assert without_time(resumed) == without_time(whole) and resumed["time"]["resumed_games"] == 3
    assert calls[0] == 3 and calls[-1] == 8  # the stored games count at once; five more were played
    with pytest.raises(OptionError, match="another run"):
        strength("dicebattle", ("heuristic", "random"), pairs=4, seed=8, store=store)


def test_a_stored_run_grows_into_a_longer_one_playing_only_the_new_rounds(tmp_path: Path) -> None:
    store = tmp_path / "cell.sqlite"
    pilot = strength("dicebattle", ("heuristic", "random"), pairs=2, seed=7, store=store)
    calls: list[int] = []
    grown = strength(
        "dicebattle", ("heuristic", "random"), pairs=4, seed=7, store=store, progress=lambda d, t: calls.append(d)
    )
    whole = strength("dicebattle", ("heuristic", "random"), pairs=4, seed=7)
    assert pilot["games"] == 4 and grown["time"]["resumed_games"] == 4 and calls[0] == 4 and calls[-1] == 8
    assert without_time(grown) == without_time(whole)
    with pytest.raises(OptionError, match="can be extended to more, not cut to 3"):
        strength("dicebattle", ("heuristic", "random"), pairs=3, seed=7, store=store)


def _interrupt_at(games: int) -> Callable[[int, int], None]:
    def progress(done: int, total: int) -> None:
        if done >= games:
            raise KeyboardInterrupt

    return progress


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(OptionError, match="valid agents: random, heuristic"):
        strength("dicebattle", ("nobody", "random"), pairs=1)
    with pytest.raises(OptionError, match="pairs must be at least 1"):
        strength("dicebattle", ("random", "random"), pairs=0)


def test_the_strength_command() -> None:
    runner = CliRunner()
    args = ["strength", "dicebattle", "--agents", "heuristic,random", "-n", "3", "--seed", "2", "--json"]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    summary = json.loads(result.stdout)
    assert summary["agents"] == {"a": "heuristic", "b": "random"} and summary["games"] == 6
    assert 0 <= summary["ci95"][0] <= summary["score"] <= summary["ci95"][1] <= 1
    table = runner.invoke(cli, args[:-1])
    assert table.exit_code == 0 and "A's score (draws half)" in table.output
    bad = runner.invoke(cli, ["strength", "dicebattle", "--agents", "ismcts:depht=3,random"])
    assert bad.exit_code == 2 and "no option 'depht'" in bad.output
    three = runner.invoke(cli, ["strength", "dicebattle", "--agents", "random,random,random"])
    assert three.exit_code == 2 and "name two agents" in three.output and "(got 3)" in three.output


def test_the_strength_command_takes_the_agents_in_every_form_and_notes_the_old_one() -> None:
    """--agents A,B; --agents A --agents B; and the old --agents A B (separate words), which still works and says
    on standard error how to write it now."""
    runner = CliRunner()
    rest = ["-n", "1", "--seed", "2", "--json"]
    commas = runner.invoke(cli, ["strength", "dicebattle", "--agents", "ismcts:iterations=5,c=0.5,random", *rest])
    repeated = runner.invoke(
        cli, ["strength", "dicebattle", "--agents", "ismcts:iterations=5,c=0.5", "--agents", "random", *rest]
    )
    old = runner.invoke(cli, ["strength", "dicebattle", "--agents", "ismcts:iterations=5,c=0.5", "random", *rest])
    assert commas.exit_code == repeated.exit_code == old.exit_code == 0, old.output
    summary = json.loads(commas.stdout)
    assert summary["agents"] == {"a": "ismcts:iterations=5,c=0.5", "b": "random"}
    assert json.loads(repeated.stdout)["agents"] == json.loads(old.stdout)["agents"] == summary["agents"]
    assert commas.stderr == repeated.stderr == ""
    assert "the old form, still accepted; write --agents ismcts:iterations=5,c=0.5,random" in old.stderr


def test_bench_agent_reports_iterations_rollout_decisions_and_overshoot() -> None:
    game = cardarena.load("dicebattle")
    fixed = bench_agent(game, "ismcts:iterations=20", positions=2)
    assert fixed["positions"] == 2 and fixed["iterations_per_s"] > 0 and fixed["rollout_decisions_per_s"] > 0
    assert "overshoot_pct" not in fixed
    timed = bench_agent(game, "flatmc:seconds=0.01", positions=2)
    assert isinstance(timed["overshoot_pct"], float)
    plain = bench_agent(game, "random", positions=2)
    assert plain["iterations_per_s"] is None and plain["rollout_decisions_per_s"] is None


def test_a_result_is_read_from_the_returns_teams_and_shared_first_places_included() -> None:
    assert [result_for([1.0, -1.0], s) for s in (0, 1)] == ["win", "loss"]
    assert result_for([0.0, 0.0], 1) == "draw"
    # two teams (seats 0+2 vs 1+3): a team's win is a win for each member, whatever its teammate is
    assert [result_for([1.0, -1.0, 1.0, -1.0], s) for s in range(4)] == ["win", "loss", "win", "loss"]
    # a free-for-all: the best return wins, a shared first place counts, below the best loses
    assert [result_for([1.0, 1.0, -1.0], s) for s in range(3)] == ["win", "win", "loss"]
    assert result_for([0.5, 1.0, -1.0], 0) == "loss"


def test_the_strength_command_resumes_from_its_store(tmp_path: Path) -> None:
    runner = CliRunner()
    store = str(tmp_path / "cell.sqlite")
    args = ["strength", "dicebattle", "--agents", "heuristic,random", "-n", "2", "--json", "--store", store]
    first = runner.invoke(cli, args)
    again = runner.invoke(cli, args)  # every game is stored: nothing is played again
    assert first.exit_code == 0 and again.exit_code == 0, first.output + again.output
    one, two = json.loads(first.output), json.loads(again.output)
    assert without_time(one) == without_time(two) and two["time"]["resumed_games"] == 4
    other = runner.invoke(cli, [*args[:-2], "--seed", "1", "--store", store])
    assert other.exit_code == 2 and "another run" in other.output
