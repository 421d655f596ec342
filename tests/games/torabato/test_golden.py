"""Golden playthroughs: committed records whose transcripts must not change unexpectedly."""

from __future__ import annotations

from pathlib import Path

from cardarena.engine.golden import check_golden

GOLDEN = Path(__file__).with_name("golden")


def test_golden_playthroughs() -> None:
    assert check_golden(GOLDEN) >= 3
