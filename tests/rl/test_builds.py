"""The observation encoders write the same numbers in the pure and the compiled build: see ``encodings.py``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cardarena

from .encodings import RECORD, encodings

ROOT = Path(__file__).resolve().parents[2]


def test_the_encodings_are_as_recorded() -> None:
    """In the build that runs (pure in a checkout without a compiler): the encodings recorded by the pure build."""
    assert encodings() == json.loads(RECORD.read_text()), (
        "the encodings differ from tests/rl/encodings.json: if a change to an encoder or a game was meant to "
        "change them, rewrite it with `CARDARENA_PURE=1 python -m tests.rl.encodings --write` and say so"
    )


def test_the_compiled_build_matches_the_pure_one_where_it_runs() -> None:
    """The build that runs here against the pure one in a fresh process (``CARDARENA_PURE=1``): compiled against
    pure where a compiled build runs; in a checkout without one, two pure processes (string hashing differs between
    processes, so an order that leaks from a set of strings shows), and the test above holds both to the record."""
    env = {**os.environ, "CARDARENA_PURE": "1", "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    pure = subprocess.run(
        [sys.executable, "-m", "tests.rl.encodings"], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert json.loads(pure.stdout) == encodings(), f"{cardarena.BUILD} and the pure build differ"
