"""A seat's advice, from its own view only: what a search would play (a hint) and the odds of the hidden facts.

The terminal's ``:hint`` and ``:odds`` (``cardarena.cli.advice``) and the browser's Hint and Odds
(``cardarena.web.advice``) both compute them here and only word them differently. Both read the position through a
:class:`SeatView` (its legal actions and ``resample``), so the answer is a function of what the seat knows and of
the seed given: the same from the true state as from any world resampled for the seat.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass

from ..engine import Action, Rng, State, derive_seed
from .base import SeatView
from .registry import make_agent

DEFAULT_HINT = "ismcts:iterations=400"  # about half a second a hint
ODDS_WORLDS = 300
TOP_HINTS = 3
MAX_VALUES = 5  # values shown per fact; the rest are summed as "other or none"


@dataclass(frozen=True)
class Hint:
    """What ``spec`` chose for the seat, and its search's actions ``(action, visits, mean return)``, most visited
    first (empty for an agent that reports no search: ``stats()``)."""

    choice: Action
    rows: list[tuple[Action, int, float]]

    @property
    def top(self) -> list[tuple[Action, int, float]]:
        return self.rows[:TOP_HINTS]

    @property
    def visits(self) -> int:
        """The search's visits in all (the share of an action is its visits over these)."""
        return sum(visits for _, visits, _ in self.rows) or 1


def hint(state: State, seat: int, *, spec: str, seed: int) -> Hint | None:
    """What the agent ``spec`` would play for ``seat`` in ``state``, from its view; ``None`` when it is not to act."""
    view = SeatView(state, seat)
    if not view.legal_actions():
        return None
    agent = make_agent(spec, seed)
    choice = agent.act(view)
    stats = getattr(agent, "stats", None)
    rows: list[tuple[Action, int, float]] = stats() if callable(stats) else []
    return Hint(choice, list(rows))


@dataclass(frozen=True)
class Odds:
    """The game's hidden facts (``Game.hidden_facts``) tallied over ``worlds`` worlds drawn for the seat."""

    worlds: int
    tally: dict[str, Counter[str]]

    def ranked(self, fact: str) -> tuple[list[tuple[str, int]], int]:
        """``fact``'s most likely values first (at most :data:`MAX_VALUES`, with their counts) and the count of the
        rest: the other values and the worlds where the fact was not declared."""
        counts = self.tally[fact]
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        rest = sum(n for _, n in ranked[MAX_VALUES:]) + self.worlds - sum(counts.values())
        return ranked[:MAX_VALUES], rest


def odds(state: State, seat: int, *, seed: int, worlds: int = ODDS_WORLDS, budget: float | None = None) -> Odds:
    """Tally the hidden facts over up to ``worlds`` resamples for ``seat``; with a ``budget`` (seconds) it stops
    drawing by then (after one world at least) and tallies the worlds drawn so far."""
    view = SeatView(state, seat)
    game = state.game
    deadline = None if budget is None else time.perf_counter() + budget
    tally: dict[str, Counter[str]] = {}
    drawn = 0
    for i in range(worlds):
        if deadline is not None and drawn and time.perf_counter() > deadline:
            break
        world = view.resample(Rng(derive_seed(seed, i)))
        drawn += 1
        for fact, value in game.hidden_facts(world, seat).items():
            tally.setdefault(fact, Counter())[str(value)] += 1
    return Odds(drawn, tally)
