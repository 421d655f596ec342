"""Flat Monte Carlo over sampled worlds (perfect-information Monte Carlo): the baseline search must beat.

For each of ``worlds`` determinizations drawn with ``view.resample``, every legal action is tried once on its own
copy of that world and played out at random; the action with the best mean return for the acting seat wins. The
same worlds serve every action, so the comparison between actions is paired.
"""

from __future__ import annotations

from ..engine import Action, Option, Rng, playout_choices
from .base import Agent, SeatView
from .search import DEPTH, SECONDS, Budget, playout


class FlatMonteCarloAgent(Agent):
    """``flatmc[:worlds=K,seconds=S,depth=D]``."""

    name = "flatmc"
    params = (
        Option("worlds", int, 16, "sampled worlds per decision (each tries every action once)", minimum=1),
        SECONDS,
        DEPTH,
    )

    def __init__(self, seed: int = 0, *, worlds: int = 16, seconds: float | None = None, depth: int = 0) -> None:
        self.rng = Rng(seed)
        self.worlds = worlds
        self.seconds = seconds
        self.depth = depth

    def act(self, view: SeatView) -> Action:
        legal = playout_choices(view.game, view.legal_actions())
        if len(legal) == 1:
            return legal[0]
        seat = view.seat
        totals = [0.0] * len(legal)
        budget = Budget(self.worlds, self.seconds)
        while budget.more():
            world = view.resample(self.rng.fork())
            for i, action in enumerate(legal):
                trial = world.clone()
                trial.apply(action)
                totals[i] += playout(trial, self.rng, self.depth)[seat]
            budget.done += 1
        best = max(range(len(legal)), key=totals.__getitem__)
        return legal[best]
