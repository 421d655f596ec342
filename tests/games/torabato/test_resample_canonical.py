"""``resample(seat, rng)`` depends only on what the seat may know and on ``rng`` (issue 14, point 4).

Resampling a resampled world with the same rng must give the very same world, at every kind of position random
play reaches (the reveal, a committed reveal, known cards in hand and mana, the stack), under every option set.
Its stronger twin: a world drawn with one rng looks the same to the seat as the state, so resampling both with
another rng must give the same world too.
"""

from __future__ import annotations

import pytest

import cardarena
from cardarena.engine import Rng, State
from cardarena.engine.harness import check_resample_canonical

OPTION_SETS = [
    {},
    {"recovery_priority": True, "lasting_boosts": False},
    {"recovery_priority": True, "lasting_boosts": True},
    {"max_turns": 6},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "rules")
def test_resample_of_a_resample_is_the_same_world(options: dict[str, object]) -> None:
    game = cardarena.load("torabato", **options)
    checked = 0
    for seed in range(20):
        state = game.new_initial_state(seed)
        rng = Rng(10_000 + seed)
        step = 0
        while not state.is_terminal():
            if step % 3 == 0:
                check_resample_canonical(state, rng_seed=seed * 1_000 + step, seed=seed, step=step)
                if step % 6 == 0:
                    _check_look_alike(state, seed * 1_000 + step)
                checked += 1
            actions = state.legal_actions()
            state.apply(actions[rng.randbelow(len(actions))])
            step += 1
        check_resample_canonical(state, rng_seed=seed, seed=seed, step=step)
    assert checked > 400


def _check_look_alike(state: State, rng_seed: int) -> None:
    for seat in (0, 1):
        look_alike = state.resample(seat, Rng(rng_seed + 1))
        assert look_alike.observation(seat) == state.observation(seat)
        world = state.resample(seat, Rng(rng_seed))
        assert look_alike.resample(seat, Rng(rng_seed)).snapshot() == world.snapshot()
