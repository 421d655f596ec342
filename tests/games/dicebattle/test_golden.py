"""Golden playthroughs: committed records whose full transcript must not change unexpectedly."""

from __future__ import annotations

from pathlib import Path

import cardarena
from cardarena.engine.golden import check_golden, random_record, write_golden

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "horde-arcana-1": ("horde", "arcana", 1),
    "arcana-vanguard-2": ("arcana", "vanguard", 2),
    "vanguard-horde-7": ("vanguard", "horde", 7),
}


def test_golden_playthroughs() -> None:
    assert check_golden(GOLDEN) == len(CASES)


def regenerate() -> None:  # pragma: no cover - run by hand: python -m tests.games.dicebattle.test_golden
    for name, (d0, d1, seed) in CASES.items():
        write_golden(random_record(cardarena.load("dicebattle", deck0=d0, deck1=d1), seed), GOLDEN / f"{name}.json")


if __name__ == "__main__":  # pragma: no cover
    regenerate()
