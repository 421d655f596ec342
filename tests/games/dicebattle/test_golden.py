"""Golden playthroughs: committed records whose full transcript must not change unexpectedly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cardarena
from cardarena.engine import RecordError
from cardarena.engine.golden import check_golden, random_record, write_golden

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "horde-arcana-1": ("horde", "arcana", 1),
    "arcana-vanguard-2": ("arcana", "vanguard", 2),
    "vanguard-horde-7": ("vanguard", "horde", 7),
    # Games in which a deck runs out: the opponent declines (horde-arcana-8) or draws (horde-horde-270) the
    # penalty card (デッキが無くなった場合の処理).
    "horde-arcana-8": ("horde", "arcana", 8),
    "horde-horde-270": ("horde", "horde", 270),
}


def test_golden_playthroughs() -> None:
    assert check_golden(GOLDEN) == len(CASES)


def regenerate() -> None:  # pragma: no cover - run by hand: python -m tests.games.dicebattle.test_golden
    for name, (d0, d1, seed) in CASES.items():
        write_golden(random_record(cardarena.load("dicebattle", deck0=d0, deck1=d1), seed), GOLDEN / f"{name}.json")


if __name__ == "__main__":  # pragma: no cover
    regenerate()


def test_a_record_of_the_previous_version_is_refused() -> None:
    """Version 3 changed outcomes (levels clamped at once, the optional penalty draw): a version-2 record is
    refused with a message naming both versions, not replayed under the new rules."""
    record = json.loads((GOLDEN / "horde-arcana-1.json").read_text(encoding="utf-8"))
    assert record["version"] == cardarena.load("dicebattle").version == "3"
    record["version"] = "2"
    with pytest.raises(RecordError, match="dicebattle version 2, this engine has version 3"):
        cardarena.replay(record)
