"""The random agent: a uniform choice among its seat's legal actions."""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from ..engine import Action, Rng, playout_choices
from .base import Agent, SeatView


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomAgent(Agent):
    """Chooses uniformly among the legal actions of its own seat, with its own seeded generator.

    It never resigns (``playout_choices``: the game's ``resign_action`` is left out while anything else is legal).
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:  # no parameters
        self.rng = Rng(seed)

    def act(self, view: SeatView) -> Action:
        legal = playout_choices(view.game, view.legal_actions())
        return legal[self.rng.randbelow(len(legal))]
