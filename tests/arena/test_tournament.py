"""Tournaments: entrants and their seat options, the schedule on common random numbers, identical output for any
job count and store, sequential stopping, extension of a finished run, and the command's table and errors."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardarena.arena.results import StoreMismatchError
from cardarena.arena.tournament import parse_entrant, plan, play_index, tournament
from cardarena.cli.main import cli
from cardarena.engine import OptionError, RulesError, derive_seed


def test_entrants_are_named_specs_with_seat_options() -> None:
    e = parse_entrant("horde=heuristic@deck=horde")
    assert (e.name, e.spec, e.seat_options) == ("horde", "heuristic", (("deck", "horde"),))
    e = parse_entrant("ismcts:iterations=20,c=0.5")
    assert (e.name, e.spec, e.seat_options) == ("ismcts:iterations=20,c=0.5", "ismcts:iterations=20,c=0.5", ())
    for bad, message in [
        ("x=", "names no agent"),
        ("heuristic@deck", "must look like key=value"),
        ("heuristic@", "nothing after '@'"),
    ]:
        with pytest.raises(OptionError, match=message):
            parse_entrant(bad)


def test_bad_entrants_are_refused_before_any_game() -> None:
    with pytest.raises(OptionError, match="valid agents"):
        plan("dicebattle", ["random", "nobody"])
    with pytest.raises(OptionError, match="two entrants are named 'random'"):
        plan("dicebattle", ["random", "random"])
    with pytest.raises(OptionError, match="at least two entrants"):
        plan("dicebattle", ["random"])
    with pytest.raises(OptionError, match="'cards' is a game-wide option: give it with -o"):
        plan("dicebattle", ["a=random@cards=x.toml", "random"])
    with pytest.raises(OptionError, match=r"no per-seat option 'colour' \(seat options of dicebattle: deck\)"):
        plan("dicebattle", ["a=random@colour=red", "random"])
    with pytest.raises(RulesError, match="nosuchdeck"):  # a bad value fails when its seating is loaded
        plan("dicebattle", ["a=random@deck=nosuchdeck", "random"])


def test_seat_options_follow_the_entrant_to_its_seat() -> None:
    p = plan("dicebattle", ["h=heuristic@deck=horde", "v=heuristic@deck=vanguard"])
    assert p.seatings == ((0, 1), (1, 0))
    assert p.game_options(p.seat_entrants(0, 0)) == {"deck0": "horde", "deck1": "vanguard"}
    assert p.game_options(p.seat_entrants(0, 1)) == {"deck0": "vanguard", "deck1": "horde"}


def test_every_pairing_plays_the_same_deals_in_every_seating() -> None:
    p = plan("dicebattle", ["random", "heuristic", "flatmc:worlds=2"], seed=9)
    rows = {i: play_index(p, i) for i in range(2 * 3 * 2)}  # two deals of three pairings in two seatings
    for row in rows.values():
        assert row["seed"] == derive_seed(9, row["deal"]) and row["error"] is None
    assert Counter((r["deal"], r["pairing"]) for r in rows.values()) == {(d, q): 2 for d in range(2) for q in range(3)}
    assert [p.locate(i) for i in (0, 1, 2, 6)] == [(0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0)]


def test_three_seats_rotate_both_entrants_through_every_seat() -> None:
    p = plan("tashkalar", ["random", "heuristic"], options={"mode": "melee", "players": 3, "max_turns": 2})
    assert len(p.seatings) == 6
    for seat in range(3):
        assert sorted(s[seat] for s in p.seatings) == [0, 0, 0, 1, 1, 1]
    summary = tournament(p, games_per_pairing=6, jobs=1)
    assert summary["games"] == 6 and summary["seatings"] == ["ABA", "BAA", "AAB", "BAB", "ABB", "BBA"]
    assert len(summary["seat_scores"]) == 3


def test_the_same_seed_gives_the_same_summary_for_any_job_count_and_store(tmp_path: Path) -> None:
    p = plan("dicebattle", ["random", "heuristic", "flatmc:worlds=2"], seed=4)
    one = tournament(p, games_per_pairing=8, jobs=1)
    two = tournament(p, games_per_pairing=8, jobs=2, out=tmp_path / "r.sqlite")
    lines = tournament(p, games_per_pairing=8, jobs=2, out=tmp_path / "r.jsonl")
    assert one == two == lines
    assert one["games"] == 24 and len(one["pairings"]) == 3 and len(one["ratings"]) == 3
    for pairing in one["pairings"]:
        assert pairing["wins"] + pairing["draws"] + pairing["losses"] + pairing["errors"] == 8
        assert 0 <= pairing["ci95"][0] <= pairing["score"] <= pairing["ci95"][1] <= 1
    assert sum(r["elo"] for r in one["ratings"]) == pytest.approx(0, abs=0.2)
    other = tournament(plan("dicebattle", ["random", "heuristic", "flatmc:worlds=2"], seed=5), games_per_pairing=8)
    assert other != one


def test_a_run_of_more_games_extends_a_finished_one(tmp_path: Path) -> None:
    p = plan("dicebattle", ["random", "heuristic"], seed=2)
    out = tmp_path / "extend.sqlite"
    short = tournament(p, games_per_pairing=4, jobs=1, out=out)
    assert short["games"] == 4
    assert tournament(p, games_per_pairing=10, jobs=1, out=out) == tournament(p, games_per_pairing=10, jobs=1)
    # the shorter run is still read from the same store (a prefix of its deals)
    assert tournament(p, games_per_pairing=4, jobs=1, out=out) == short


def test_a_store_of_another_run_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "x.sqlite"
    tournament(plan("dicebattle", ["random", "heuristic"], seed=1), games_per_pairing=2, jobs=1, out=out)
    with pytest.raises(StoreMismatchError, match="seed: stored 1, now 2"):
        tournament(plan("dicebattle", ["random", "heuristic"], seed=2), games_per_pairing=2, jobs=1, out=out)


def test_until_significant_stops_a_clear_pairing_early_and_the_same_way_for_any_job_count() -> None:
    p = plan("dicebattle", ["heuristic", "random"], seed=3)
    one = tournament(p, games_per_pairing=200, until_significant=True, jobs=1)
    two = tournament(p, games_per_pairing=200, until_significant=True, jobs=2)
    assert one == two
    pairing = one["pairings"][0]
    assert pairing["sprt"]["stronger"] == "heuristic"
    assert pairing["games"] == 2 * pairing["sprt"]["stopped_after_deals"] < 200
    assert one["until_significant"] == {"alpha": 0.05, "delta": 0.05}


def test_the_old_form_of_the_entrants_still_plays_the_same_tournament_with_a_note(tmp_path: Path) -> None:
    """``--agents A B`` (the entrants as separate words, the form before issue 29) and the bare ``SPEC...`` are
    the tournament of ``--agents A,B``; they say on standard error how to write it now."""
    runner = CliRunner()
    rest = ["-n", "2", "--seed", "1", "--jobs", "1", "--json"]
    new = runner.invoke(cli, ["tournament", "dicebattle", "--agents", "heuristic@deck=horde,random", *rest,
                              "--out", str(tmp_path / "new.sqlite")])  # fmt: skip
    old = runner.invoke(cli, ["tournament", "dicebattle", "--agents", "heuristic@deck=horde", "random", *rest,
                              "--out", str(tmp_path / "old.sqlite")])  # fmt: skip
    bare = runner.invoke(cli, ["tournament", "dicebattle", "heuristic@deck=horde", "random", *rest,
                               "--out", str(tmp_path / "bare.sqlite")])  # fmt: skip
    assert new.exit_code == old.exit_code == bare.exit_code == 0, old.output
    assert new.stderr == ""
    for result in (old, bare):
        assert "the old form, still accepted; write --agents heuristic@deck=horde,random" in result.stderr
        assert json.loads(result.stdout)["entrants"] == json.loads(new.stdout)["entrants"]
    assert [e["name"] for e in json.loads(new.stdout)["entrants"]] == ["heuristic@deck=horde", "random"]


def test_the_tournament_command(tmp_path: Path) -> None:
    runner = CliRunner()
    base = ["tournament", "dicebattle", "--agents", "random,heuristic", "-n", "4", "--seed", "1", "--jobs", "1"]
    result = runner.invoke(cli, [*base, "--out", str(tmp_path / "a.sqlite"), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == 4 and [r["name"] for r in summary["ratings"]] == ["random", "heuristic"]
    table = runner.invoke(cli, [*base, "--out", str(tmp_path / "a.sqlite")])
    assert table.exit_code == 0, table.output
    for text in ("A's score", "95% (paired)", "ratings (Bradley–Terry", "first seat's score", "0 games played now"):
        assert text in table.output
    gauntlet = runner.invoke(
        cli, ["tournament", "dicebattle", "--gauntlet", "heuristic", "--agents", "random", "--agents",
              "flatmc:worlds=1", "-n", "2", "--jobs", "1", "--out", str(tmp_path / "g.jsonl"), "--json"],
    )  # fmt: skip
    assert gauntlet.exit_code == 0, gauntlet.output
    assert [(q["a"], q["b"]) for q in json.loads(gauntlet.output)["pairings"]] == [
        ("heuristic", "random"),
        ("heuristic", "flatmc:worlds=1"),
    ]
    bad = runner.invoke(cli, ["tournament", "dicebattle", "--agents", "random,ismcts:depht=3"])
    assert bad.exit_code == 2 and "no option 'depht'" in bad.output
    lonely = runner.invoke(cli, ["tournament", "dicebattle"])
    assert lonely.exit_code == 2 and "name the entrants: --agents SPEC,SPEC" in lonely.output
    empty = runner.invoke(cli, ["tournament", "dicebattle", "--agents"])
    assert empty.exit_code == 2 and "'--agents' requires an argument" in empty.output
    address = runner.invoke(cli, [*base, "--address", "127.0.0.1:1", "--out", str(tmp_path / "c.sqlite")])
    assert address.exit_code == 2 and "--address joins a Ray cluster" in address.output
