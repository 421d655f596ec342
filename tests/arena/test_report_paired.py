"""The comparison's paired model (:func:`cardarena.arena.report.paired_changes`): both variants play the same games
(common random numbers), so the difference of each seat's score between them is regressed on the cards' use. On
synthetic pairs of games with a known answer: only the edited card's games change, and the model names it, with
the right size and a small p, while cards played beside it (the same deck) or against it are not blamed."""

from __future__ import annotations

import random
from typing import Any

from cardarena.arena import report as R
from cardarena.engine import Declared

NAMES = ["edited", "partner", "answer", "filler1", "filler2"]
CATALOGUE = [Declared("card", n, n) for n in NAMES]
KEYS = [("card", n) for n in NAMES]


def row(returns: list[float], used: list[list[int]]) -> dict[str, Any]:
    return {"returns": returns, "error": None, "seen": [sorted(e * 4 + R.USED for e in u) for u in used]}


def games(n: int, seed: int, effect: float) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Variant B: every game a coin. Variant A: the same games, but a seat that played ``edited`` wins a game it
    lost with probability ``effect`` (the edit); ``partner`` comes with ``edited`` in 80% of the seats (one deck),
    ``answer`` is played by the other seat in half of the games where ``edited`` was played; fillers at random."""
    rng = random.Random(seed)
    rows_a, rows_b = [], []
    for _ in range(n):
        used: list[list[int]] = [[], []]
        for s in (0, 1):
            if rng.random() < 0.4:
                used[s].append(0)
                if rng.random() < 0.8:
                    used[s].append(1)
            elif rng.random() < 0.1:
                used[s].append(1)
            used[s] += [e for e in (3, 4) if rng.random() < 0.5]
        for s in (0, 1):
            if 0 in used[s] and rng.random() < 0.5:
                used[1 - s].append(2)
        b = [1.0, -1.0] if rng.random() < 0.5 else [-1.0, 1.0]
        a = list(b)
        for s in (0, 1):
            if 0 in used[s] and 0 not in used[1 - s] and a[s] < 0 and rng.random() < effect:
                a = [1.0, -1.0] if s == 0 else [-1.0, 1.0]
        rows_a.append(row(a, used))
        rows_b.append(row(b, used))
    return rows_a, rows_b


def test_the_paired_model_names_the_edited_card_and_not_the_cards_played_beside_or_against_it() -> None:
    for seed in range(3):
        rows_a, rows_b = games(600, seed, effect=0.4)
        found = R.paired_changes(rows_a, rows_b, CATALOGUE, CATALOGUE, KEYS, 2)
        ranked = sorted(found, key=lambda k: found[k]["p"])
        assert ranked[0] == ("card", "edited"), found
        edited = found[("card", "edited")]
        # the seats that played it alone won 40% of the games they had lost (half of them): about +0.2
        assert 0.1 < edited["change"] < 0.3 and edited["p"] < 1e-6
        for key in KEYS[1:]:
            assert found[key]["p"] > 0.001 and abs(found[key]["change"]) < 0.1, (key, found[key])


def test_the_paired_model_finds_nothing_when_the_variants_play_alike() -> None:
    rows_a, rows_b = games(300, 7, effect=0.0)
    found = R.paired_changes(rows_a, rows_b, CATALOGUE, CATALOGUE, KEYS, 2)
    assert all(f["change"] == 0 and f["p"] == 1.0 for f in found.values())


def test_entries_of_one_variant_only_and_games_with_errors_are_left_out() -> None:
    rows_a, rows_b = games(50, 1, effect=0.4)
    rows_b[3] = {**rows_b[3], "error": "boom", "returns": None}
    found = R.paired_changes(rows_a, rows_b, CATALOGUE, CATALOGUE[:4], KEYS, 2)
    assert ("card", "filler2") not in found and ("card", "edited") in found
