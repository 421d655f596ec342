"""The balance report finds a planted card in Tash-Kalar (issue 29's done test): Ember's Cinder Imp made to destroy
every enemy non-legendary piece within distance 3 (the shipped one destroys one adjacent enemy common) is first in
"what changed" and in the comparison against the shipped cards and named out of line, with the schools rotated
game by game (``report_setup``); the legend Star Seer, given a pattern that needs four legendary pieces (a player
has three), is the first entry never used. Default options (the deathmatch duel) and agents; see
``planted.py``."""

from __future__ import annotations

from pathlib import Path

from cardarena.games.tashkalar.cards import default_path

from .planted import DATA, assert_planted_card_found, assert_useless_card_found, changed_entries, run_report

PLANTED = DATA / "tashkalar_planted.toml"
USELESS = DATA / "tashkalar_useless.toml"
SHIPPED = Path(default_path())


def test_the_planted_files_differ_from_the_shipped_cards_in_their_planted_card_alone() -> None:
    assert changed_entries("tashkalar", PLANTED, SHIPPED) == {("card", "cinder-imp")}
    assert changed_entries("tashkalar", USELESS, SHIPPED) == {("card", "star-seer")}


def test_the_report_names_an_overpowered_being_out_of_line_against_the_shipped_cards(tmp_path: Path) -> None:
    # 200 games: seeds 0-2 put Cinder Imp first with p 1e-5, 1.4e-4 and < 1e-6 (the next card 6e-4, 4e-4, 6e-4),
    # measured by its paired change on the same games: its strength alone is taken by its school's term, since it
    # is played in ~90% of Ember's games
    report, page = run_report(tmp_path, "tashkalar", PLANTED, baseline=SHIPPED, n=200)
    assert report["variants"][0]["errors"] == 0
    assert report["setup"]["kind"] == "school"
    # named out of line by "what changed" (+25 points, interval clear of 0); the first variant alone, at 200
    # games, credits its school with it (its own strength interval still holds 0), so not "at a glance"
    assert_planted_card_found(report, page, ("card", "cinder-imp"), at_a_glance=False)


def test_the_report_lists_a_legend_that_can_never_be_summoned_first_among_the_cards_never_used(
    tmp_path: Path,
) -> None:
    report, _ = run_report(tmp_path, "tashkalar", USELESS, n=40)
    assert_useless_card_found(report, ("card", "star-seer"))
