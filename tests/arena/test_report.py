"""The balance report's games and statistics (:mod:`cardarena.arena.report`): statistics on hand-made summaries
with known answers, the same JSON for any number of jobs, several seats, the baseline comparison, bad input."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import cardarena
from cardarena.agents import SeatView, make_agent
from cardarena.arena import report as R
from cardarena.arena.strength import wilson
from cardarena.engine import Declared, OptionError, derive_seed

from .report_games import PlantedGame, registered


@pytest.fixture(autouse=True)
def planted_game(monkeypatch: pytest.MonkeyPatch) -> None:
    registered(monkeypatch)


PLANTED = "a:1,b:2,c:3,d:4,e:5,f:6,op:50,dud:-1"  # op: overpowered; dud: never legal to play
CATALOGUE = [Declared("card", "x", "X"), Declared("card", "y", "Y"), Declared("rule", "r", "R")]
ENDS = [Declared("end", "decided", "a seat won"), Declared("end", "draw", "a draw")]
X, Y, RULE = 0, 1, 2


def code(entry: int, stage: int) -> int:
    return entry * 4 + stage


def row(index: int, returns: list[float] | None, first: int | None, turns: int, **kw: Any) -> dict[str, Any]:
    """A game's summary as :func:`report.play_one` gives it."""
    seen = kw.get("seen", [[], []])
    base = {"index": index, "seed": index, "returns": returns, "first": first, "turns": turns}
    if returns is None:
        return {**base, "decisions": 0, "end": None, "error": "RulesError: boom (at x.py:1)"}
    return {
        **base,
        "decisions": turns + 2,
        "end": kw["end"],
        "seen": seen,
        "used": kw.get("used", [[], []]),
        "shared": kw.get("shared", []),
        "shared_used": kw.get("shared_used", []),
        "any": sorted({c // 4 for s in [*seen, kw.get("shared", [])] for c in s}),
        "undeclared": [],
        "error": None,
    }


HAND_MADE = [
    # game 0: seat 0 (first) wins having used x twice; seat 1 held y without using it
    row(
        0,
        [1.0, -1.0],
        0,
        3,
        end="decided",
        seen=[[code(X, R.INCLUDED), code(X, R.USED)], [code(Y, R.INCLUDED), code(Y, R.AVAILABLE)]],
        used=[[(X, 2)], []],
    ),
    # game 1: a draw; seat 0 had x available and did not use it, seat 1 (first) used y once
    row(
        1,
        [0.0, 0.0],
        1,
        5,
        end="draw",
        seen=[[code(X, R.INCLUDED), code(X, R.AVAILABLE)], [code(Y, R.INCLUDED), code(Y, R.USED)]],
        used=[[], [(Y, 1)]],
    ),
    # game 2: seat 1 wins with x, which was also destroyed (affected); seat 0 (first) had nothing
    row(
        2,
        [-1.0, 1.0],
        0,
        4,
        end="decided",
        seen=[[], [code(X, R.INCLUDED), code(X, R.USED), code(X, R.AFFECTED)]],
        used=[[], [(X, 1)]],
    ),
    row(3, None, None, 0),  # an error: counted, left out of every statistic
]


def ci(total: float, n: int) -> list[float]:
    lo, hi = wilson(total / n, n)
    return [round(lo, 4), round(hi, 4)]


def test_statistics_of_hand_made_games_have_the_known_answers() -> None:
    v = R.summarise_variant("as given", {"cards": "c.toml"}, CATALOGUE, ENDS, 2, HAND_MADE, bootstrap=0)
    assert (v["games"], v["errors"], v["options"]) == (4, 1, {"cards": "c.toml"})
    assert v["error_examples"] == ["game 3 (seed 3): RulesError: boom (at x.py:1)"]
    for seat in v["seats"]:  # each seat won once, drew once, lost once
        assert (seat["wins"], seat["draws"], seat["losses"], seat["score"]) == (1, 1, 1, 0.5)
        assert seat["ci"] == ci(1.5, 3)
    # the first player: seat 0 won game 0, seat 1 drew game 1, seat 0 lost game 2
    assert v["first_player"] == {"games": 3, "score": 0.5, "ci": ci(1.5, 3)}
    turns = v["length"]["turns"]
    assert (turns["mean"], turns["median"], turns["min"], turns["max"]) == (4.0, 4.0, 3, 5)
    assert turns["histogram"] == [[3, 4, 1], [4, 5, 1], [5, 6, 1]]
    assert v["length"]["decisions"]["mean"] == 6.0
    assert v["ends"] == [
        {"name": "decided", "label": "a seat won", "count": 2, "share": round(2 / 3, 4)},
        {"name": "draw", "label": "a draw", "count": 1, "share": round(1 / 3, 4)},
    ]
    cards = {c["name"]: c for c in v["cards"]}
    x, y, r = cards["x"], cards["y"], cards["r"]
    assert (x["games_included"], x["games_available"], x["games_used"], x["games_affected"]) == (3, 3, 2, 1)
    assert x["used_count"] == 3
    assert (x["score_used"], x["ci_used"]) == (1.0, ci(2.0, 2))
    assert (x["score_available_not_used"], x["ci_available_not_used"]) == (0.5, ci(0.5, 1))
    assert x["score_included"] == round(2.5 / 3, 4) and x["ci_included"] == ci(2.5, 3)
    assert x["score_not_included"] == round(0.5 / 3, 4)  # seat 1 of games 0 and 1, seat 0 of game 2
    assert (y["games_included"], y["games_available"], y["games_used"], y["used_count"]) == (2, 2, 1, 1)
    assert (y["score_used"], y["score_available_not_used"]) == (0.5, 0.0)
    # the rule never occurred: no scores, no strength, no rank
    assert (r["games_used"], r["score_used"], r["ci_used"], r["strength"], r["rank"]) == (0, None, None, None, None)
    assert r["score_not_included"] is None  # never included by anyone: "not included" would mean every pair
    assert [c["name"] for c in v["cards"]] == ["x", "y", "r"]  # strongest first, the unused last
    assert (x["rank"], y["rank"]) == (1, 2) and x["strength"] > 0.1 > y["strength"]
    assert x["strength_ci"] is None  # no bootstrap asked for
    assert [(c["name"], c["games"], c["games_any"]) for c in v["coverage"]] == [("r", 0, 0), ("y", 1, 2), ("x", 2, 3)]
    assert len(v["notes"]) == 1 and v["notes"][0].startswith("No drama")  # hand-made rows carry no trace


def test_coverage_lists_the_never_used_most_often_dealt_first() -> None:
    seen_z = [[code(Y, R.AVAILABLE)], [code(X, R.USED)]]
    rows = [row(i, [1.0, -1.0], 0, 3, end="decided", seen=seen_z, used=[[], [(X, 1)]]) for i in range(3)]
    v = R.summarise_variant("as given", {}, CATALOGUE, ENDS, 2, rows, bootstrap=0)
    assert [(c["name"], c["games"], c["games_any"]) for c in v["coverage"]] == [("y", 0, 3), ("r", 0, 0), ("x", 3, 3)]


def test_the_regression_ranks_a_planted_winning_card_first_with_an_interval_above_zero() -> None:
    rng = random.Random(5)
    catalogue = [Declared("card", n, n) for n in ("good", "n1", "n2", "n3")]
    rows = []
    for i in range(300):
        seen: list[list[int]] = [[], []]
        for s in (0, 1):
            seen[s] = [code(e, R.USED) for e in range(4) if rng.random() < 0.5]
        good = [code(0, R.USED) in seen[s] for s in (0, 1)]
        winner = good.index(True) if good.count(True) == 1 else rng.randrange(2)
        returns = [1.0, -1.0] if winner == 0 else [-1.0, 1.0]
        used = [[(c // 4, 1) for c in s] for s in seen]
        rows.append(row(i, returns, i % 2, 3, end="decided", seen=seen, used=used))
    v = R.summarise_variant("as given", {}, catalogue, ENDS, 2, rows, bootstrap=20)
    best = v["cards"][0]
    assert (best["name"], best["rank"]) == ("good", 1)
    assert best["strength_ci"][0] > 0.5
    for c in v["cards"][1:]:
        assert c["strength_ci"][0] < c["strength"] < c["strength_ci"][1]
        assert abs(c["strength"]) < best["strength_ci"][0]
    assert "bootstrap" in v["strength_method"]


def test_two_proportions_and_the_comparison_lines() -> None:
    assert R.two_proportions(None, 10, 0.5, 10) is None and R.two_proportions(0.5, 0, 0.5, 10) is None
    assert R.two_proportions(1.0, 10, 1.0, 10) == 1.0
    a = R.summarise_variant("as given", {}, CATALOGUE, ENDS, 2, HAND_MADE, bootstrap=0)
    b = R.summarise_variant("baseline", {}, CATALOGUE[:1], ENDS, 2, HAND_MADE[:1], bootstrap=0)
    comparison = R.compare(a, b, [3, 5, 4], [3])
    assert comparison["labels"] == ["as given", "baseline"]
    assert comparison["seats"][0]["a"] == 0.5 and comparison["seats"][0]["b"] == 1.0
    assert comparison["seats"][0]["change"] == -0.5 and comparison["seats"][0]["p"] is not None
    assert comparison["length_turns_mean"]["p"] is None  # one game in the baseline: no test
    names = [c["name"] for c in comparison["cards"]]
    assert set(names) == {"x", "y", "r"}  # y and r are in one variant only
    y = next(c for c in comparison["cards"] if c["name"] == "y")
    assert y["points_a"] is not None and (y["points_b"], y["points_change"], y["pick_b"]) == (None, None, None)
    assert (y["p"], y["q"], y["games_used_b"], y["few_uses"]) == (None, None, 0, True)
    assert comparison["changed"] == []  # no entry data given: nothing is known to have changed


def _report(**kw: Any) -> dict[str, Any]:
    jobs = kw.pop("jobs", 1)
    data = R.report(R.plan("toy-planted", agents=["random"], **kw), jobs=jobs, bootstrap=20)
    assert data["schema"] == 2 and data["game"] == "toy-planted"
    data.pop("created")
    data.pop("elapsed_s")
    return data


def test_the_same_report_for_one_job_and_two() -> None:
    options = {"cards": PLANTED}
    one = _report(n=24, seed=3, options=options, jobs=1)
    two = _report(n=24, seed=3, options=options, jobs=2)
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)
    assert one["variants"][0]["games"] == 24


@pytest.mark.parametrize("seats", [3, 4])
def test_several_seats_rank_the_planted_card_first_and_the_unusable_one_first_never_used(seats: int) -> None:
    data = _report(n=120, options={"cards": PLANTED, "seats": str(seats)})
    v = data["variants"][0]
    assert data["agents"] == ["random"] * seats and len(v["seats"]) == seats
    assert v["cards"][0]["name"] == "op" and v["cards"][0]["rank"] == 1
    assert v["coverage"][0]["name"] == "dud" and v["coverage"][0]["games"] == 0
    dud = next(c for c in v["cards"] if c["name"] == "dud")
    assert dud["games_available"] > 0 and dud["games_used"] == 0 and dud["rank"] is None
    assert sum(e["count"] for e in v["ends"]) == 120
    assert v["first_player"]["games"] == 120


def test_the_baseline_plays_the_same_games_with_its_options_and_is_compared() -> None:
    data = _report(n=60, options={"cards": PLANTED}, baseline_options={"cards": "a:1,b:2,c:3,d:4,e:5,f:6,op:1,new:3"})
    a, b = data["variants"]
    assert (a["label"], b["label"]) == ("as given", "baseline")
    assert a["options"]["cards"] == PLANTED and b["options"]["cards"].endswith("new:3")
    comparison = data["comparison"]
    first = comparison["cards"][0]  # the strongest evidence: op is worth 50 as given, 1 in the baseline
    assert first["name"] == "op" and first["points_change"] > 10 and first["significant"] is True
    assert first["points_change_ci"][0] > 0 and first["q"] < 0.05 and first["verdict"].startswith("out of line")
    new = next(c for c in comparison["cards"] if c["name"] == "new")
    assert new["points_a"] is None and new["games_used_a"] == 0 and new["games_used_b"] > 0
    # what changed: op's value (the strongest evidence first), dud added, new removed, then the option itself
    changed = [(c["name"], c["change"]) for c in comparison["changed"]]
    assert changed[0] == ("op", "data") and set(changed[1:3]) == {("dud", "added"), ("new", "removed")}
    assert changed[3] == ("cards", "option") and len(changed) == 4
    assert comparison["changed"][0]["a"] == "value=50" and comparison["changed"][0]["b"] == "value=1"
    assert {c["name"] for c in comparison["cards"]} >= {"dud", "new", "pass"}
    assert len(comparison["seats"]) == 2 and comparison["length_turns_mean"]["change"] == 0.0


def test_a_game_that_declares_no_involvement_gets_seats_lengths_ends_and_a_note() -> None:
    data = R.report(R.plan("toy-bid", n=10, agents=["random"]), jobs=1, bootstrap=0)
    v = data["variants"][0]
    assert v["cards"] == [] and v["coverage"] == []
    assert len(v["seats"]) == 2 and v["length"]["turns"]["mean"] == 4.0
    assert sum(e["count"] for e in v["ends"]) == 10
    assert "declares no card involvement" in v["notes"][0]
    assert v["strength_method"].startswith("No strengths")


def test_a_game_that_raises_is_counted_as_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: PlantedGame, before: Any, action: Any, after: Any) -> list[Any]:
        if after.step == 3:
            raise RuntimeError("hook bug")
        return []

    monkeypatch.setattr(PlantedGame, "involvement", broken)
    data = R.report(R.plan("toy-planted", n=4, agents=["random"], options={"rounds": "1"}), jobs=1, bootstrap=0)
    v = data["variants"][0]
    assert (v["games"], v["errors"]) == (4, 0)  # one round of two seats: step 3 never comes
    data = R.report(R.plan("toy-planted", n=4, agents=["random"]), jobs=1, bootstrap=0)
    v = data["variants"][0]
    assert (v["games"], v["errors"]) == (4, 4)
    assert "RuntimeError: hook bug" in v["error_examples"][0]
    assert all(s["score"] is None for s in v["seats"]) and v["first_player"] is None


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n": 0}, "-n must be at least 1"),
        ({"agents": ["nobody"]}, "nobody"),
        ({"agents": ["random"] * 3}, "2 seats; got 3 agents"),
        ({"options": {"speed": "9"}}, "speed"),
        ({"options": {"cards": "a:x"}}, "name:value"),
        ({"baseline_options": {"cards": "nonsense"}}, "name:value"),
        ({"baseline_options": {"seats": "3"}}, "number of seats"),
    ],
)
def test_bad_input_is_a_clear_option_error_before_any_game(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        R.plan("toy-planted", **kwargs)


def test_ray_gives_the_same_report_as_processes() -> None:
    """Ray's workers are fresh processes (the tests-only game is not registered there): a shipped game."""
    import ray  # the arena extra installs it

    the_plan = R.plan("laplaplace", n=6, seed=2, agents=["random"])
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = R.report(the_plan, backend="ray", bootstrap=0)
    finally:
        ray.shutdown()
    here = R.report(the_plan, jobs=1, bootstrap=0)
    for data in (on_ray, here):
        data.pop("created")
        data.pop("elapsed_s")
    assert on_ray == here


def test_an_involvement_of_no_seat_counts_once_per_game_without_an_owner_score() -> None:
    rows = [
        row(i, [1.0, -1.0], 0, 3, end="decided", seen=[[code(X, R.USED)], []], used=[[(X, 1)], []], **extra)
        for i, extra in enumerate(
            [{"shared": [code(RULE, R.USED)], "shared_used": [(RULE, 2)]}, {"shared": [code(RULE, R.USED)]}, {}]
        )
    ]
    v = R.summarise_variant("as given", {}, CATALOGUE, ENDS, 2, rows, bootstrap=0)
    r = next(c for c in v["cards"] if c["name"] == "r")
    assert (r["games_used"], r["games_available"], r["used_count"]) == (2, 2, 2)
    assert (r["score_used"], r["strength"], r["rank"]) == (None, None, None)
    assert next(c for c in v["coverage"] if c["name"] == "r")["games"] == 2


def test_a_report_where_no_card_was_used_says_why_there_are_no_strengths() -> None:
    rows = [row(i, [0.0, 0.0], 0, 1, end="draw", seen=[[code(X, R.INCLUDED)], [code(X, R.INCLUDED)]]) for i in range(3)]
    v = R.summarise_variant("as given", {}, CATALOGUE, ENDS, 2, rows, bootstrap=0)
    assert all(c["rank"] is None for c in v["cards"])
    assert "every game ended as 'draw'" in v["notes"][0] and "--agents random" in v["notes"][0]


@pytest.mark.parametrize(
    ("game_id", "options"),
    [("torabato", {}), ("lyabi", {}), ("dicebattle", {}), ("tashkalar", {"mode": "melee", "players": 4})],
)
def test_the_first_player_is_the_seat_of_the_first_turn_as_the_game_tells_it(
    game_id: str, options: dict[str, Any]
) -> None:
    """The report's first player is ``game.first_player`` (a reveal, setup circles, a coin, seat 0 after the
    second player's setup), not whoever makes the first decision."""
    game = cardarena.load(game_id, **options)
    for index in range(6):
        row = R.play_one(game, index, 11, ["random"] * game.num_players)
        # the same game again, by the same seeded agents, up to the point where the rules name the first player
        state = game.new_initial_state(row["seed"])
        players = [make_agent("random", derive_seed(11, index, k + 1)) for k in range(game.num_players)]
        while game.first_player(state) is None:
            seat = state.current_player
            assert seat is not None
            state.apply(players[seat].act(SeatView(state, seat)))
        assert row["first"] == game.first_player(state)
        if game_id == "tashkalar":
            assert row["first"] == 0 and game.new_initial_state(row["seed"]).current_player == 3  # the setup seat


def test_laplaplace_has_no_first_player_and_the_report_says_none() -> None:
    """先攻後攻決定フェイズ: every battle turn decides its first player anew, so the game has none."""
    data = R.report(R.plan("laplaplace", n=20, agents=["random"]), jobs=1, bootstrap=0)
    assert data["variants"][0]["first_player"] is None and data["variants"][0]["games"] == 20
