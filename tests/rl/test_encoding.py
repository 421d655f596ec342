"""Observation encodings: fixed size, in bounds, and built from what the seat may see only (the leak test of the
conformance harness, on the vectors: the encoding from the true state equals the one from every resample)."""

from __future__ import annotations

from typing import Any

import pytest

from cardarena.engine import Rng, State, load
from cardarena.rl import aec_env
from cardarena.rl.core import Decisions

SEEDS = range(4)
RESAMPLES = 3


def positions(game_id: str, options: dict[str, Any], seeds: range, every: int) -> list[State]:
    """States along seeded random games (every ``every``-th decision, and the end)."""
    game = load(game_id, **options)
    out: list[State] = []
    for seed in seeds:
        rng = Rng(seed)
        state = game.new_initial_state(seed)
        n = 0
        while not state.is_terminal():
            if n % every == 0:
                out.append(state.clone())
            legal = state.playout_actions()
            state.apply(legal[rng.randbelow(len(legal))])
            n += 1
        out.append(state)
    return out


def test_encoding_of_resampled_worlds_equals_the_truth(config: tuple[str, str, dict[str, Any]]) -> None:
    _, game_id, options = config
    game = load(game_id, **options)
    encoder = game.observation_encoder()
    rng = Rng(99)
    checked = 0
    for state in positions(game_id, options, SEEDS, every=7):
        for seat in range(game.num_players):
            truth = encoder.encode(state.observation(seat), seat)
            assert len(truth) == encoder.size
            for _ in range(RESAMPLES):
                world = state.resample(seat, rng.next64())
                assert encoder.encode(world.observation(seat), seat) == truth, (
                    f"seat {seat}'s encoding differs in a resampled world at {state.to_record()['actions'][-3:]}"
                )
                checked += 1
    assert checked > 20


def test_encoding_stays_in_its_declared_bounds(config: tuple[str, str, dict[str, Any]]) -> None:
    _, game_id, options = config
    game = load(game_id, **options)
    encoder = game.observation_encoder()
    low, high = encoder.bounds()
    for state in positions(game_id, options, range(3), every=3):
        for seat in range(game.num_players):
            vec = encoder.encode(state.observation(seat), seat)
            bad = [
                f.name
                for f in encoder.fields
                for i in range(f.offset, f.offset + f.size)
                if not low[i] <= vec[i] <= high[i]
            ]
            assert not bad, f"out of bounds in {sorted(set(bad))}"


def test_encoding_differs_between_seats_and_moves() -> None:
    """A sanity check that the vectors carry the position: two seats of one state, and a state and its successor,
    are told apart."""
    env = aec_env("torabato", text_info=False)
    env.reset(seed=1)
    a = env.observe("player_0")["observation"].copy()
    b = env.observe("player_1")["observation"].copy()
    assert (a != b).any()
    mask = env.observe(env.agent_selection)["action_mask"]
    env.step(int(mask.nonzero()[0][0]))
    assert (env.observe("player_0")["observation"] != a).any()


def test_fields_cover_the_vector_once(config: tuple[str, str, dict[str, Any]]) -> None:
    _, game_id, options = config
    encoder = load(game_id, **options).observation_encoder()
    offset = 0
    for f in encoder.fields:
        assert f.offset == offset and f.size >= 1 and f.doc
        offset += f.size
    assert offset == encoder.size
    assert len({f.name for f in encoder.fields}) == len(encoder.fields)


def test_a_game_without_an_encoding_says_so() -> None:
    from tests.engine.toy import ToyGame

    with pytest.raises(NotImplementedError, match="no observation encoding"):
        Decisions(ToyGame())
