"""The conformance harness over 200+ seeds: protocol, clone, replay, records and the hidden-information leak test."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

import cardarena
from cardarena.arena import simulate
from cardarena.engine.harness import check_game
from cardarena.games.dicebattle.cards import STARTERS
from cardarena.games.dicebattle.constants import Phase


def test_conformance_default_decks_200_seeds() -> None:
    report = check_game(cardarena.load("dicebattle"), range(200), deep_every=1)
    assert report.games == 200
    assert set(report.results) <= {"1,-1", "-1,1", "0,0"}
    assert len(report.results) >= 2  # both seats win some games


@pytest.mark.parametrize("pair", list(itertools.product(STARTERS, repeat=2)), ids="-".join)
def test_conformance_every_starter_pairing(pair: tuple[str, str]) -> None:
    game = cardarena.load("dicebattle", deck0=pair[0], deck1=pair[1])
    report = check_game(game, range(1000, 1060), deep_every=3)
    assert report.games == 60


def test_conformance_short_cap_draws() -> None:
    """With max_turns=2 many games stop at the cap as draws; the protocol still holds."""
    report = check_game(cardarena.load("dicebattle", max_turns=2), range(60), deep_every=2)
    assert report.results.get("0,0", 0) > 0


def test_simulation_is_deterministic_with_decks_by_name_or_path() -> None:
    path = str(Path(cardarena.__file__).parent / "games" / "dicebattle" / "data" / "decks" / "vanguard.toml")
    a = simulate("dicebattle", n=40, seed=3, options={"deck0": "vanguard", "deck1": "arcana"})
    b = simulate("dicebattle", n=40, seed=3, options={"deck0": path, "deck1": "arcana"})
    assert a["errors"] == 0 and a["wins"] == b["wins"] and a["mean_decisions"] == b["mean_decisions"]


def test_conformance_with_frequent_deck_outs(tmp_path: Path) -> None:
    """A pool that empties decks often: the penalty decision (draw / decline) interrupts draws, mills, effects
    and the draw phase, and the protocol (clone, replay, resample leak test) still holds there."""
    pool = Path(__file__).parent / "data" / "deckout_pool.toml"
    deck = tmp_path / "d.toml"
    ids = ("d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "h1", "h2", "h3", "h4", "m1", "m2", "m3")
    deck.write_text('name = "t"\n[cards]\n' + "".join(f"{k} = 2\n" for k in ids), encoding="utf-8")
    game = cardarena.load("dicebattle", cards=str(pool), deck0=str(deck), deck1=str(deck))
    report = check_game(game, range(40), deep_every=1)
    assert report.games == 40
    interrupted: set[str] = set()
    for seed in range(40):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.phase == Phase.PENALTY:
                interrupted.update(frame[0] for frame in state.after)
            state.apply(rng.choice(state.legal_actions()))
    assert {"draw", "mill", "ops", "advance", "draw_phase"} <= interrupted
