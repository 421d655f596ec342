"""The balance report's matchups and drama (:mod:`cardarena.arena.matchups`): known answers on hand-made game rows
and on the toy game, a planted rock-paper-scissors cycle, and drama on hand-made traces."""

from __future__ import annotations

from typing import Any

import pytest

from cardarena.arena import report as R
from cardarena.arena.matchups import MIN_EDGE_GAMES, cycles, drama, game_drama, leader, matchups
from cardarena.arena.strength import wilson
from cardarena.engine import load

from .report_games import registered


def row(setup: list[str] | None, returns: list[float], *, turns: int = 10, end: str = "decided", **extra: Any) -> dict:
    """A finished game's row as :func:`cardarena.arena.report.play_one` gives it, with only what matchups and
    drama read."""
    return {"index": 0, "error": None, "setup": setup, "returns": returns, "turns": turns, "end": end, **extra}


def games(a: str, b: str, wins: int, losses: int, draws: int = 0) -> list[dict]:
    """``a`` against ``b``: ``wins`` won by ``a``, ``losses`` by ``b``, ``draws``; each result half in each seat
    order (odd counts put the extra game with ``a`` in seat 0)."""
    out = []
    for count, result in ((wins, [1.0, -1.0]), (losses, [-1.0, 1.0]), (draws, [0.0, 0.0])):
        for k in range(count):
            if k % 2 == 0:
                out.append(row([a, b], list(result)))
            else:
                out.append(row([b, a], list(reversed(result))))
    return out


def cell(block: dict, a: str, b: str, key: str = "score") -> Any:
    labels = block["labels"]
    return block[key][labels.index(a)][labels.index(b)]


# -- the matrix --------------------------------------------------------------------------------------------------
def test_the_matrix_pools_both_seat_orders_counts_draws_half_and_gives_wilson_intervals() -> None:
    rows = games("horde", "elves", 20, 8, 2) + games("horde", "horde", 12, 13) + games("elves", "elves", 5, 5)
    block = matchups(rows)
    assert block is not None and block["kind"] == "deck"
    assert block["labels"] == ["horde", "elves"]  # the stronger deck first
    assert cell(block, "horde", "elves") == pytest.approx(21 / 30)
    assert cell(block, "elves", "horde") == pytest.approx(9 / 30)
    assert cell(block, "horde", "elves", "games") == cell(block, "elves", "horde", "games") == 30
    lo, hi = wilson(21 / 30, 30)
    assert cell(block, "horde", "elves", "ci") == [round(lo, 4), round(hi, 4)]
    # the mirrors: even by definition, counted once per game
    assert cell(block, "horde", "horde") == cell(block, "elves", "elves") == 0.5
    assert cell(block, "horde", "horde", "games") == 25 and cell(block, "elves", "elves", "games") == 10
    assert cell(block, "horde", "horde", "ci") is None
    assert block["cycles"] == [] and block["note"] == ""
    assert "seat order" in block["method"]


def test_a_matrix_with_a_seat_bias_is_the_same_in_either_seat_order() -> None:
    """Whether horde sat first or second in its wins does not change its score against elves."""
    first = [row(["horde", "elves"], [1.0, -1.0])] * 24 + [row(["elves", "horde"], [1.0, -1.0])] * 6
    second = [row(["elves", "horde"], [-1.0, 1.0])] * 24 + [row(["horde", "elves"], [-1.0, 1.0])] * 6
    assert cell(matchups(first), "horde", "elves") == cell(matchups(second), "horde", "elves") == 0.8


def test_rare_decks_are_pooled_or_left_out_with_a_note() -> None:
    common = games("a", "b", 15, 10) + games("a", "a", 10, 10)
    pooled = common + [row([f"rare{k}", "a"], [1.0, -1.0]) for k in range(25)]
    block = matchups(pooled)
    assert block is not None and block["labels"][-1] == "other decks"
    assert cell(block, "other decks", "a") == 1.0 and cell(block, "other decks", "a", "games") == 25
    assert "25 decks" in block["note"] and "pooled" in block["note"]
    assert all("other decks" not in c for c in block["cycles"])
    few = common + [row([f"rare{k}", "a"], [1.0, -1.0]) for k in range(5)]
    block = matchups(few)
    assert (
        block is not None
        and block["labels"] == ["a", "b"]
        and "5 decks" in block["note"]
        and "left out" in block["note"]
    )
    assert cell(block, "a", "b", "games") == 25  # the rare decks' games are in no cell


