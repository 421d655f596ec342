"""The kernel's undo (cardarena.engine.undo) on every game and Tash-Kalar mode: the policy (own last action, no
chance, nothing revealed), the exact restoration of the prior state and record, and the property that an undo
never lets a seat learn something and then choose differently."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardarena.agents import SeatView, make_agent
from cardarena.engine import (
    Game,
    Rng,
    State,
    UndoRefused,
    can_undo,
    load,
    prior_state,
    replay,
    undo,
    undo_refusal,
)

CASES = [
    ("torabato", {}),
    ("lyabi", {}),
    ("dicebattle", {}),
    ("laplaplace", {}),
    ("tashkalar", {}),
    ("tashkalar", {"mode": "highform"}),
    ("tashkalar", {"mode": "melee", "players": 3}),
    ("tashkalar", {"mode": "deathmatch", "players": 4, "teams": True}),
]
IDS = [f"{g}-{'-'.join(map(str, o.values()))}" if o else g for g, o in CASES]
PLIES = 30  # actions per playout: enough to meet draws, reveals, chance and plain moves in every game
CHECK_WORLDS = 12  # the test's own worlds, drawn apart from the kernel's


def playout(game: Game, seed: int, plies: int = PLIES) -> list[tuple[State, State]]:
    """(before, after) of each of the first ``plies`` actions of a random game (resignations left out)."""
    state = game.new_initial_state(seed)
    rng = Rng(seed ^ 0x5EED)
    steps = []
    while not state.is_terminal() and len(steps) < plies:
        before = state.clone()
        state.apply(rng.choice(state.playout_actions()))
        steps.append((before, state.clone()))
    return steps


def learns(before: State, after: State, seat: int, rng: Rng) -> bool:
    """Whether ``seat`` sees, after the last action, something it could not predict from what it saw before: the
    test's own check, independent of the kernel's. In worlds resampled for ``seat`` the same action (when legal
    there and looking the same to ``seat``) must give ``seat`` the same observation."""
    game = before.game
    action = after.history[-1]
    actor = before.current_player
    truth = after.observation(seat)
    look = game.action_seen_by(before, action, seat)
    if seat != actor and not look and truth == before.observation(seat):
        return False  # it did not see the action happen
    for _ in range(CHECK_WORLDS):
        world = before.resample(seat, rng.fork())
        if action not in world.legal_actions():
            if seat == actor:
                return True  # its own action, legal on what it knows, must stay legal
            continue
        if seat != actor and game.action_seen_by(world, action, seat) != look:
            continue
        world.apply(action)
        if world.observation(seat) != truth:
            return True
    return False


def choice(state: State, seat: int, seed: int) -> str:
    agent = make_agent("heuristic:worlds=2", seed)
    return str(agent.act(SeatView(state.clone(), seat)))


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=IDS)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_an_undo_never_lets_a_seat_learn_something_and_then_choose_differently(
    game_id: str, options: dict[str, Any], seed: int
) -> None:
    game = load(game_id, **options)
    rng = Rng(seed + 1)
    for before, after in playout(game, seed):
        actor = before.current_player
        assert actor is not None
        if not can_undo(after, actor, before=before):
            continue
        restored = undo(after, actor)
        for seat in range(game.num_players):
            assert not learns(before, after, seat, rng), f"seat {seat} learnt from {after.history[-1]}"
            # what every seat has to decide on is what it had before: the same view, so the same choice
            assert restored.observation(seat) == before.observation(seat)
        if restored.current_player is not None:
            to_act = restored.current_player
            assert choice(restored, to_act, seed) == choice(before, to_act, seed)


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=IDS)
def test_an_undo_restores_the_exact_state_and_record(game_id: str, options: dict[str, Any]) -> None:
    game = load(game_id, **options)
    allowed = refused = 0
    for before, after in playout(game, 7):
        actor = before.current_player
        assert actor is not None
        untouched = after.snapshot()
        reason = undo_refusal(after, actor)
        assert reason == undo_refusal(after, actor, before=before)  # the kept state and the rebuilt one agree
        if reason is not None:
            refused += 1
            with pytest.raises(UndoRefused, match="cannot take its last action back"):
                undo(after, actor)
            assert after.snapshot() == untouched
            continue
        allowed += 1
        restored = undo(after, actor)
        assert after.snapshot() == untouched  # the given state is not changed
        assert restored.snapshot() == before.snapshot()
        assert restored.to_record() == before.to_record()
        assert replay(restored.to_record()).snapshot() == before.snapshot()
        restored.apply(after.history[-1])  # taken again, the action gives the same position: chance untouched
        assert restored.snapshot() == after.snapshot()
    assert allowed and refused, f"{game_id}: {allowed} undos allowed, {refused} refused: the test saw one kind only"


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=IDS)
def test_only_the_seat_that_acted_last_may_undo_and_only_before_anyone_else_acts(
    game_id: str, options: dict[str, Any]
) -> None:
    game = load(game_id, **options)
    steps = playout(game, 3)
    for before, after in steps:
        actor = before.current_player
        action = after.history[-1]
        for seat in range(game.num_players):
            if seat != actor:
                reason = undo_refusal(after, seat, before=before)
                if after.is_terminal():
                    assert reason == "the game is over"
                elif game.action_seen_by(before, action, seat):
                    assert reason is not None and "taken by seat" in reason
                else:  # an action the seat did not see happen: the verdict it had before it (Laplaplace's adds)
                    assert reason is not None and reason == undo_refusal(before, seat)
    # once another seat has acted, the first seat's action is out of reach
    for (b1, _), (b2, a2) in itertools.pairwise(steps):
        if b1.current_player != b2.current_player:
            assert not can_undo(a2, b1.current_player)
            break
    else:
        pytest.fail("no change of seat in the playout")


def test_refusals_name_chance_and_reveals() -> None:
    reasons: set[str] = set()
    for game_id in ("lyabi", "dicebattle", "torabato"):
        for before, after in playout(load(game_id), 5):
            reason = undo_refusal(after, before.current_player, before=before)
            if reason is not None:
                reasons.add("chance" if "drew on chance" in reason else "reveal" if "was hidden" in reason else reason)
    assert {"chance", "reveal"} <= reasons


def test_a_card_played_face_up_is_a_reveal_and_a_face_down_mana_card_is_not() -> None:
    game = load("torabato")
    seen = {"play": set(), "mana": set()}
    for seed in range(4):
        for before, after in playout(game, seed, plies=60):
            kind = str(after.history[-1]).split(" ")[0]
            if kind in seen:
                seen[kind].add(can_undo(after, before.current_player, before=before))
    assert seen["play"] == {False}  # the card was in the hand: playing it shows it
    assert seen["mana"] == {True}  # set face down, and nothing drawn


def test_nothing_to_undo_a_finished_game_and_a_position_without_record() -> None:
    game = load("torabato")
    state = game.new_initial_state(1)
    assert undo_refusal(state, 0) == "there is no action to take back"
    with pytest.raises(UndoRefused):
        prior_state(state)
    rng = Rng(2)
    while not state.is_terminal():
        state.apply(rng.choice(state.playout_actions()))
    with pytest.raises(UndoRefused, match="the game is over"):
        undo(state, 0)
    world = game.new_initial_state(1).resample(0, 3)
    assert "no record" in (undo_refusal(world, 0) or "")


def test_a_game_may_refuse_more_with_its_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    game = load("torabato")
    for before, after in playout(game, 7):
        actor = before.current_player
        if can_undo(after, actor, before=before):
            monkeypatch.setattr(type(game), "undo_refusal", lambda self, b, a, s: "house rule: no takebacks")
            assert undo_refusal(after, actor, before=before) == "house rule: no takebacks"
            return
    pytest.fail("no undoable action in the playout")


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=IDS)
def test_the_verdict_hangs_only_on_what_the_actor_knows(game_id: str, options: dict[str, Any]) -> None:
    """The Undo button must not tell the actor anything: from a world resampled for the actor (the same history,
    the same action), the verdict is the same as from the true position."""
    game = load(game_id, **options)
    compared = 0
    for seed in (5, 6, 7):
        for before, after in playout(game, seed):
            actor = before.current_player
            assert actor is not None
            action = after.history[-1]
            verdict = undo_refusal(after, actor, before=before) is None
            for k in range(2):
                world = before.resample(actor, Rng(seed * 100 + k))
                assert action in world.legal_actions()  # chosen on what the actor sees, so legal in its worlds
                world_after = world.clone()
                world_after.apply(action)
                world.history = list(before.history)  # a world forgets the history; the verdict reads only its length
                world_after.history = [*before.history, action]
                world._no_record = world_after._no_record = None
                assert (undo_refusal(world_after, actor, before=world) is None) == verdict, action
                compared += 1
    assert compared > 0


def test_a_secret_build_add_changes_no_other_seats_verdict() -> None:
    """Issue 27, point 6: in Laplaplace's blind build seat 1's ``add`` is not seen by seat 0, not even in number.
    Once seat 0 has finished its build and seat 1 builds, seat 0 cannot tell whether seat 1 has acted: its build
    stands (refused at once, for the reason that says so), and its verdict is the same words after any number of
    seat 1's adds."""
    game = load("laplaplace")
    state = game.new_initial_state(4)
    state.apply_text(str(state.legal_actions()[0]))
    state.apply_text("done")
    assert state.current_player == 1
    finished = undo_refusal(state, 0)
    assert finished is not None and "could not tell whether it has acted" in finished
    verdicts = set()
    for _ in range(3):  # adds that do not fill the build: not seen by seat 0
        before = state.clone()
        state.apply(next(a for a in state.legal_actions() if str(a).startswith("add ")))
        assert not game.action_seen_by(before, state.history[-1], 0)
        verdicts.add(undo_refusal(state, 0))
        assert can_undo(state, 1)  # seat 1's own add, seen by no one: it may take it back
    assert verdicts == {finished}
