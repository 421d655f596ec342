"""The balance report finds a planted card in Lyabi (issue 29's done test): ryabi blue3 made four times as strong
(times ×4), which both seats then buy in every game, so its strength cannot be measured by use against no use:
the report must flag its dominance (picked in nearly every (game, seat) pair) and put it first in "what changed"
and in the comparison against the shipped file, by its pick rate and the A/B change. Ryabi green11 made useless
(it costs 99, more than any hand holds), in the market in every game and never bought, is the first entry never
used. Default options and agents; see
``planted.py``."""

from __future__ import annotations

from pathlib import Path

from cardarena.games.lyabi.cards import default_path

from .planted import (
    DATA,
    assert_planted_card_found,
    assert_useless_card_found,
    changed_entries,
    key,
    run_report,
)

PLANTED = DATA / "lyabi_planted.toml"
USELESS = DATA / "lyabi_useless.toml"


def test_the_planted_files_differ_from_the_shipped_file_in_their_planted_card_alone() -> None:
    assert changed_entries("lyabi", PLANTED, default_path()) == {("card", "blue3")}
    assert changed_entries("lyabi", USELESS, default_path()) == {("card", "green11")}


def test_the_report_flags_a_ryabi_four_times_as_strong_as_dominant_and_out_of_line(tmp_path: Path) -> None:
    report, page = run_report(tmp_path, "lyabi", PLANTED, baseline=default_path(), n=100)
    assert report["variants"][0]["errors"] == 0
    blue3 = next(c for c in report["variants"][0]["cards"] if key(c) == ("card", "blue3"))
    assert blue3["dominant"] and blue3["pick_rate"] > 0.95, blue3
    assert_planted_card_found(report, page, ("card", "blue3"))
    # every seat plays it: the page says the game collapses onto it, and shows no win rate that cannot be read
    first = report["comparison"]["changed"][0]
    assert first["dominant"] and first["verdict"].startswith("out of line, dominant: played in ")
    assert "not readable, every seat plays it" in page and "the game collapses onto it" in page


def test_the_report_lists_a_ryabi_no_one_can_afford_first_among_the_cards_never_used(tmp_path: Path) -> None:
    report, _ = run_report(tmp_path, "lyabi", USELESS, n=60)
    assert_useless_card_found(report, ("card", "green11"))
