"""``cardarena report GAME``: report.json and index.html written where it says, the baseline compared, bad input
refused with a clear error and exit code 2."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from cardarena.arena.report import identity, plan
from cardarena.cli.main import cli
from cardarena.cli.progress import GameProgress
from cardarena.cli.report_cmd import STORE

from ..arena.report_games import registered


@pytest.fixture(autouse=True)
def planted_game(monkeypatch: pytest.MonkeyPatch) -> None:
    registered(monkeypatch)


PLANTED = "a:1,b:2,c:3,op:50,dud:-1"
SHIPPED_TORABATO = Path(__file__).resolve().parents[2] / "src/cardarena/games/torabato/data/cards.toml"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output  # standard output and standard error


def test_report_writes_the_json_and_the_page_into_the_default_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = run("report", "toy-planted", "-n", "12", "--agents", "random", "-o", f"cards={PLANTED}", "-j", "1")
    assert code == 0, out
    folder = tmp_path / "report-toy-planted"
    assert f"report: {folder / 'index.html'}" in out and f"data:   {folder / 'report.json'}" in out
    data = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    assert data["schema"] == 2 and data["agents"] == ["random", "random"] and data["comparison"] is None
    assert data["variants"][0]["games"] == 12 and data["variants"][0]["options"] == {"cards": PLANTED}
    assert {c["name"] for c in data["variants"][0]["cards"]} == {"a", "b", "c", "op", "dud", "pass"}
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert page.startswith("<!doctype html>") and "Toy planted cards" in page


def test_report_with_a_baseline_option_compares_the_two_card_lists(tmp_path: Path) -> None:
    out_dir = tmp_path / "ab"
    code, out = run(
        "report",
        "toy-planted",
        "-n",
        "10",
        "--agents",
        "random",
        "--option",
        f"cards={PLANTED}",
        "--baseline-option",
        "cards=a:1,b:2,c:3,op:2,dud:-1",
        "--out",
        str(out_dir),
        "--bootstrap",
        "0",
        "--jobs",
        "1",
    )
    assert code == 0, out
    data = json.loads((out_dir / "report.json").read_text(encoding="utf-8"))
    assert [v["label"] for v in data["variants"]] == ["as given", "baseline"]
    assert data["comparison"]["labels"] == ["as given", "baseline"]
    assert "2 variant(s)" in out


def test_a_game_without_involvement_says_so(tmp_path: Path) -> None:
    code, out = run("report", "toy-bid", "-n", "4", "--agents", "random", "--out", str(tmp_path), "-j", "1")
    assert code == 0, out
    assert "note: This game declares no card involvement" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nogame"], "unknown game 'nogame'"),
        (["toy-planted", "-o", "speed=3"], "speed"),
        (["toy-planted", "-o", "cards"], "must look like name=value"),
        (["toy-planted", "--baseline-option", "seats=3"], "number of seats"),
        (["toy-planted", "--agents", "random,random,random"], "2 seats; got 3 agents"),
        (["toy-planted", "--agents", "nobody"], "nobody"),
        (["toy-planted", "-n", "0"], "-n must be at least 1"),
        (["toy-planted", "--jobs", "0"], "--jobs must be"),
    ],
)
def test_bad_input_is_an_error_line_and_exit_code_2(args: list[str], message: str, tmp_path: Path) -> None:
    code, out = run("report", *args, "--out", str(tmp_path / "never"))
    assert code == 2 and "error:" in out and message in out
    assert not (tmp_path / "never").exists()


# -- refused before any game (issue 29, point 9) ---------------------------------------------------------------------
@pytest.fixture
def no_play(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Replace the playing of the report by a recorder: a refused run must never reach it (nor draw its bar)."""
    calls: list[str] = []

    def must_not_run(*args: object, **kwargs: object) -> None:
        calls.append("report")
        raise AssertionError("a refused run began to play")

    class NoBar:
        def __init__(self, *args: object, **kwargs: object) -> None:
            calls.append("progress bar")

    monkeypatch.setattr("cardarena.cli.report_cmd.report", must_not_run)
    monkeypatch.setattr("cardarena.cli.report_cmd.GameProgress", NoBar)
    return calls


