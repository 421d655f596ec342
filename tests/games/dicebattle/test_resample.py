"""resample(seat, rng) is a function of what the seat may know and of rng alone (issue 14, point 4).

Resampling a resampled world with the same rng gives the same world (``check_resample_canonical``), at every
decision of random playouts in every deck pairing, with the turn cap and with a pool that empties decks often.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

import cardarena
from cardarena.engine import Rng
from cardarena.engine.harness import check_resample_canonical
from cardarena.games.dicebattle.cards import STARTERS
from cardarena.games.dicebattle.constants import Phase
from cardarena.games.dicebattle.game import DiceBattleGame
from cardarena.games.dicebattle.views import hidden_set


def _game(**options: str | int) -> DiceBattleGame:
    game = cardarena.load("dicebattle", **options)
    assert isinstance(game, DiceBattleGame)
    return game


def _playouts(game: DiceBattleGame, seeds: range) -> dict[str, int]:
    """Check every decision of one random playout per seed; count the kinds of positions checked."""
    seen = {"positions": 0, "face_down_set": 0, "penalty": 0}
    for seed in seeds:
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        step = 0
        while True:
            check_resample_canonical(state, seed * 1000 + step, seed=seed, step=step)
            seen["positions"] += 1
            seen["face_down_set"] += any(hidden_set(state, s) and state.sides[s].main for s in (0, 1))
            seen["penalty"] += state.phase == Phase.PENALTY
            if state.is_terminal():
                break
            state.apply(rng.choice(state.playout_actions()))
            step += 1
    return seen


def test_resample_is_canonical_default_decks() -> None:
    seen = _playouts(_game(), range(60))
    assert seen["positions"] > 1000 and seen["face_down_set"] > 100


@pytest.mark.parametrize("pair", list(itertools.product(STARTERS, repeat=2)), ids="-".join)
def test_resample_is_canonical_every_starter_pairing(pair: tuple[str, str]) -> None:
    _playouts(_game(deck0=pair[0], deck1=pair[1]), range(2000, 2015))


def test_resample_is_canonical_short_cap() -> None:
    _playouts(_game(max_turns=2), range(30))


def test_resample_is_canonical_with_frequent_deck_outs(tmp_path: Path) -> None:
    pool = Path(__file__).parent / "data" / "deckout_pool.toml"
    deck = tmp_path / "d.toml"
    ids = ("d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "h1", "h2", "h3", "h4", "m1", "m2", "m3")
    deck.write_text('name = "t"\n[cards]\n' + "".join(f"{k} = 2\n" for k in ids), encoding="utf-8")
    game = _game(cards=str(pool), deck0=str(deck), deck1=str(deck))
    seen = _playouts(game, range(20))
    assert seen["penalty"] > 0


def test_two_states_that_look_alike_resample_alike() -> None:
    """The opponent's hand and deck order differ, the observation does not: the same rng gives the same world."""
    game = _game()
    state = game.new_initial_state(7)
    twin = state.clone()
    other = twin.sides[1]
    other.hand, other.deck = other.deck[-len(other.hand) :], [*other.deck[: -len(other.hand)], *other.hand]
    other.deck.reverse()
    twin._legal = None
    assert twin.observation(0) == state.observation(0)
    assert twin.resample(0, Rng(3)).snapshot() == state.resample(0, Rng(3)).snapshot()
