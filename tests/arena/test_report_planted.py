"""The balance report's done test (issue 17): a tests-only Laplaplace card list (tests/arena/data/
laplaplace_planted.toml) plants an overpowered card (Overpower: a fast, unanswerable 30-damage action) and an
unusable one (Dud: no ability, it never fires); the report ranks Overpower strongest and lists Dud first under
"never occurred" (coverage counts the games in which an entry was used; among the never used, those most often in
a build come first)."""

from __future__ import annotations

from pathlib import Path

from cardarena.arena import report as R

CARDS = Path(__file__).parent / "data" / "laplaplace_planted.toml"


def test_the_report_ranks_a_planted_overpowered_card_first_and_lists_an_unusable_one_first_never_used() -> None:
    # random builds: every card is built by some seats and not by others, so each card's use can be compared
    the_plan = R.plan("laplaplace", n=200, seed=0, agents=["random"], options={"cards": str(CARDS)})
    variant = R.report(the_plan, jobs=1, bootstrap=0)["variants"][0]
    assert variant["errors"] == 0
    strongest, second = variant["cards"][:2]
    assert (strongest["name"], strongest["rank"]) == ("overpower", 1)
    assert strongest["strength"] > second["strength"] + 0.3
    assert strongest["score_used"] > 0.75 and strongest["score_included"] > strongest["score_not_included"] + 0.25
    never = variant["coverage"][0]
    assert (never["kind"], never["name"], never["games"]) == ("card", "dud", 0)
    assert never["games_any"] > 20  # built often, never fired
    dud = next(c for c in variant["cards"] if c["name"] == "dud")
    assert dud["games_included"] > 20 and dud["games_used"] == 0 and dud["rank"] is None
