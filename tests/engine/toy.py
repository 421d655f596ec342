"""A tiny hidden-information game used to test the kernel and the harness without any real game.

Each player holds a hidden card from a shuffled deck of 1..9. For three rounds each player in turn either keeps
or swaps their card for the deck's top card. Highest card wins; equal cards draw.
"""

from __future__ import annotations

import random
from typing import Any

from cardarena.engine import Action, Game, InvalidActionError, Option, Rng, State
from cardarena.engine.fields import copied, shared
from cardarena.engine.game import MAX_TURNS

KEEP = Action.of("keep")
SWAP = Action.of("swap")
ACTIONS = (KEEP, SWAP)


class ToyGame(Game):
    id = "toy"
    name = "Toy swap"
    option_spec = (MAX_TURNS, Option("rounds", int, 3, "rounds to play", minimum=1, maximum=9))

    def new_initial_state(self, seed: int = 0) -> ToyState:
        return ToyState(self, seed)

    def parse_action(self, state: State, text: str) -> Action:
        for a in ACTIONS:
            if text.strip() == str(a):
                return a
        raise InvalidActionError(text, "expected 'keep' or 'swap'")

    @property
    def num_distinct_actions(self) -> int:
        return 2

    def action_index(self, action: Action) -> int:
        return ACTIONS.index(action)

    def action_from_index(self, index: int) -> Action:
        return ACTIONS[index]


class ToyState(State):
    # Declared once: the kernel derives clone() and snapshot() from this.
    FIELDS = (*copied("rng", "deck", "cards"), *shared("step"))

    def __init__(self, game: ToyGame, seed: int) -> None:
        super().__init__(game, seed)
        self.rng = Rng(seed)
        self.deck = list(range(1, 10))
        self.rng.shuffle(self.deck)
        self.cards = [self.deck.pop(), self.deck.pop()]
        self.step = 0

    @property
    def current_player(self) -> int | None:
        return None if self.is_terminal() else self.step % 2

    @property
    def turn(self) -> int:
        return self.step // 2 + 1

    def is_terminal(self) -> bool:
        return self.step >= 2 * self.game.options["rounds"]

    def returns(self) -> list[float]:
        if not self.is_terminal() or self.cards[0] == self.cards[1]:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.cards[0] > self.cards[1] else [-1.0, 1.0]

    def _legal_actions(self) -> list[Action]:
        return [KEEP, SWAP] if self.deck else [KEEP]

    def _apply(self, action: Action) -> None:
        if action == SWAP:
            self.deck.insert(0, self.cards[self.step % 2])
            self.cards[self.step % 2] = self.deck.pop()
        self.step += 1

    def observation(self, seat: int | None) -> dict[str, Any]:
        obs: dict[str, Any] = {"step": self.step, "deck_size": len(self.deck)}
        if seat is not None:
            obs["my_card"] = self.cards[seat]
        if self.is_terminal():
            obs["cards"] = list(self.cards)
        return obs

    def resample(self, seat: int, rng: Rng | random.Random | int) -> ToyState:
        r = Rng.coerce(rng)
        c = self.clone()
        if not self.is_terminal():
            # The deck order and the other player's card are hidden: redraw them together.
            other = 1 - seat
            pool = [*c.deck, c.cards[other]]
            r.shuffle(pool)
            c.cards[other] = pool.pop()
            c.deck = pool
            c.rng = r.fork()
        return c
