"""The search agents' choices on fixed seeded positions, recorded: the same in the pure and the compiled build.

``choices()`` lets every agent spec of :data:`SPECS`, seeded, choose at a few seeded positions of every
configuration of :data:`helpers.CONFIGS`, and gives each choice as its action's text and, for the tree searches, a
digest of the root's statistics (every action's visits and mean reward, floats written exactly). The record,
``choices.json``, was made by the pure build; ``test_builds.py`` checks the running build against it and, where a
compiled build is present, the compiled build against the pure one run in a subprocess.

Run ``python -m tests.agents.choices`` (from the repository root, ``PYTHONPATH=src``) to print the choices as JSON,
``--write`` to rewrite the record after a change that is meant to change them (say which in the commit).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from cardarena.agents import ISMCTSAgent, make_agent
from cardarena.engine import derive_seed

from .helpers import CONFIGS, load, positions, view_for

RECORD = Path(__file__).with_name("choices.json")
#: Every search agent in the shapes the hot paths take: random and heuristic playouts, a depth cut with the
#: game's evaluation (ISMCTS's default), root candidates, flat Monte Carlo, the cheating UCT, greedy one-ply.
SPECS = (
    "random",
    "heuristic",
    "flatmc:worlds=2,depth=10",
    "ismcts:iterations=60",
    "ismcts:iterations=20,depth=0",
    "ismcts:iterations=12,rollout=heuristic,candidates=3",
    "mcts:iterations=20",
)
POSITIONS = 3  # per configuration
SEED = 30


def choices() -> dict[str, list[str]]:
    """Per configuration, one line per (position, spec): ``spec: action`` and the root's digest for tree searches."""
    out: dict[str, list[str]] = {}
    for config in CONFIGS:
        game = load(config, for_positions=True)
        lines: list[str] = []
        for p, state in enumerate(positions(game, SEED, POSITIONS)):
            seat = state.current_player
            assert seat is not None
            for k, spec in enumerate(SPECS):
                agent = make_agent(spec, derive_seed(SEED, p, k))
                action = agent.act(view_for(agent, state.clone(), seat))
                line = f"{p} {spec}: {action}"
                if isinstance(agent, ISMCTSAgent):
                    rows = [(str(a), visits, mean.hex()) for a, visits, mean in agent.stats()]
                    line += " " + hashlib.blake2b(json.dumps(rows).encode(), digest_size=8).hexdigest()
                lines.append(line)
        out[config] = lines
    return out


def main(argv: list[str]) -> int:
    found = choices()
    if argv == ["--write"]:
        RECORD.write_text(json.dumps(found, indent=1) + "\n")
    else:
        print(json.dumps(found))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
