"""The OpenSpiel bridge, checked by OpenSpiel's own tests and algorithms (docs/interop.md).

``pyspiel.random_sim_test`` (OpenSpiel's C++ conformance simulation: legal actions sorted and masked, action strings
unique, clone equal to the original, returns in range and summing as the game type says, game length within
``max_game_length``) runs on every game and Tash-Kalar mode; OpenSpiel's ``ISMCTSBot`` and ``MCTSBot`` play whole
games of each. Our own tests check what OpenSpiel's cannot: that a seat's strings are the same in every world it
cannot tell apart, that the seed parameter makes a run reproducible, and that bad input is refused.
"""

from __future__ import annotations

import pickle
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.observation import make_observation

import cardarena
from cardarena.engine import IllegalActionError, InvalidActionError, OptionError
from cardarena.interop import openspiel as bridge

GAMES = ["dicebattle", "laplaplace", "lyabi", "tashkalar", "torabato"]
TASHKALAR_MODES = ["highform", "melee3", "melee4", "teams", "highform_teams"]
NAMES = [f"cardarena_{g}" for g in GAMES] + [f"cardarena_tashkalar_{m}" for m in TASHKALAR_MODES]
SEATS = {"cardarena_tashkalar_melee3": 3, "cardarena_tashkalar_melee4": 4}
SEATS |= {"cardarena_tashkalar_teams": 4, "cardarena_tashkalar_highform_teams": 4}


def test_every_game_and_tashkalar_mode_is_an_openspiel_game() -> None:
    registered = set(pyspiel.registered_names())
    assert set(NAMES) <= registered
    assert {bridge.PREFIX + g for g in cardarena.games()} <= set(bridge.register())  # idempotent
    for name in NAMES:
        game = pyspiel.load_game(name)
        inner = game.cardarena_game
        assert game.num_players() == SEATS.get(name, 2)
        assert game.num_distinct_actions() == inner.num_distinct_actions
        assert game.max_chance_outcomes() == 0
        kind = game.get_type()
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        zero_sum = pyspiel.GameType.Utility.ZERO_SUM
        assert (kind.utility == zero_sum) == (game.num_players() == 2)


def test_tashkalar_modes_are_loaded_with_their_options() -> None:
    melee = pyspiel.load_game("cardarena_tashkalar_melee4").cardarena_game
    assert (melee.options["mode"], melee.num_players) == ("melee", 4)
    teams = pyspiel.load_game("cardarena_tashkalar_highform_teams").cardarena_game
    assert (teams.options["mode"], teams.options["teams"], teams.num_players) == ("highform", True, 4)
    # the generic name takes the same options as parameters
    same = pyspiel.load_game("cardarena_tashkalar", {"mode": "melee", "players": 3})
    assert same.num_players() == 3 and same.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_random_sim_test_passes(name: str) -> None:
    """OpenSpiel's own conformance simulation. ``serialize=False``: OpenSpiel serializes a sampled-stochastic game
    with the game's RNG state, which its Python-game binding cannot supply; state serialization is tested below."""
    game = pyspiel.load_game(name, {"seed": 11})
    sims = 1 if "tashkalar" in name else 2  # a Tash-Kalar game is ~400 decisions over 5 million action ids
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


def _bots(game: pyspiel.Game, kind: str) -> list[pyspiel.Bot]:
    bots = []
    for seat in range(game.num_players()):
        evaluator = bridge.CardArenaEvaluator(seed=seat)
        if kind == "mcts":
            bot = mcts.MCTSBot(
                game, uct_c=2.0, max_simulations=3, evaluator=evaluator, random_state=np.random.RandomState(seat)
            )
        else:
            bot = ismcts.ISMCTSBot(
                game, evaluator, uct_c=2.0, max_simulations=3, random_state=np.random.RandomState(seat)
            )
            bot.set_resampler(bridge.resampler(seat))
        bots.append(bot)
    return bots


@pytest.mark.parametrize("kind", ["ismcts", "mcts"])
@pytest.mark.parametrize("name", NAMES)
def test_openspiel_search_bots_play_whole_games(name: str, kind: str) -> None:
    game = pyspiel.load_game(name, {"seed": 5})
    bots = _bots(game, kind)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert decisions > 0 and decisions <= game.max_game_length()
    returns = state.returns()
    assert len(returns) == game.num_players() and all(r in (-1.0, 0.0, 1.0) for r in returns)
    assert returns == state.inner.returns()


