"""Golden playthroughs: committed records whose full transcript must not change unexpectedly."""

from pathlib import Path

from cardarena.engine.golden import check_golden

GOLDEN = Path(__file__).parent / "golden"


def test_golden_playthroughs() -> None:
    assert check_golden(GOLDEN) >= 3
