"""The expert: information-set MCTS whose leaves are scored by the game's learned value network.

``expert`` is :class:`~cardarena.agents.ismcts.ISMCTSAgent` with two changes. Its playouts end in the game's trained
value network (:mod:`cardarena.agents.valuenet`) instead of the hand-written ``evaluate``: after ``depth``
playout decisions (0: at the leaf itself) every seat's view of the world is encoded and scored. And its search
settings are the ones tuned for that model (``cardarena tune``), shipped in the model's metadata; a parameter given
in the spec overrides them (``expert:iterations=400``).

The model of a game configuration is ``agents/models/KEY.npz`` (:func:`~cardarena.agents.levels.model_key`:
``torabato``, ``tashkalar-highform``, ``tashkalar-melee4``...), or the file ``model=PATH`` names. A configuration
without a model (or whose encoding no longer fits it: a card file that changes the input size) plays the same
search with the game's ``evaluate`` and the fallback settings, and says so: ``agent.model`` is ``None``.

Like every fair agent it sees only its ``SeatView``: the tree is over the seat's information set, every iteration
draws a world with ``view.resample``, and the network reads observations of those worlds.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..engine import Game, Option
from .base import SeatView
from .ismcts import ISMCTSAgent
from .levels import MODELS, model_key
from .search import ROLLOUT, SECONDS, Budget, Policy, Rollout
from .valuenet import NetEvaluator, ValueNet

log = logging.getLogger("cardarena.agents")

#: The search settings of a model that ships none, and a parameter its metadata leaves out. Heuristic playouts
#: of 20 decisions before the network scores the position: measured in ToraBato (docs/agents.md, "The expert"),
#: scoring the leaf itself (``depth=0``) lost to playing the rule of thumb forward, 0.41 against 0.51-0.54.
NET_SETTINGS: dict[str, Any] = {
    "iterations": 200,
    "c": 1.0,
    "depth": 20,
    "rollout": Policy.HEURISTIC.value,
    "prior": 0.3,
    "candidates": 0,
}
#: Without a model: the game's own evaluation after 20 random playout decisions (``ismcts``'s defaults).
FALLBACK_SETTINGS: dict[str, Any] = {**NET_SETTINGS, "iterations": 1000, "rollout": Policy.RANDOM.value}


def model_path(game: Game) -> Path:
    """Where the shipped model of ``game``'s configuration is (it may not exist)."""
    return MODELS / f"{model_key(game)}.npz"


@lru_cache(maxsize=64)
def _load_version(path: str, stamp: tuple[int, int]) -> ValueNet:
    return ValueNet.load(path)


def _load(path: str) -> ValueNet:
    """The network of ``path``, read once per version of the file (``cardarena tune --write`` rewrites a model's
    settings: a process that read it before plays the new ones)."""
    try:
        info = Path(path).stat()
        stamp = (info.st_mtime_ns, info.st_size)
    except OSError:
        stamp = (0, 0)  # ValueNet.load says what is wrong with it
    return _load_version(path, stamp)


def model_for(game: Game, path: str | None = None) -> ValueNet | None:
    """The value network for ``game``: the file ``path``, or the shipped model of its configuration; ``None`` when
    there is none or its input size does not fit the game's encoding (logged once per file). A ``path`` given that
    cannot be read raises ``ValueError`` naming it."""
    if path:
        net = _load(str(Path(path).resolve()))
    else:
        shipped = model_path(game)
        if not shipped.exists():
            return None
        net = _load(str(shipped))
    if net.inputs != game.observation_encoder().size:
        _warn_misfit(str(path or model_path(game)), game.id, net.inputs, game.observation_encoder().size)
        return None
    return net


@lru_cache(maxsize=64)
def _warn_misfit(path: str, game_id: str, inputs: int, size: int) -> None:
    log.warning(
        "%s: the model %s reads %d numbers but this configuration's encoding has %d (another card file?); "
        "the expert plays with the game's own evaluation",
        game_id,
        path,
        inputs,
        size,
    )


def _setting(name: str, kind: type, help_text: str, **bounds: Any) -> Option:
    return Option(name, kind, None, help_text + " (default: the model's tuned value)", **bounds)


class ExpertAgent(ISMCTSAgent):
    """``expert[:iterations=N,seconds=S,c=C,depth=D,rollout=R,prior=P,candidates=K,model=PATH]``."""

    name = "expert"
    params = (
        _setting("iterations", int, "search iterations per decision", minimum=1, maximum=10_000_000),
        SECONDS,
        _setting("c", float, "exploration constant of UCB", minimum=0, maximum=100),
        _setting(
            "depth", int, "playout decisions before the value network scores the position", minimum=0, maximum=100_000
        ),
        Option("rollout", str, None, ROLLOUT.help + " (default: the model's tuned value)", choices=ROLLOUT.choices),
        _setting(
            "prior", float, "share of the iterations credited to the game's heuristic choice", minimum=0, maximum=10
        ),
        _setting(
            "candidates",
            int,
            "search only the game's heuristic's first N choices at the root (0: all)",
            minimum=0,
            maximum=10_000,
        ),
        Option("model", str, None, "a value network file (.npz) to use instead of the shipped one"),
    )

    def __init__(
        self,
        seed: int = 0,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        c: float | None = None,
        depth: int | None = None,
        rollout: str | None = None,
        prior: float | None = None,
        candidates: int | None = None,
        model: str | None = None,
    ) -> None:
        super().__init__(seed, seconds=seconds)
        given = {"iterations": iterations, "c": c, "depth": depth, "rollout": rollout, "prior": prior}
        given["candidates"] = candidates
        #: the settings the spec gave; the rest come from the model (or the fallback)
        self.given: dict[str, Any] = {k: v for k, v in given.items() if v is not None}
        self.model_file = model
        #: the model the last decision used (its metadata's ``key``, or the file), ``None`` for the game's evaluate
        self.model: str | None = None
        self._evaluator: tuple[Game, NetEvaluator | None] | None = None

    def settings(self, game: Game) -> dict[str, Any]:
        """The search settings this agent plays ``game`` with: the spec's, then the model's tuned ones, then the
        defaults."""
        net = model_for(game, self.model_file)
        base = FALLBACK_SETTINGS if net is None else {**NET_SETTINGS, **net.meta.get("search", {})}
        return {**base, **self.given}

    def act(self, view: SeatView) -> Any:
        game = view.game
        if self._evaluator is None or self._evaluator[0] is not game:
            net = model_for(game, self.model_file)
            self._evaluator = (game, None if net is None else NetEvaluator(game, net))
            self.model = None if net is None else str(net.meta.get("key", self.model_file or model_path(game).name))
        s = self.settings(game)
        self.iterations = int(s["iterations"])
        self.c = float(s["c"])
        self.depth = int(s["depth"])
        self.rollout = Policy(s["rollout"])
        self.prior = float(s["prior"])
        self.candidates = int(s["candidates"])
        return super().act(view)

    def _rollout(self, view: SeatView, budget: Budget) -> Rollout:
        evaluator = self._evaluator[1] if self._evaluator is not None else None
        return Rollout(
            view.game, self.rng, depth=self.depth, policy=self.rollout, deadline=budget.deadline, evaluator=evaluator
        )
