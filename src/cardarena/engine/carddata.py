"""A game's card file as a designer edits it: which TOML file a game plays, and which table of it holds each
entry's fields (the defaults of :meth:`Game.card_file <cardarena.engine.game.Game.card_file>` and
:meth:`Game.card_entries <cardarena.engine.game.Game.card_entries>`).

The balance report's sweeps (``cardarena report GAME --sweep CARD.FIELD=a:b``, :mod:`cardarena.arena.sweep`)
read the file with :mod:`tomllib`, find the entry's table here, set one number in it and write a copy that the
game loads through its own ``cards`` option, so that the game's own loader checks every value.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game
    from .involvement import Declared

CARDS_OPTION = "cards"  # the path option through which every game with a card file takes a designer's own
SHIPPED = ("builtin",)  # values of the option that mean the game's own file, like leaving it unset
NAME_KEYS = ("id", "rank", "name")  # the keys that name an entry in an array of tables, the first found wins
TABLE_KIND = "table"  # the kind of a top-level table that is no entry (``[rules]``)


def card_file(game: Game) -> Path | None:
    """The file ``game``'s ``cards`` option names, else the ``data/cards.toml`` beside the game's module (the
    shipped list); ``None`` for a game without such a path option or without such a file."""
    option = next((o for o in game.option_spec if o.name == CARDS_OPTION and o.path), None)
    if option is None:
        return None
    value = game.options.get(CARDS_OPTION)
    if value is None or value in SHIPPED:
        module = sys.modules[type(game).__module__].__file__
        shipped = Path(module).parent / "data" / "cards.toml" if module else None
        return shipped if shipped is not None and shipped.is_file() else None
    return Path(value)


def _arrays(node: dict[str, Any], nested: bool = False) -> Iterator[tuple[str, dict[str, Any], bool]]:
    """Every table of every array of tables under ``node``, at any depth, with the array's key (``being`` for
    ``[[school.being]]``) and whether it lies inside another array's table, in file order."""
    for key, value in node.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for table in value:
                yield key, table, nested
                yield from _arrays(table, True)
        elif isinstance(value, dict):
            yield from _arrays(value, nested)


def default_entries(document: dict[str, Any], catalogue: Sequence[Declared]) -> dict[tuple[str, str], dict[str, Any]]:
    """Each table of an array of tables named by its ``id`` (else ``rank``, else ``name``; inside another
    entry's table only by an ``id``, so that an effect's steps, ``{ do = "place", rank = "heroic" }``, are no
    entries), keyed by the first kind under which ``catalogue`` declares that name (else the array's key); then
    every top-level table that is no array's, as kind ``"table"`` (``[rules]``). The first table of a (kind,
    name) wins."""
    kinds: dict[str, str] = {}
    for d in catalogue:
        kinds.setdefault(d.name, d.kind)
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for array, table, nested in _arrays(document):
        keys = ("id",) if nested else NAME_KEYS
        name = next((table[k] for k in keys if isinstance(table.get(k), (str, int))), None)
        if name is None or isinstance(name, bool):
            continue
        out.setdefault((kinds.get(str(name), array), str(name)), table)
    for key, value in document.items():
        if isinstance(value, dict):
            out.setdefault((TABLE_KIND, key), value)
    return out


def number_fields(table: dict[str, Any], prefix: str = "") -> dict[str, int | float]:
    """Every number in ``table`` (not a boolean), by its dotted path: ``attack``, ``grant.level``,
    ``effect.0.times`` (a list's items by their position).

    >>> number_fields({"cost": 4, "kind": "soldier", "grant": {"level": 1}, "effect": [{"times": 2}], "ok": True})
    {'cost': 4, 'grant.level': 1, 'effect.0.times': 2}
    """
    out: dict[str, int | float] = {}
    items = table.items() if isinstance(table, dict) else enumerate(table)
    for key, value in items:
        path = f"{prefix}{key}"
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)):
            out[path] = value
        elif isinstance(value, (dict, list)):
            out.update(number_fields(value, f"{path}."))  # type: ignore[arg-type]
    return out


def field_value(table: dict[str, Any], field: str) -> Any:
    """The value at the dotted ``field`` of ``table`` (list items by position); ``KeyError`` when absent."""
    node: Any = table
    for part in field.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise KeyError(field)
    return node


def set_field(table: dict[str, Any], field: str, value: Any) -> None:
    """Set the dotted ``field`` of ``table``, which must exist (:func:`field_value`)."""
    *path, last = field.split(".")
    node = field_value(table, ".".join(path)) if path else table
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
