"""High Form task progress in the rule of thumb (``strategy.py``): the missing-steps measure agrees with the rules
on every shipped task, a placement that completes a task is chosen, a placement moves towards a task, and the
choice reads only the seat's observation."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardarena
from cardarena.engine import Rng
from cardarena.games.tashkalar import strategy
from cardarena.games.tashkalar.game import TashKalarGame
from cardarena.games.tashkalar.rules.tasks import task_holds

from .helpers import being, make_game, position
from .test_highform import CASES, TASKS, _case_state, hf, with_tasks


def make_hf(*beings: dict[str, Any]) -> TashKalarGame:
    """A High Form game over the test card set with ``beings`` in the school."""
    return make_game(*beings, mode="highform")


@pytest.mark.parametrize("task_id, yes, no", CASES, ids=[c[0] for c in CASES])
def test_the_measure_says_zero_exactly_where_the_task_holds(
    task_id: str, yes: dict[str, Any], no: dict[str, Any]
) -> None:
    task = TASKS.by_id[task_id]
    for spec, holds in ((yes, True), (no, False)):
        st = _case_state(spec)
        assert task_holds(st, 0, task) is holds
        missing = strategy.task_missing(strategy._Sketch(st.observation(0), 0), task)
        assert (missing == 0) is holds, f"{task_id}: missing {missing} on {spec}"
        if not holds and task_id != "cage":  # a near miss is a step or two away (Cage's lacks an enemy heroic)
            assert missing <= 2, f"{task_id}: missing {missing} on {spec}"


def test_the_heuristic_places_the_piece_that_completes_a_task_rather_than_summoning() -> None:
    """Red Vigil needs a third red square (c8 d2 held, e5 h6 free): a placement there completes it, and the
    task outweighs a heroic summon (the summon came first before the rule of thumb knew the tasks)."""
    g = make_hf(being("bolt", "c @", [{"do": "gain_action"}]))
    st = with_tasks(position(g, "c8:o d2:o", hand=("bolt",)), "red-vigil", "havoc", "isolate")
    legal = st.legal_actions()
    assert any(str(a).startswith("summon bolt") for a in legal)
    action = g.heuristic_action(st.observation(0), legal, 0, Rng(0))
    assert str(action) in ("place e5", "place h6")


def test_the_heuristic_places_towards_a_task_it_is_near() -> None:
    """Three commons in file b: with Rank and File current, the fourth goes on b2 or b6 (one step from the task);
    with no line task it goes elsewhere (the centre)."""
    g = hf()
    pieces = "b3:o b4:o b5:o"
    st = with_tasks(position(g, pieces), "rank-and-file", "havoc", "isolate")
    action = g.heuristic_action(st.observation(0), st.legal_actions(), 0, Rng(0))
    assert str(action) in ("place b2", "place b6")
    other = with_tasks(position(g, pieces), "colour-rite", "havoc", "isolate")
    action = g.heuristic_action(other.observation(0), other.legal_actions(), 0, Rng(0))
    assert str(action) not in ("place b2", "place b6")


def test_an_upgrade_goes_where_a_task_wants_it() -> None:
    """An effect that upgrades one of your commons next to the being (on c6): High Seat (3 upgraded central
    pieces, two there) wants the central one, d6; before the tasks counted, the three commons were alike."""
    upgrader = being("smith", "c @", [{"do": "upgrade", "who": "own", "near": "adjacent", "rank": "common"}])
    g = make_hf(upgrader)
    st = with_tasks(position(g, "d4:O f6:O c5:o d6:o b6:o", hand=("smith",)), "high-seat", "havoc", "isolate")
    summon = next(a for a in st.legal_actions() if str(a).startswith("summon smith at c6"))
    st.apply(summon)
    assert st.observation(0)["phase"] == "effect"
    action = g.heuristic_action(st.observation(0), st.legal_actions(), 0, Rng(0))
    assert str(action) == "choose d6"


@pytest.mark.parametrize("options", [{"mode": "highform"}, {"mode": "highform", "teams": True}], ids=["hf", "teams"])
def test_the_choice_is_the_same_from_the_state_and_from_its_resamples(options: dict[str, object]) -> None:
    """The rule of thumb and the evaluation read the seat's observation only: a world resampled for the seat
    gives the same choice (same rng) and the same value."""
    game = cardarena.load("tashkalar", **options)
    assert isinstance(game, TashKalarGame)
    checked = 0
    for seed in range(3):
        st = game.new_initial_state(seed)
        r = random.Random(seed)
        k = 0
        while not st.is_terminal():
            if k % 4 == 0:
                seat = st.player
                legal = st.playout_actions()
                want = game.heuristic_action(st.observation(seat), legal, seat, Rng(k))
                value = game.evaluate(st.observation(seat), seat)
                for j in range(2):
                    world = st.resample(seat, Rng(1000 * seed + 10 * k + j))
                    got = game.heuristic_action(world.observation(seat), world.playout_actions(), seat, Rng(k))
                    assert got == want, f"seed {seed} decision {k}"
                    assert game.evaluate(world.observation(seat), seat) == value
                checked += 1
            st.apply(r.choice(st.playout_actions()))
            k += 1
    assert checked > 30
