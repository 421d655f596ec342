"""Players that see only what their seat may see: random, flat Monte Carlo, information-set MCTS."""

from .base import Agent, SeatView
from .flatmc import FlatMonteCarloAgent
from .ismcts import ISMCTSAgent
from .random_agent import RandomAgent
from .registry import AGENTS, make_agent, parse_spec, split_specs

__all__ = [
    "AGENTS",
    "Agent",
    "FlatMonteCarloAgent",
    "ISMCTSAgent",
    "RandomAgent",
    "SeatView",
    "make_agent",
    "parse_spec",
    "split_specs",
]
