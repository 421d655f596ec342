"""The registry of games: every subpackage of ``cardarena.games`` that exports ``GAME`` (a ``Game`` subclass)."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import Any

from .errors import UnknownGameError
from .game import Game

GAMES_PACKAGE = "cardarena.games"


@cache
def _game_classes() -> dict[str, type[Game]]:
    package = importlib.import_module(GAMES_PACKAGE)
    found: dict[str, type[Game]] = {}
    for info in pkgutil.iter_modules(package.__path__):
        if not info.ispkg or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{GAMES_PACKAGE}.{info.name}")
        cls = getattr(module, "GAME", None)
        if isinstance(cls, type) and issubclass(cls, Game):
            found[cls.id] = cls
    return dict(sorted(found.items()))


_extra: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Register a game class that lives outside ``cardarena.games`` (plug-ins, tests). Usable as a decorator."""
    _extra[cls.id] = cls
    return cls


def games() -> list[str]:
    """The ids of the games in ``cardarena.games``, sorted (plus any registered with :func:`register`)."""
    return sorted({*_game_classes(), *_extra})


def game_class(game_id: str) -> type[Game]:
    classes = {**_game_classes(), **_extra}
    try:
        return classes[game_id]
    except KeyError:
        valid = ", ".join(classes) or "(none)"
        raise UnknownGameError(f"unknown game {game_id!r}; valid games: {valid}") from None


def load(game_id: str, **options: Any) -> Game:
    """The game ``game_id`` with ``options`` (keyword arguments; text values such as ``"4"`` are converted).

    Unknown games and options raise an error that lists the valid ones.
    """
    return game_class(game_id)(**options)
