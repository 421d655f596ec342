"""A tests-only card game for the balance report (:mod:`cardarena.arena.report`): 2 to 4 seats, a card list as
an option, so that a test can plant an overpowered card and an unusable one and see what the report makes of them.

``PlantedGame``: a shuffled deck holds two copies of every card of ``cards`` (``name:value,...``); each seat is
dealt ``hand`` cards and, in turn, plays ``rounds`` of them, adding their values to its total; a card of negative
value is never legal to play (a seat holding only such cards passes). The highest total wins; equal highest totals
share the win.

With ``decks`` (``"low=a:1,b:2;high=e:5,f:6"``: named card lists) each report game's seats bring decks of their own
(:meth:`PlantedGame.report_setup` draws one name per seat, options ``deck0``...): a seat with a deck is dealt from
two copies of its deck's cards, so a deck of higher values beats a lower one and the matchup table has a known
answer. Without it (the default) every seat is dealt from the one shared deck, as before.

It is registered only while a test that asks for it runs (:func:`registered`), never at import: tests that walk
every registered game (the advice and conformance tests) must not meet it, since its ``resample`` is no honest
redraw.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardarena.engine import (
    Action,
    Declared,
    Game,
    InvalidActionError,
    Involvement,
    Option,
    OptionError,
    Rng,
    Setup,
    State,
    registry,
)
from cardarena.engine.fields import copied, nested, shared

PASS = Action.of("pass")
DEFAULT_CARDS = "a:1,b:2,c:3,d:4,e:5,f:6"


def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register :class:`PlantedGame` for the running test only (the registry has no way to unregister a game, so
    the test's monkeypatch restores it afterwards). A pool of worker processes forked during the test sees it."""
    monkeypatch.setitem(registry._extra, PlantedGame.id, PlantedGame)


def parse_decks(text: str) -> dict[str, dict[str, int]]:
    """``"x=a:1,b:2;y=c:3"`` -> ``{"x": {"a": 1, "b": 2}, "y": {"c": 3}}`` (``""``: no decks)."""
    out: dict[str, dict[str, int]] = {}
    for item in filter(None, (p.strip() for p in text.split(";"))):
        name, sep, cards = item.partition("=")
        if not sep or not name.strip():
            raise OptionError(f"deck {item!r} must look like name=card:value,...")
        out[name.strip()] = parse_cards(cards)
    return out


def parse_cards(text: str) -> dict[str, int]:
    """``"a:1,b:2"`` -> ``{"a": 1, "b": 2}``."""
    out: dict[str, int] = {}
    for item in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = item.partition(":")
        try:
            out[name.strip()] = int(value)
        except ValueError:
            raise OptionError(f"card {item!r} must look like name:value") from None
        if not sep or not name.strip():
            raise OptionError(f"card {item!r} must look like name:value")
    if not out:
        raise OptionError("the card list is empty")
    return out


