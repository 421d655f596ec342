"""A game's rule of thumb answers about any part of the legal actions, not only all of them: ISMCTS's
``candidates=N`` (and so the expert, which ``cardarena tune`` tunes) ranks the root's actions by asking
``heuristic_action`` N times, each time without the actions already chosen. Dice Battle's raised StopIteration when
the part left out the one kind of action it meant to take (a Revival's pass, a Miracle)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardarena.agents import SeatView, make_agent
from cardarena.arena.strength import strength
from cardarena.engine import Rng, load

CONFIGURATIONS: list[tuple[str, dict[str, Any], int]] = [
    ("torabato", {}, 2),
    ("lyabi", {}, 2),
    ("dicebattle", {}, 12),
    ("laplaplace", {}, 4),
    ("tashkalar", {}, 1),
    ("tashkalar", {"mode": "melee", "players": 4}, 1),
]


@pytest.mark.parametrize(("game_id", "options", "games"), CONFIGURATIONS)
def test_the_heuristic_picks_one_of_any_part_of_the_legal_actions(
    game_id: str, options: dict[str, Any], games: int
) -> None:
    game = load(game_id, **options)
    asked = 0
    for seed in range(games):
        state = game.new_initial_state(seed)
        pick = random.Random(seed)
        players = [make_agent("heuristic", seed * 10 + s) for s in range(game.num_players)]
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            legal = list(state.legal_actions())
            if len(legal) > 1:
                left_out = pick.choice(legal)
                rest = [a for a in legal if a != left_out]
                part = pick.sample(rest, pick.randint(1, len(rest)))
                action = game.heuristic_action(state.observation(seat), part, seat, Rng(seed))
                assert action is None or action in part, (seed, legal, part, action)
                asked += 1
            state.apply(players[seat].act(SeatView(state, seat)))
    assert asked > 0


def test_the_expert_with_root_candidates_plays_dice_battle_without_an_error() -> None:
    spec = "expert:iterations=20,depth=8,prior=0.3,candidates=3"
    summary = strength("dicebattle", (spec, "heuristic"), pairs=12, seed=3)
    assert summary["errors"] == 0, summary.get("error_samples")
