"""``cardarena report GAME``: report.json and index.html written where it says, the baseline compared, bad input
refused with a clear error and exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardarena.cli.main import cli

from ..arena.report_games import registered


@pytest.fixture(autouse=True)
def planted_game(monkeypatch: pytest.MonkeyPatch) -> None:
    registered(monkeypatch)


PLANTED = "a:1,b:2,c:3,op:50,dud:-1"


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
