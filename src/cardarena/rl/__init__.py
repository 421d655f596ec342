"""Reinforcement-learning faces: PettingZoo and Gymnasium environments over the state protocol (docs/rl.md).

>>> import cardarena.rl, gymnasium
>>> env = gymnasium.make("cardarena/dicebattle-v0", opponents="random")
>>> obs, info = env.reset(seed=1)
>>> sorted(obs), obs["action_mask"].sum() > 0
(['action_mask', 'observation'], np.True_)

Importing the package registers every environment with Gymnasium (:data:`ENVIRONMENTS`). Needs the ``rl`` extra
(``pip install -e '.[rl]'``: gymnasium, pettingzoo, numpy).
"""

from __future__ import annotations

from typing import Any

import gymnasium

from .aec import CardArenaAEC, aec_env
from .core import Decisions, agent_name
from .gym_env import CardArenaEnv, gym_env

#: Every registered environment: Gymnasium id -> (game id, game options). Each game in its default mode, and the
#: other modes that change who plays (Tash-Kalar's High Form, melee for 3 and 4, teams) or what is hidden
#: (Laplaplace's open scene).
ENVIRONMENTS: dict[str, tuple[str, dict[str, Any]]] = {
    "cardarena/dicebattle-v0": ("dicebattle", {}),
    "cardarena/laplaplace-v0": ("laplaplace", {}),
    "cardarena/laplaplace-open-v0": ("laplaplace", {"build": "open"}),
    "cardarena/lyabi-v0": ("lyabi", {}),
    "cardarena/tashkalar-v0": ("tashkalar", {}),
    "cardarena/tashkalar-highform-v0": ("tashkalar", {"mode": "highform"}),
    "cardarena/tashkalar-melee3-v0": ("tashkalar", {"mode": "melee", "players": 3}),
    "cardarena/tashkalar-melee4-v0": ("tashkalar", {"mode": "melee", "players": 4}),
    "cardarena/tashkalar-teams-v0": ("tashkalar", {"mode": "deathmatch", "players": 4, "teams": True}),
    "cardarena/torabato-v0": ("torabato", {}),
}


def _register() -> None:
    for env_id, (game_id, options) in ENVIRONMENTS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id, entry_point="cardarena.rl.gym_env:gym_env", kwargs={"game_id": game_id, **options}
            )


_register()

__all__ = [
    "ENVIRONMENTS",
    "CardArenaAEC",
    "CardArenaEnv",
    "Decisions",
    "aec_env",
    "agent_name",
    "gym_env",
]
