"""The Dice Battle Monsters game: options, data loading and the action codec."""

from __future__ import annotations

from typing import ClassVar

from cardarena.engine import Action, Game, InvalidActionError, Option, State
from cardarena.engine.game import MAX_TURNS

from . import render
from .actions import CARD_KINDS, PLAIN_ACTIONS, PLAIN_KINDS, Tables, normalise
from .cards import STARTERS, Deck, load_deck, load_pool
from .state import DiceBattleState

_DECK_HELP = "starter deck name ({}) or path to a deck TOML file".format(", ".join(STARTERS))


class DiceBattleGame(Game):
    id = "dicebattle"
    name = "Dice Battle Monsters"
    version = "3"
    player_counts = (2,)
    option_spec: ClassVar[tuple[Option, ...]] = (
        MAX_TURNS,
        Option("deck0", str, "horde", f"seat 0's deck: {_DECK_HELP}"),
        Option("deck1", str, "arcana", f"seat 1's deck: {_DECK_HELP}"),
        Option("cards", str, None, "path to a card pool TOML file (default: the built-in pool)"),
    )

    tables: Tables
    decks: tuple[Deck, Deck]

    def setup(self) -> None:
        pool = load_pool(self.options["cards"])
        self.tables = Tables.build(pool)
        self.decks = (load_deck(self.options["deck0"], pool), load_deck(self.options["deck1"], pool))
        self._plain_index = {a: k for k, a in enumerate(PLAIN_ACTIONS)}

    def new_initial_state(self, seed: int = 0) -> DiceBattleState:
        return DiceBattleState(self, seed)

    # -- the action codec
    def parse_action(self, state: State, text: str) -> Action:
        words = text.split()
        if not words:
            raise InvalidActionError(text, "empty action")
        kind = words[0].lower()
        if kind in PLAIN_KINDS:
            if len(words) != 1:
                raise InvalidActionError(text, f"'{kind}' takes no card")
            return PLAIN_ACTIONS[PLAIN_KINDS.index(kind)]
        if kind not in CARD_KINDS:
            known = ", ".join((*PLAIN_KINDS, *CARD_KINDS))
            raise InvalidActionError(text, f"unknown action word {kind!r}; known: {known}")
        if len(words) < 2:
            raise InvalidActionError(text, f"'{kind}' needs a card, as in '{kind} slime'")
        key = normalise(" ".join(words[1:]))
        t = self.tables
        index = t.by_id.get(key, t.by_name.get(key))
        if index is None:
            raise InvalidActionError(text, f"no card {' '.join(words[1:])!r} in the card pool")
        return t.actions[kind][index]

    @property
    def num_distinct_actions(self) -> int:
        return len(PLAIN_ACTIONS) + len(CARD_KINDS) * self.tables.size

    def action_index(self, action: Action) -> int:
        plain = self._plain_index.get(action)
        if plain is not None:
            return plain
        k = CARD_KINDS.index(action[0])
        return len(PLAIN_ACTIONS) + k * self.tables.size + self.tables.by_id[action[1]]

    def action_from_index(self, index: int) -> Action:
        if index < len(PLAIN_ACTIONS):
            return PLAIN_ACTIONS[index]
        k, card = divmod(index - len(PLAIN_ACTIONS), self.tables.size)
        return self.tables.actions[CARD_KINDS[k]][card]

    # -- text
    def render(self, state: State, seat: int | None) -> str:
        assert isinstance(state, DiceBattleState)
        return render.render(state, seat)

    def describe_action(self, state: State, action: Action) -> str:
        assert isinstance(state, DiceBattleState)
        return render.describe_action(state, action)

    def action_seen_by(self, state: State, action: Action, seat: int | None) -> str:
        assert isinstance(state, DiceBattleState)
        return render.action_seen_by(state, action, seat)

    def rules_text(self) -> str:
        return super().rules_text() + "\n" + render.pool_text(self)
