"""The ToraBato game: options, the card list, the action codec and the faces' hooks."""

from __future__ import annotations

from typing import Any

from ...engine import (
    MAX_TURNS,
    Action,
    CardText,
    Declared,
    Game,
    Involvement,
    ObservationEncoder,
    Option,
    Panel,
    Rng,
    State,
)
from .._entries import data_text
from . import actions as acts
from . import ai, encoding
from . import involvement as inv
from .cards import CardList, CardSpec, card_name, load_cards
from .cardtexts import card_texts
from .constants import MANA_K, PASS_K, SOLDIER, Effect
from .narrate import narrate, seen_by
from .render import board, choice_label, describe, render
from .rules.table import CardTable
from .state import ToraBatoState
from .views import hidden_cards

#: Rank and suit letters of a card name in words (``card_words``).
_RANK_WORDS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
_SUIT_WORDS = {"S": "spades", "C": "clubs", "H": "hearts", "D": "diamonds"}


def card_words(card: int) -> str:
    """A card's name in words: ``8 of clubs``, ``ace of spades``, ``joker``.

    >>> from cardarena.games.torabato.cards import BY_NAME
    >>> card_words(BY_NAME["8C"]), card_words(BY_NAME["QH"]), card_words(BY_NAME["JK1"])
    ('8 of clubs', 'queen of hearts', 'joker')
    """
    name = card_name(card)
    if name.startswith("JK"):
        return "joker"
    rank, suit = name[:-1], name[-1]
    return f"{_RANK_WORDS.get(rank, rank)} of {_SUIT_WORDS[suit]}"


