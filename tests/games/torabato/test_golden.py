"""Golden playthroughs: committed records whose transcripts must not change unexpectedly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cardarena
from cardarena.engine.golden import check_golden

GOLDEN = Path(__file__).with_name("golden")


def test_golden_playthroughs() -> None:
    assert check_golden(GOLDEN) >= 3


def test_a_record_of_the_previous_version_is_refused() -> None:
    """Version 3 changed outcomes (issue 11: Q's tap, own-turn spells, "this turn" boosts): a version-2 record
    is refused with the versions named, not replayed under rules it was not played by."""
    record = json.loads((GOLDEN / "random-seed3.json").read_text(encoding="utf-8"))
    assert record["version"] == cardarena.load("torabato").version == "3"
    record["version"] = "2"
    with pytest.raises(cardarena.RecordError, match="record is for torabato version 2, this engine has version 3"):
        cardarena.replay(record)
