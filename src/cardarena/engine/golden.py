"""Golden playthroughs: committed records whose text transcript must not change unexpectedly.

A golden directory holds pairs ``NAME.json`` (a record) and ``NAME.txt`` (its transcript). :func:`check_golden`
replays each record with ``verify=True`` and compares the transcript; set ``CARDARENA_UPDATE_GOLDEN=1`` to rewrite
the ``.txt`` files after an intended change (and review the diff).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .game import Game, State
from .records import replay
from .rng import Rng, derive_seed


def transcript(record: dict[str, object]) -> str:
    """The text of a whole game: each decision, the public picture at every new turn, and the result."""
    final = replay(record, verify=True)
    game = final.game
    state = game.new_initial_state(final.seed)
    lines = [f"# {game.name} ({game.id} v{game.version}) seed {final.seed} options {game.record_options()}"]
    last_turn = -1
    for n, action in enumerate(final.history, 1):
        if state.turn != last_turn:
            last_turn = state.turn
            lines.append(f"\n== turn {state.turn} ==")
            lines.append(game.render(state, None))
        lines.append(f"{n}. seat {state.current_player}: {game.describe_action(state, action)}")
        state.apply(action)
    lines.append("\n== end ==")
    lines.append(game.render(state, None))
    lines.append(f"result: {state.returns() if state.is_terminal() else 'unfinished'}")
    return "\n".join(lines) + "\n"


def random_record(game: Game, seed: int) -> dict[str, object]:
    """A record of a random playout (to create a new golden file)."""
    state: State = game.new_initial_state(seed)
    rng = Rng(derive_seed(seed, 0x60D))
    while not state.is_terminal():
        legal = state.playout_actions()
        state.apply(legal[rng.randbelow(len(legal))])
    return state.to_record()


def write_golden(record: dict[str, object], path: Path) -> None:
    """Write ``path`` (``.json``) and its transcript beside it (``.txt``)."""
    path.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    path.with_suffix(".txt").write_text(transcript(record), encoding="utf-8")


def check_golden(directory: Path) -> int:
    """Check every golden pair in ``directory``; returns how many. Raises ``AssertionError`` on a difference."""
    update = os.environ.get("CARDARENA_UPDATE_GOLDEN") == "1"
    files = sorted(directory.glob("*.json"))
    if not files:
        raise AssertionError(f"no golden records in {directory}")
    for path in files:
        record = json.loads(path.read_text(encoding="utf-8"))
        text = transcript(record)
        expected_path = path.with_suffix(".txt")
        if update:
            expected_path.write_text(text, encoding="utf-8")
            continue
        expected = expected_path.read_text(encoding="utf-8") if expected_path.exists() else None
        if text != expected:
            raise AssertionError(
                f"transcript of {path.name} changed (set CARDARENA_UPDATE_GOLDEN=1 to accept an intended change)"
            )
    return len(files)
