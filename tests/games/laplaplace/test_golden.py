"""Golden battles: committed records whose full transcript (builds and battle log) must not change."""

from __future__ import annotations

from pathlib import Path

import cardarena
from cardarena.engine.golden import check_golden, random_record, write_golden

GOLDEN = Path(__file__).parent / "golden"
CASES = {"blind-seed1": ({}, 1), "blind-seed7": ({}, 7), "open-seed3": ({"build": "open"}, 3)}


def test_golden_battles() -> None:
    assert check_golden(GOLDEN) == len(CASES)


def test_golden_records_are_what_random_play_gives() -> None:
    """The records were made by ``random_record``; regenerate with ``python -m tests.games.laplaplace.test_golden``."""
    import json

    for name, (options, seed) in CASES.items():
        record = random_record(cardarena.load("laplaplace", **options), seed)
        assert json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8")) == record


if __name__ == "__main__":
    for name, (options, seed) in CASES.items():
        write_golden(random_record(cardarena.load("laplaplace", **options), seed), GOLDEN / f"{name}.json")
