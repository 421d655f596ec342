"""Shared by the games' balance-report hooks (not a game): one catalogue entry's data as one line of text, for
:meth:`~cardarena.engine.game.Game.entry_data` ("what changed" between two card files).

The text is what a designer wrote, in the words of the data file (``attack=6; health=6``), one canonical form per
entry: the fields in the model's order (never the file's), values as TOML writes them, nested tables and lists
inline, a pattern's rows joined by `` / ``. Two entries' texts differ exactly when their data differ.

>>> data_text({"cost": 1, "kind": "soldier", "times": 1.5, "ok": True, "effect": [{"do": "move", "times": 2}]})
'cost=1; kind=soldier; times=1.5; ok=true; effect=[{do=move, times=2}]'
>>> data_text({"pattern": "\\nc . c\\n. @ .\\n", "none": None})
'pattern=c . c / . @ .'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def value_text(value: Any) -> str:
    """A value as the data file writes it, on one line.

    >>> value_text(2.0), value_text(False), value_text(["a", 1]), value_text({"who": "enemy", "near": None})
    ('2', 'false', '[a, 1]', '{who=enemy}')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, str):
        return " / ".join(line.strip() for line in value.strip().splitlines())
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}={value_text(v)}" for k, v in value.items() if v is not None) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(value_text(v) for v in value) + "]"
    return str(value)


def data_text(fields: Mapping[str, Any]) -> str:
    """The fields (``None`` ones left out) as ``key=value; key=value``, in the mapping's order."""
    return "; ".join(f"{k}={value_text(v)}" for k, v in fields.items() if v is not None)
