"""Flat Monte Carlo over sampled worlds (perfect-information Monte Carlo): the baseline search must beat.

For each of ``worlds`` determinizations drawn with ``view.resample``, every legal action is tried once on its own
copy of that world and played out (random or the game's heuristic); the action with the best mean return for the
acting seat wins. The same worlds serve every action, so the comparison between actions is paired. Under a time
budget a world whose playouts are cut by the deadline is dropped whole, so every action is scored on the same
worlds.
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from ..engine import Action, Option, Rng, playout_choices
from .base import Agent, SeatView
from .search import DEPTH, ROLLOUT, SECONDS, Budget, Policy, Rollout, SearchReport


@mypyc_attr(allow_interpreted_subclasses=True)
class FlatMonteCarloAgent(Agent):
    """``flatmc[:worlds=K,seconds=S,depth=D,rollout=random|heuristic]``."""

    name = "flatmc"
    params = (
        Option("worlds", int, 16, "sampled worlds per decision (each tries every action once)", minimum=1),
        SECONDS,
        DEPTH,
        ROLLOUT,
    )

    def __init__(
        self,
        seed: int = 0,
        *,
        worlds: int = 16,
        seconds: float | None = None,
        depth: int = 0,
        rollout: str = Policy.RANDOM.value,
    ) -> None:
        self.rng = Rng(seed)
        self.worlds = worlds
        self.seconds = seconds
        self.depth = depth
        self.rollout = Policy(rollout)
        self.last: SearchReport | None = None

    @property
    def last_iterations(self) -> int:
        """Worlds completed by the last decision's search (0 before any search)."""
        return self.last.iterations if self.last is not None else 0

    def act(self, view: SeatView) -> Action:
        budget_text = f"seconds={self.seconds}" if self.seconds is not None else f"worlds={self.worlds}"
        legal = playout_choices(view.game, view.legal_actions())
        if len(legal) == 1:  # nothing to search
            self.last = SearchReport(0, 0.0, 0, budget_text)
            return legal[0]
        seat = view.seat
        totals = [0.0] * len(legal)
        budget = Budget(self.worlds, self.seconds)
        rollout = Rollout(view.game, self.rng, depth=self.depth, policy=self.rollout, deadline=budget.deadline)
        while budget.more():
            world = view.resample(self.rng.fork())
            scores: list[float] = []
            for action in legal:
                trial = world.clone()
                trial.apply_legal(action)
                returns = rollout.run(trial)
                if returns is None:
                    break
                scores.append(returns[seat])
            else:
                for i, score in enumerate(scores):
                    totals[i] += score
                budget.done += 1
        self.last = SearchReport(budget.done, budget.elapsed(), rollout.decisions, budget_text)
        if budget.done == 0:  # the deadline passed before one world was scored
            return legal[self.rng.randbelow(len(legal))]
        best = max(range(len(legal)), key=totals.__getitem__)
        return legal[best]
