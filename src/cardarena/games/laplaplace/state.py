"""The shape of a Laplaplace position: the builds being made, then the outcome of the battle they fought."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardarena.engine import Action, Rng, State, derive_seed
from cardarena.engine.fields import copied, nested, shared

from . import rules, views
from .constants import Phase, Scene
from .rules import Outcome

if TYPE_CHECKING:
    from .game import LaplaplaceGame  # noqa: F401  (the class names it as its base: State["LaplaplaceGame"])


class LaplaplaceState(State["LaplaplaceGame"]):
    """Two builds (card-list indices, top first), the open cards shown, and once both builds are complete the
    outcome of the battle (fought at once: it has no decisions). The scene is the game's (``game.scene``)."""

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

    # -- clone: written from FIELDS by `make clones` (cardarena.engine.fields); do not edit by hand --
    def clone(self) -> LaplaplaceState:
        """An independent copy, field by field as LaplaplaceState.FIELDS says."""
        c = LaplaplaceState(self.game, self.seed)
        c.history = self.history.copy()
        c._legal = self._legal
        if self._no_record is not None:
            c._resampled = self._resampled
            c._no_record = self._no_record
        c.rng = self.rng.copy()
        c.done = self.done.copy()
        c.builds = [x.copy() for x in self.builds]
        c.shown = [x.copy() for x in self.shown]
        c.outcome = self.outcome
        c.battle_rng = self.battle_rng
        c.battle_log = self.battle_log
        c.battle_summary = self.battle_summary
        return c

    # -- end of the written clone --

    def start(self) -> None:
        """Lay out the initial position (``new_initial_state`` builds the state, then calls this)."""
        game, seed = self.game, self.seed
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

    def _legal_actions(self) -> Sequence[Action]:
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

    def _resample(self, seat: int, rng: Rng | random.Random | int) -> LaplaplaceState:
        return views.resample(self, seat, rng)
