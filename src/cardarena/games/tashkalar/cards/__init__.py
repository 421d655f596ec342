"""The card language and the data files: the model and its constants (``model.py``), the reader of card files
(``loader.py``), the texts of cards and steps (``text.py``) and the High Form task file (``tasks.py``)."""

from .data import LEGENDARY, ORIENTATIONS, Card, CardSet, Step
from .loader import build_cards, default_path, load_cards, parse_pattern
from .model import enemy_place_field
from .steps import compile_steps, step_keywords
from .tasks import TaskSet, build_tasks, load_tasks

__all__ = [
    "LEGENDARY",
    "ORIENTATIONS",
    "Card",
    "CardSet",
    "Step",
    "TaskSet",
    "build_cards",
    "build_tasks",
    "compile_steps",
    "default_path",
    "enemy_place_field",
    "load_cards",
    "load_tasks",
    "parse_pattern",
    "step_keywords",
]
