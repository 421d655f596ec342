"""The observation encoders' vectors over seeded games, recorded: the same in the pure and the compiled build.

``encodings()`` plays a few seeded random games of every RL configuration and, at every decision, encodes every
seat's observation (``game.encode``); each configuration's digest hashes every number exactly (its type and its
``float.hex``, so an int written where the other build writes a float is a difference). The record,
``encodings.json``, was made by the pure build; ``test_builds.py`` checks the running build against it and, where a
compiled build is present, the compiled build against the pure one run in a subprocess.

Run ``python -m tests.rl.encodings`` (from the repository root, ``PYTHONPATH=src``) to print the digests as JSON,
``--write`` to rewrite the record after a change that is meant to change them (say which in the commit).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from cardarena.engine import Rng, derive_seed, load
from cardarena.rl import ENVIRONMENTS

RECORD = Path(__file__).with_name("encodings.json")
GAMES = 2  # per configuration
SEED = 30


def _number(x: float) -> bytes:
    return (x.hex() if type(x) is float else f"{type(x).__name__}:{x!r}").encode() + b","


def encodings() -> dict[str, str]:
    """Per RL configuration, the digest of every seat's encoding at every decision of ``GAMES`` seeded games."""
    out: dict[str, str] = {}
    for env_id, (game_id, options) in ENVIRONMENTS.items():
        game = load(game_id, **options)
        h = hashlib.blake2b(digest_size=16)
        for g in range(GAMES):
            state = game.new_initial_state(derive_seed(SEED, g))
            rng = Rng(derive_seed(SEED, g, 1))
            while True:
                for seat in range(game.num_players):
                    h.update(b"".join(_number(x) for x in game.encode(state.observation(seat), seat)) + b"|")
                if state.is_terminal():
                    break
                legal = state.playout_actions()
                state.apply(legal[rng.randbelow(len(legal))])
        out[env_id] = h.hexdigest()
    return out


def main(argv: list[str]) -> int:
    found = encodings()
    if argv == ["--write"]:
        RECORD.write_text(json.dumps(found, indent=1) + "\n")
    else:
        print(json.dumps(found))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