def _random_walk(game: pyspiel.Game, seed: int, every: int, limit: int):  # type: ignore[no-untyped-def]
    """States of one random game, every ``every``-th decision, at most ``limit`` decisions in."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    step = 0
    while not state.is_terminal() and step < limit:
        if step % every == 0:
            yield state
        state.apply_action(rng.choice(state.legal_actions()))
        step += 1
    yield state


@pytest.mark.parametrize("name", NAMES)
def test_a_seats_strings_are_the_same_in_every_world_it_cannot_tell_apart(name: str) -> None:
    """The hidden-information test: information-state and observation strings (and the public observation) from
    the true state equal those from ``resample_from_infostate`` for that seat, and so do the current player and
    its legal actions (ISMCTS relies on both). The worlds do differ from the true state (hidden cards redrawn),
    so a string that showed a hidden card would fail here."""
    game = pyspiel.load_game(name, {"seed": 2})
    public = make_observation(
        game,
        pyspiel.IIGObservationType(perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE),
    )
    rng = random.Random(1)
    worlds_unlike_the_truth = 0
    for state in _random_walk(game, seed=4, every=9, limit=120):
        for seat in range(game.num_players()):
            for world in (
                state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0)),
                state.resample_seeded(seat, rng.randrange(2**32)),
            ):
                assert world.information_state_string(seat) == state.information_state_string(seat)
                assert world.observation_string(seat) == state.observation_string(seat)
                assert public.string_from(world, seat) == public.string_from(state, seat)
                assert world.current_player() == state.current_player()
                assert world.legal_actions(seat) == state.legal_actions(seat)
                worlds_unlike_the_truth += str(world) != str(state)
    assert worlds_unlike_the_truth > 0


def test_information_state_is_the_seats_observation_and_nothing_more() -> None:
    game = pyspiel.load_game("cardarena_torabato", {"seed": 8})
    state = game.new_initial_state()
    for seat in range(2):
        assert state.information_state_string(seat) == bridge.information_state_string(state.inner, seat)
        assert state.observation_string(seat) == f"seat {seat}:\n" + state.inner.render(seat)
    # the two seats hold different hands, which neither string shows to the other
    assert state.information_state_string(0) != state.information_state_string(1)


@pytest.mark.parametrize("name", ["cardarena_dicebattle", "cardarena_torabato", "cardarena_lyabi"])
def test_ismcts_chooses_alike_in_the_true_state_and_in_a_world_of_its_seat(name: str) -> None:
    """The non-cheating property through the bridge: ISMCTS sees only the seat's information state and the
    worlds drawn from it, so from a resample for its seat (same seeds) it makes the same choice."""
    game = pyspiel.load_game(name, {"seed": 9})
    compared = 0
    for state in _random_walk(game, seed=3, every=3, limit=90):
        if state.is_terminal() or len(state.legal_actions()) < 2:
            continue
        seat = state.current_player()
        world = state.resample_seeded(seat, 12345)
        choices = []
        for position in (state, world):
            bot = ismcts.ISMCTSBot(
                game,
                bridge.CardArenaEvaluator(seed=1),
                uct_c=2.0,
                max_simulations=12,
                random_state=np.random.RandomState(1),
            )
            bot.set_resampler(bridge.resampler(77))
            choices.append(bot.step(position))
        assert choices[0] == choices[1]
        compared += 1
    assert compared >= 3


def test_the_seed_parameter_makes_a_run_reproducible_and_clones_take_no_seed() -> None:
    def first_games(seed: int, *, clone_between: bool) -> list[str]:
        game = pyspiel.load_game("cardarena_dicebattle", {"seed": seed})
        out = []
        for _ in range(3):
            state = game.new_initial_state()
            if clone_between:
                copies = [state.clone() for _ in range(3)]
                assert all(str(c) == str(state) for c in copies)
                game.deserialize_state(state.serialize())
            out.append(str(state))
        return out

    run = first_games(5, clone_between=False)
    assert run == first_games(5, clone_between=True)
    assert run != first_games(6, clone_between=False)
    assert len(set(run)) == 3


def test_a_state_from_a_seed_is_the_cardarena_game_of_that_seed() -> None:
    game = pyspiel.load_game("cardarena_lyabi")
    state = game.new_initial_state_from_seed(42)
    assert state.inner.snapshot() == cardarena.load("lyabi").new_initial_state(42).snapshot()


@pytest.mark.parametrize("name", ["cardarena_torabato", "cardarena_dicebattle", "cardarena_tashkalar_melee3"])
def test_states_serialize_and_play_on_alike(name: str) -> None:
    """OpenSpiel's Python-game serialization (a pickle of the state, the game by reference): the copy equals the
    original and, holding the same chance state, goes on exactly as it does."""
    game = pyspiel.load_game(name, {"seed": 1})
    rng = random.Random(2)
    state = game.new_initial_state()
    for _ in range(25):
        state.apply_action(rng.choice(state.legal_actions()))
    copy = game.deserialize_state(state.serialize())
    assert str(copy) == str(state) and copy.history() == state.history()
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        copy.apply_action(action)
        assert str(copy) == str(state)
    assert copy.returns() == state.returns()
    assert pickle.loads(pickle.dumps(state.inner)).snapshot() == state.inner.snapshot()


def test_action_ids_and_strings_are_the_kernels_encoding() -> None:
    game = pyspiel.load_game("cardarena_torabato", {"seed": 3})
    state = game.new_initial_state()
    inner_game = state.inner.game
    ids = state.legal_actions()
    assert ids == sorted(inner_game.action_index(a) for a in state.inner.legal_actions())
    assert {state.action_to_string(state.current_player(), i) for i in ids} == {
        str(a) for a in state.inner.legal_actions()
    }
    assert state.legal_actions(1 - state.current_player()) == []


def test_an_illegal_or_unknown_action_raises_a_typed_error_and_leaves_the_state_unchanged() -> None:
    game = pyspiel.load_game("cardarena_torabato", {"seed": 3})
    state = game.new_initial_state()
    before, legal = str(state), set(state.legal_actions())
    illegal = next(i for i in range(game.num_distinct_actions()) if i not in legal)
    with pytest.raises(IllegalActionError):
        state.apply_action(illegal)
    with pytest.raises(InvalidActionError, match="action index must be in"):
        state.apply_action(game.num_distinct_actions())
    assert str(state) == before and state.history() == []


def test_resignation_is_offered_only_when_asked_for() -> None:
    plain = pyspiel.load_game("cardarena_tashkalar").new_initial_state()
    resign = plain.inner.game.resign_action
    assert resign is not None
    resign_id = plain.inner.game.action_index(resign)
    assert resign_id not in plain.legal_actions()
    with pytest.raises(IllegalActionError, match="resignation is off"):
        plain.apply_action(resign_id)
    offered = pyspiel.load_game("cardarena_tashkalar", {"allow_resign": True}).new_initial_state()
    assert resign_id in offered.legal_actions()
    offered.apply_action(resign_id)
    assert offered.is_terminal()


def test_bad_parameters_are_refused_with_the_option_named() -> None:
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        pyspiel.load_game("cardarena_torabato", {"colour": "red"})
    with pytest.raises(OptionError, match="max_turns"):
        pyspiel.load_game("cardarena_torabato", {"max_turns": 0})
    with pytest.raises(OptionError, match="3 or 4 players"):
        pyspiel.load_game("cardarena_tashkalar", {"mode": "melee"})


def test_the_evaluator_uses_the_games_hook_and_falls_back_to_a_playout() -> None:
    game = pyspiel.load_game("cardarena_laplaplace", {"seed": 4})
    state = game.new_initial_state()
    evaluator = bridge.CardArenaEvaluator(seed=0)
    values = evaluator.evaluate(state)
    inner = state.inner
    assert list(values) == [inner.game.evaluate(inner.observation(s), s) for s in range(2)]
    inner.game.evaluate = lambda observation, seat: None  # type: ignore[method-assign]
    try:
        rolled = evaluator.evaluate(state)
    finally:
        del inner.game.evaluate
    assert sorted(rolled) in ([-1.0, 1.0], [0.0, 0.0])
    assert not state.is_terminal()  # the playout ran on a clone
    prior = evaluator.prior(state)
    assert [a for a, _ in prior] == state.legal_actions() and sum(p for _, p in prior) == pytest.approx(1.0)