def test_without_setups_the_agents_are_matched_up_and_one_label_gives_no_matrix() -> None:
    def agents(r: dict) -> list[str]:  # the agents rotate by index, as the report seats them
        return ["ismcts", "random"] if r["index"] % 2 == 0 else ["random", "ismcts"]

    rows = []
    for i in range(40):  # ismcts wins three games in four, in either seat
        ismcts_won = i % 4 != 0
        rows.append(row(None, [1.0, -1.0] if ismcts_won == (i % 2 == 0) else [-1.0, 1.0], index=i))
    block = matchups(rows, seat_labels=agents)
    assert block is not None and block["kind"] == "agent" and block["labels"] == ["ismcts", "random"]
    assert cell(block, "ismcts", "random") == pytest.approx(30 / 40)
    assert matchups(rows) is None  # no setups, no agents: nothing to match up
    assert matchups(rows, seat_labels=lambda r: ["heuristic", "heuristic"]) is None
    assert matchups([row(["starter", "starter"], [1.0, -1.0])] * 30) is None


def test_with_three_seats_two_losers_say_nothing_about_each_other_and_a_shared_win_is_even() -> None:
    rows = [row(["a", "b", "c"], [1.0, -1.0, -1.0])] * 20 + [row(["b", "c", "a"], [1.0, 1.0, -1.0])] * 20
    block = matchups(rows)
    assert block is not None
    assert cell(block, "a", "b") == cell(block, "a", "c") == 0.5  # won 20, lost 20 to each
    assert cell(block, "b", "c") == 0.5 and cell(block, "b", "c", "games") == 20  # the shared wins only
    assert "meeting" in block["method"]


# -- cycles ------------------------------------------------------------------------------------------------------
def test_a_planted_rock_paper_scissors_triple_is_reported_as_a_sure_cycle() -> None:
    rows = games("rock", "scissors", 32, 8) + games("scissors", "paper", 32, 8) + games("paper", "rock", 32, 8)
    block = matchups(rows)
    assert block is not None and block["cycles"] == [["paper", "rock", "scissors"]]
    (detail,) = block["cycle_details"]
    assert detail["strength"] == 0.8 and detail["sure"]
    assert [(e["winner"], e["loser"]) for e in detail["edges"]] == [
        ("paper", "rock"),
        ("rock", "scissors"),
        ("scissors", "paper"),
    ]
    assert all(e["ci"][0] > 0.5 and e["games"] == 40 for e in detail["edges"])


def test_a_weak_cycle_is_reported_but_not_sure_and_a_transitive_set_is_no_cycle() -> None:
    weak = games("rock", "scissors", 12, 8) + games("scissors", "paper", 12, 8) + games("paper", "rock", 12, 8)
    block = matchups(weak)
    assert block is not None and len(block["cycles"]) == 1
    assert block["cycle_details"][0]["strength"] == 0.6 and not block["cycle_details"][0]["sure"]
    transitive = games("gold", "silver", 32, 8) + games("silver", "bronze", 32, 8) + games("gold", "bronze", 36, 4)
    block = matchups(transitive)
    assert block is not None and block["labels"] == ["gold", "silver", "bronze"] and block["cycles"] == []


def test_longer_cycles_are_found_once_and_only_without_a_shortcut() -> None:
    n = MIN_EDGE_GAMES
    labels = ["a", "b", "c", "d"]

    def matrix(pairs: dict[tuple[int, int], float]) -> tuple[list, list, list]:
        score: list[list[float | None]] = [[None] * 4 for _ in range(4)]
        games_ = [[0] * 4 for _ in range(4)]
        for (i, j), s in pairs.items():
            score[i][j], score[j][i] = s, 1 - s
            games_[i][j] = games_[j][i] = n
        ci = [[None if s is None else [s - 0.1, s + 0.1] for s in r] for r in score]
        return score, ci, games_

    ring = {(0, 1): 0.7, (1, 2): 0.7, (2, 3): 0.7, (3, 0): 0.6}  # a > b > c > d > a, nothing across
    found = cycles(labels, *matrix(ring))
    assert [c["labels"] for c in found] == [["a", "b", "c", "d"]] and found[0]["strength"] == 0.6
    assert cycles(labels, *matrix({**ring, (0, 2): 0.5, (1, 3): 0.5})) == found  # even cells are no shortcut
    # a shortcut c > a splits it: the 3-cycle a > b > c > a is listed, not the 4-cycle
    found = cycles(labels, *matrix({**ring, (2, 0): 0.7}))
    assert [c["labels"] for c in found] == [["a", "b", "c"]]
    few = matrix(ring)
    few[2][3][0] = few[2][0][3] = n - 1  # too few games for the link d > a
    assert cycles(labels, *few) == []


