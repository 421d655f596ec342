"""Depth and luck (:mod:`cardarena.arena.depth`): the skill ladder, restricted play and the luck index, with
known answers on toy games built on the report's planted-card game (tests/arena/report_games.py).

``DepthGame`` is :class:`PlantedGame` with two additions the depth measures need and the report never did: a
``clone`` that copies the hands (search agents and the restricted agent apply actions to copies), and an
evaluation (the seat's lead in total), so that the heuristic agent plays greedily (its highest card) instead of at
random. With ``rounds`` equal to ``hand`` every card is played whatever the seats choose: a pure-luck game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardarena.agents import SeatView, make_agent
from cardarena.arena.depth import (
    DepthPlan,
    RestrictedAgent,
    add_depth,
    check,
    first_player_verdict,
    importance_verdict,
    ladder_specs,
    ladder_verdict,
    with_budget,
)
from cardarena.arena.report import plan, report
from cardarena.cli.main import cli
from cardarena.engine import OptionError, registry

from .report_games import PlantedGame, PlantedState

CARDS = "a:1,b:2,c:3,d:4,e:5,f:6,z:-1"


class DepthState(PlantedState):
    def clone(self) -> DepthState:
        twin = super().clone()  # the kernel's clone makes a PlantedState and shares the hands' lists
        twin.__class__ = DepthState
        assert isinstance(twin, DepthState)
        twin.hands = [list(h) for h in self.hands]
        return twin


class DepthGame(PlantedGame):
    id = "toy-depth"
    name = "Toy depth"

    def new_initial_state(self, seed: int = 0) -> DepthState:
        return DepthState(self, seed)

    def evaluate(self, observation: dict[str, Any], seat: int) -> float:
        totals = observation["totals"]
        return (totals[seat] - max(t for s, t in enumerate(totals) if s != seat)) / 12


@pytest.fixture(autouse=True)
def _depth_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._extra, DepthGame.id, DepthGame)


def depth_of(
    n: int, depth: DepthPlan, agents: list[str] | None = None, jobs: int = 1, **options: Any
) -> dict[str, Any]:
    the_plan = plan(DepthGame.id, n=n, agents=agents or ["heuristic"], options={"cards": CARDS, **options})
    data = report(the_plan, bootstrap=0)
    return add_depth(data, the_plan, check(depth), jobs=jobs)["depth"]


def test_restricted_play_costs_most_for_the_highest_card_and_nothing_for_an_unplayable_one() -> None:
    # one card each (hand 3, rounds 1): the greedy heuristic plays its highest card, so forbidding f (6) loses
    # games; z (-1) is never legal, so forbidding it changes no decision and, the games being paired, no result
    depth = depth_of(20, DepthPlan(120, None, top=0, entries=("z", "card:d", "f")), hand=3, rounds=1)
    rows = {r["name"]: r for r in depth["restricted"]}
    assert depth["restricted"][0]["name"] == "f"
    assert rows["f"]["importance_ci"][0] > 0 and "costs" in rows["f"]["verdict"]
    assert rows["f"]["importance"] > rows["d"]["importance"] + 5
    assert rows["z"]["importance"] == 0 and rows["z"]["importance_ci"] == [0, 0] and rows["z"]["used_anyway"] == 0
    assert "changed no game" in rows["z"]["verdict"]
    assert depth["mirror"]["games"] == 120 and all(r["games"] == 120 for r in depth["restricted"])
    assert rows["f"]["score"] < depth["mirror"]["score"] and rows["f"]["agent"] == "heuristic without card f"
    assert depth["ladder"] == [] and depth["ladder_verdict"] == ""


def test_restricted_play_tries_the_most_used_cards_in_order_of_importance() -> None:
    # two cards each (hand 3, rounds 2): the greedy heuristic plays its two highest, f, e and d most often; each
    # one forbidden costs games (the seat must play its lowest card instead), f the most
    depth = depth_of(40, DepthPlan(100, None, top=3, entries=("f",)), hand=3, rounds=2)
    names = [r["name"] for r in depth["restricted"]]
    assert sorted(names) == ["d", "e", "f"]  # f named and among the most used: tried once
    assert names[0] == "f" and all(r["importance_ci"][0] > 0 for r in depth["restricted"])
    importances = [r["importance"] for r in depth["restricted"]]
    assert importances == sorted(importances, reverse=True)


def test_the_restricted_agent_keeps_off_the_card_unless_nothing_else_is_legal() -> None:
    game = DepthGame(cards=CARDS, hand=3, rounds=2)
    state = game.new_initial_state(0)
    state.edit(hands=[["a", "f", "z"], ["e", "f", "z"]])
    agent = RestrictedAgent(make_agent("heuristic", 1), "card", "f", seed=1)
    view = SeatView(state, 0)
    assert make_agent("heuristic", 1).act(view)[1] == "f"  # unrestricted, it plays its highest card
    assert agent.act(view)[1] == "a" and agent.forced == 0
    state.edit(hands=[["f", "z", "z"], ["e", "f", "z"]])  # f is the only playable card: the game must go on
    assert agent.act(SeatView(state, 0))[1] == "f"


def test_the_ladder_rises_then_flattens_where_one_good_choice_decides() -> None:
    # one card each from three: one search iteration picks at random, two compare two cards, from four on every
    # card is tried: the first doubling pays, later ones no longer do
    depth = depth_of(20, DepthPlan(200, "ismcts:iterations=1", doublings=3, top=0), hand=3, rounds=1)
    ladder = depth["ladder"]
    assert [(r["budget"], r["opponent"]) for r in ladder] == [
        (2, "ismcts:iterations=1"),
        (4, "ismcts:iterations=2"),
        (8, "ismcts:iterations=4"),
    ]
    assert ladder[0]["ci"][0] > 0.5 and ladder[0]["score"] > ladder[-1]["score"]
    assert ladder[-1]["ci"][0] <= 0.5 and "flattens" in depth["ladder_verdict"]
    luck = depth["luck"]
    assert luck["opponent"] == "random" and luck["agent"] == "heuristic" and luck["index_ci"][1] < 1
    assert "skill" in luck["verdict"]


def test_in_a_pure_luck_game_the_ladder_is_flat_and_luck_is_high() -> None:
    # every card is played whatever anyone chooses (hand 2, rounds 2): the deal and the seat decide each game
    depth = depth_of(20, DepthPlan(150, "ismcts:iterations=1", doublings=2, top=0), hand=2, rounds=2)
    scores = {r["score"] for r in depth["ladder"]}
    assert len(scores) == 1 and all(r["ci"][0] <= 0.5 <= r["ci"][1] for r in depth["ladder"])
    assert depth["ladder_verdict"].startswith("No doubling pays")
    luck = depth["luck"]
    assert luck["index_ci"][0] <= 1 <= luck["index_ci"][1] and "decided by luck" in luck["verdict"]
    assert depth["first_player"]["fair"] == 0.5 and depth["first_player"]["verdict"]


def test_three_seats_and_two_jobs_give_the_same_depth_as_one() -> None:
    # three seats: the measured agent against two others, fair 1/3; the same numbers from two worker processes
    plan_ = DepthPlan(24, "ismcts:iterations=1", doublings=1, top=1)
    one = depth_of(12, plan_, seats=3, hand=2, rounds=1)
    assert one == depth_of(12, plan_, jobs=2, seats=3, hand=2, rounds=1)
    assert one["fair"] == 0.3333 and one["luck"]["fair"] == 0.3333 and len(one["ladder"]) == 1
    assert one["ladder"][0]["opponent"] == "ismcts:iterations=1" and one["restricted"][0]["games"] == 24


def test_verdicts_in_words_from_hand_made_numbers() -> None:
    def rung(budget: int, score: float, lo: float, hi: float) -> dict[str, Any]:
        return {"agent": f"x:n={budget}", "budget": budget, "opponent": f"x:n={budget // 2}", "score": score,
                "ci": [lo, hi]}  # fmt: skip

    pays, flat = rung(50, 0.6, 0.55, 0.65), rung(100, 0.51, 0.46, 0.56)
    assert ladder_verdict([pays, rung(100, 0.58, 0.53, 0.63)], 0.5).startswith("Skill pays at every doubling")
    assert ladder_verdict([pays, flat], 0.5).startswith("Skill pays up to budget 50 and flattens there")
    assert ladder_verdict([flat, flat], 0.5).startswith("No doubling pays")
    assert ladder_verdict([flat, pays], 0.5).startswith("Skill pays at some doublings only")
    first = first_player_verdict({"games": 100, "score": 0.6, "ci": [0.55, 0.65]}, 0.5)
    assert first is not None and first["advantage"] == 10.0 and "real advantage" in first["verdict"]
    later = first_player_verdict({"games": 100, "score": 0.2, "ci": [0.15, 0.24]}, 0.25)
    assert later is not None and "disadvantage" in later["verdict"]
    even = first_player_verdict({"games": 100, "score": 0.52, "ci": [0.45, 0.59]}, 0.5)
    assert even is not None and "no measurable advantage" in even["verdict"]
    assert first_player_verdict(None, 0.5) is None
    entry = {"games": 200, "importance": 0.0, "importance_ci": [0.0, 0.0], "used_anyway": 185}
    assert importance_verdict(entry).startswith("Could not be kept out of play: the restricted agent still used it")
    assert importance_verdict({**entry, "used_anyway": 0}).startswith("Forbidding it changed no game's result")
    assert "trap" in importance_verdict({**entry, "used_anyway": 0, "importance": -8, "importance_ci": [-12, -3]})


def test_budgets_double_and_bad_depth_plans_are_refused_before_any_game() -> None:
    assert with_budget("ismcts:c=0.7,iterations=25", 50) == "ismcts:c=0.7,iterations=50"
    assert [b for _, b in ladder_specs("flatmc:worlds=3", 2)] == [3, 6, 12]
    assert ladder_specs("ismcts", 1)[1] == ("ismcts:iterations=2000", 2000)
    game = DepthGame(cards=CARDS)
    for bad, message in (
        (DepthPlan(0), "at least 1 game"),
        (DepthPlan(10, "random"), "has none"),
        (DepthPlan(10, "ismcts:depth=x"), "depth"),
        (DepthPlan(10, doublings=0), "doublings"),
        (DepthPlan(10, entries=("nothing",)), "not an entry"),
    ):
        with pytest.raises(OptionError, match=message):
            check(bad, game)


def test_the_command_measures_depth_when_asked_and_refuses_bad_depth_options_before_any_game(tmp_path: Path) -> None:
    base = ["report", DepthGame.id, "-n", "12", "-o", f"cards={CARDS}", "-o", "rounds=1", "-j", "1", "--bootstrap", "0"]
    out = tmp_path / "depth"
    args = ["--depth", "30", "--depth-ladder", "none", "--depth-top", "2", "--depth-card", "z", "--out", str(out)]
    result = CliRunner().invoke(cli, [*base, *args])
    assert result.exit_code == 0, result.output
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    depth = data["depth"]
    assert depth["games"] == 30 and depth["ladder"] == [] and depth["luck"]["games"] == 30
    assert "z" in [r["name"] for r in depth["restricted"]] and len(depth["restricted"]) == 3
    assert (out / "index.html").exists()
    plain = CliRunner().invoke(cli, [*base, "--out", str(tmp_path / "plain")])
    assert plain.exit_code == 0 and json.loads((tmp_path / "plain" / "report.json").read_text())["depth"] is None
    for bad, message in (
        (["--depth", "5", "--depth-card", "nothing"], "not an entry"),
        (["--depth", "5", "--depth-ladder", "random"], "has none"),
        (["--depth-card", "z"], "needs --depth"),
        (["--depth", "5", "--depth-doublings", "0"], "doublings"),
    ):
        result = CliRunner().invoke(cli, [*base, *bad, "--out", str(tmp_path / "never")])
        assert result.exit_code == 2 and message in result.output, result.output
        assert not (tmp_path / "never").exists()