class PlantedGame(Game):
    id = "toy-planted"
    name = "Toy planted cards"
    option_spec = (
        Option("seats", int, 2, "players", minimum=2, maximum=4),
        Option("cards", str, DEFAULT_CARDS, "the cards, name:value,... (a negative value: never playable)"),
        Option("hand", int, 3, "cards dealt to each seat", minimum=1, maximum=6),
        Option("rounds", int, 2, "cards each seat plays", minimum=1, maximum=6),
        Option("decks", str, "", "named decks a report game's seats draw, name=card:value,...;name=..."),
        *(
            Option(f"deck{s}", str, "", f"the deck seat {s} brings (a name of decks; empty: the shared deck)")
            for s in range(4)
        ),
    )

    def setup(self) -> None:
        self.shared_cards = parse_cards(self.options["cards"])  # the shared deck's; self.cards: every card's value
        self.cards = dict(self.shared_cards)
        self.decks = parse_decks(self.options["decks"])
        for deck in self.decks.values():
            for name, value in deck.items():
                if self.cards.setdefault(name, value) != value:
                    raise OptionError(f"card {name!r} has two values")
        self.names = sorted(self.cards)
        if 2 * len(self.shared_cards) < self.options["seats"] * self.options["hand"]:
            raise OptionError("too few cards for the hands")
        for s in range(self.num_players):
            deck = self.options[f"deck{s}"]
            if deck and (deck not in self.decks or 2 * len(self.decks[deck]) < self.options["hand"]):
                raise OptionError(f"deck{s}: {deck!r} is no deck of decks, or too small for a hand")

    def report_setup(self, seed: int) -> Setup | None:
        """With ``decks``: each seat draws one of the named decks at random (a mirror as likely as any pairing)."""
        if not self.decks:
            return None
        rng = Rng(seed)
        names = sorted(self.decks)
        seats = tuple(rng.choice(names) for _ in range(self.num_players))
        return Setup(tuple((f"deck{s}", name) for s, name in enumerate(seats)), seats, "deck")

    @property
    def num_players(self) -> int:
        return int(self.options["seats"])

    def new_initial_state(self, seed: int = 0) -> PlantedState:
        return PlantedState(self, seed)

    def parse_action(self, state: State, text: str) -> Action:
        if text.strip() == "pass":
            return PASS
        kind, _, name = text.strip().partition(" ")
        if kind != "play" or name not in self.cards:
            raise InvalidActionError(text, "expected 'play NAME' or 'pass'")
        return Action.of("play", name)

    @property
    def num_distinct_actions(self) -> int:
        return len(self.names) + 1

    def action_index(self, action: Action) -> int:
        return len(self.names) if action == PASS else self.names.index(action[1])

    def action_from_index(self, index: int) -> Action:
        return PASS if index == len(self.names) else Action.of("play", self.names[index])

    def involvement_catalogue(self) -> list[Declared]:
        return [*(Declared("card", n, f"{n} ({self.cards[n]})") for n in self.names), Declared("rule", "pass", "pass")]

    def entry_data(self) -> dict[tuple[str, str], str]:
        return {("card", n): f"value={self.cards[n]}" for n in self.names}

    def initial_involvement(self, state: State) -> list[Involvement]:
        assert isinstance(state, PlantedState)
        return [Involvement(s, "card", c, "drawn") for s, hand in enumerate(state.hands) for c in hand]

    def involvement(self, before: State, action: Action, after: State) -> list[Involvement]:
        seat = before.current_player
        if action == PASS:  # a rule: the report credits it to the seat that passed
            return [Involvement(None, "rule", "pass", "applied")]
        return [Involvement(seat, "card", str(action[1]), "played")]

    def end_conditions(self) -> list[Declared]:
        return [Declared("end", "highest", "one seat had the highest total"), Declared("end", "tie", "a shared top")]

    def end_condition(self, state: State) -> str:
        returns = state.returns()
        return "highest" if returns.count(max(returns)) == 1 else "tie"


class PlantedState(State):
    FIELDS = (*nested("hands"), *copied("totals"), *shared("step"))

    def __init__(self, game: PlantedGame, seed: int) -> None:
        super().__init__(game, seed)
        deck = sorted(game.shared_cards) * 2
        rng = Rng(seed)
        rng.shuffle(deck)
        hand = game.options["hand"]
        self.hands = [sorted(deck[s * hand : (s + 1) * hand]) for s in range(game.num_players)]
        for s in range(game.num_players):
            if own := game.options[f"deck{s}"]:  # a seat that brought its own deck is dealt from it
                cards = sorted(game.decks[own]) * 2
                rng.shuffle(cards)
                self.hands[s] = sorted(cards[:hand])
        self.totals = [0] * game.num_players
        self.step = 0

    @property
    def _game(self) -> PlantedGame:
        assert isinstance(self.game, PlantedGame)
        return self.game

    @property
    def current_player(self) -> int | None:
        return None if self.is_terminal() else self.step % self._game.num_players

    @property
    def turn(self) -> int:
        return self.step // self._game.num_players + 1

    def is_terminal(self) -> bool:
        return self.step >= self._game.num_players * self._game.options["rounds"]

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * len(self.totals)
        best = max(self.totals)
        return [1.0 if t == best else -1.0 for t in self.totals]

    def _legal_actions(self) -> list[Action]:
        seat = self.step % self._game.num_players
        playable = sorted({c for c in self.hands[seat] if self._game.cards[c] >= 0})
        return [Action.of("play", c) for c in playable] or [PASS]

    def _apply(self, action: Action) -> None:
        seat = self.step % self._game.num_players
        if action != PASS:
            self.hands[seat].remove(action[1])
            self.totals[seat] += self._game.cards[action[1]]
        self.step += 1

    def observation(self, seat: int | None) -> dict[str, Any]:
        obs: dict[str, Any] = {"step": self.step, "totals": list(self.totals)}
        if seat is not None:
            obs["hand"] = list(self.hands[seat])
        return obs

    def _resample(self, seat: int, rng: Rng | random.Random | int) -> PlantedState:
        return self.clone()  # tests only: the report never resamples