# -- the toy game ------------------------------------------------------------------------------------------------
def test_the_toy_games_decks_give_a_known_matrix(monkeypatch: pytest.MonkeyPatch) -> None:
    """PlantedGame with three named decks, each seat drawing one per game (``report_setup``), through the whole
    report: every card of a higher deck outvalues every card of a lower one, so the higher deck always wins,
    mirrors are even, and the set is transitive (no cycle)."""
    registered(monkeypatch)
    options = {"decks": "low=a:1,b:2;mid=c:3,d:4;high=e:5,f:6", "hand": "2", "rounds": "2"}
    data = R.report(R.plan("toy-planted", n=120, seed=7, agents=["random"], options=options), jobs=1, bootstrap=0)
    block = data["variants"][0]["matchups"]
    assert block is not None and block["kind"] == "deck" and block["labels"] == ["high", "mid", "low"]
    for i in range(3):
        for j in range(3):
            assert block["games"][i][j] > 0
            assert block["score"][i][j] == (0.5 if i == j else 1.0 if i < j else 0.0)
    assert block["cycles"] == []
    assert sum(block["games"][i][j] for i in range(3) for j in range(i, 3)) == 120  # every game in one cell
    assert load("toy-planted").report_setup(0) is None  # without decks: no setup, the game as before


def test_without_setups_the_report_matches_up_differing_agents_and_no_drama_without_evaluate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    registered(monkeypatch)
    data = R.report(R.plan("toy-planted", n=30, agents=["random", "heuristic"]), jobs=1, bootstrap=0)
    variant = data["variants"][0]
    block = variant["matchups"]
    assert block is not None and block["kind"] == "agent"
    assert sorted(block["labels"]) == ["heuristic", "random"] and block["games"][0][1] == 30
    assert variant["drama"] is None and any("evaluate" in note for note in variant["notes"])
    same = R.report(R.plan("toy-planted", n=4, agents=["random"]), jobs=1, bootstrap=0)
    assert same["variants"][0]["matchups"] is None


# -- drama -------------------------------------------------------------------------------------------------------
def test_the_leader_is_the_best_estimate_by_a_margin_and_nobody_on_a_tie() -> None:
    assert leader([0.5, -0.5]) == 0 and leader([-0.2, 0.3, 0.1, 0.0]) == 1
    assert leader([0.2, 0.2, -0.4]) is None and leader([0.0, 0.0]) is None and leader([None, None]) is None
    assert leader([0.03, -0.03]) is None  # a lead smaller than the margin is a tie


def test_the_estimates_are_averaged_over_a_round_so_the_seat_that_just_moved_does_not_lead() -> None:
    """ToraBato's estimate swings to the seat that has just moved: averaged over a round, nobody leads after the
    first estimate (taken alone), where read point by point the lead would change seven times."""
    swing = row(None, [1.0, -1.0], turns=8, trace=[[t, [0.3, -0.3] if t % 2 else [-0.3, 0.3]] for t in range(1, 9)])
    assert game_drama(swing) == {"decided_turn": 8, "decided_share": 100, "lead_changes": 0, "comeback": False}


