"""The arena game's ``Game``: options, the card file, the action codec and rendering."""

from __future__ import annotations

from functools import cache

from ...engine import MAX_TURNS, Action, Game, Option, OptionError, Rng, State
from .actions import Codec, parse
from .cards import CardSet, load_cards
from .state import TashState

MODES = ("highform", "deathmatch", "melee")


@cache
def _cards(path: str | None) -> CardSet:
    return load_cards(path)


class TashGame(Game):
    id = "tashkalar"
    name = "Tash-Kalar arena (pattern summoning)"
    version = "1"
    player_counts = (2,)
    option_spec = (
        MAX_TURNS,
        Option("mode", str, "deathmatch", "game mode (only deathmatch is available yet)", choices=MODES),
        Option("players", int, 2, "number of players (only 2 is available yet)", minimum=2, maximum=4),
        Option("teams", bool, False, "two teams of two (not available yet)"),
        Option("cards", str, None, "path of a card file (TOML) to use instead of the built-in cards"),
        Option("school0", str, "random", "school of seat 0 (a school id of the card file, or random)"),
        Option("school1", str, "random", "school of seat 1 (a school id of the card file, or random)"),
        Option("resign", bool, False, "offer 'resign' at every decision (off: random playouts end by the rules)"),
    )

    def setup(self) -> None:
        o = self.options
        if o["mode"] != "deathmatch":
            raise OptionError(
                f"tashkalar: mode={o['mode']} is not available yet (part 2 of the game); use mode=deathmatch"
            )
        if o["teams"]:
            raise OptionError("tashkalar: teams=true is not available yet (part 2 of the game); use teams=false")
        if o["players"] != 2:
            raise OptionError(
                f"tashkalar: players={o['players']} is not available yet (part 2 of the game); use players=2"
            )
        self.cards = _cards(o["cards"])
        for key in ("school0", "school1"):
            if o[key] != "random" and o[key] not in self.cards.schools:
                valid = ", ".join([*self.cards.schools, "random"])
                raise OptionError(f"tashkalar: option {key!r}: no school {o[key]!r}; valid schools: {valid}")
        self.codec = Codec(self.cards)

    @property
    def num_players(self) -> int:
        return int(self.options["players"])

    def choose_schools(self, rng: Rng) -> list[str]:
        """Each seat's school: as the options say, else drawn at random among the schools not yet taken."""
        chosen: list[str] = []
        for seat in range(self.num_players):
            want = self.options.get(f"school{seat}", "random")
            if want == "random":
                free = [s for s in self.cards.schools if s not in chosen] or list(self.cards.schools)
                want = free[rng.randbelow(len(free))]
            chosen.append(want)
        return chosen

    def new_initial_state(self, seed: int = 0) -> TashState:
        return TashState(self, seed)

    def parse_action(self, state: State, text: str) -> Action:
        return parse(self.cards, text)

    @property
    def num_distinct_actions(self) -> int:
        return self.codec.size

    def action_index(self, action: Action) -> int:
        return self.codec.index(action)

    def action_from_index(self, index: int) -> Action:
        return self.codec.action(index)

    def render(self, state: State, seat: int | None) -> str:
        from .render import render

        assert isinstance(state, TashState)
        return render(state, seat)

    def describe_action(self, state: State, action: Action) -> str:
        from .render import describe_action

        assert isinstance(state, TashState)
        return describe_action(state, action)

    def rules_text(self) -> str:
        from .render import card_list

        return super().rules_text() + "\n" + card_list(self.cards)
