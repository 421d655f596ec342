"""The heuristic agent, rollout policies, depth cuts, the cheating mcts and the search report, on the toy game.

The toy game (tests/engine/toy.py): each player holds a hidden card 1..9 and may keep it or swap it for the deck's
top card, three times; the higher card wins. Keeping a high card and swapping a low one is the whole skill.
"""

from __future__ import annotations

from typing import Any

import pytest

from cardarena.agents import ISMCTSAgent, Policy, SeatView, make_agent, time_limit
from cardarena.agents.search import Rollout
from cardarena.engine import Action, Rng, State, derive_seed, load

from ..engine.toy import KEEP, SWAP, ToyGame
from .helpers import FairView, attributes, play_game


class EvaluatedToy(ToyGame):
    """The toy with an evaluation only (no rule of thumb): one-ply greedy must find the skill by itself."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.evaluations = 0

    def evaluate(self, observation: dict[str, Any], seat: int) -> float | None:
        self.evaluations += 1
        return (observation["my_card"] - 5) / 4  # 1 -> -1, 5 -> 0, 9 -> +1


class RuleOfThumbToy(EvaluatedToy):
    """The toy with a rule of thumb as well: keep 6 or more, swap below."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.heuristic_calls = 0

    def heuristic_action(self, observation: dict[str, Any], legal: list[Action], seat: int, rng: Rng) -> Action | None:
        self.heuristic_calls += 1
        if SWAP not in legal:
            return None
        return KEEP if observation["my_card"] >= 6 else SWAP


class WrongToy(ToyGame):
    def heuristic_action(self, observation: dict[str, Any], legal: list[Action], seat: int, rng: Rng) -> Action | None:
        return Action.of("fold")


def score_against_random(game: ToyGame, spec: str, pairs: int) -> float:
    """Mean return of ``spec`` over ``pairs`` seeds, each played in both seats (random against random: about 0)."""
    total = 0.0
    for seed in range(pairs):
        total += play_game(game, [spec, "random"], seed).returns()[0]
        total -= play_game(game, ["random", spec], seed).returns()[0]
    return total / (2 * pairs)


@pytest.mark.parametrize("game", [EvaluatedToy(), RuleOfThumbToy()], ids=["greedy-one-ply", "rule-of-thumb"])
def test_the_heuristic_agent_beats_random_in_the_toy_game(game: ToyGame) -> None:
    assert score_against_random(game, "heuristic:worlds=3", 60) > 0.3
    assert score_against_random(ToyGame(), "heuristic", 60) < 0.2  # with no hooks it is the random agent


def test_the_heuristic_agent_follows_the_rule_of_thumb_and_else_the_evaluation() -> None:
    ruled, greedy = RuleOfThumbToy(), EvaluatedToy()
    for seed in range(30):
        for game in (ruled, greedy):
            state = game.new_initial_state(seed)
            card = state.cards[0]
            chosen = make_agent("heuristic:worlds=8", seed).act(FairView(state, 0))
            if card >= 7 or card <= 3:  # a clear case: keep a high card, swap a low one
                assert chosen == (KEEP if card >= 7 else SWAP), (type(game).__name__, card)
    assert ruled.heuristic_calls == 30 and ruled.evaluations == 0  # the rule of thumb decided every time
    assert greedy.evaluations > 0


def test_a_rule_of_thumb_outside_the_legal_actions_is_reported() -> None:
    state = WrongToy().new_initial_state(1)
    with pytest.raises(ValueError, match="toy: heuristic_action chose 'fold'"):
        make_agent("heuristic", 1).act(FairView(state, 0))
    with pytest.raises(ValueError, match="not one of the legal actions"):
        make_agent("ismcts:iterations=5,rollout=heuristic", 1).act(FairView(state, 0))


@pytest.mark.parametrize("spec", ["ismcts:iterations=30,prior=0", "flatmc:worlds=10"])
def test_heuristic_rollouts_ask_the_game_and_random_rollouts_do_not(spec: str) -> None:
    game = RuleOfThumbToy()
    state = game.new_initial_state(2)
    make_agent(spec, 1).act(FairView(state, 0))
    assert game.heuristic_calls == 0
    make_agent(spec + ",rollout=heuristic", 1).act(FairView(state, 0))
    assert game.heuristic_calls > 0


def test_depth_cuts_playouts_with_the_evaluation() -> None:
    game = EvaluatedToy()
    state = game.new_initial_state(4)
    agent = make_agent("ismcts:iterations=20,depth=1", 1)
    agent.act(FairView(state, 0))
    assert game.evaluations > 0 and agent.last is not None and agent.last.rollout_decisions <= 20
    game.evaluations = 0
    make_agent("ismcts:iterations=20,depth=0", 1).act(FairView(state, 0))
    assert game.evaluations == 0


