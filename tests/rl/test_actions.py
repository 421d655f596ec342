"""The action spaces' guarantee (issue 19, part 3), as a property over many random positions of every game and
mode: every masked-in choice leads to a legal action, and every legal action is reachable; a factored space has
at most 4,096 entries per step."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardarena.engine import MAX_FACTOR_WIDTH, IllegalActionError, check_factoring, load
from cardarena.rl.core import Decisions, Node

from .test_encoding import positions

FLAT = {"dicebattle", "laplaplace", "torabato"}


def test_small_games_use_their_flat_encoding_and_large_ones_are_factored(
    config: tuple[str, str, dict[str, Any]],
) -> None:
    _, game_id, options = config
    game = load(game_id, **options)
    factoring = game.action_factoring()
    if game_id in FLAT:
        assert (factoring.width, factoring.depth) == (game.num_distinct_actions, 1)
    else:
        assert game.num_distinct_actions > MAX_FACTOR_WIDTH
        assert factoring.width <= MAX_FACTOR_WIDTH and 1 < factoring.depth <= 8
    assert len(factoring.steps) == factoring.depth


def _walk(node: Node, prefix: tuple[int, ...], out: dict[tuple[int, ...], Any]) -> None:
    for token, child in node.items():
        if isinstance(child, dict):
            assert child, "an inner node with no way on"
            _walk(child, (*prefix, token), out)
        else:
            out[(*prefix, token)] = child


def test_every_masked_choice_leads_to_a_legal_action_and_every_legal_action_is_reachable(
    config: tuple[str, str, dict[str, Any]],
) -> None:
    _, game_id, options = config
    game = load(game_id, **options)
    factoring = game.action_factoring()
    driver = Decisions(game, text_info=False)
    rng = np.random.default_rng(7)
    decisions = 0
    for state in positions(game_id, options, range(6), every=2):
        if state.is_terminal():
            continue
        legal = state.legal_actions()
        check_factoring(factoring, legal)  # in range, distinct, prefix-free
        driver.set_state(state.clone())
        leaves: dict[tuple[int, ...], Any] = {}
        _walk(driver.node(), (), leaves)
        # reachable: each legal action is the leaf at the end of its own sub-decisions, and nothing else is a leaf
        assert sorted(map(str, leaves.values())) == sorted(map(str, legal))
        for action in legal:
            assert leaves[factoring.factors(action)] == action
        # masked-in leads to legal: a random walk through the masks ends in a legal action, applied
        seat = state.current_player
        assert seat is not None
        before = len(driver.state.history)
        taken = None
        for _ in range(factoring.depth):
            mask = driver.observe(seat)["action_mask"]
            allowed = np.flatnonzero(mask)
            assert len(allowed) > 0 and mask.shape == (factoring.width,)
            taken = driver.choose(int(rng.choice(allowed)))
            if taken is not None:
                break
        assert taken is not None and taken in legal
        assert len(driver.state.history) == before + 1
        decisions += 1
    assert decisions > 20


def test_a_masked_out_choice_is_refused_and_changes_nothing() -> None:
    game = load("dicebattle")
    driver = Decisions(game, text_info=False)
    driver.reset(3)
    seat = driver.state.current_player
    assert seat is not None
    mask = driver.observe(seat)["action_mask"]
    banned = int(np.flatnonzero(mask == 0)[0])
    before = driver.state.snapshot()
    with pytest.raises(IllegalActionError, match="masked out"):
        driver.choose(banned)
    assert driver.state.snapshot() == before
    assert (driver.observe(seat)["action_mask"] == mask).all()


def test_check_factoring_finds_prefixes_and_clashes() -> None:
    from cardarena.engine import Action, ActionFactoring

    class Bad(ActionFactoring):
        width, depth, steps = 10, 2, ("a", "b")

        def factors(self, action: Action) -> tuple[int, ...]:
            return tuple(action[1:])

    with pytest.raises(ValueError, match="prefix"):
        check_factoring(Bad(), [Action.of("x", 1), Action.of("x", 1, 2)])
    with pytest.raises(ValueError, match="share"):
        check_factoring(Bad(), [Action.of("x", 1, 2), Action.of("y", 1, 2)])
    with pytest.raises(ValueError, match="out of range"):
        check_factoring(Bad(), [Action.of("x", 1, 12)])
