"""Golden playthroughs: committed records whose full transcript must not change unexpectedly."""

import json
from pathlib import Path

from cardarena.engine.golden import check_golden

GOLDEN = Path(__file__).parent / "golden"


def test_golden_playthroughs() -> None:
    assert check_golden(GOLDEN) >= 9


def test_a_golden_playthrough_per_mode() -> None:
    modes = set()
    for path in GOLDEN.glob("*.json"):
        options = json.loads(path.read_text(encoding="utf-8")).get("options") or {}
        modes.add((options.get("mode", "deathmatch"), options.get("players", 2), bool(options.get("teams"))))
    assert modes >= {
        ("deathmatch", 2, False),
        ("highform", 2, False),
        ("melee", 3, False),
        ("melee", 4, False),
        ("deathmatch", 2, True),
        ("highform", 2, True),
    }
