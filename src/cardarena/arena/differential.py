"""The compiled build against the pure one: the same seeded games, compared action by action (docs/speed.md).

Each game is played by a seeded random player (``playout_actions``, as ``bench`` plays); its digest hashes, at every
decision, the seat to act, that seat's observation (JSON with sorted keys), every few decisions a resampled world of
that seat, and the action; then the returns and the final snapshot. Two builds that agree on every digest played
the same games, bit for bit. ``python -m cardarena.arena.differential`` runs one build per process (the pure one
with ``CARDARENA_PURE=1``) and names the first game where they part.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Iterable
from typing import Any

from ..engine import Rng, derive_seed, load

#: Every game in each mode that changes who plays or what is hidden (the RL and OpenSpiel configurations).
CONFIGURATIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("dicebattle", {}),
    ("laplaplace", {}),
    ("laplaplace", {"build": "open"}),
    ("lyabi", {}),
    ("tashkalar", {}),
    ("tashkalar", {"mode": "highform"}),
    ("tashkalar", {"mode": "melee", "players": 3}),
    ("tashkalar", {"mode": "melee", "players": 4}),
    ("tashkalar", {"mode": "deathmatch", "players": 4, "teams": True}),
    ("tashkalar", {"mode": "highform", "players": 4, "teams": True}),
    ("torabato", {}),
)
RESAMPLE_EVERY = 7  # decisions between two hashed resamples


def _dump(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def game_digest(game_id: str, options: dict[str, Any], seed: int) -> str:
    """The digest of one seeded random game (see the module's docstring)."""
    game = load(game_id, **options)
    state = game.new_initial_state(seed)
    rng = Rng(derive_seed(seed, 0xD1FF))
    h = hashlib.blake2b(digest_size=16)
    step = 0
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        h.update(b"%d|" % seat)
        h.update(_dump(state.observation(seat)))
        if step % RESAMPLE_EVERY == 0:
            h.update(_dump(state.resample(seat, derive_seed(seed, step)).snapshot()))
        actions = state.playout_actions()
        action = actions[rng.randbelow(len(actions))]
        h.update(str(action).encode())
        state.apply_legal(action)
        step += 1
    h.update(_dump(state.returns()))
    h.update(_dump(state.snapshot()))
    return h.hexdigest()


def digests(configs: Iterable[tuple[str, dict[str, Any]]], seeds: range) -> dict[str, list[str]]:
    """Every configuration's digests over ``seeds``, keyed by the configuration in words."""
    return {label(g, o): [game_digest(g, o, s) for s in seeds] for g, o in configs}


def label(game_id: str, options: dict[str, Any]) -> str:
    return game_id + "".join(f" {k}={v}" for k, v in sorted(options.items()))


def _run_build(pure: bool, games: int, only: str | None) -> dict[str, list[str]]:
    env = dict(os.environ)
    env.pop("CARDARENA_PURE", None)
    if pure:
        env["CARDARENA_PURE"] = "1"
    cmd = [sys.executable, "-m", "cardarena.arena.differential", "--emit", "--games", str(games)]
    if only:
        cmd += ["--only", only]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    result: dict[str, list[str]] = json.loads(out)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cardarena.arena.differential", description=__doc__)
    parser.add_argument("--games", type=int, default=300, help="seeded games per configuration (seeds 0..N-1)")
    parser.add_argument("--only", help="only the configurations whose label starts with this (e.g. torabato)")
    parser.add_argument("--emit", action="store_true", help="print this build's digests as JSON (used internally)")
    args = parser.parse_args(argv)
    configs = [c for c in CONFIGURATIONS if args.only is None or label(*c).startswith(args.only)]
    if args.emit:
        import cardarena

        print(json.dumps({"build": cardarena.BUILD, **digests(configs, range(args.games))}))
        return 0
    pure = _run_build(True, args.games, args.only)
    compiled = _run_build(False, args.games, args.only)
    print(f"pure:     {pure.pop('build')}\ncompiled: {compiled.pop('build')}")
    failed = False
    for name in pure:
        a, b = pure[name], compiled[name]
        first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
        if first is None:
            print(f"{name}: {len(a)} games identical")
        else:
            failed = True
            print(f"{name}: games differ, first at seed {first}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
