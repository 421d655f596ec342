"""One package per game; each exports ``GAME``, its ``Game`` subclass.

``cardarena.games()`` is the registry's list of game ids (DESIGN.md). Importing a game package makes Python bind
this package as the attribute ``cardarena.games``, hiding that function; so this module is itself callable and
answers the same list, and ``cardarena.games()`` works before and after any game is imported.
"""

from __future__ import annotations

import sys
import types


class _CallableGamesPackage(types.ModuleType):
    def __call__(self) -> list[str]:
        from ..engine.registry import games

        return games()


sys.modules[__name__].__class__ = _CallableGamesPackage
