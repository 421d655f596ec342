"""Golden battles: committed records whose full transcript (builds and battle log) must not change."""

from __future__ import annotations

from pathlib import Path

import pytest

import cardarena
from cardarena.engine import RecordError
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


def test_records_of_version_1_are_refused() -> None:
    """Version 2 changed outcomes (the judgement decides every battle between different builds), so a record
    written by version 1 is refused with a message naming both versions."""
    record = random_record(cardarena.load("laplaplace"), 1)
    assert record["version"] == cardarena.load("laplaplace").version == "2"
    with pytest.raises(RecordError, match="laplaplace version 1, this engine has version 2"):
        cardarena.replay({**record, "version": "1"})


if __name__ == "__main__":
    for name, (options, seed) in CASES.items():
        write_golden(random_record(cardarena.load("laplaplace", **options), seed), GOLDEN / f"{name}.json")
