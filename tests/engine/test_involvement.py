"""The balance report's kernel hooks (engine/involvement.py) and the harness check of them, on the toy game."""

from __future__ import annotations

import pytest

from cardarena.engine import VERBS, Action, Declared, Involvement, Stage, State, apply_involving, check_involvements
from cardarena.engine.harness import ConformanceError, check_involvement

from .toy import KEEP, SWAP, BidGame, ToyGame, ToyState


def test_every_verb_has_a_stage_and_an_involvement_knows_its_stage() -> None:
    assert set(VERBS.values()) == set(Stage)
    assert Involvement(0, "card", "3", "played").stage is Stage.USED
    assert Involvement(1, "card", "3", "in_deck").stage is Stage.INCLUDED


def test_check_involvements_names_each_kind_of_misfit() -> None:
    catalogue = [Declared("card", "a", "A")]
    assert check_involvements(catalogue, [Involvement(0, "card", "a", "played")], 2) is None
    assert "unknown verb" in (check_involvements(catalogue, [Involvement(0, "card", "a", "juggled")], 2) or "")
    assert "not in the game's" in (check_involvements(catalogue, [Involvement(0, "card", "b", "played")], 2) or "")
    assert "out of range" in (check_involvements(catalogue, [Involvement(2, "card", "a", "played")], 2) or "")


def test_the_harness_counts_in_how_many_games_each_declared_entry_occurred() -> None:
    occurred = check_involvement(ToyGame(), range(30))
    assert set(occurred) == {f"card:{n}" for n in range(1, 10)} | {"rule:swap"}
    assert all(0 <= count <= 30 for count in occurred.values())
    assert occurred["rule:swap"] > 0 and sum(occurred.values()) > 30


def test_a_game_without_hooks_declares_nothing_and_the_harness_says_so() -> None:
    game = BidGame()
    state = game.new_initial_state(0)
    assert game.involvement_catalogue() == [] and game.initial_involvement(state) == []
    with pytest.raises(ConformanceError, match="declares nothing"):
        check_involvement(game, range(1))


def test_the_default_end_condition_tells_a_decided_game_from_a_draw() -> None:
    game = ToyGame()
    names = {d.name for d in game.end_conditions()}
    seen = set()
    for seed in range(40):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            state.apply(state.legal_actions()[0])
        seen.add(game.end_condition(state))
    assert seen <= names and "decided" in seen


class _UndeclaredToy(ToyGame):
    def involvement(self, before: State, action: Action, after: State) -> list[Involvement]:
        return [Involvement(0, "card", "10", "played")]


class _MutatingToy(ToyGame):
    def involvement(self, before: State, action: Action, after: State) -> list[Involvement]:
        assert isinstance(after, ToyState)
        after.deck.reverse()  # a hook that changes the game it is asked about
        return []


def test_the_harness_catches_an_undeclared_involvement_and_a_hook_that_changes_the_state() -> None:
    with pytest.raises(ConformanceError, match="not in the game's involvement_catalogue"):
        check_involvement(_UndeclaredToy(), range(1))
    with pytest.raises(ConformanceError, match="changed the states"):
        check_involvement(_MutatingToy(), range(3))


def test_apply_involving_applies_the_action_and_asks_the_game_with_the_state_before_it() -> None:
    game = ToyGame()
    state = game.new_initial_state(3)
    mine = state.cards[0]
    found = apply_involving(state, "swap")  # the text is read by the game's codec
    assert found[0] == Involvement(0, "card", str(mine), "discarded") and state.history == [SWAP]
    assert found[1] == Involvement(0, "card", str(state.cards[0]), "drawn")
    assert apply_involving(state, KEEP) == [Involvement(1, "card", str(state.cards[1]), "played")]
