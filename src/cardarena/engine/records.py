"""Game records: JSON-ready dicts from ``State.to_record`` and their replay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import RecordError, RulesError
from .game import State
from .registry import load

REQUIRED = ("game", "version", "seed", "actions")
SEED_MIN, SEED_MAX = -(2**63), 2**64 - 1  # the RNG keeps 64 bits: larger seeds would alias smaller ones


def replay(record: dict[str, Any] | str | Path, *, verify: bool = False) -> State:
    """Rebuild the final state of ``record`` (a dict, a JSON text or a path to a JSON file).

    Raises :class:`RecordError` if the record is malformed or one of its actions does not apply. With
    ``verify=True`` it also raises if the recorded result differs from the replayed one.
    """
    rec = _as_dict(record)
    missing = [k for k in REQUIRED if k not in rec]
    if missing:
        raise RecordError(f"record lacks the field(s): {', '.join(missing)}")
    if not isinstance(rec["game"], str):
        raise RecordError("record field 'game' must be a game id (text)")
    if not isinstance(rec["actions"], list) or not all(isinstance(a, str) for a in rec["actions"]):
        raise RecordError("record field 'actions' must be a list of action texts")
    seed = rec["seed"]
    if type(seed) is not int or not SEED_MIN <= seed <= SEED_MAX:
        raise RecordError(f"record field 'seed' must be a whole number in {SEED_MIN}..{SEED_MAX}")
    options = rec.get("options", {})
    if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
        raise RecordError("record field 'options' must be an object of option names and values")
    try:
        game = load(rec["game"], **options)
    except RulesError as e:
        raise RecordError(f"record names a game or options that cannot be loaded: {e}") from e
    version = rec["version"]
    if not isinstance(version, str):
        raise RecordError("record field 'version' must be the game version as text")
    if version != game.version:
        raise RecordError(f"record is for {game.id} version {version}, this engine has version {game.version}")
    state = game.new_initial_state(rec["seed"])
    for number, text in enumerate(rec["actions"], 1):
        try:
            state.apply_text(text)
        except RulesError as e:
            raise RecordError(f"action {number} ({text!r}) does not replay: {e}") from e
    if verify:
        expected = rec.get("result")
        actual = state.returns() if state.is_terminal() else None
        if expected != actual:
            raise RecordError(f"replayed result {actual} differs from the recorded result {expected}")
    return state


def _as_dict(record: dict[str, Any] | str | Path) -> dict[str, Any]:
    if isinstance(record, dict):
        return record
    if not isinstance(record, (str, Path)):
        raise RecordError(f"a record is a dict, a JSON text or a file path, not a {type(record).__name__}")
    text: str
    if isinstance(record, Path) or not record.lstrip().startswith("{"):
        try:
            text = Path(record).read_text(encoding="utf-8")
        except (OSError, ValueError) as e:  # ValueError: a NUL in the path, or bytes that are not UTF-8
            raise RecordError(f"cannot read record file {str(record)[:200]!r}: {e}") from e
    else:
        text = record
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:  # bad JSON, a number of thousands of digits, deep nesting
        raise RecordError(f"record is not valid JSON: {str(e)[:200]}") from e
    if not isinstance(data, dict):
        raise RecordError("record must be a JSON object")
    return data
