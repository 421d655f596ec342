"""cardarena: a fast, faithful engine and arena for tabletop card battle games.

>>> import cardarena
>>> "torabato" in cardarena.games()
True
"""

from ._build import BUILD, COMPILED  # first: it decides whether the compiled modules are imported
from .engine import (
    Action,
    CardDataError,
    Game,
    IllegalActionError,
    InvalidActionError,
    OptionError,
    RecordError,
    RulesError,
    State,
    UnknownGameError,
    games,
    load,
    replay,
)

__version__ = "0.1.0"

__all__ = [
    "BUILD",
    "COMPILED",
    "Action",
    "CardDataError",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "OptionError",
    "RecordError",
    "RulesError",
    "State",
    "UnknownGameError",
    "__version__",
    "games",
    "load",
    "replay",
]
