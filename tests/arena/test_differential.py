"""The compiled build plays the same games as the pure one (docs/speed.md, "The differential test").

Where a compiled build runs in this checkout, both builds play the first 100 seeds of every configuration and must
agree on every digest; the pure build's digests must also match the golden file. Where none runs, this process's
build (pure Python) must match the golden file, so the test checks something in both checkouts. After an intended
change of behaviour, regenerate the golden file (and review why every game changed):

    python -m cardarena.arena.differential --games 100 --jobs 2 --write-golden tests/arena/differential_golden.json
"""

from __future__ import annotations

import json
from pathlib import Path

from cardarena.arena import differential as d

GOLDEN = Path(__file__).with_name("differential_golden.json")


def _compiled_runs() -> bool:
    worker = d._Worker("compiled")
    worker.close()
    return worker.compiled


def test_the_builds_agree_and_match_the_golden_digests() -> None:
    golden = json.loads(GOLDEN.read_text())
    games = golden["games"]
    configs = list(range(len(d.CONFIGURATIONS)))
    assert sorted(golden["digests"]) == sorted(d.label(*c) for c in d.CONFIGURATIONS), "regenerate the golden file"
    if _compiled_runs():
        outcome = d.run(configs, games, jobs=2)
        assert outcome.mismatches == []
        assert "compiled" in outcome.builds["compiled"], outcome.builds
        pure = outcome.digests["pure"]
    else:
        pure = {name: list(found) for name, found in d.digests(d.CONFIGURATIONS, range(games)).items()}
    assert d.golden_differences(golden, pure) == []


def test_the_first_differing_decision_is_named_with_each_builds_action() -> None:
    common = [[0, "seat", "0|"], [0, "observation", '{"hand":[1,2]}'], [0, "action", "play 1"]]
    pure = [*common, [1, "seat", "1|"], [1, "observation", '{"hand":[3]}'], [1, "action", "play 3"]]
    compiled = [*common, [1, "seat", "1|"], [1, "observation", '{"hand":[4]}'], [1, "action", "pass"]]
    text = d.first_decision({"pure": pure, "compiled": compiled})
    assert text.startswith("step 1 (seat 1): the observation differs")
    assert text.endswith("pure played play 3, compiled played pass")


def test_the_digest_is_the_hash_of_the_events() -> None:
    """The trace printed on a mismatch and the digest come from the same events: a digest is reproducible."""
    events = list(d.game_events("torabato", {}, 3))
    assert events[0][1] == "seat" and events[-1][1] == "final snapshot"
    assert d.game_digest("torabato", {}, 3) == d.game_digest("torabato", {}, 3)


def test_golden_differences_names_the_first_differing_seed() -> None:
    golden = {"games": 3, "digests": {"torabato": ["a", "b", "c"], "lyabi": ["x", "y", "z"]}}
    found: dict[str, list[str | None]] = {"torabato": ["a", "B", "C"]}
    assert d.golden_differences(golden, found) == [
        "torabato: differs from the golden file, first at seed 1",
        "lyabi: not played",
    ]
