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
from .game import MAX_TURNS, Game
from .involvement import VERBS, Declared, Involvement, Setup, Stage, apply_involving, check_involvements
from .options import Option
from .panels import CardText, Panel
from .records import replay
from .registry import game_class, games, load, register
from .rng import Rng, derive_seed
from .state import State, playout_choices
from .undo import UndoRefused, can_undo, prior_state, undo, undo_refusal

__all__ = [
    "MAX_FACTOR_WIDTH",
    "MAX_TURNS",
    "VERBS",
    "Action",
    "ActionFactoring",
    "CardDataError",
    "CardText",
    "Declared",
    "EncodedField",
    "FlatActions",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "Involvement",
    "Layout",
    "ObservationEncoder",
    "Option",
    "OptionError",
    "Panel",
    "RecordError",
    "Rng",
    "RulesError",
    "Setup",
    "Stage",
    "State",
    "UndoRefused",
    "UnknownGameError",
    "apply_involving",
    "can_undo",
    "check_factoring",
    "check_involvements",
    "derive_seed",
    "game_class",
    "games",
    "load",
    "playout_choices",
    "prior_state",
    "register",
    "replay",
    "undo",
    "undo_refusal",
]