def refused(result: Result, message: str) -> None:
    """One error line with the message, exit code 2, no traceback, no summary of games."""
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    errors = [line for line in result.stderr.splitlines() if line.startswith(("error:", "Error:"))]
    assert len(errors) == 1 and message in errors[0], result.stderr
    assert "Traceback" not in result.output and "games per variant" not in result.output


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, ["report", "toy-planted", "-n", "4", "--agents", "random", "-j", "1", *args])


def test_an_out_path_that_is_a_file_is_refused_before_play(tmp_path: Path, no_play: list[str]) -> None:
    (tmp_path / "file").write_text("mine")
    refused(invoke("--out", str(tmp_path / "file")), "is a file")
    assert no_play == [] and (tmp_path / "file").read_text() == "mine"


def test_an_out_folder_whose_parent_is_missing_is_refused_before_play(tmp_path: Path, no_play: list[str]) -> None:
    refused(invoke("--out", str(tmp_path / "typo" / "out")), f"the folder {tmp_path / 'typo'} does not exist")
    assert no_play == [] and not (tmp_path / "typo").exists()


def test_an_out_folder_one_cannot_write_in_is_refused_before_play(
    tmp_path: Path, no_play: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    if os.geteuid() == 0:  # root may write in any folder: the folder is made to answer as it would for a user
        real = os.access
        monkeypatch.setattr(os, "access", lambda path, mode: Path(path) != locked and real(path, mode))
    try:
        refused(invoke("--out", str(locked / "out")), "cannot write in")
    finally:
        locked.chmod(0o700)
    assert no_play == []


def test_a_folder_holding_another_report_is_refused_unless_fresh(tmp_path: Path, no_play: list[str]) -> None:
    """A report.json without its stored games (another run's, or an older version's) is not overwritten."""
    (tmp_path / "report.json").write_text('{"game": "other"}')
    refused(invoke("--out", str(tmp_path)), "holds a report whose games are not stored")
    assert no_play == [] and (tmp_path / "report.json").read_text() == '{"game": "other"}'
    assert not (tmp_path / STORE).exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--baseline-option", "colour=red"], "no option 'colour'"),
        (["--baseline-option", "cards=a:one"], "must look like name:value"),
        (["-o", "hand=9"], "above the maximum"),
        (["--address", "127.0.0.1:1"], "--address joins a Ray cluster"),
        (["--agents", "ismcts:depht=3"], "no option 'depht'"),  # seat 1's agent (seat 0: random)
    ],
)
def test_bad_options_are_refused_before_play(args: list[str], message: str, tmp_path: Path, no_play: list[str]) -> None:
    refused(invoke(*args, "--out", str(tmp_path / "out")), message)
    assert no_play == [] and not (tmp_path / "out").exists()


def test_the_shipped_data_is_named_builtin_for_a_baseline(tmp_path: Path) -> None:
    """docs/report.md's --baseline-option cards=builtin: the shipped card file, whatever the game (the plan checks it
    with a real game; no game is played)."""
    the_plan = plan("torabato", n=1, options={"cards": str(SHIPPED_TORABATO)}, baseline_options={"cards": "builtin"})
    assert the_plan.baseline == {"cards": "builtin"}


# -- the store: a run resumes, another run is refused ----------------------------------------------------------------
AB = ["-n", "10", "--agents", "random", "-o", f"cards={PLANTED}", "--baseline-option", "cards=a:1,b:2,c:3,op:2,dud:-1",
      "--bootstrap", "0", "-j", "1"]  # fmt: skip


def stored(folder: Path) -> int:
    with sqlite3.connect(folder / STORE) as db:
        return int(db.execute("SELECT count(*) FROM results").fetchone()[0])


def numbers(folder: Path) -> dict[str, Any]:
    data = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if k not in ("created", "elapsed_s")}


