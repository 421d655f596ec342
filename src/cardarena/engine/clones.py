"""``make clones``: each shipped game's ``clone`` written out from its ``FIELDS`` (see :mod:`.fields`).

A compiled state cannot be given a method at class creation, so every game's ``state.py`` carries its ``clone``
between two markers; this module writes it there, and its check (``--check``, and tests/engine/test_fields.py) fails
when a state's FIELDS changed without it.
"""

from __future__ import annotations

import inspect

from .fields import BEGIN_MARK, END_MARK, clone_source
from .registry import game_class, games


def write_clones(*, check: bool = False) -> list[str]:
    """Put each shipped game's :func:`clone_source` between the markers in its ``state.py``; the files that changed
    (with ``check``, the files that would change, untouched). The games of ``cardarena.games`` are written; a game
    registered from elsewhere (a test's toy) may leave its ``clone`` to :func:`make_clone`."""
    changed = []
    for game_id in games():
        game = game_class(game_id)()
        cls = type(game.new_initial_state(0))
        path = inspect.getsourcefile(cls)
        if path is None or not cls.__module__.startswith("cardarena.games."):
            continue
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        begin = text.find("    " + BEGIN_MARK)
        end = text.find(END_MARK, begin)
        if begin < 0 or end < 0:
            raise SystemExit(f"{path}: no markers for the written clone of {cls.__name__} (see {__name__})")
        end = text.index("\n", end) + 1
        updated = text[:begin] + clone_source(cls) + text[end:]
        if updated != text:
            changed.append(path)
            if not check:
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(updated)
    return changed


def main(argv: list[str]) -> int:
    """``make clones``: write every game's clone (``--check``: only say which are stale, and fail if any is)."""
    check = "--check" in argv
    stale = write_clones(check=check)
    for path in stale:
        print(("stale: " if check else "wrote ") + path)
    return 1 if stale and check else 0
