"""The ToraBato game: options, the card list, the action codec and the text views."""

from __future__ import annotations

from ...engine import MAX_TURNS, Action, Game, Option, State
from . import actions as acts
from .cards import CardList, load_cards
from .render import describe, render
from .state import ToraBatoState


class ToraBato(Game):
    """ToraBato (とらバト): a TCG-like duel played with one deck of playing cards."""

    id = "torabato"
    name = "ToraBato"
    version = "3"
    player_counts = (2,)
    option_spec = (
        MAX_TURNS,
        Option("cards", str, None, "path of a card-list TOML file to play instead of the rulebook's"),
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
        self.card_list: CardList = load_cards(self.options["cards"])

    def new_initial_state(self, seed: int = 0) -> ToraBatoState:
        return ToraBatoState(self, seed, self.card_list)

    def parse_action(self, state: State, text: str) -> Action:
        return acts.parse(text)

    @property
    def num_distinct_actions(self) -> int:
        return acts.NUM_DISTINCT_ACTIONS

    def action_index(self, action: Action) -> int:
        return acts.action_index(action)

    def action_from_index(self, index: int) -> Action:
        return acts.action_from_index(index)

    def render(self, state: State, seat: int | None) -> str:
        assert isinstance(state, ToraBatoState)
        return render(state, seat)

    def describe_action(self, state: State, action: Action) -> str:
        assert isinstance(state, ToraBatoState)
        return describe(state, action)

    def action_seen_by(self, state: State, action: Action, seat: int | None) -> str:
        """Mana is set face down, reveals are hidden until both are made, and 9's choice is a mana card."""
        assert isinstance(state, ToraBatoState)
        actor = state.current_player
        if actor != seat:
            kind = action[0]
            if kind == acts.MANA_K:
                return "sets a card face down as mana"
            if kind == acts.REVEAL_K:
                return "puts a card face down for the first-player reveal"
            if kind == acts.CHOOSE_K and state.pending is not None and state.pending[0] == "return_mana":
                return "takes one of their mana cards back into their hand"
        return describe(state, action)
