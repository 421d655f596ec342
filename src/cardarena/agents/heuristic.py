"""The heuristic agent: the game's rule of thumb, else greedy one-ply on the game's evaluation, else random.

1. ``game.heuristic_action(observation, legal, seat, rng)``: a good player's rule of thumb from the seat's
   observation only. Its choice is taken when it has one.
2. Otherwise greedy one-ply: ``worlds`` determinizations are drawn with ``view.resample``; each legal action is
   applied on a copy of each and scored by ``game.evaluate(world.observation(seat), seat)`` (the returns when
   the action ends the game); the best mean wins (the first in the legal order on ties). Cheap: one ``apply``
   and one ``evaluate`` per action and world, no playout. Under a :func:`~cardarena.agents.search.time_limit`
   it stops after the first world that ends past the limit.
3. A game with neither hook (``evaluate`` returns ``None``): a uniform random choice.

It never resigns, is deterministic for a given seed, and sees only its ``SeatView``.
"""

from __future__ import annotations

import time

from mypy_extensions import mypyc_attr

from ..engine import Action, Option, Rng, playout_choices
from .base import Agent, SeatView
from .search import heuristic_choice, limit


@mypyc_attr(allow_interpreted_subclasses=True)
class HeuristicAgent(Agent):
    """``heuristic[:worlds=K]``."""

    name = "heuristic"
    params = (
        Option(
            "worlds",
            int,
            4,
            "sampled worlds on which greedy one-ply scores each action (used where the game has no rule of thumb)",
            minimum=1,
            maximum=10_000,
        ),
    )

    def __init__(self, seed: int = 0, *, worlds: int = 4) -> None:
        self.rng = Rng(seed)
        self.worlds = worlds

    def act(self, view: SeatView) -> Action:
        game = view.game
        legal = playout_choices(game, view.legal_actions())
        if len(legal) == 1:
            return legal[0]
        seat = view.seat
        observation = view.observation()
        chosen = heuristic_choice(game, observation, legal, seat, self.rng)
        if chosen is not None:
            return chosen
        if game.evaluate(observation, seat) is None:
            return legal[self.rng.randbelow(len(legal))]
        return self._greedy(view, legal)

    def _greedy(self, view: SeatView, legal: list[Action]) -> Action:
        game = view.game
        seat = view.seat
        totals = [0.0] * len(legal)
        deadline = limit()
        for done in range(self.worlds):
            if done and deadline is not None and time.perf_counter() >= deadline:
                break
            world = view.resample(self.rng.fork())
            for i, action in enumerate(legal):
                trial = world.clone()
                trial.apply_legal(action)
                if trial.is_terminal():
                    totals[i] += trial.returns()[seat]
                    continue
                value = game.evaluate(trial.observation(seat), seat)
                totals[i] += max(-1.0, min(1.0, float(value))) if value is not None else 0.0
        best = max(range(len(legal)), key=totals.__getitem__)
        return legal[best]
