"""The search agents choose the same in the pure and the compiled build (docs/speed.md): see ``choices.py``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import cardarena

from .choices import RECORD, choices

ROOT = Path(__file__).resolve().parents[2]


def test_the_agents_choose_as_recorded() -> None:
    """In the build that runs (pure in a checkout without a compiler): the choices recorded by the pure build."""
    assert choices() == json.loads(RECORD.read_text()), (
        "the agents' choices differ from tests/agents/choices.json: if a change to an agent or a game was meant to "
        "change them, rewrite it with `CARDARENA_PURE=1 python -m tests.agents.choices --write` and say so"
    )


@pytest.mark.skipif(not cardarena.COMPILED, reason="no compiled build runs here (make compiled)")
def test_the_compiled_agents_choose_as_the_pure_ones() -> None:
    """The same seeded agents at the same seeded positions: the compiled build here, the pure one in a subprocess."""
    env = {**os.environ, "CARDARENA_PURE": "1", "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    pure = subprocess.run(
        [sys.executable, "-m", "tests.agents.choices"], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert json.loads(pure.stdout) == choices()
