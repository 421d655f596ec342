"""The balance report's card statistics of schema 2 (:mod:`cardarena.arena.report`), on synthetic games with known
answers: a card is not credited with its deck's results when the games vary the decks, strengths are win-rate
points centred on the average card, a card every seat plays is flagged as dominant, and the comparison of two
variants puts the card that changed first, by evidence, with its interval and a false-discovery-rate control."""

from __future__ import annotations

import random
from typing import Any

from cardarena.arena import report as R
from cardarena.engine import Declared

ENDS = [Declared("end", "decided", "a seat won"), Declared("end", "draw", "a draw")]
NAMES = ["deckcard", "k", "filler1", "filler2", "filler3", "always"]
CATALOGUE = [Declared("card", n, n) for n in NAMES] + [Declared("rule", "r", "a rule")]
ENTRY = {n: i for i, n in enumerate(NAMES)}
RULE = len(NAMES)


def synthetic(
    games: int,
    *,
    seed: int,
    k_effect: float = 0.2,
    deck_effect: float = 0.25,
    labels: bool = True,
    always_rate: float = 1.0,
) -> list[dict[str, Any]]:
    """Two-seat games. Each seat brings deck "strong" or "weak" (drawn at random); "strong" wins by
    ``deck_effect`` more. ``deckcard`` is only in the strong deck, played in 70% of its games, and does nothing of
    its own; ``k`` is in both decks, played at random, and adds ``k_effect`` to its owner's chance; fillers are
    played at random and do nothing; ``always`` is offered to every seat and played by ``always_rate`` of them
    (doing nothing); the rule applies in
    every game. ``labels=False`` hides the decks from the report (as a game without setups would)."""
    rng = random.Random(seed)
    rows = []
    for g in range(games):
        decks = [rng.choice(["strong", "weak"]) for _ in range(2)]
        used: list[list[int]] = [[], []]
        for s in range(2):
            if decks[s] == "strong" and rng.random() < 0.7:
                used[s].append(ENTRY["deckcard"])
            for name in ("k", "filler1", "filler2", "filler3"):
                if rng.random() < 0.5:
                    used[s].append(ENTRY[name])
            if rng.random() < always_rate:
                used[s].append(ENTRY["always"])
        edge = [
            (deck_effect if d == "strong" else 0.0) + (k_effect if ENTRY["k"] in u else 0.0)
            for d, u in zip(decks, used)
        ]
        p0 = min(0.95, max(0.05, 0.5 + (edge[0] - edge[1]) / 2))
        returns = [1.0, -1.0] if rng.random() < p0 else [-1.0, 1.0]
        # every seat is offered "always" (it may leave it); the other cards are available when used
        offered = {ENTRY["always"] * 4 + R.AVAILABLE}
        seen = [sorted({e * 4 + R.USED for e in u} | {e * 4 + R.AVAILABLE for e in u} | offered) for u in used]
        rows.append(
            {
                "index": g,
                "seed": g,
                "setup": decks if labels else None,
                "returns": returns,
                "first": g % 2,
                "turns": 10,
                "decisions": 20,
                "end": "decided",
                "seen": seen,
                "used": [[(e, 1) for e in u] for u in used],
                "shared": [RULE * 4 + R.USED],
                "shared_used": [(RULE, 1)],
                "any": sorted({e for u in used for e in u} | {RULE}),
                "undeclared": [],
                "trace": None,
                "error": None,
            }
        )
    return rows


def variant(rows: list[dict[str, Any]], bootstrap: int = 40) -> dict[str, Any]:
    return R.summarise_variant("as given", {}, CATALOGUE, ENDS, 2, rows, seed=1, bootstrap=bootstrap)


def card(v: dict[str, Any], name: str) -> dict[str, Any]:
    return next(c for c in v["cards"] if c["name"] == name)