@pytest.mark.parametrize("spec", ["ismcts:iterations=200", "flatmc:worlds=20"])
def test_rollout_heuristic_agents_beat_random(spec: str) -> None:
    assert score_against_random(RuleOfThumbToy(), spec + ",rollout=heuristic", 40) > 0.3


def test_search_reports_what_its_last_decision_used() -> None:
    state = ToyGame().new_initial_state(3)
    for spec, iterations, budget in [
        ("ismcts:iterations=40", 40, "iterations=40"),
        ("mcts:iterations=40", 40, "iterations=40"),
        ("flatmc:worlds=5", 5, "worlds=5"),
    ]:
        agent = make_agent(spec, 0)
        agent.act(SeatView(state, 0))
        report = agent.last  # type: ignore[attr-defined]
        assert (report.iterations, report.budget) == (iterations, budget)
        assert report.seconds > 0 and report.rollout_decisions > 0


def test_a_forced_decision_searches_nothing_and_says_so() -> None:
    for spec in ["ismcts:iterations=30", "mcts:iterations=30", "flatmc:worlds=3"]:
        agent = make_agent(spec, 0)
        state = ToyGame().new_initial_state(1)
        agent.act(SeatView(state, 0))
        assert agent.last.iterations > 0  # type: ignore[attr-defined]
        state.edit(deck=[])  # nothing to swap with: keep is the only action
        assert agent.act(SeatView(state, 0)) == KEEP
        assert agent.last.iterations == 0 and getattr(agent, "stats", list)() == [], spec  # type: ignore[attr-defined]


@pytest.mark.parametrize("spec", ["ismcts:seconds=0.001", "flatmc:seconds=0.001", "mcts:seconds=0.001"])
def test_a_time_budget_counts_only_finished_iterations(spec: str) -> None:
    """Whatever the clock does, the report counts finished iterations only and the root agrees with it."""
    state = ToyGame().new_initial_state(5)
    agent = make_agent(spec, 0)
    view = SeatView(state, 0) if agent.cheats else FairView(state, 0)
    assert agent.act(view) in state.legal_actions()
    report = agent.last  # type: ignore[attr-defined]
    assert report.budget == "seconds=0.001"
    if isinstance(agent, ISMCTSAgent):
        assert sum(visits for _, visits, _ in agent.stats()) == report.iterations


def test_the_cheating_mcts_reads_the_true_state_and_only_it_does() -> None:
    """mcts opens the door (a fair view refuses it) and sees the opponent's card: it is not fair, by design."""
    state = ToyGame().new_initial_state(6)
    with pytest.raises(AssertionError, match="fair agent asked for the true state"):
        make_agent("mcts:iterations=10", 0).act(FairView(state, 0))
    differs = 0
    game = ToyGame()
    for seed in range(20):
        state = game.new_initial_state(seed)
        agent = make_agent("mcts:iterations=60", seed)
        agent.act(SeatView(state, 0))
        tree = agent.stats()  # type: ignore[attr-defined]
        world = state.resample(0, Rng(derive_seed(seed, 1)))
        other = make_agent("mcts:iterations=60", seed)
        other.act(SeatView(world, 0))
        differs += tree != other.stats()  # type: ignore[attr-defined]
    assert differs > 10  # its search depends on the hidden cards, which the fair agents' never does


def test_mcts_plays_the_toy_game_better_than_fair_search() -> None:
    """Seeing the opponent's card and the deck is worth something: the upper bound it is meant to measure."""
    cheat = score_against_random(ToyGame(), "mcts:iterations=150", 40)
    fair = score_against_random(ToyGame(), "ismcts:iterations=150", 40)
    assert cheat > fair + 0.15


def test_every_agent_plays_through_a_seat_view_and_never_holds_the_state() -> None:
    for spec in ["random", "heuristic", "flatmc:worlds=2", "ismcts:iterations=10", "mcts:iterations=10"]:
        agent = make_agent(spec, 0)
        state: State = ToyGame().new_initial_state(1)
        agent.act(SeatView(state, 0))
        assert not any(isinstance(v, State) for v in attributes(agent).values()), spec


def test_a_playout_stops_at_the_deadline_and_is_dropped() -> None:
    """The clock is read inside playouts: one past its deadline gives no result (the iteration is abandoned)."""
    game = ToyGame(rounds=9)
    past = Rollout(game, Rng(1), depth=0, policy=Policy.RANDOM, deadline=0.0)
    assert past.run(game.new_initial_state(2)) is None and past.decisions == 0
    free = Rollout(game, Rng(1), depth=0, policy=Policy.RANDOM, deadline=None)
    world = game.new_initial_state(2)
    assert free.run(world) == world.returns() and free.decisions == 18 and world.is_terminal()