def test_a_comeback_is_decided_late_with_lead_changes_and_a_runaway_at_turn_one() -> None:
    ahead, behind = [[0.2, -0.2], [0.4, -0.4], [0.5, -0.5], [0.6, -0.6], [0.5, -0.5]], [[-0.3, 0.3], [-0.5, 0.5]]
    comeback = row(
        ["a", "b"],
        [-1.0, 1.0],
        turns=10,
        trace=[[t, v] for t, v in enumerate([[0.0, 0.0], *ahead, *behind, [-0.6, 0.6], [-0.8, 0.8]], start=1)],
    )
    # averaged over a round: seat 0 leads from turn 2 to 6, nobody at 7, seat 1 from 8 to the end
    assert game_drama(comeback) == {"decided_turn": 8, "decided_share": 80, "lead_changes": 1, "comeback": True}
    runaway = row(["a", "b"], [1.0, -1.0], turns=10, trace=[[t, [0.1 * t, -0.1 * t]] for t in range(1, 11)])
    assert game_drama(runaway) == {"decided_turn": 1, "decided_share": 10, "lead_changes": 0, "comeback": False}
    # the estimate never saw the winner coming: decided on the last turn, and the result takes the lead once more
    upset = row(None, [-1.0, 1.0], turns=6, trace=[[1, [0.2, -0.2]], [3, [0.0, 0.0]], [5, [0.4, -0.4]]])
    assert game_drama(upset) == {"decided_turn": 6, "decided_share": 100, "lead_changes": 1, "comeback": True}
    # three seats, the lead passing from seat 1 (through a tie) to seat 2 and on to seat 0, the winner
    phases = [[0.0, 0.6, 0.0]] * 3 + [[0.3, 0.3, 0.0]] * 3 + [[0.0, 0.0, 0.6]] * 3 + [[0.6, 0.0, 0.0]] * 3
    seesaw = row(None, [1.0, -1.0, -1.0], turns=12, trace=[[t, v] for t, v in enumerate(phases, start=1)])
    assert game_drama(seesaw) == {"decided_turn": 11, "decided_share": 92, "lead_changes": 2, "comeback": True}
    # a draw has lead changes but no decided turn; a trace without estimates has no drama
    draw = row(None, [0.0, 0.0], trace=[[1, [0.3, -0.3]], [2, [0.3, -0.3]], [3, [-0.5, 0.5]], [4, [-0.5, 0.5]]])
    assert game_drama(draw) == {"decided_turn": None, "decided_share": None, "lead_changes": 1, "comeback": None}
    assert game_drama(row(None, [1.0, -1.0], trace=[[1, [None, None]], [2, [None, None]]])) is None


def test_the_drama_block_summarises_the_games_and_lengths_per_end() -> None:
    runaway = row(None, [1.0, -1.0], turns=10, end="knockout", trace=[[t, [1.0, -1.0]] for t in range(1, 11)])
    comeback = row(
        None, [-1.0, 1.0], turns=20, end="decked", trace=[[1, [0.5, -0.5]], [14, [-0.5, 0.5]], [15, [-0.5, 0.5]]]
    )
    draw = row(None, [0.0, 0.0], turns=30, end="turn cap", trace=[[1, [0.0, 0.0]]])
    failed = {"index": 9, "error": "ValueError: x", "returns": None, "turns": 0, "end": None}
    block, note = drama([runaway] * 3 + [comeback] + [draw] + [failed], R.distribution)
    assert note is None and block is not None
    assert block["games"] == 5 and block["decided_games"] == 4
    assert block["decided_turn"] == R.distribution([1, 1, 1, 15])
    assert block["decided_share"] == R.distribution([10, 10, 10, 75])
    assert block["lead_changes"] == R.distribution([0, 0, 0, 1, 0])
    assert block["comebacks"]["count"] == 1 and block["comebacks"]["share"] == 0.25
    assert list(block["turns_by_end"]) == ["knockout", "decked", "turn cap"]  # most frequent first
    assert block["turns_by_end"]["knockout"] == R.distribution([10, 10, 10])
    assert block["turns_by_end"]["turn cap"]["mean"] == 30
    assert "decided" in block["method"] and "lead changes" in block["method"].lower()


def test_a_game_without_an_evaluation_has_no_drama_and_says_why() -> None:
    blind = [row(None, [1.0, -1.0], trace=[[1, [None, None]]]), row(None, [1.0, -1.0], trace=[])]
    block, note = drama([*blind, row(None, [-1.0, 1.0])], R.distribution)
    assert block is None and note is not None and "evaluate" in note
    assert drama([], R.distribution) == (None, None)
    some, note = drama([*blind, row(None, [1.0, -1.0], trace=[[1, [0.5, -0.5]]])], R.distribution)
    assert some is not None and some["games"] == 1 and note is not None and "2 of 3" in note


def test_variants_of_a_deck_are_counted_with_the_deck_they_vary() -> None:
    """Dice Battle's one-card swaps fold into their starter, Laplaplace's random builds into 'random'."""
    rows = games("horde", "arcana", 10, 10)
    rows += games("horde, Goblin swapped for Imp", "arcana, Owl swapped for Bat", 12, 3)
    rows += games("random: Jab, Edge", "arcana", 5, 5) + games("random: Edge, Edge", "horde", 5, 5)
    block = matchups(rows)
    assert block is not None and sorted(block["labels"]) == ["arcana", "horde", "random"]
    assert cell(block, "horde", "arcana") == round(22 / 35, 4) and cell(block, "horde", "arcana", "games") == 35
    assert "4 variants of a deck" in block["note"]