def test_a_card_of_the_winning_deck_is_not_credited_with_its_decks_results() -> None:
    rows = synthetic(1500, seed=1)
    controlled = variant(rows)
    blind = variant([{**r, "setup": None} for r in rows])
    # without the decks, the deck's card takes the deck's results; with them, k (a real +20 points) is strongest
    assert card(blind, "deckcard")["points"] > card(blind, "k")["points"]
    assert card(controlled, "k")["rank"] == 1 and card(controlled, "k")["points_ci"][0] > 0
    assert abs(card(controlled, "deckcard")["points"]) < card(controlled, "k")["points"] / 2
    assert card(controlled, "k")["verdict"].startswith("out of line, strong")
    assert not card(controlled, "deckcard")["verdict"].startswith("out of line")
    # the page is told which decks the seats brought, and how each fared
    table = {t["label"]: t for t in controlled["setups"]}
    assert set(table) == {"strong", "weak"} and sum(t["pairs"] for t in table.values()) == 3000
    assert (
        table["strong"]["score"] > table["weak"]["score"] and sum(table["strong"]["seats"]) == table["strong"]["pairs"]
    )
    assert "deck" in controlled["strength_method"] or "brought" in controlled["strength_method"]


def test_points_are_centred_on_the_average_card_of_each_kind() -> None:
    v = variant(synthetic(800, seed=2, k_effect=0.0, deck_effect=0.0), bootstrap=0)
    cards = [c for c in v["cards"] if c["kind"] == "card" and c["points"] is not None]
    weighted = sum(c["points"] * c["games_used"] for c in cards) / sum(c["games_used"] for c in cards)
    assert abs(weighted) < 1.0  # 0 is the average card (up to the logistic curve's bend)
    assert all(abs(c["points"]) < 10 for c in cards)  # no card does anything: none is far from 0
    assert all(c["verdict"] == "" or not c["verdict"].startswith("out of line") for c in cards)
    assert set(v["strength_centre"]) == {"card"}


def test_a_card_every_seat_plays_is_flagged_dominant_and_a_rule_never_is() -> None:
    v = variant(synthetic(400, seed=3), bootstrap=0)
    always = card(v, "always")
    assert always["pick_rate"] == 1.0 and always["dominant"] is True
    assert always["verdict"].startswith("dominant") and "baseline" in always["verdict"]
    assert card(v, "r")["pick_rate"] == 1.0 and card(v, "r")["dominant"] is False
    assert not card(v, "filler1")["dominant"]
    assert any(o["name"] == "always" for o in v["out_of_line"])
    assert all(o["why"] for o in v["out_of_line"])


def test_the_comparison_puts_the_changed_card_first_by_evidence_with_an_interval_and_q_values() -> None:
    a = variant(synthetic(1200, seed=4, k_effect=0.35))
    b = variant(synthetic(1200, seed=4, k_effect=0.0))
    turns = [10] * 1200
    data_a = {("card", n): f"value={5 if n == 'k' else 1}" for n in NAMES}
    data_b = {("card", n): "value=1" for n in NAMES}
    comparison = R.compare(a, b, turns, turns, data_a, data_b)
    first = comparison["cards"][0]
    assert first["name"] == "k" and first["changed"] is True and first["significant"] is True
    assert first["points_change"] > 10 and first["points_change_ci"][0] > 0
    assert first["q"] >= first["p"] and first["verdict"].startswith("out of line")
    assert [c["name"] for c in comparison["changed"]] == ["k"]
    assert comparison["changed"][0]["a"] == "value=5" and comparison["changed"][0]["verdict"] == first["verdict"]
    qs = [c["q"] for c in comparison["cards"] if c["q"] is not None]
    assert all(q <= 1.0 for q in qs)
    unchanged = [c for c in comparison["cards"] if c["name"] in ("filler1", "filler2", "filler3")]
    assert not any(c["verdict"].startswith("out of line") for c in unchanged)


def test_a_card_that_becomes_dominant_is_found_by_its_choice_rate() -> None:
    """Everybody plays it as given: its strength cannot be read from use, its choice rate's jump is the evidence."""
    a = variant(synthetic(600, seed=5, always_rate=1.0))
    b = variant(synthetic(600, seed=5, always_rate=0.45))
    comparison = R.compare(a, b, [10] * 600, [10] * 600, {("card", "always"): "x=4"}, {("card", "always"): "x=1"})
    first = comparison["cards"][0]
    assert first["name"] == "always" and first["dominant_a"] and not first["dominant_b"]
    assert first["significant"] and first["verdict"].startswith("out of line, dominant")


def test_benjamini_hochberg_adjusts_and_keeps_untested_lines() -> None:
    assert R.benjamini_hochberg([]) == []
    assert R.benjamini_hochberg([None, None]) == [None, None]
    q = R.benjamini_hochberg([0.001, 0.02, 0.5, None])
    assert q[0] == 0.003 and q[1] == 0.03 and q[2] == 0.5 and q[3] is None
