"""Laplaplace's rules as functions on a state, by topic.

- ``build.py``: ビルド, the build scenes (the only decisions), turn order, legality and its reasons;
- ``board.py``: the battle's position (columns, HP, base HP) and its log;
- ``battle.py``: バトル, the turn structure (reveal, first player, action phases, up phase);
- ``abilities.py``: abilities firing, damage and its answers, targets and effects;
- ``judgement.py``: 決着, the judgement after turn 30 and the fixed order of builds.
"""

from .battle import Battle
from .board import BattleOver, Board, Outcome, Unit
from .build import (
    apply,
    current_player,
    fight,
    fight_logged,
    fight_when_ready,
    legal_actions,
    open_remaining,
    phase,
    why_not,
)
from .judgement import compare_builds

__all__ = [
    "Battle",
    "BattleOver",
    "Board",
    "Outcome",
    "Unit",
    "apply",
    "compare_builds",
    "current_player",
    "fight",
    "fight_logged",
    "fight_when_ready",
    "legal_actions",
    "open_remaining",
    "phase",
    "why_not",
]
