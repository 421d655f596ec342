"""A tiny two-seat game with many grouped actions, to test the terminal's menu without depending on a real game's
labels (which their owners change).

Each turn the seat to act chooses among: ``summon Knight <square>`` and ``summon Kite <square>`` (groups "summon
Knight", "summon Kite"), ``place <square>`` (one group of ``squares`` actions), ``use card<i> <x|y>`` (``extra``
groups of two), ``discard Knight`` and ``pass`` (alone in their groups). The game ends after ``steps`` decisions;
seat 0 wins when the number of passes is even.
"""

from __future__ import annotations

import random
from typing import Any

from cardarena.engine import Action, Game, InvalidActionError, Option, Rng, State
from cardarena.engine.fields import shared
from cardarena.engine.game import MAX_TURNS

FILES = "abcdefghi"


def squares(n: int) -> list[str]:
    return [f"{FILES[i % 9]}{i // 9 + 1}" for i in range(n)]


class MenuGame(Game):
    id = "toy-menu"
    name = "Toy menu"
    option_spec = (
        MAX_TURNS,
        Option("squares", int, 60, "place actions", minimum=1, maximum=300),
        Option("extra", int, 0, "extra groups of two 'use' actions", minimum=0, maximum=300),
        Option("steps", int, 6, "decisions in a game", minimum=1, maximum=100),
        Option("long", bool, False, "a summon's detail is a long text (as a card's rules text is)"),
        Option("moves", bool, False, "add 'move <from> <to>' actions, grouped by the piece moved"),
    )

    def setup(self) -> None:
        sq = squares(self.options["squares"])
        self.all: list[Action] = (
            [Action.of("summon", "Knight", s) for s in sq[:3]]
            + [Action.of("summon", "Kite", s) for s in sq[:2]]
            + [Action.of("place", s) for s in sq]
            + [Action.of("use", f"card{i}", x) for i in range(self.options["extra"]) for x in "xy"]
            + [Action.of("move", a, b) for a, b in (("a1", "b1"), ("a1", "c1"), ("b1", "c1"))] * self.options["moves"]
            + [Action.of("discard", "Knight"), Action.of("pass")]
        )
        self.by_text = {str(a): a for a in self.all}

    def new_initial_state(self, seed: int = 0) -> MenuState:
        return MenuState(self, seed)

    def parse_action(self, state: State, text: str) -> Action:
        try:
            return self.by_text[text.strip()]
        except KeyError:
            raise InvalidActionError(text, "not an action of the toy menu game") from None

    @property
    def num_distinct_actions(self) -> int:
        return len(self.all)

    def action_index(self, action: Action) -> int:
        return self.all.index(action)

    def action_from_index(self, index: int) -> Action:
        return self.all[index]

    def choice_label(self, state: State, action: Action) -> tuple[str, str]:
        if action.kind == "summon":
            square = str(action.args[1])
            if self.options["long"]:
                return f"summon {action.args[0]}", f"{square}: the pattern stands on the squares around {square}, " * 3
            return f"summon {action.args[0]}", square
        if action.kind == "use":
            return f"use {action.args[0]}", str(action.args[1])
        if action.kind == "move":
            return f"piece on {action.args[0]}", f"to {action.args[1]}"
        if action.kind == "discard":
            return "discard Knight", ""
        return super().choice_label(state, action)

    def describe_action(self, state: State, action: Action) -> str:
        return f"{action} — a pass" if action.kind == "pass" else str(action)

    def is_pass(self, action: Action) -> bool:
        return action.kind == "pass"


class MenuState(State):
    FIELDS = shared("step", "passes")

    def __init__(self, game: MenuGame, seed: int) -> None:
        super().__init__(game, seed)
        self.step = 0
        self.passes = 0

    @property
    def current_player(self) -> int | None:
        return None if self.is_terminal() else self.step % 2

    @property
    def turn(self) -> int:
        return self.step // 2 + 1

    def is_terminal(self) -> bool:
        return self.step >= self.game.options["steps"]

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        return [1.0, -1.0] if self.passes % 2 == 0 else [-1.0, 1.0]

    def _legal_actions(self) -> list[Action]:
        return list(self.game.all)  # type: ignore[attr-defined]

    def _apply(self, action: Action) -> None:
        self.passes += action.kind == "pass"
        self.step += 1

    def observation(self, seat: int | None) -> dict[str, Any]:
        return {"step": self.step, "passes": self.passes}

    def _resample(self, seat: int, rng: Rng | random.Random | int) -> MenuState:
        return self.clone()  # nothing is hidden