def test_with_fewer_iterations_than_actions_the_best_playout_decides_not_the_legal_order() -> None:
    """Every child has one visit: the one whose playout went best is chosen (stats() lists it first)."""
    state = ToyGame().new_initial_state(8)
    for seed in range(10):
        agent = make_agent("ismcts:iterations=2", seed)
        assert isinstance(agent, ISMCTSAgent)
        chosen = agent.act(FairView(state, 0))
        rows = agent.stats()
        assert [visits for _, visits, _ in rows] == [1, 1]
        assert chosen == rows[0][0] and rows[0][2] >= rows[1][2]


def test_the_prior_credits_the_games_heuristic_choice_in_the_final_choice() -> None:
    """``prior``: the heuristic's choice gets ``prior`` times the iterations as extra visits at the root, so the
    search keeps the rule of thumb unless it finds a clearly better move; the first row of stats() is the choice."""
    game = RuleOfThumbToy()
    state = game.new_initial_state(2)
    plain = make_agent("ismcts:iterations=40,prior=0", 1)
    chosen_plain = plain.act(FairView(state, 0))
    assert game.heuristic_calls == 0
    favoured = game.heuristic_action(state.observation(0), state.legal_actions(), 0, Rng(0))
    assert favoured is not None
    strong = make_agent("ismcts:iterations=40,prior=10", 1)
    assert strong.act(FairView(state, 0)) == favoured == strong.stats()[0][0]
    assert strong.last_credit == (favoured, 400)
    assert chosen_plain == plain.stats()[0][0]


def test_candidates_narrow_the_root_to_the_heuristics_first_choices() -> None:
    """``candidates=N``: the root searches only the game's heuristic's first N choices (asked N times without the
    actions already chosen); other actions are never tried there. In a game with fewer legal actions than N, or
    with no rule of thumb, every action is searched."""
    game = load("tashkalar")
    state = game.new_initial_state(3)
    rng = Rng(5)
    while len(state.legal_actions()) <= 20:  # past the setup, to the first main phase's placements
        choices = state.playout_actions()
        state.apply(choices[rng.randbelow(len(choices))])
    legal = state.legal_actions()
    agent = make_agent("ismcts:iterations=60,candidates=4,prior=0", 1)
    assert isinstance(agent, ISMCTSAgent)
    view = FairView(state, state.current_player)
    allowed = agent._root_candidates(view, list(legal))
    assert allowed is not None and len(allowed) == 4 and allowed <= set(legal)
    agent.act(view)
    searched = {a for a, _, _ in agent.stats()}
    assert searched == allowed
    wide = make_agent("ismcts:iterations=60,prior=0", 1)
    wide.act(FairView(state, state.current_player))
    assert len({a for a, _, _ in wide.stats()}) > 4
    toy = ToyGame()  # no rule of thumb: nothing to narrow by
    narrow_toy = make_agent("ismcts:iterations=20,candidates=1", 1)
    assert isinstance(narrow_toy, ISMCTSAgent)
    toy_state = toy.new_initial_state(2)
    assert narrow_toy._root_candidates(FairView(toy_state, 0), toy_state.legal_actions()) is None


@pytest.mark.parametrize(
    "spec", ["ismcts:iterations=10000000", "mcts:iterations=10000000", "flatmc:worlds=10000000", "ismcts:seconds=3600"]
)
def test_an_imposed_time_limit_stops_any_budget_and_the_search_answers(spec: str) -> None:
    """``time_limit`` (the web server's budget per decision) cuts an iteration or time budget short: the search
    stops at the limit and answers with a legal action from the iterations it finished."""
    state = ToyGame().new_initial_state(5)
    agent = make_agent(spec, 0)
    view = SeatView(state, 0) if agent.cheats else FairView(state, 0)
    with time_limit(0.05):
        assert agent.act(view) in state.legal_actions()
    report = agent.last  # type: ignore[attr-defined]
    assert 0 < report.iterations < 10_000_000 and report.seconds < 5.0


def test_a_time_limit_never_reached_changes_no_choice() -> None:
    """Under a limit that does not bite, an iteration budget chooses exactly as without one (reproducible)."""
    for seed in range(5):
        state = ToyGame().new_initial_state(seed)
        free = [make_agent(s, seed).act(FairView(state, 0)) for s in ("ismcts:iterations=60", "flatmc:worlds=6")]
        with time_limit(3600):
            limited = [make_agent(s, seed).act(FairView(state, 0)) for s in ("ismcts:iterations=60", "flatmc:worlds=6")]
        assert limited == free


def test_the_greedy_heuristic_stops_at_an_imposed_limit() -> None:
    game = EvaluatedToy()
    state = game.new_initial_state(2)
    agent = make_agent("heuristic:worlds=10000", 0)
    with time_limit(0.0):
        assert agent.act(FairView(state, 0)) in state.legal_actions()
    assert game.evaluations <= 2 * len(state.legal_actions()) + 1  # one world (the first is always scored)
