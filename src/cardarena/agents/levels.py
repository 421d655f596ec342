"""The strengths offered to people (``easy``, ``normal``, ``hard``, ``expert``) and where each game's trained model
and rating live.

A strength label stands for an agent spec, the same in the browser's lobby, ``cardarena play --vs LABEL`` and the
ladder (docs/agents.md, "The ladder"). Most labels mean the same spec in every game; a game whose measured setting
beats the generic one overrides it (:data:`GAME_LEVELS`). ``expert`` is the search with the game's learned
evaluation (:mod:`cardarena.agents.expert`): its search settings come with its trained model.

Every configuration that plays differently (a game, and for Tash-Kalar its mode and number of seats) has a *model
key* (:func:`model_key`): the name of its shipped model (``agents/models/KEY.npz``) and of its row in the ladder
(``agents/models/ladder.json``).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from ..engine import Game

#: The strength labels people choose from, weakest first, and the agent spec each stands for.
LEVELS: dict[str, str] = {
    "easy": "heuristic",
    "normal": "ismcts:iterations=300",
    "hard": "ismcts:iterations=2000",
    "expert": "expert",
}

#: Where a game's measured setting beats the generic one: the labels it overrides (docs/agents.md, "Tash-Kalar: a
#: search that looks a turn ahead": at about the generic hard's cost per decision, the generic one plays the
#: heuristic's game there, 0.525 against it, this one 0.680 [0.613, 0.741]).
GAME_LEVELS: dict[str, dict[str, str]] = {
    "tashkalar": {"hard": "ismcts:iterations=300,rollout=heuristic,depth=10,candidates=8,prior=0.1"},
}

#: The most a decision of each strength may think, in seconds, wherever a time limit is imposed (the web server).
#: ``expert`` decides within 0.5 s of one core by its own budget (docs/agents.md); its cap leaves room for a
#: busy machine.
LEVEL_SECONDS: dict[str, float] = {"easy": 1.0, "normal": 1.0, "hard": 2.5, "expert": 1.0}

#: Where the shipped models, their search settings and the ladder's ratings live.
MODELS = Path(__file__).with_name("models")


def level_spec(label: str, game_id: str) -> str:
    """The agent spec strength ``label`` stands for in ``game_id`` (``label`` must be one of :data:`LEVELS`).

    >>> level_spec("hard", "tashkalar")
    'ismcts:iterations=300,rollout=heuristic,depth=10,candidates=8,prior=0.1'
    >>> level_spec("expert", "lyabi")
    'expert'
    """
    return GAME_LEVELS.get(game_id, {}).get(label, LEVELS[label])


def model_key(game: Game) -> str:
    """The name of ``game``'s configuration among the shipped models and ratings: the game's id, and for a game
    with a ``mode`` option its mode (with the seats where a mode takes several counts, and ``teams``).

    Card or task files do not enter the key: a model whose input size does not fit the game's encoding is not
    used (:func:`cardarena.agents.expert.model_for`).
    """
    options = game.options
    key = game.id
    mode = options.get("mode")
    if mode is not None:
        key += f"-{mode}"
        if mode == "melee":
            key += str(game.num_players)
    if options.get("teams"):
        key += "-teams"
    return key


@cache
def _ladder() -> dict[str, Any]:
    path = MODELS / "ladder.json"
    if not path.exists():
        return {}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def ladder(key: str) -> dict[str, Any] | None:
    """The measured ladder of configuration ``key`` (:func:`model_key`): each rated strength's Elo with its interval
    and seconds per decision, as ``cardarena ladder`` wrote it into ``agents/models/ladder.json``; ``None`` where
    the configuration was not rated."""
    entry = _ladder().get(key)
    return entry if isinstance(entry, dict) else None


def reload() -> None:
    """Read ``ladder.json`` again at the next :func:`ladder` (after ``cardarena ladder --write``, or in a test)."""
    _ladder.cache_clear()