def test_an_interrupted_report_resumes_and_gives_the_numbers_of_a_straight_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C after some games (the progress callback raises KeyboardInterrupt, as Ctrl-C would): the finished
    games are stored, the message says how to resume; the same command then plays only the missing games, and its
    report.json holds the numbers of an uninterrupted run."""
    straight = CliRunner().invoke(cli, ["report", "toy-planted", *AB, "--out", str(tmp_path / "straight")])
    assert straight.exit_code == 0, straight.output

    class Interrupted(GameProgress):
        def __call__(self, done: int, total: int, phase: str = "games") -> None:
            super().__call__(done, total, phase)
            if phase == "games" and 6 <= done < total:
                raise KeyboardInterrupt

    folder = tmp_path / "resumed"
    monkeypatch.setattr("cardarena.cli.report_cmd.GameProgress", Interrupted)
    stopped = CliRunner().invoke(cli, ["report", "toy-planted", *AB, "--out", str(folder)])
    assert stopped.exit_code == 130, stopped.output
    assert f"interrupted: the finished games are stored in {folder / STORE}" in stopped.stderr
    assert "run the same command again to resume" in stopped.stderr
    kept = stored(folder)
    assert 6 <= kept < 20 and not (folder / "report.json").exists()
    monkeypatch.undo()
    registered(monkeypatch)
    again = CliRunner().invoke(cli, ["report", "toy-planted", *AB, "--out", str(folder)])
    assert again.exit_code == 0, again.output
    assert f"{kept} games were stored by an earlier run, {20 - kept} played now" in again.output
    assert stored(folder) == 20
    assert numbers(folder) == numbers(tmp_path / "straight")


def test_another_run_into_the_same_folder_is_refused_naming_what_differs_unless_fresh(tmp_path: Path) -> None:
    first = invoke("--out", str(tmp_path), "--bootstrap", "0")
    assert first.exit_code == 0, first.output
    report_json = (tmp_path / "report.json").read_text(encoding="utf-8")
    other = invoke("--out", str(tmp_path), "--bootstrap", "0", "--seed", "1")
    refused(other, f"--out {tmp_path} holds the results of another run (seed: stored 0, now 1)")
    assert "--fresh" in other.stderr and stored(tmp_path) == 4
    assert (tmp_path / "report.json").read_text(encoding="utf-8") == report_json
    refused(invoke("--out", str(tmp_path), "--fresh", "-o", "hand=9"), "above the maximum")
    assert stored(tmp_path) == 4  # a refused --fresh run forgets nothing
    fresh = invoke("--out", str(tmp_path), "--bootstrap", "0", "--seed", "1", "--fresh")
    assert fresh.exit_code == 0, fresh.output
    assert json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))["seed"] == 1 and stored(tmp_path) == 4
    # the same run with more games plays only the new ones
    more = CliRunner().invoke(
        cli, ["report", "toy-planted", "-n", "6", "--agents", "random", "-j", "1", "--out", str(tmp_path),
              "--bootstrap", "0", "--seed", "1"]
    )  # fmt: skip
    assert more.exit_code == 0, more.output
    assert "4 games were stored by an earlier run, 2 played now" in more.output and stored(tmp_path) == 6


def test_an_edited_card_file_is_another_run(tmp_path: Path) -> None:
    """The store knows a data file by its content: the same command after editing the file is refused, not
    answered with the old file's games."""
    toy = identity(plan("toy-planted", n=4, agents=["random"], options={"cards": PLANTED}))
    assert toy["files"] == {} and toy["games"] == 4 and toy["run"] == "report"  # toy's cards option is no file
    shipped = SHIPPED_TORABATO
    copy = tmp_path / "torabato.toml"
    copy.write_text(shipped.read_text(encoding="utf-8"), encoding="utf-8")
    a = identity(plan("torabato", n=1, options={"cards": str(copy)}))
    copy.write_text(shipped.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    b = identity(plan("torabato", n=1, options={"cards": str(copy)}))
    assert list(a["files"]) == [f"cards={copy}"] and a["files"] != b["files"]
