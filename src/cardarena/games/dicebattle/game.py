"""The Dice Battle Monsters game: options, data loading, the action codec hooks and the face hooks."""

from __future__ import annotations

from typing import Any, ClassVar

from cardarena.engine import (
    Action,
    CardText,
    Declared,
    Game,
    Involvement,
    ObservationEncoder,
    Option,
    Panel,
    Rng,
    Setup,
    State,
)
from cardarena.engine.game import MAX_TURNS

from . import ai, encoding, involvement, render, report_decks, views
from .actions import DECLINE, DONE, PASS, CardActions, Codec, DiceBattleAction
from .cards import STARTERS, Deck, load_deck, load_pool
from .rules.levels import spent
from .state import DiceBattleState
from .tables import Tables

_DECK_HELP = (
    "starter deck name ({}), path to a deck TOML file, a starter with cards swapped (horde-goblin+ember_imp) or "
    "cards: and the 30 card ids (cards:goblin,goblin,...)".format(", ".join(STARTERS))
)


class DiceBattleGame(Game):
    id = "dicebattle"
    name = "Dice Battle Monsters"
    length = "about 38 decisions in all over about 5 rounds (100 games of the easy AI against itself)"
    version = "3"
    player_counts = (2,)
    option_spec: ClassVar[tuple[Option, ...]] = (
        MAX_TURNS,
        Option("deck0", str, "horde", f"seat 0's deck: {_DECK_HELP}", path=True, named=STARTERS),
        Option("deck1", str, "arcana", f"seat 1's deck: {_DECK_HELP}", path=True, named=STARTERS),
        Option("cards", str, None, "path to a card pool TOML file (default: the built-in pool)", path=True),
    )

    tables: Tables  # the card pool as flat tables, shared by every state of this game
    card_actions: CardActions  # the prebuilt actions that name a card
    decks: tuple[Deck, Deck]
    codec: Codec

    def setup(self) -> None:
        pool = load_pool(self.options["cards"])
        self.tables = Tables.build(pool)
        self.decks = (load_deck(self.options["deck0"], pool), load_deck(self.options["deck1"], pool))
        self.codec = Codec(self.tables)
        self.card_actions = self.codec.card_actions

    def new_initial_state(self, seed: int = 0) -> DiceBattleState:
        state = DiceBattleState(self, seed)
        state.start()
        return state

    # -- card lists (the arena's optimiser, arena/optimise.py) ----------------------------------------------------
    def card_ids(self) -> tuple[str, ...]:
        """Every card of the pool in use, by id, in the pool's order."""
        return tuple(c.id for c in self.tables.cards)

    def seat_card_list(self, seat: int) -> tuple[str, tuple[str, ...]]:
        """The name and the card ids (file order) of ``seat``'s deck."""
        deck = self.decks[seat]
        return deck.name, tuple(self.tables.cards[i].id for i in deck.cards)

    # -- the action codec
    def parse_action(self, state: State, text: str) -> DiceBattleAction:
        return self.codec.parse(text)

    @property
    def num_distinct_actions(self) -> int:
        return self.codec.size

    def action_index(self, action: Action) -> int:
        return self.codec.index(action)

    def action_from_index(self, index: int) -> DiceBattleAction:
        return self.codec.from_index(index)

    def is_pass(self, action: Action) -> bool:
        """``pass`` (keep Revival face up) and ``decline`` (no penalty draw): the seat lets an option go by."""
        return action in (PASS, DECLINE)

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

    def board(self, state: State, seat: int | None) -> list[Panel]:
        assert isinstance(state, DiceBattleState)
        return render.board(state, seat)

    def confirm_text(self, state: State, action: Action) -> str | None:
        """``done`` ends the seat's setting for this round; while something else still fits the die the table
        asks first, saying how much of the die is left unused."""
        assert isinstance(state, DiceBattleState)
        if action != DONE or len(state.legal_actions()) < 2:
            return None
        side = state.sides[state.actor]
        room = side.roll - spent(self.tables, side)
        return f"Finish setting with {room} of your roll of {side.roll} unused?"

    def card_texts(self) -> dict[str, CardText]:
        """Each card of the pool in use (the ``cards`` option's file, or the built-in one) by its id, as the
        observation names it: name, level as the cost, kind, the effect, grant and special rule in words, and
        notes on what level, choice, forced and grant mean."""
        return render.card_texts(self)

    def choice_label(self, state: State, action: Action) -> tuple[str, str]:
        assert isinstance(state, DiceBattleState)
        return render.choice_label(state, action)

    def narrate(self, before: State, action: Action, after: State, seat: int | None) -> list[str]:
        assert isinstance(before, DiceBattleState) and isinstance(after, DiceBattleState)
        return render.narrate(before, action, after, seat)

    def end_reason(self, state: State) -> str | None:
        """How the game ended: a third star (won in a battle or from an effect), or the round limit."""
        assert isinstance(state, DiceBattleState)
        if not state.is_terminal():
            return None
        if state.winner is None:
            return f"the round limit ({state.round}) was reached with no one at 3 stars"
        if state.battle_winner == state.winner:
            return f"seat {state.winner} won a third star in the battle"
        return f"seat {state.winner} got a third star from a card's effect"

    # -- hidden information and the agents
    def hidden_cards(self, state: State, seat: int) -> dict[str, dict[str, Any]] | None:
        assert isinstance(state, DiceBattleState)
        return views.hidden_cards(state, seat)

    def evaluate(self, observation: dict[str, Any], seat: int) -> float | None:
        return ai.evaluate(observation, seat)

    def heuristic_action(self, observation: dict[str, Any], legal: list[Action], seat: int, rng: Rng) -> Action | None:
        return ai.heuristic_action(self.tables, observation, legal, seat, rng)

    def hidden_facts(self, world: State, seat: int) -> dict[str, str]:
        assert isinstance(world, DiceBattleState)
        return ai.hidden_facts(world, seat)

    def make_observation_encoder(self) -> ObservationEncoder:
        return encoding.DiceBattleEncoder(self.tables)

    # -- the balance report (involvement.py)
    def involvement_catalogue(self) -> list[Declared]:
        return involvement.catalogue(self.tables)

    def initial_involvement(self, state: State) -> list[Involvement]:
        assert isinstance(state, DiceBattleState)
        return involvement.initial(state)

    def involvement(self, before: State, action: Action, after: State) -> list[Involvement]:
        assert isinstance(before, DiceBattleState) and isinstance(after, DiceBattleState)
        return involvement.involvement(before, action, after)

    def entry_data(self) -> dict[tuple[str, str], str]:
        """Each card's and each grant's data as a line of text (``report_decks.entry_data``)."""
        return report_decks.entry_data(self)

    def report_setup(self, seed: int) -> Setup | None:
        """A deck for each seat: a starter, a one-card swap of one or a random deck (``report_decks.py``), while
        the options keep the default decks."""
        return report_decks.report_setup(self, seed)

    def report_population(self) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
        """The starters and swaps :meth:`report_setup` deals from, worked out once per loaded game."""
        found = getattr(self, "_report_population", None)
        if found is None:
            found = self._report_population = report_decks.population(list(self.tables.cards))
        return found

    def first_player(self, state: State) -> int | None:
        """Setup: a seeded coin decides the first player of the first round before the first decision."""
        assert isinstance(state, DiceBattleState)
        return state.first

    def end_conditions(self) -> list[Declared]:
        return involvement.end_conditions()

    def end_condition(self, state: State) -> str:
        assert isinstance(state, DiceBattleState)
        return involvement.end_condition(state)

    def rules_text(self) -> str:
        return super().rules_text() + "\n" + render.pool_text(self)