class ToraBatoGame(Game):
    """ToraBato (とらバト): a TCG-like duel played with one deck of playing cards."""

    id = "torabato"
    name = "ToraBato"
    length = (
        "about 260 decisions in all, most of them passes, over about 17 turns (100 games of the easy AI against itself)"
    )
    version = "3"
    player_counts = (2,)
    option_spec = (
        MAX_TURNS,
        Option("cards", str, None, "path of a card-list TOML file to play instead of the rulebook's", path=True),
        Option(
            "lasting_boosts",
            bool,
            True,
            "'this turn' effects (8, 10, K, 7, Q's tap) end in the next recovery phase together with the healing, "
            "so a soldier saved by a boost never dies when its boost ends (the rulebook's examples); false: they "
            "end with the turn and damage that outlasts a boost kills",
        ),
        Option(
            "recovery_priority",
            bool,
            False,
            "give both players priority in the recovery phase too (after untapping and healing), reading "
            "全フェイズ literally; off: the first priority of a turn is after the draw",
        ),
    )

    def setup(self) -> None:
        """Load the card list; the rules read the tables and options below through ``state.game``."""
        self.card_list: CardList = load_cards(self.options["cards"])
        self.spec: tuple[CardSpec, ...] = self.card_list.by_card()  # per card id
        self.table = CardTable(self.spec)  # the same, as the rules read it
        self.max_turns: int = self.options["max_turns"]
        self.lasting_boosts: bool = self.options["lasting_boosts"]
        self.recovery_priority: bool = self.options["recovery_priority"]

    def new_initial_state(self, seed: int = 0) -> ToraBatoState:
        state = ToraBatoState(self, seed)
        state.start()
        return state

    def parse_action(self, state: State, text: str) -> Action:
        return acts.parse(text)

    @property
    def num_distinct_actions(self) -> int:
        return acts.NUM_DISTINCT_ACTIONS

    def action_index(self, action: Action) -> int:
        return acts.action_index(action)

    def action_from_index(self, index: int) -> Action:
        return acts.action_from_index(index)

    def is_pass(self, action: Action) -> bool:
        """``pass``: the seat gives up priority (``done``, which ends a choice of attackers or blockers, is not)."""
        return isinstance(action, acts.ToraBatoAction) and action[0] == PASS_K

    def render(self, state: State, seat: int | None) -> str:
        assert isinstance(state, ToraBatoState)
        return render(state, seat)

    def describe_action(self, state: State, action: Action) -> str:
        assert isinstance(state, ToraBatoState)
        return describe(state, action)

    def action_seen_by(self, state: State, action: Action, seat: int | None) -> str:
        """Mana is set face down, reveals are hidden until both are made, and 9's choice is a mana card."""
        assert isinstance(state, ToraBatoState)
        return seen_by(state, action, seat)

    def confirm_text(self, state: State, action: Action) -> str | None:
        """``mana CARD`` spends the turn's one mana setting and gives the card's printed use up (a card used as
        mana is no longer its printed card; only a 9 brings one back), and a click on a card whose one legal
        action it is would take it at once: so the table asks first."""
        if action[0] == MANA_K:
            return f"Set the {card_words(action[1])} as mana? A card used as mana is no longer its printed card."
        return None

    def card_texts(self) -> dict[str, CardText]:
        """Each card's cost, kind and effect in words, from this game's card list (a designer's file shows its
        own numbers), keyed by the card names of the observation (``8C``, ``JK0``)."""
        return card_texts(self.spec)

    def choice_label(self, state: State, action: Action) -> tuple[str, str]:
        assert isinstance(state, ToraBatoState)
        return choice_label(state, action)

    def board(self, state: State, seat: int | None) -> list[Panel]:
        assert isinstance(state, ToraBatoState)
        return board(state, seat)

    def make_observation_encoder(self) -> ObservationEncoder:
        return encoding.ToraBatoEncoder()

    def evaluate(self, observation: dict[str, Any], seat: int) -> float | None:
        return ai.evaluate(observation, seat)

    def heuristic_action(self, observation: dict[str, Any], legal: list[Action], seat: int, rng: Rng) -> Action | None:
        return ai.heuristic_action(self.spec, observation, legal, seat, rng) if legal else None

    def hidden_facts(self, world: State, seat: int) -> dict[str, str]:
        assert isinstance(world, ToraBatoState)
        return ai.hidden_facts(world, seat)

    def hidden_cards(self, state: State, seat: int) -> dict[str, dict[str, Any]] | None:
        assert isinstance(state, ToraBatoState)
        return hidden_cards(state, seat)

    def narrate(self, before: State, action: Action, after: State, seat: int | None) -> list[str]:
        assert isinstance(before, ToraBatoState) and isinstance(after, ToraBatoState)
        return narrate(before, action, after, seat)

    def end_reason(self, state: State) -> str | None:
        """Why the game ended, as the rules recorded it ("seat 1's deck is empty at the end phase")."""
        assert isinstance(state, ToraBatoState)
        return state.end_reason or None if state.is_terminal() else None

    def turn_player(self, state: State) -> int | None:
        """The seat whose turn it is (public: the observation's ``active``), from the first turn on."""
        assert isinstance(state, ToraBatoState)
        return state.active if state.turn_no and not state.is_terminal() else None

    # -- the balance report (involvement.py) ---------------------------------------------------------------------
    def involvement_catalogue(self) -> list[Declared]:
        return inv.catalogue(self)

    def initial_involvement(self, state: State) -> list[Involvement]:
        assert isinstance(state, ToraBatoState)
        return inv.initial(state)

    def involvement(self, before: State, action: Action, after: State) -> list[Involvement]:
        assert isinstance(before, ToraBatoState) and isinstance(after, ToraBatoState)
        return inv.involved(before, action, after)

    def entry_data(self) -> dict[tuple[str, str], str]:
        """Each rank's printed data as the card list writes it (``value=11; cost=1; kind=soldier; attack=1;
        health=1; recur_cost=3``), keyed ``("card", rank)``: a field at its default is left out, except a soldier's
        or boost's attack and health, which the card list always gives. Only the ranks have data of their own: an
        ability's or an effect's entry is what the cards that use it make of it, so a changed number shows once,
        on its card."""
        out: dict[tuple[str, str], str] = {}
        for s in self.card_list.specs:
            given = set(s.model_dump(exclude_defaults=True, exclude={"rank"}))
            if s.kind == SOLDIER or s.effect == Effect.BOOST:
                given |= {"attack", "health"}
            out["card", s.rank] = data_text({k: v for k, v in s.model_dump(mode="json").items() if k in given})
        return out

    def report_setup(self, seed: int) -> None:
        """``None``: the players of ToraBato bring nothing of their own. Each seat plays the same 27 cards of the
        rulebook (two suits of A-K and a joker: ゲームの準備), both from the one card list in use, and the game
        has no deck building, draft or choice before the first turn; what varies from game to game (the shuffle,
        the reveal that decides the first player) is already the rules' own, drawn from each game's seed."""
        return None

    def first_player(self, state: State) -> int | None:
        """The first player is decided by the reveal (先攻・後攻の決定): unknown until then."""
        assert isinstance(state, ToraBatoState)
        return None if state.first < 0 else state.first

    def end_conditions(self) -> list[Declared]:
        return inv.end_conditions()

    def end_condition(self, state: State) -> str:
        assert isinstance(state, ToraBatoState)
        return inv.end_condition(state)
