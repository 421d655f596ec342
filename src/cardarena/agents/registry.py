"""Agents by name: the command line's ``--agents``/``--vs`` and the arena's runners make agents here."""

from __future__ import annotations

from ..engine.errors import OptionError
from .base import Agent
from .random_agent import RandomAgent

AGENTS: dict[str, type[Agent]] = {"random": RandomAgent}


def make_agent(name: str, seed: int) -> Agent:
    """An agent by name, with its own seeded generator; an unknown name raises ``OptionError``."""
    try:
        cls = AGENTS[name]
    except KeyError:
        raise OptionError(f"unknown agent {name!r}; valid agents: {', '.join(AGENTS)}") from None
    return cls(seed)  # type: ignore[call-arg]
