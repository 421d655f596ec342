"""Players that see only what their seat may see."""

from .base import Agent, SeatView, make_agent
from .random_agent import RandomAgent

__all__ = ["Agent", "RandomAgent", "SeatView", "make_agent"]
