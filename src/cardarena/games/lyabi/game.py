"""The Lyabi game: options, the card data, the action codec, the face hooks and the rules text."""

from __future__ import annotations

from typing import Any, cast

from ...engine import (
    Action,
    ActionFactoring,
    CardText,
    Declared,
    Game,
    InvalidActionError,
    Involvement,
    ObservationEncoder,
    Option,
    Panel,
    Rng,
    State,
)
from ...engine.game import MAX_TURNS
from . import involvement as inv
from .actions import Codec, LyabiAction
from .cards import CardSet, load_cards
from .cardtexts import card_texts
from .constants import COLOURS, ITEM_IDS, P_MAIN, PASS_K
from .encoding import LyabiEncoder, LyabiFactoring
from .render import board, choice_label, describe, narrate, render, seen_by
from .rules.battle import SetChoices
from .rules.market import Market
from .state import LyabiState
from .views import evaluate, heuristic_action, hidden_cards, hidden_facts

#: Where the implementation notes start in the rules file: `cardarena rules lyabi` prints what comes before.


class LyabiGame(Game):
    id = "lyabi"
    name = "Lyabi (リャビ)"
    length = "about 300 decisions in all over about 35 turns (median of 100 games of the easy AI against itself)"
    version = "2"
    player_counts = (2,)
    option_spec = (
        MAX_TURNS,
        Option(
            "cards",
            str,
            None,
            "path of a Lyabi data file (TOML) to use instead of the shipped data/cards.toml",
            path=True,
        ),
        Option(
            "circle_replace",
            bool,
            False,
            "with two circles on your field, placing a circle may remove one of yours from the game to make room",
        ),
    )

    cards: CardSet
    codec: Codec
    market: Market  # the memoised main-phase and item-phase lists
    set_choices: SetChoices  # the memoised battle sets of a hand

    def setup(self) -> None:
        self.cards = load_cards(self.options["cards"])
        self.codec = Codec(self.cards)
        self.market = Market(self.cards, circle_replace=self.options["circle_replace"])
        self.set_choices = SetChoices(self.cards)

    def new_initial_state(self, seed: int = 0) -> LyabiState:
        state = LyabiState(self, seed)
        state.start()
        return state

    def parse_action(self, state: State, text: str) -> LyabiAction:
        if not isinstance(text, str):
            raise InvalidActionError(repr(text), "an action is text")
        return self.codec.parse(text)

    @property
    def num_distinct_actions(self) -> int:
        return self.codec.size

    def action_index(self, action: Action) -> int:
        return self.codec.index(LyabiAction(action))

    def action_from_index(self, index: int) -> LyabiAction:
        return self.codec.from_index(index)

    def is_pass(self, action: Action) -> bool:
        """``pass`` ends the main or the item phase without acting (``decline``, using no item at a window, is a
        choice made when asked, not a pass)."""
        return type(action) is LyabiAction and action[0] == PASS_K

    def render(self, state: State, seat: int | None) -> str:
        assert isinstance(state, LyabiState)
        return render(state, seat)

    def describe_action(self, state: State, action: Action) -> str:
        assert isinstance(state, LyabiState)
        return describe(state, LyabiAction(action))

    def action_seen_by(self, state: State, action: Action, seat: int | None) -> str:
        assert isinstance(state, LyabiState)
        return seen_by(state, LyabiAction(action), seat)

    def confirm_text(self, state: State, action: Action) -> str | None:
        """``pass`` in the main phase gives up the turn's action while another one is open to the seat; the table
        asks first. Passing in the item phase is an ordinary choice and is sent at once."""
        assert isinstance(state, LyabiState)
        if action[0] == PASS_K and state.phase == P_MAIN and len(state.legal_actions()) > 1:
            return "End your main phase without an action?"
        return None

    def card_texts(self) -> dict[str, CardText]:
        """Every ryabi (``blue5``), magic circle (``blue5 circle``) and item (``crystal``) of the card data in use,
        and the dummy: cost, kind and effect in words, the notation in notes (``cardtexts.py``)."""
        return card_texts(self.cards)

    def choice_label(self, state: State, action: Action) -> tuple[str, str]:
        assert isinstance(state, LyabiState)
        return choice_label(state, LyabiAction(action))

    def board(self, state: State, seat: int | None) -> list[Panel]:
        assert isinstance(state, LyabiState)
        return board(state, seat)

    def narrate(self, before: State, action: Action, after: State, seat: int | None) -> list[str]:
        assert isinstance(before, LyabiState) and isinstance(after, LyabiState)
        return narrate(before, LyabiAction(action), after, seat)

    def end_reason(self, state: State) -> str | None:
        """Why the game ended, as the rules recorded it ("seat 1 fell to 0 HP", "seat 0's deck ran out")."""
        assert isinstance(state, LyabiState)
        return state.end_reason or None if state.is_terminal() else None

    def make_observation_encoder(self) -> ObservationEncoder:
        return LyabiEncoder(self.codec)

    def make_action_factoring(self) -> ActionFactoring:
        """The flat encoding has 269,106 entries: a decision is a head and a payment, one ryabi at a time."""
        return LyabiFactoring(self.codec)

    def evaluate(self, observation: dict[str, Any], seat: int) -> float | None:
        return evaluate(self, observation, seat)

    def heuristic_action(self, observation: dict[str, Any], legal: list[Action], seat: int, rng: Rng) -> Action | None:
        return heuristic_action(self, observation, cast(list[LyabiAction], legal), seat, rng)

    def hidden_cards(self, state: State, seat: int) -> dict[str, dict[str, Any]] | None:
        assert isinstance(state, LyabiState)
        return hidden_cards(state, seat)

    def hidden_facts(self, world: State, seat: int) -> dict[str, str]:
        assert isinstance(world, LyabiState)
        return hidden_facts(world, seat)

    # -- the balance report (involvement.py) -----------------------------------------------------------------
    def involvement_catalogue(self) -> list[Declared]:
        return inv.catalogue(self)

    def initial_involvement(self, state: State) -> list[Involvement]:
        assert isinstance(state, LyabiState)
        return inv.initial(state)

    def involvement(self, before: State, action: Action, after: State) -> list[Involvement]:
        assert isinstance(before, LyabiState) and isinstance(after, LyabiState)
        return inv.involved(before, action, after)

    def entry_data(self) -> dict[tuple[str, str], str]:
        """Each ryabi's, circle's and item's numbers in the data file in use (``count=7; cost=3; times=1``; see
        ``involvement.entry_data``)."""
        return inv.entry_data(self.cards)

    def report_setup(self, seed: int) -> None:
        """``None``: the players of Lyabi bring nothing of their own. Both buy from one shared market (the ryabi
        supply, the circle piles, the item pile: ゲームの準備 1-3); each starts with the initial hand and deck
        printed on the Lv0 circle it draws face down (準備 5, 7), a draw the rules already make from each game's
        seed, so the starting colours vary game by game and the report's in_build counts show them. There is no
        deck, build or faction a player chooses before the game for the report to vary."""
        return None

    def card_entries(self, document: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
        """The default entries (items by ``id``, ``[rules]``), and the ryabi and magic circles, which the file
        names by colour and level as the catalogue does: ``blue3`` (a card), ``red5`` (a circle)."""
        entries = super().card_entries(document)
        for array, kind in (("ryabi", "card"), ("circle", "circle")):
            for table in document.get(array, []):
                if isinstance(table, dict) and "colour" in table and "level" in table:
                    entries[(kind, f"{table['colour']}{table['level']}")] = table
        return entries

    def first_player(self, state: State) -> int | None:
        """ゲームの準備: the setup circles decide the first player before the first decision."""
        assert isinstance(state, LyabiState)
        return state.first

    def end_conditions(self) -> list[Declared]:
        return inv.end_conditions()

    def end_condition(self, state: State) -> str:
        assert isinstance(state, LyabiState)
        return inv.end_condition(state)

    def rules_text(self) -> str:
        """How to play in the terminal, the rules, the rulings and the options (``rules.md``; the implementation
        notes for developers are in ``docs/games/lyabi.md``), then every value of the data file in use."""
        return super().rules_text() + "\n" + self.assumed_text()

    def assumed_text(self) -> str:
        """Every value of the data file in use, each assumed one marked (the rulebook lost them)."""
        c = self.cards

        def mark(field: str, assumed: tuple[str, ...]) -> str:
            return " (assumed)" if field in assumed else ""

        def cards(n: int) -> str:
            return f"{n} card" if n == 1 else f"{n} cards"

        lines = [f"## Card data in use: {c.file}", "", "Values marked (assumed) were lost from the rulebook.", ""]
        ra = c.rules_assumed
        lines.append(
            f"- starting HP {c.starting_hp}{mark('starting_hp', ra)}; hand size {c.hand_size}"
            f"{mark('hand_size', ra)}; at most {c.max_circles} circles{mark('max_circles', ra)}; "
            f"item cost {c.item_cost}{mark('item_cost', ra)}"
        )
        lines += ["", "Ryabi:"]
        for k, n in enumerate(c.r_names):
            a = c.r_assumed[k]
            lines.append(
                f"- {n}: {cards(c.r_count[k])}{mark('count', a)}, cost {c.r_cost[k]}{mark('cost', a)}, "
                f"times ×{float(c.r_times[k]):g}{mark('times', a)}"
            )
        lines += ["", "Magic circles (face-down piles by level):"]
        for k, n in enumerate(c.c_names):
            a = c.c_assumed[k]
            lines.append(
                f"- {n}: {cards(c.c_count[k])}{mark('count', a)}, cost {c.level_cost[c.c_level_index[k]]}"
                f"{mark('cost', a)}, ATK {c.c_atk[k]}{mark('atk', a)}"
            )
        lines += ["", "Initial hand and deck by setup circle:"]
        for ci, colour in enumerate(COLOURS):
            hand, deck = c.start_hand[ci], c.start_deck[ci]
            if hand is None or deck is None:
                continue
            a = c.start_assumed[ci]
            lines.append(
                f"- {colour}: hand {' '.join(c.r_names[k] for k in hand)}{mark('hand', a)}; "
                f"deck {' '.join(c.r_names[k] for k in deck)}{mark('deck', a)}"
            )
        lines += ["", "Items:"]
        for spec in c.items:
            a = spec.assumed
            # The effect text shows the item's number; either assumed marks the effect as assumed.
            effect_assumed = mark("effect", a) or (mark(spec.param, a) if spec.param else "")
            lines.append(
                f"- `{spec.id}` {spec.name}: {cards(spec.count)}{mark('count', a)}; timing: {spec.timing}"
                f"{mark('timing', a)}; effect: {spec.effect}{effect_assumed}"
            )
        return "\n".join(lines) + "\n"


__all__ = ["ITEM_IDS", "LyabiGame"]
