"""The agent interface: an agent is handed a :class:`SeatView`, never the full state."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from ..engine import Action, Game, Option, Rng, State


@mypyc_attr(allow_interpreted_subclasses=True)
class SeatView:
    """What one seat may use to decide: its observation, its legal actions and resampled worlds.

    Search agents obtain full states to search only through :meth:`resample`, which redraws everything the seat
    cannot see, so no fair agent can peek at hidden cards or the true future. The one exception is named for
    what it is: :meth:`true_state_for_analysis`, for agents that declare ``cheats = True`` and nothing else.
    """

    __slots__ = ("_state", "seat")

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def game(self) -> Game:
        return self._state.game

    def observation(self) -> dict[str, Any]:
        return self._state.observation(self.seat)

    def legal_actions(self) -> list[Action]:
        if self._state.current_player != self.seat:
            return []
        return self._state.legal_actions()

    def resample(self, rng: Rng | random.Random | int) -> State:
        return self._state.resample(self.seat, rng)

    def true_state_for_analysis(self) -> State:
        """CHEATING: the true state itself, hidden cards and future chance included.

        The one door for agents that declare ``cheats = True`` (the perfect-information ``mcts``, an analysis
        tool that measures what seeing everything is worth). No fair agent may call it; the non-cheating
        property test hands fair agents a view on which it raises. Do not mutate the state returned.
        """
        return self._state


@mypyc_attr(allow_interpreted_subclasses=True)
class Agent(ABC):
    """A player. ``act`` returns one of ``view.legal_actions()``.

    Subclasses set ``name`` (the spec's name) and ``params`` (the options of the spec, declared like a game's
    options); ``__init__`` takes the seed and the parameters as keywords.
    """

    name: ClassVar[str] = "agent"
    params: ClassVar[tuple[Option, ...]] = ()
    #: ``True`` for agents that read the true state (:meth:`SeatView.true_state_for_analysis`): analysis tools,
    #: never fair opponents. Faces refuse them unless the user asks for cheating agents explicitly.
    cheats: ClassVar[bool] = False

    @abstractmethod
    def act(self, view: SeatView) -> Action: ...
