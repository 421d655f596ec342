"""Information-set Monte Carlo tree search (single-observer ISMCTS; Cowling, Powley & Whitehouse 2012).

One tree over the acting seat's information set. Every iteration draws a fresh determinization with
``view.resample`` (a full state the seat cannot tell from the true one, future chance reseeded), walks the tree
with the actions legal in that world, expands one, plays out (random or the game's heuristic; cut after
``depth`` decisions, 20 by default, where the game's evaluation takes over) and backs the returns up. A child's
UCB uses its *availability* (how often its action was legal when its parent was visited) instead of the parent's
visits, so actions that exist only in some worlds are not over-explored. Returns are per seat, so 2-4 seats and
teams need nothing special: each node keeps the reward of the seat that chose its action. The final choice is
the most visited action (ties: the best mean). The agent sees only its ``SeatView``.
"""

from __future__ import annotations

import math
from typing import ClassVar

from mypy_extensions import mypyc_attr

from ..engine import Action, Game, Option, Rng, State, playout_choices
from .base import Agent, SeatView
from .search import ITERATIONS, ROLLOUT, SEARCH_DEPTH, SECONDS, Budget, Policy, Rollout, SearchReport


class _Node:
    __slots__ = ("avail", "children", "mover", "value", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the seat whose action leads here
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.value = 0.0


@mypyc_attr(allow_interpreted_subclasses=True)
class ISMCTSAgent(Agent):
    """``ismcts[:iterations=N,seconds=S,c=C,depth=D,rollout=random|heuristic,prior=P,candidates=K]``."""

    name = "ismcts"
    params: ClassVar[tuple[Option, ...]] = (
        ITERATIONS,
        SECONDS,
        Option("c", float, 1.0, "exploration constant of UCB (returns are in [-1, 1])", minimum=0, maximum=100),
        SEARCH_DEPTH,
        ROLLOUT,
        Option(
            "prior",
            float,
            0.3,
            "share of the search's iterations credited to the game's heuristic choice in the final choice (0: none)",
            minimum=0,
            maximum=10,
        ),
        Option(
            "candidates",
            int,
            0,
            "search only the game's heuristic's first N choices at the root (0: every legal action)",
            minimum=0,
            maximum=10_000,
        ),
    )

    def __init__(
        self,
        seed: int = 0,
        *,
        iterations: int = 1000,
        seconds: float | None = None,
        c: float = 1.0,
        depth: int = 20,
        rollout: str = Policy.RANDOM.value,
        prior: float = 0.3,
        candidates: int = 0,
    ) -> None:
        self.rng = Rng(seed)
        self.prior = prior
        self.candidates = candidates
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.depth = depth
        self.rollout = Policy(rollout)
        self.last_root: _Node | None = None
        self.last: SearchReport | None = None
        #: The game's heuristic choice at the last root and the visits credited to it (``prior``), if any.
        self.last_credit: tuple[Action, int] | None = None

    @property
    def last_iterations(self) -> int:
        """Iterations completed by the last decision's search (0 before any search)."""
        return self.last.iterations if self.last is not None else 0

    def _budget_text(self) -> str:
        return f"seconds={self.seconds}" if self.seconds is not None else f"iterations={self.iterations}"

    def act(self, view: SeatView) -> Action:
        legal = playout_choices(view.game, view.legal_actions())
        if len(legal) == 1:  # nothing to search: the report says so, and stats() is empty
            self.last_root, self.last = None, SearchReport(0, 0.0, 0, self._budget_text())
            return legal[0]
        root = _Node(view.seat)
        budget = Budget(self.iterations, self.seconds)
        rollout = self._rollout(view, budget)
        iterate = self._iterate
        allowed = self._root_candidates(view, legal)
        while budget.more():
            if iterate(root, self._world(view), rollout, allowed):
                budget.done += 1
        self.last_root = root
        self.last = SearchReport(budget.done, budget.elapsed(), rollout.decisions, self._budget_text())
        children = root.children
        if not children:  # the deadline passed before a single iteration finished
            return legal[self.rng.randbelow(len(legal))]
        # Most visits, then the best mean: with fewer iterations than actions most children have one visit each,
        # and their playouts, not the legal order, must decide. stats() lists the choice first.
        self.last_credit = None
        if self.prior:
            favoured = view.game.heuristic_action(view.observation(), legal, view.seat, self.rng.fork())
            if favoured in children:
                self.last_credit = (favoured, round(self.prior * budget.done))
        return next((a for a, _, _ in self.stats() if a in legal), legal[0])

    def _rollout(self, view: SeatView, budget: Budget) -> Rollout:
        """The playouts of one decision (a subclass may hand them a learned evaluation)."""
        return Rollout(view.game, self.rng, depth=self.depth, policy=self.rollout, deadline=budget.deadline)

    def _root_candidates(self, view: SeatView, legal: list[Action]) -> frozenset[Action] | None:
        """With ``candidates=N`` and more legal actions than that, the game's heuristic's first N choices (asked
        N times, each time without the actions already chosen), so that a small budget is spent where a good
        player would look: with 70-90 legal actions (Tash-Kalar) and a few hundred iterations, an unrestricted
        root visits each action about once. ``None``: search every action."""
        n = self.candidates
        if not n or len(legal) <= n or type(view.game).heuristic_action is Game.heuristic_action:
            return None
        observation = view.observation()
        rest = list(legal)
        chosen: list[Action] = []
        rng = self.rng.fork()
        while len(chosen) < n and rest:
            pick = view.game.heuristic_action(observation, rest, view.seat, rng)
            if pick is None or pick not in rest:
                break
            chosen.append(pick)
            rest.remove(pick)
        return frozenset(chosen) if chosen else None

    def _world(self, view: SeatView) -> State:
        """The world of one iteration: a fresh determinization of what the seat knows."""
        return view.resample(self.rng.fork())

    def stats(self) -> list[tuple[Action, int, float]]:
        """The last search's root: (action, visits, mean reward of the acting seat) in the order of the final
        choice, so the first row is the action chosen: most visits, the game's heuristic choice credited with
        ``prior`` times the iterations (prior knowledge, as in Gelly & Silver 2007: the search overrides the rule
        of thumb only when it finds a clearly better move), then the best mean."""
        root = self.last_root
        if root is None:
            return []
        favoured, credit = self.last_credit or (None, 0)
        rows = [(a, n.visits, n.value / n.visits if n.visits else 0.0) for a, n in root.children.items()]
        return sorted(rows, key=lambda r: (-(r[1] + (credit if r[0] == favoured else 0)), -r[2]))

    def _iterate(self, root: _Node, world: State, rollout: Rollout, allowed: frozenset[Action] | None) -> bool:
        """One iteration; ``False`` when the deadline cut its playout (nothing is backed up then). ``allowed``:
        the root's candidates, or ``None`` for every legal action."""
        rng = self.rng
        game = world.game
        node = root
        path = [root]
        while not world.is_terminal():
            legal = playout_choices(game, world.legal_actions())
            if node is root and allowed is not None:
                legal = [a for a in legal if a in allowed] or legal
            children = node.children
            untried: list[Action] = []
            for a in legal:
                child = children.get(a)
                if child is None:
                    untried.append(a)
                else:
                    child.avail += 1
            if untried:
                mover = world.current_player
                assert mover is not None
                action = untried[rng.randbelow(len(untried))] if len(untried) > 1 else untried[0]
                node = children[action] = _Node(mover)
                world.apply_legal(action)
                path.append(node)
                break
            action, node = self._select(children, legal)
            world.apply_legal(action)
            path.append(node)
        returns = rollout.run(world)
        if returns is None:
            return False
        for n in path:
            n.visits += 1
            n.value += returns[n.mover]
        return True

    def _select(self, children: dict[Action, _Node], legal: list[Action]) -> tuple[Action, _Node]:
        c = self.c
        best_action = legal[0]
        best = children[best_action]
        best_score = -math.inf
        for a in legal:
            n = children[a]
            visits = n.visits
            score = n.value / visits + c * math.sqrt(math.log(n.avail) / visits)
            if score > best_score:
                best_action, best, best_score = a, n, score
        return best_action, best
