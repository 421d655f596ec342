"""Players that see only what their seat may see: random, heuristic, flat Monte Carlo, information-set MCTS;
and, for analysis only, the cheating perfect-information MCTS."""

from .base import Agent, SeatView
from .flatmc import FlatMonteCarloAgent
from .heuristic import HeuristicAgent
from .ismcts import ISMCTSAgent
from .mcts import PerfectInformationMCTSAgent
from .random_agent import RandomAgent
from .registry import AGENTS, make_agent, parse_spec, split_specs
from .search import Policy, SearchReport, time_limit

__all__ = [
    "AGENTS",
    "Agent",
    "FlatMonteCarloAgent",
    "HeuristicAgent",
    "ISMCTSAgent",
    "PerfectInformationMCTSAgent",
    "Policy",
    "RandomAgent",
    "SearchReport",
    "SeatView",
    "make_agent",
    "parse_spec",
    "split_specs",
    "time_limit",
]
