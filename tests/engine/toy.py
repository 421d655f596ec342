"""Tiny hidden-information games used to test the kernel and the harness without any real game.

``ToyGame``: each player holds a hidden card from a shuffled deck of 1..9. For three rounds each player in turn
either keeps or swaps their card for the deck's top card. Highest card wins; equal cards draw.
``BidGame``: sealed bids, a simultaneous choice made in turn and revealed when both have bid.
"""

from __future__ import annotations

import random
from typing import Any

from cardarena.engine import Action, Declared, Game, InvalidActionError, Involvement, Option, Rng, State
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

    def hidden_cards(self, state: State, seat: int) -> dict[str, dict[str, Any]] | None:
        assert isinstance(state, ToyState)
        if state.is_terminal():
            return {}
        places = {"opponent's card": state.cards[1 - seat]}
        places.update({f"deck {i}": card for i, card in enumerate(state.deck)})
        return {"the other cards": places}

    # the balance report's hooks: each card 1-9, and the swap rule
    def involvement_catalogue(self) -> list[Declared]:
        return [*(Declared("card", str(n), f"card {n}") for n in range(1, 10)), Declared("rule", "swap", "swap")]

    def initial_involvement(self, state: State) -> list[Involvement]:
        assert isinstance(state, ToyState)
        return [Involvement(seat, "card", str(card), "drawn") for seat, card in enumerate(state.cards)]

    def involvement(self, before: State, action: Action, after: State) -> list[Involvement]:
        assert isinstance(before, ToyState) and isinstance(after, ToyState)
        seat = before.step % 2
        if action == KEEP:
            return [Involvement(seat, "card", str(before.cards[seat]), "played")]
        return [
            Involvement(seat, "card", str(before.cards[seat]), "discarded"),
            Involvement(seat, "card", str(after.cards[seat]), "drawn"),
            Involvement(None, "rule", "swap", "applied"),
        ]


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

    def _resample(self, seat: int, rng: Rng | random.Random | int) -> ToyState:
        r = Rng.coerce(rng)
        c = self.clone()
        if not self.is_terminal():
            # The deck order and the other player's card are hidden: redraw them together.
            other = 1 - seat
            pool = sorted([*c.deck, c.cards[other]])  # canonical: not the true order
            r.shuffle(pool)
            c.cards[other] = pool.pop()
            c.deck = pool
            c.rng = r.fork()
        return c


# -- a simultaneous choice: sealed bids ---------------------------------------------------------------------------
BIDS = tuple(Action.of("bid", n) for n in (1, 2, 3))
SEAL = Action.of("seal")
BID_ACTIONS = (*BIDS, SEAL)


class BidGame(Game):
    """Sealed bids: each round both players bid 1-3 at the same time (in turn, hidden until both have bid); the
    higher bid scores a point. Seat 0 always bids first, so the reveal of a round is followed by a hidden bid of
    the other seat (the harness must not take that reveal for a leak). With ``seal``, a bidder then seals the
    bid (a public action) before the other seat bids."""

    id = "toy-bid"
    name = "Toy sealed bids"
    option_spec = (
        MAX_TURNS,
        Option("rounds", int, 3, "rounds to play", minimum=1, maximum=9),
        Option("seal", bool, False, "each bid is followed by the bidder's public 'seal'"),
    )

    def new_initial_state(self, seed: int = 0) -> BidState:
        return BidState(self, seed)

    def parse_action(self, state: State, text: str) -> Action:
        for a in BID_ACTIONS:
            if text.strip() == str(a):
                return a
        raise InvalidActionError(text, "expected 'bid 1', 'bid 2', 'bid 3' or 'seal'")

    @property
    def num_distinct_actions(self) -> int:
        return len(BID_ACTIONS)

    def action_index(self, action: Action) -> int:
        return BID_ACTIONS.index(action)

    def action_from_index(self, index: int) -> Action:
        return BID_ACTIONS[index]

    def action_seen_by(self, state: State, action: Action, seat: int | None) -> str:
        return str(action) if seat == state.current_player or action == SEAL else "bids face down"


class BidState(State):
    def __init__(self, game: BidGame, seed: int) -> None:
        super().__init__(game, seed)
        self.round = 0
        self.bids: list[int | None] = [None, None]  # this round's sealed bids
        self.sealed = [False, False]
        self.revealed: list[list[int]] = []  # earlier rounds' bids, seat 0 first
        self.score = [0, 0]

    @property
    def current_player(self) -> int | None:
        if self.is_terminal():
            return None
        if self.bids[0] is None or (self.game.options["seal"] and not self.sealed[0]):
            return 0
        return 1

    @property
    def turn(self) -> int:
        return self.round + 1

    def is_terminal(self) -> bool:
        return self.round >= self.game.options["rounds"]

    def returns(self) -> list[float]:
        if not self.is_terminal() or self.score[0] == self.score[1]:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.score[0] > self.score[1] else [-1.0, 1.0]

    def _legal_actions(self) -> list[Action]:
        seat = self.current_player
        assert seat is not None
        return list(BIDS) if self.bids[seat] is None else [SEAL]

    def _apply(self, action: Action) -> None:
        seat = self.current_player
        assert seat is not None
        if action == SEAL:
            self.sealed[seat] = True
        else:
            self.bids[seat] = int(action[1])
        if self.game.options["seal"] and not all(self.sealed):
            return
        b0, b1 = self.bids
        if b0 is not None and b1 is not None:  # both have bid: reveal together
            self.revealed.append([b0, b1])
            if b0 != b1:
                self.score[0 if b0 > b1 else 1] += 1
            self.bids = [None, None]
            self.sealed = [False, False]
            self.round += 1

    def observation(self, seat: int | None) -> dict[str, Any]:
        obs: dict[str, Any] = {
            "round": self.round,
            "to_act": self.current_player,
            "has_bid": [b is not None for b in self.bids],
            "revealed": [list(r) for r in self.revealed],
            "score": list(self.score),
        }
        if seat is not None:
            obs["my_bid"] = self.bids[seat]
        return obs

    def snapshot(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "bids": list(self.bids),
            "sealed": list(self.sealed),
            "revealed": [list(r) for r in self.revealed],
            "score": list(self.score),
            "history": [str(a) for a in self.history],
        }

    def clone(self) -> BidState:
        c = BidState.__new__(BidState)
        self._copy_base_into(c)
        c.round = self.round
        c.bids = self.bids.copy()
        c.sealed = self.sealed.copy()
        c.revealed = [r.copy() for r in self.revealed]
        c.score = self.score.copy()
        return c

    def _resample(self, seat: int, rng: Rng | random.Random | int) -> BidState:
        c = self.clone()
        other = 1 - seat
        if c.bids[other] is not None:  # the other's sealed bid is hidden: any bid
            c.bids[other] = 1 + Rng.coerce(rng).randbelow(3)
        return c
