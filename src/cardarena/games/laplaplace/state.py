"""The shape of a Laplaplace position: the builds being made, then the outcome of the battle they fought."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from cardarena.engine import Action, Rng, State, derive_seed
from cardarena.engine.fields import copied, nested, shared

from . import rules, views
from .constants import Phase, Scene
from .rules import Outcome

if TYPE_CHECKING:
    from .game import LaplaplaceGame


class LaplaplaceState(State):
    """Two builds (card-list indices, top first), the open cards shown, and once both builds are complete the
    outcome of the battle (fought at once: it has no decisions). The scene is the game's (``game.scene``)."""

    game: LaplaplaceGame
    rng: Rng
    builds: list[list[int]]
    shown: list[list[int]]
    done: list[bool]
    outcome: Outcome | None
    battle_rng: int
    battle_log: list[str] | None
    battle_summary: list[str] | None

    FIELDS = (
        *copied("rng", "done"),
        *nested("builds", "shown"),
        *shared("outcome", "battle_rng"),  # the outcome is never changed once fought; the Rng state it started from
        *shared("battle_log", "battle_summary", snapshot=False),  # written on first use (``log``), never changed after
    )

    if TYPE_CHECKING:  # derived from FIELDS by the kernel

        def clone(self) -> LaplaplaceState: ...

        def snapshot(self) -> dict[str, Any]: ...

    def __init__(self, game: LaplaplaceGame, seed: int) -> None:
        super().__init__(game, seed)
        self.rng = Rng(derive_seed(seed, 1))
        self.builds = [[], []]
        self.done = [False, False]
        self.shown = [[], []]
        self.outcome = None
        self.battle_log = None
        self.battle_summary = None
        self.battle_rng = 0
        for s in (0, 1):
            fixed = game.fixed[s]
            if fixed is not None:
                self.builds[s] = [c.index for c in fixed.cards]
                self.done[s] = True
        rules.fight_when_ready(self)

    # -- protocol -------------------------------------------------------------------------------------------
    @property
    def scene(self) -> Scene:
        return self.game.scene

    @property
    def phase(self) -> Phase:
        """``show`` (open cards), ``build`` (adding cards), or ``over``."""
        return rules.phase(self)

    @property
    def current_player(self) -> int | None:
        return rules.current_player(self)

    @property
    def turn(self) -> int:
        return self.outcome.turns if self.outcome is not None else 1

    def is_terminal(self) -> bool:
        return self.outcome is not None

    def returns(self) -> list[float]:
        o = self.outcome
        if o is None or o.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if o.winner == 0 else [-1.0, 1.0]

    def _legal_actions(self) -> list[Action]:
        return rules.legal_actions(self)

    def why_not(self, action: Action) -> str | None:
        return rules.why_not(self, action)

    def _apply(self, action: Action) -> None:
        rules.apply(self, action)

    def open_remaining(self, seat: int) -> list[int]:
        """Open cards of ``seat`` not yet placed in its build (each must be placed)."""
        return rules.open_remaining(self, seat)

    # -- views ----------------------------------------------------------------------------------------------
    @property
    def log(self) -> list[str]:
        """The battle log a person can follow (empty before the battle)."""
        return views.battle_log(self)

    @property
    def summary(self) -> list[str]:
        """The battle in a few lines (empty before the battle); see ``views.battle_summary``."""
        return views.battle_summary(self)

    def observation(self, seat: int | None) -> dict[str, Any]:
        return views.observation(self, seat)

    def resample(self, seat: int, rng: Rng | random.Random | int) -> LaplaplaceState:
        return views.resample(self, seat, rng)
