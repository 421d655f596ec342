"""What the search agents share: budgets, determinizations and playouts."""

from __future__ import annotations

import time

from ..engine import Option, Rng, State

ITERATIONS = Option("iterations", int, 1000, "search iterations per decision", minimum=1, maximum=10_000_000)
SECONDS = Option(
    "seconds",
    float,
    None,
    "think this long per decision instead of a fixed number of iterations (not reproducible)",
    minimum=0.001,
    maximum=3600,
)
DEPTH = Option(
    "depth",
    int,
    0,
    "cut playouts after this many decisions and use the game's evaluation (0: play to the end)",
    minimum=0,
    maximum=100_000,
)


class Budget:
    """An iteration count, or a time limit when ``seconds`` is given (checked after every iteration)."""

    __slots__ = ("deadline", "done", "iterations")

    def __init__(self, iterations: int, seconds: float | None) -> None:
        self.iterations = iterations
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.done = 0

    def more(self) -> bool:
        if self.deadline is None:
            return self.done < self.iterations
        return self.done == 0 or time.perf_counter() < self.deadline


def playout(world: State, rng: Rng, depth: int) -> list[float]:
    """Random play from ``world`` (changed in place) to the end, or ``depth`` decisions then the evaluation.

    Random play never resigns (``playout_actions``). When the game gives no evaluation the playout goes on to the
    end whatever ``depth`` says.
    """
    n = 0
    while not world.is_terminal():
        if depth and n >= depth:
            estimate = _evaluate(world)
            if estimate is not None:
                return estimate
            depth = 0
        legal = world.playout_actions()
        world.apply_legal(legal[rng.randbelow(len(legal))])
        n += 1
    return world.returns()


def _evaluate(world: State) -> list[float] | None:
    game = world.game
    out: list[float] = []
    for seat in range(game.num_players):
        value = game.evaluate(world.observation(seat), seat)
        if value is None:
            return None
        out.append(max(-1.0, min(1.0, float(value))))
    return out
