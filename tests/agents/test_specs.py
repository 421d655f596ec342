"""Agents by spec, and the search agents on the toy game: deterministic, sighted only through their SeatView."""

from __future__ import annotations

import pytest

from cardarena.agents import AGENTS, ISMCTSAgent, SeatView, make_agent, parse_spec, split_specs
from cardarena.engine import OptionError, State, derive_seed

from ..engine.toy import ToyGame


def play(specs: list[str], seed: int) -> State:
    game = ToyGame()
    state = game.new_initial_state(seed)
    agents = [make_agent(spec, derive_seed(seed, s)) for s, spec in enumerate(specs)]
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat].act(SeatView(state, seat)))
    return state


def test_specs_name_agents_and_parameters() -> None:
    assert parse_spec("ismcts:iterations=50, c=0.5") == ("ismcts", {"iterations": "50", "c": "0.5"})
    assert split_specs("ismcts:iterations=50,c=0.5,random,flatmc:worlds=4") == [
        "ismcts:iterations=50,c=0.5",
        "random",
        "flatmc:worlds=4",
    ]
    # a tournament entrant's NAME=SPEC starts a new spec; a parameter whose value names an agent does not
    assert split_specs("horde=heuristic@deck=horde,hand=5,mine=heuristic@deck=my.toml,random,") == [
        "horde=heuristic@deck=horde,hand=5",
        "mine=heuristic@deck=my.toml",
        "random",
    ]
    assert split_specs("ismcts:iterations=9,rollout=heuristic,random") == [
        "ismcts:iterations=9,rollout=heuristic",
        "random",
    ]
    assert split_specs("random,mine=heuristic") == ["random", "mine=heuristic"]
    agent = make_agent("ismcts:iterations=50,c=0.5", 1)
    assert isinstance(agent, ISMCTSAgent) and agent.iterations == 50 and agent.c == 0.5
    assert set(AGENTS) == {"random", "heuristic", "flatmc", "ismcts", "expert", "mcts"}
    assert [name for name, cls in AGENTS.items() if cls.cheats] == ["mcts"]


SEARCH_OPTIONS = "c, candidates, depth, iterations, prior, rollout, seconds"  # ismcts and mcts


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("alphazero", "unknown agent 'alphazero'; valid agents: random, heuristic, flatmc, ismcts, expert, mcts"),
        ("ismcts:bogus=1", f"no option 'bogus'; valid options: {SEARCH_OPTIONS}"),
        ("mcts:worlds=3", f"no option 'worlds'; valid options: {SEARCH_OPTIONS}"),
        ("heuristic:iterations=3", "no option 'iterations'; valid options: worlds"),
        ("flatmc:rollout=smart", "rollout"),
        ("ismcts:iterations=many", "takes a whole number"),
        ("ismcts:iterations=0", "below the minimum"),
        ("flatmc:worlds", "must look like key=value"),
        ("ismcts:c=1,c=2", "twice"),
        ("random:x=1", "no option 'x'"),
    ],
)
def test_bad_specs_are_refused_with_the_valid_choices(spec: str, message: str) -> None:
    with pytest.raises(OptionError, match=message.replace("(", r"\(")):
        make_agent(spec, 0)


@pytest.mark.parametrize("spec", ["ismcts:iterations=60", "flatmc:worlds=6"])
def test_same_seed_and_budget_give_the_same_game(spec: str) -> None:
    for seed in range(5):
        assert play([spec, "random"], seed).history == play([spec, "random"], seed).history


@pytest.mark.parametrize("spec", ["ismcts:iterations=150", "flatmc:worlds=12"])
def test_search_beats_random_in_the_toy_game(spec: str) -> None:
    """Keeping a high card and swapping a low one is the whole skill of the toy game: search finds it."""
    score = 0.0
    for seed in range(60):
        score += play([spec, "random"], seed).returns()[0] + (-play(["random", spec], seed).returns()[0])
    assert score / 120 > 0.25  # random against random scores about 0


def test_ismcts_reports_its_root_statistics() -> None:
    game = ToyGame()
    state = game.new_initial_state(3)
    agent = make_agent("ismcts:iterations=40", 0)
    assert isinstance(agent, ISMCTSAgent)
    agent.act(SeatView(state, 0))
    rows = agent.stats()
    assert sum(visits for _, visits, _ in rows) == 40 and agent.last_iterations == 40
    assert {str(a) for a, _, _ in rows} == {"keep", "swap"}
