"""What the search agents share: budgets, rollout policies, playouts and the report of a decision's search.

A budget is either a number of iterations (reproducible: same spec, seed and position give the same choice) or a
time limit (``seconds``). A time budget is honoured to within a playout step: the clock is read before every
iteration and every :data:`CLOCK_EVERY` decisions inside a playout, and an iteration still running at the
deadline is abandoned (its result is not counted), so no long playout can overshoot. Every search agent keeps a
:class:`SearchReport` of its last decision (``agent.last``): iterations, seconds, rollout decisions.

A caller may also impose a wall-clock limit on every search begun in a block, whatever the agent's spec says
(:func:`time_limit`: the web server's budget per decision). An iteration budget then ends at its count or at the
limit, whichever comes first; a ``seconds`` budget at the earlier of its own deadline and the limit. Without a
limit nothing changes: an iteration budget never reads the clock, so its results stay reproducible.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..engine import Action, Game, Option, Rng, State, playout_choices

ITERATIONS = Option("iterations", int, 1000, "search iterations per decision", minimum=1, maximum=10_000_000)
SECONDS = Option(
    "seconds",
    float,
    None,
    "think this long per decision instead of a fixed number of iterations (not reproducible)",
    minimum=0.001,
    maximum=3600,
)
DEPTH_HELP = "cut playouts after this many decisions and use the game's evaluation (0: play to the end)"
DEPTH = Option("depth", int, 0, DEPTH_HELP, minimum=0, maximum=100_000)
#: ISMCTS cuts its playouts at 20 decisions by default (where the game has an evaluation): measured at equal time
#: (0.03 s a decision) against playing to the end, ToraBato 0.975 [0.80, 1.00], Dice Battle 0.55 [0.40, 0.69],
#: Lyabi 0.50 [0.30, 0.70]; and 2.5-4x the iterations/s in ToraBato and Lyabi (docs/agents.md).
SEARCH_DEPTH = Option("depth", int, 20, DEPTH_HELP, minimum=0, maximum=100_000)


class Policy(StrEnum):
    """How a playout chooses its moves."""

    RANDOM = "random"  # uniform among playout_actions(): cheap
    HEURISTIC = "heuristic"  # the game's heuristic_action on the mover's observation (random where it has none)


ROLLOUT = Option(
    "rollout",
    str,
    Policy.RANDOM.value,
    "playout policy: random, or heuristic (the game's rule of thumb at every step: stronger playouts, "
    "several times slower)",
    choices=tuple(p.value for p in Policy),
)

#: Inside a playout the clock is read every this many decisions (a decision costs 5-50 µs in the shipped games).
CLOCK_EVERY = 8


#: The wall-clock limit (a ``time.perf_counter()`` instant) that :func:`time_limit` imposes, or ``None``.
_LIMIT: ContextVar[float | None] = ContextVar("cardarena_search_limit", default=None)


@contextmanager
def time_limit(seconds: float) -> Iterator[float]:
    """Every search begun in the block stops ``seconds`` from now at the latest (within a playout step) and answers
    with its best action so far; yields that instant (``time.perf_counter()``). Nested limits: the earlier wins."""
    at = time.perf_counter() + seconds
    outer = _LIMIT.get()
    token = _LIMIT.set(at if outer is None else min(outer, at))
    try:
        yield at
    finally:
        _LIMIT.reset(token)


def limit() -> float | None:
    """The instant (``time.perf_counter()``) by which :func:`time_limit` wants searches to stop, or ``None``."""
    return _LIMIT.get()


class Budget:
    """An iteration count, or a time limit when ``seconds`` is given; either one cut short by :func:`time_limit`.

    ``more()`` is asked before each iteration; with a deadline (``seconds``, or the imposed limit), the playouts
    also stop at ``deadline``.
    """

    __slots__ = ("deadline", "done", "iterations", "start", "timed")

    def __init__(self, iterations: int, seconds: float | None) -> None:
        self.iterations = iterations
        self.start = time.perf_counter()
        self.timed = seconds is not None  # a time budget: the iteration count does not apply
        own = None if seconds is None else self.start + seconds
        imposed = _LIMIT.get()
        self.deadline = imposed if own is None else own if imposed is None else min(own, imposed)
        self.done = 0

    def more(self) -> bool:
        if not self.timed and self.done >= self.iterations:
            return False
        return self.deadline is None or time.perf_counter() < self.deadline

    def elapsed(self) -> float:
        return time.perf_counter() - self.start


@dataclass(frozen=True)
class SearchReport:
    """What one decision's search used: ``iterations`` completed (worlds, for flat Monte Carlo), wall-clock
    ``seconds``, ``rollout_decisions`` (moves played inside playouts), and the ``budget`` it ran under."""

    iterations: int
    seconds: float
    rollout_decisions: int
    budget: str


class Rollout:
    """The playouts of one decision: a policy, an optional depth cut with the game's evaluation, a deadline.

    ``run(world)`` plays ``world`` (changed in place) on and returns one value per seat, or ``None`` when the
    deadline passed in the middle (the caller drops that iteration). ``decisions`` counts every move played.

    ``evaluator`` (a learned evaluation: :class:`cardarena.agents.valuenet.NetEvaluator`) replaces the game's
    ``evaluate`` at the cut, and with it ``depth=0`` means no playout at all: the leaf itself is evaluated.
    """

    __slots__ = ("deadline", "decisions", "depth", "evaluator", "game", "policy", "rng")

    def __init__(
        self,
        game: Game,
        rng: Rng,
        *,
        depth: int,
        policy: Policy,
        deadline: float | None,
        evaluator: Callable[[State], list[float]] | None = None,
    ) -> None:
        self.game = game
        self.rng = rng
        self.depth = depth
        self.policy = policy
        self.deadline = deadline
        self.evaluator = evaluator
        self.decisions = 0

    def run(self, world: State) -> list[float] | None:
        # The hot loop of every search: the legal actions generated once per step (``_legal_actions``: the state is
        # known not to be terminal and ``apply_legal`` has just cleared the cache). Methods are called on their
        # objects, not hoisted into locals: compiled (docs/speed.md), such a call is a direct C call, and a bound
        # method in a local would be a Python call.
        rng = self.rng
        game = self.game
        resign = game.resign_action
        depth = self.depth
        deadline = self.deadline
        evaluator = self.evaluator
        # A game without a rule of thumb plays heuristic rollouts at random, without building observations.
        heuristic = self.policy is Policy.HEURISTIC and type(game).heuristic_action is not Game.heuristic_action
        n = 0
        try:
            while not world.is_terminal():
                if evaluator is not None and n >= depth:
                    return evaluator(world)
                if depth and n >= depth:
                    estimate = evaluate_all(world)
                    if estimate is not None:
                        return estimate
                    depth = 0
                if deadline is not None and n % CLOCK_EVERY == 0 and time.perf_counter() >= deadline:
                    return None
                legal = world._legal_actions()
                count = len(legal)
                if count == 1:
                    world.apply_legal(legal[0])
                    n += 1
                    continue
                if resign is not None:
                    legal = playout_choices(game, list(legal))
                    count = len(legal)
                action: Action | None = None
                if heuristic:
                    mover = world.current_player
                    assert mover is not None
                    action = heuristic_choice(game, world.observation(mover), list(legal), mover, rng)
                world.apply_legal(legal[rng.randbelow(count)] if action is None else action)
                n += 1
            return world.returns()
        finally:
            self.decisions += n


def heuristic_choice(
    game: Game, observation: dict[str, Any], legal: list[Action], seat: int, rng: Rng
) -> Action | None:
    """The game's ``heuristic_action``, checked: a choice outside ``legal`` is a bug of the game's hook."""
    action = game.heuristic_action(observation, legal, seat, rng)
    if action is not None and action not in legal:
        raise ValueError(f"{game.id}: heuristic_action chose {str(action)!r}, which is not one of the legal actions")
    return action


def playout(world: State, rng: Rng, depth: int) -> list[float]:
    """Random play from ``world`` (changed in place) to the end, or ``depth`` decisions then the evaluation.

    Random play never resigns (``playout_actions``). When the game gives no evaluation the playout goes on to the
    end whatever ``depth`` says.
    """
    result = Rollout(world.game, rng, depth=depth, policy=Policy.RANDOM, deadline=None).run(world)
    assert result is not None  # no deadline
    return result


def evaluate_all(world: State) -> list[float] | None:
    """Every seat's estimate by the game's ``evaluate`` (clamped to [-1, 1]), or ``None`` if the game has none."""
    game = world.game
    out: list[float] = []
    for seat in range(game.num_players):
        value = game.evaluate(world.observation(seat), seat)
        if value is None:
            return None
        out.append(max(-1.0, min(1.0, float(value))))
    return out
