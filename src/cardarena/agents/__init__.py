"""Players that see only what their seat may see."""

from .base import Agent, SeatView
from .random_agent import RandomAgent
from .registry import make_agent

__all__ = ["Agent", "RandomAgent", "SeatView", "make_agent"]
