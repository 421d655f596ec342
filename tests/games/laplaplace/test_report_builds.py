"""The balance report's Laplaplace hooks (report_builds.py, issue 29): the builds each report game deals
(``report_setup``: shipped builds, random legal builds and the agent's own, in both seats, never only the
heuristic's one build), inline builds (``build0=cards:jab,edge``) and each card's data for "what changed"
(``entry_data``)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from cardarena.arena.report import play_one
from cardarena.engine import CardDataError, load
from cardarena.games.laplaplace import report_builds
from cardarena.games.laplaplace.cards import SHIPPED_BUILDS
from cardarena.games.laplaplace.game import LaplaplaceGame

CARDS = Path(__file__).parents[3] / "src" / "cardarena" / "games" / "laplaplace" / "data" / "cards.toml"


def game(**options: str) -> LaplaplaceGame:
    g = load("laplaplace", **options)
    assert isinstance(g, LaplaplaceGame)
    return g


def test_an_inline_build_lists_its_cards_top_to_bottom_and_is_checked_like_a_build_file() -> None:
    g = game(build="league", build0="cards:jab,Second Wind,jab", build1="cards:")
    assert [c.id for c in g.fixed[0].cards] == ["jab", "second-wind", "jab"]  # type: ignore[union-attr]
    assert g.build_name(0) == "Jab, Second Wind, Jab" and g.build_name(1) == "the empty build"
    with pytest.raises(CardDataError, match="no such card"):
        game(build1="cards:jab,no-such-card")
    with pytest.raises(CardDataError, match="at most 8 cards, not 9"):
        game(build1="cards:" + ",".join(["jab"] * 9))


def test_report_games_deal_shipped_random_and_agent_builds_to_both_seats() -> None:
    g = game()
    shipped, randoms = g.report_population()
    assert [ref for ref, _ in shipped] == list(SHIPPED_BUILDS) and len(randoms) == report_builds.RANDOM_BUILDS
    kinds: list[Counter[str]] = [Counter(), Counter()]
    jab: list[Counter[bool]] = [Counter(), Counter()]
    outcomes: Counter[str] = Counter()
    for seed in range(160):
        setup = g.report_setup(seed)
        assert setup is not None and setup.kind == "build" and setup == g.report_setup(seed)
        played = game(**dict(setup.options))  # every build dealt is legal: it loads
        for seat, label in enumerate(setup.seats):
            kind = (
                "agent"
                if label == report_builds.AGENT_LABEL
                else "random"
                if label == report_builds.RANDOM_LABEL
                else "shipped"
            )
            kinds[seat][kind] += 1
            fixed = played.fixed[seat]
            assert (fixed is None) == (kind == "agent")
            assert not (kind == "agent" and setup.seats[1 - seat] == report_builds.AGENT_LABEL)
            if fixed is not None:
                assert len(fixed.cards) == 8
                if kind == "shipped":
                    assert label == fixed.name  # "Jab Swarm"
                jab[seat][any(c.id == "jab" for c in fixed.cards)] += 1
        row = play_one(played, seed, 0, ["heuristic", "heuristic"])
        assert row["error"] is None
        outcomes["draw" if row["returns"][0] == row["returns"][1] else "decided"] += 1
    for seat in (0, 1):
        assert min(kinds[seat].values()) > 8, kinds
        assert jab[seat][True] > 20 and jab[seat][False] > 20  # a card in some builds and not in others
    # the heuristic left to build alone makes one build in both seats: every game an identical-build draw
    assert outcomes["decided"] > 0.8 * sum(outcomes.values()), outcomes


def test_the_builds_dealt_depend_on_the_cards_ids_not_on_their_numbers(tmp_path: Path) -> None:
    changed = tmp_path / "cards.toml"
    text = CARDS.read_text(encoding="utf-8")
    changed.write_text(text.replace("force = 18\n", "force = 19\n", 1), encoding="utf-8")
    a, b = game(), game(cards=str(changed))
    assert [a.report_setup(s) for s in range(20)] == [b.report_setup(s) for s in range(20)]


def test_named_builds_and_other_scenes_are_played_as_given() -> None:
    assert game(build1="fortress").report_setup(0) is None
    assert game(build="open").report_setup(0) is None
    assert game(build="league", build0="judge", build1="mimic").report_setup(0) is None


def test_editing_one_number_changes_exactly_that_entrys_data(tmp_path: Path) -> None:
    text = CARDS.read_text(encoding="utf-8")
    base = game().entry_data()
    assert set(base) == {("card", c.id) for c in game().table.cards} and len(set(base.values())) == len(base)
    start = text.index('id = "jab"')
    edited = tmp_path / "cards.toml"
    edited.write_text(text[:start] + text[start:].replace("force = 0", "force = 30", 1), encoding="utf-8")
    data = game(cards=str(edited)).entry_data()
    assert [k for k in base if base[k] != data[k]] == [("card", "jab")]
    assert data[("card", "jab")] == "Jab [7], force 30, damage; <A> damage enemy 2"
