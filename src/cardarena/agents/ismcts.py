"""Information-set Monte Carlo tree search (single-observer ISMCTS; Cowling, Powley & Whitehouse 2012).

One tree over the acting seat's information set. Every iteration draws a fresh determinization with
``view.resample`` (a full state the seat cannot tell from the true one, future chance reseeded), walks the tree
with the actions legal in that world, expands one, plays out at random and backs the returns up. A child's UCB uses
its *availability* (how often its action was legal when its parent was visited) instead of the parent's visits,
so actions that exist only in some worlds are not over-explored. Returns are per seat, so 2-4 seats and teams
need nothing special: each node keeps the reward of the seat that chose its action. The final choice is the
most visited action. The agent sees only its ``SeatView``.
"""

from __future__ import annotations

import math

from ..engine import Action, Option, Rng
from .base import Agent, SeatView
from .search import DEPTH, ITERATIONS, SECONDS, Budget, playout


class _Node:
    __slots__ = ("avail", "children", "mover", "value", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the seat whose action leads here
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.value = 0.0


class ISMCTSAgent(Agent):
    """``ismcts[:iterations=N,seconds=S,c=C,depth=D]``."""

    name = "ismcts"
    params = (
        ITERATIONS,
        SECONDS,
        Option("c", float, 1.0, "exploration constant of UCB (returns are in [-1, 1])", minimum=0, maximum=100),
        DEPTH,
    )

    def __init__(
        self, seed: int = 0, *, iterations: int = 1000, seconds: float | None = None, c: float = 1.0, depth: int = 0
    ) -> None:
        self.rng = Rng(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.depth = depth
        self.last_root: _Node | None = None
        self.last_iterations = 0

    def act(self, view: SeatView) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        root = _Node(view.seat)
        budget = Budget(self.iterations, self.seconds)
        while budget.more():
            self._iterate(root, view)
            budget.done += 1
        self.last_root, self.last_iterations = root, budget.done
        return max(legal, key=lambda a: root.children[a].visits if a in root.children else -1)

    def stats(self) -> list[tuple[Action, int, float]]:
        """The last search's root: (action, visits, mean reward of the acting seat), most visited first."""
        root = self.last_root
        if root is None:
            return []
        rows = [(a, n.visits, n.value / n.visits if n.visits else 0.0) for a, n in root.children.items()]
        return sorted(rows, key=lambda r: -r[1])

    def _iterate(self, root: _Node, view: SeatView) -> None:
        rng = self.rng
        world = view.resample(rng.fork())
        node = root
        path = [root]
        while not world.is_terminal():
            legal = world.playout_actions()
            children = node.children
            untried = [a for a in legal if a not in children]
            for a in legal:
                child = children.get(a)
                if child is not None:
                    child.avail += 1
            mover = world.current_player
            assert mover is not None
            if untried:
                action = untried[rng.randbelow(len(untried))]
                node = children[action] = _Node(mover)
                world.apply_legal(action)
                path.append(node)
                break
            action, node = self._select(children, legal)
            world.apply_legal(action)
            path.append(node)
        returns = playout(world, rng, self.depth)
        for n in path:
            n.visits += 1
            n.value += returns[n.mover]

    def _select(self, children: dict[Action, _Node], legal: list[Action]) -> tuple[Action, _Node]:
        c = self.c
        best: tuple[Action, _Node] | None = None
        best_score = -math.inf
        for a in legal:
            n = children[a]
            score = n.value / n.visits + c * math.sqrt(math.log(n.avail) / n.visits)
            if score > best_score:
                best, best_score = (a, n), score
        assert best is not None
        return best
