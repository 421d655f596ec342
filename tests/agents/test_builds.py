"""The search agents choose the same in the pure and the compiled build (docs/speed.md): see ``choices.py``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cardarena

from .choices import RECORD, choices

ROOT = Path(__file__).resolve().parents[2]


def test_the_agents_choose_as_recorded() -> None:
    """In the build that runs (pure in a checkout without a compiler): the choices recorded by the pure build."""
    assert choices() == json.loads(RECORD.read_text()), (
        "the agents' choices differ from tests/agents/choices.json: if a change to an agent or a game was meant to "
        "change them, rewrite it with `CARDARENA_PURE=1 python -m tests.agents.choices --write` and say so"
    )


def test_the_compiled_build_matches_the_pure_one_where_it_runs() -> None:
    """The build that runs here against the pure one in a fresh process (``CARDARENA_PURE=1``): compiled against
    pure where a compiled build runs; in a checkout without one, two pure processes (string hashing differs between
    processes, so an order that leaks from a set of strings shows), and the test above holds both to the record."""
    env = {**os.environ, "CARDARENA_PURE": "1", "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    pure = subprocess.run(
        [sys.executable, "-m", "tests.agents.choices"], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert json.loads(pure.stdout) == choices(), f"{cardarena.BUILD} and the pure build differ"
