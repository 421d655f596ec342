"""The game-agnostic kernel (standard library only)."""

from .actions import Action
from .encoding import (
    MAX_FACTOR_WIDTH,
    ActionFactoring,
    EncodedField,
    FlatActions,
    Layout,
    ObservationEncoder,
    check_factoring,
)
from .errors import (
    CardDataError,
    IllegalActionError,
    InvalidActionError,
    OptionError,
    RecordError,
    RulesError,
    UnknownGameError,
)
from .game import MAX_TURNS, Game, State, playout_choices
from .options import Option
from .panels import Panel
from .records import replay
from .registry import game_class, games, load, register
from .rng import Rng, derive_seed

__all__ = [
    "MAX_FACTOR_WIDTH",
    "MAX_TURNS",
    "Action",
    "ActionFactoring",
    "CardDataError",
    "EncodedField",
    "FlatActions",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "Layout",
    "ObservationEncoder",
    "Option",
    "OptionError",
    "Panel",
    "RecordError",
    "Rng",
    "RulesError",
    "State",
    "UnknownGameError",
    "check_factoring",
    "derive_seed",
    "game_class",
    "games",
    "load",
    "playout_choices",
    "register",
    "replay",
]
