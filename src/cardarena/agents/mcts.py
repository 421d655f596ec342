"""Perfect-information MCTS on the TRUE state: a cheating agent, for analysis only.

UCT (the same tree, selection, playouts and budgets as :mod:`.ismcts`), but every iteration starts from a copy of
the true state, hidden cards and the future chance of the state's generator included, instead of a resample. It
sees what no player may see, so it measures what seeing everything is worth (an upper bound for the fair
agents); it is never a fair opponent. It reads the true state through the one door the ``SeatView`` keeps for
cheating agents, :meth:`SeatView.true_state_for_analysis`, and declares ``cheats = True``: ``cardarena play``
refuses it unless asked for explicitly, and no fair agent ever opens that door (a property test checks it).
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from ..engine import State
from .base import SeatView
from .ismcts import ISMCTSAgent


@mypyc_attr(allow_interpreted_subclasses=True)
class PerfectInformationMCTSAgent(ISMCTSAgent):
    """``mcts[:iterations=N,seconds=S,c=C,depth=D,rollout=random|heuristic]``: UCT on the true state (cheats)."""

    name = "mcts"
    cheats = True

    def _world(self, view: SeatView) -> State:
        return view.true_state_for_analysis().clone()
