"""The arena game's ``Game``: options, the card and task files, seats and colours, the action codec, rendering."""

from __future__ import annotations

from typing import Any

from ...engine import (
    MAX_TURNS,
    Action,
    ActionFactoring,
    CardDataError,
    CardText,
    Declared,
    Game,
    Involvement,
    ObservationEncoder,
    Option,
    OptionError,
    Panel,
    Rng,
    Setup,
    State,
)
from . import encoding, end_words, involvement, strategy, views
from .actions import END, RESIGN, SKIP, Codec, parse
from .cards import CardSet, TaskSet, enemy_place_field, load_cards, load_tasks
from .constants import MAIN
from .render import card_list, describe_action, render, seen_by_others, task_list
from .render.cardtexts import card_texts
from .render.menu import choice_label
from .render.narrate import narrate
from .render.panels import panels
from .state import TashKalarState

MODES = ("highform", "deathmatch", "melee")


def refuse_enemy_place_in_melee(cards: CardSet) -> None:
    """Melee has several enemy colours and ``place`` with ``who = "enemy"`` names none: refuse such a card."""
    for card in cards.cards:
        field = enemy_place_field(card)
        if field is not None:
            raise CardDataError(
                cards.file,
                'places an enemy piece (place with who = "enemy"), which names no colour among the several '
                "enemies of mode=melee; this card plays only in 2-colour games (duel, High Form, teams)",
                card=card.id,
                field=field,
            )


class TashKalarGame(Game):
    id = "tashkalar"
    name = "Tash-Kalar arena (pattern summoning)"
    length = "about 95 decisions in all over about 22 turns (duel; 100 games of the easy AI against itself)"
    version = "2"
    player_counts = (2, 3, 4)
    option_spec = (
        MAX_TURNS,
        Option("mode", str, "deathmatch", "highform (tasks), deathmatch (duel or teams) or melee (3-4)", choices=MODES),
        Option("players", int, 2, "number of players: 2 (highform, deathmatch), 3 or 4 (melee)", minimum=2, maximum=4),
        Option("teams", bool, False, "two teams of two (4 seats; highform or deathmatch): seats 0+2 vs 1+3"),
        Option("cards", str, None, "path of a card file (TOML) to use instead of the built-in cards", path=True),
        Option(
            "tasks", str, None, "path of a High Form task file (TOML) to use instead of the built-in tasks", path=True
        ),
        Option(
            "school0",
            str,
            "random",
            "school of seat 0 (a school id of the card file, or random); seats may name the same school, each "
            "then plays its own copy of the deck",
        ),
        Option(
            "school1",
            str,
            "random",
            "school of seat 1 (a school id of the card file, or random); the same school as another seat is "
            "allowed (a mirror match): each seat has its own copy of the deck",
        ),
        Option("school2", str, "random", "school of seat 2 (3-4 seats)"),
        Option("school3", str, "random", "school of seat 3 (4 seats)"),
        Option(
            "resign",
            bool,
            None,
            "offer 'resign' at every decision; unset: on where the rulebook allows it (2 players, 2 teams), "
            "off in melee, where it is refused",
        ),
    )

    def setup(self) -> None:
        o = self.options
        mode = o["mode"]
        teams = bool(o["teams"])
        players = int(o["players"])
        if teams:
            if mode == "melee":
                raise OptionError("tashkalar: teams=true plays highform or deathmatch, not melee (free-for-all)")
            if players not in (2, 4):
                raise OptionError(
                    f"tashkalar: teams=true is two teams of two (4 seats); players={players} does not fit"
                )
            seats, n_col = 4, 2
        elif mode == "melee":
            if players == 2:
                raise OptionError("tashkalar: mode=melee (free-for-all) is for 3 or 4 players; use players=3 or 4")
            seats, n_col = players, players
        else:
            if players != 2:
                raise OptionError(
                    f"tashkalar: mode={mode} is for 2 players (or teams=true); players={players} needs mode=melee"
                )
            seats, n_col = 2, 2
        if mode == "melee" and o["resign"]:
            raise OptionError("tashkalar: resignation is not allowed in melee (乱戦では投了は認められない)")
        # 2人ゲーム、もしくは2チーム戦の場合、プレイヤーはいつでも投了することができる: on unless turned off
        self.resign: bool = mode != "melee" if o["resign"] is None else bool(o["resign"])
        self.resign_action = RESIGN if self.resign else None
        self.mode: str = mode
        self.teams = teams
        self.seats: int = seats  # num_players: a plain attribute, which the rules read (no property call)
        self.n_col = n_col
        # teammates sit opposite each other and turns go clockwise: seats 0, 1, 2, 3 = team A, B, A, B
        self.colour_of: tuple[int, ...] = tuple(s % n_col for s in range(seats))
        for key, what in (("cards", "card"), ("tasks", "High Form task")):
            if o[key] is not None and not o[key].strip():
                raise OptionError(
                    f"tashkalar: option {key!r} is empty: give the path of a {what} file (TOML), "
                    "or leave the option out for the built-in one"
                )
        for seat in range(seats, 4):
            if o[f"school{seat}"] != "random":
                raise OptionError(
                    f"tashkalar: option 'school{seat}': this game has {seats} seats (0-{seats - 1}), "
                    f"so there is no seat {seat} to give a school to"
                )
        self.cards = load_cards(o["cards"])
        if mode == "melee":
            refuse_enemy_place_in_melee(self.cards)
        # a task file given in any mode is read (and checked) now, so that a bad path is refused at load
        self.task_file: TaskSet | None = load_tasks(o["tasks"]) if mode == "highform" or o["tasks"] else None
        self.tasks: TaskSet | None = self.task_file if mode == "highform" else None
        for key in ("school0", "school1", "school2", "school3"):
            if o[key] != "random" and o[key] not in self.cards.schools:
                valid = ", ".join([*self.cards.schools, "random"])
                raise OptionError(f"tashkalar: option {key!r}: no school {o[key]!r}; valid schools: {valid}")
        self.codec = Codec(self.cards, self.tasks)
        self._card_texts: dict[str, CardText] | None = None

    @property
    def num_players(self) -> int:
        return self.seats

    def mate(self, seat: int) -> int:
        """The teammate of ``seat`` (team games only)."""
        return (seat + 2) % 4

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

    def new_initial_state(self, seed: int = 0) -> TashKalarState:
        state = TashKalarState(self, seed)
        state.start()
        return state

    def parse_action(self, state: State, text: str) -> Action:
        return parse(self.cards, text, self.tasks)

    @property
    def num_distinct_actions(self) -> int:
        return self.codec.size

    def action_index(self, action: Action) -> int:
        return self.codec.index(action)

    def action_from_index(self, index: int) -> Action:
        return self.codec.action(index)

    def render(self, state: State, seat: int | None) -> str:
        assert isinstance(state, TashKalarState)
        return render(state, seat)

    def describe_action(self, state: State, action: Action) -> str:
        assert isinstance(state, TashKalarState)
        return describe_action(state, action)

    def action_seen_by(self, state: State, action: Action, seat: int | None) -> str:
        """``action`` as ``seat`` sees it: the cards put under a school deck are named only to their owner.

        Every other action shows public facts only (a summoned being, a discarded card, an invoked flare, the
        choices of an effect, a claimed task), so its description is the same for every seat. Cards put under
        the deck are hidden (ruling 7) from the opponents and, in team games, from the teammate too (ruling 18).
        """
        assert isinstance(state, TashKalarState)
        if seat == state.player:
            return describe_action(state, action)
        return seen_by_others(state, action)

    def confirm_text(self, state: State, action: Action) -> str | None:
        """``resign`` loses the game (the seat's team in team games); ``end`` in the main phase with actions
        still left gives them up. Both are asked first; an ``end`` with nothing left to do is not."""
        assert isinstance(state, TashKalarState)
        if action == RESIGN:
            return "Resign: your team loses the game?" if self.teams else "Resign: you lose the game?"
        if action == END and state.phase == MAIN and state.actions > 0:
            n = state.actions
            return f"End your turn with {n} action{'s' if n != 1 else ''} left?"
        return None

    def card_texts(self) -> dict[str, CardText]:
        """Every being, legend and flare of the card file in use, and every High Form task of the task file in
        use, by id: rank, effect, pattern in words, the notation in notes (``render/cardtexts.py``). Built once per
        game (every browser connection's welcome carries them)."""
        if self._card_texts is None:
            self._card_texts = card_texts(self.cards, self.tasks, self.mode)
        return self._card_texts

    def choice_label(self, state: State, action: Action) -> tuple[str, str]:
        """Grouped by kind and card: ``place ranks 5-6`` / ``e5``, ``summon Elder Oak`` / ``at e5 r90: being on
        e5, pattern on d4 e4 f4``, ``move e5 (common of seat 0)`` / ``to e7`` (see ``render/menu.py``)."""
        assert isinstance(state, TashKalarState)
        return choice_label(state, action)

    def board(self, state: State, seat: int | None) -> list[Panel]:
        assert isinstance(state, TashKalarState)
        return panels(state, seat)

    def narrate(self, before: State, action: Action, after: State, seat: int | None) -> list[str]:
        """The action as ``seat`` sees it, then every visible change it caused (``render/narrate.py``)."""
        assert isinstance(before, TashKalarState) and isinstance(after, TashKalarState)
        return narrate(before, action, after, seat)

    def end_reason(self, state: State) -> str | None:
        """What ended the game and the final points, in words (``end_words.py``)."""
        assert isinstance(state, TashKalarState)
        return end_words.end_reason(state) if state.is_terminal() else None

    def turn_player(self, state: State) -> int | None:
        """The seat whose turn it is (``active``; a teammate may play a turn handed over to it)."""
        assert isinstance(state, TashKalarState)
        return None if state.is_terminal() else state.active

    def make_observation_encoder(self) -> ObservationEncoder:
        return encoding.TashKalarEncoder(self.cards, self.tasks, players=self.num_players, colours=self.n_col)

    def make_action_factoring(self) -> ActionFactoring:
        """The flat encoding has over 5 million entries: a decision is a head, a square, an orientation, a piece."""
        return encoding.TashKalarFactoring(self.cards, self.tasks)

    def evaluate(self, observation: dict[str, Any], seat: int) -> float | None:
        """Points ahead of the best opponent and pieces on the board by rank, squashed into [-1, 1]."""
        return strategy.evaluate(observation, seat, self.tasks)

    def heuristic_action(self, observation: dict[str, Any], legal: list[Action], seat: int, rng: Rng) -> Action | None:
        """Summon over place (legends first, summons that destroy), place towards a pattern of the hand, hurt the
        enemy's best pieces in effects, flares only when they pay, never resign (``strategy.py``)."""
        return strategy.heuristic_action(self, observation, legal, seat, rng) if legal else None

    def hidden_cards(self, state: State, seat: int) -> dict[str, dict[str, Any]] | None:
        assert isinstance(state, TashKalarState)
        return views.hidden_cards(state, seat)

    def hidden_facts(self, world: State, seat: int) -> dict[str, str]:
        """Per other seat: its flare, its legends, whether it holds a heroic being, whether it could summon on this
        board, its next school card."""
        assert isinstance(world, TashKalarState)
        return views.hidden_facts(world, seat)

    def is_pass(self, action: Action) -> bool:
        """``skip`` (stop an optional effect, put no more cards under the decks, claim no task) and ``end`` (end
        the turn, leaving any actions unused) decline to act; handing over and resigning do not."""
        return action in (SKIP, END)

    # -- the balance report (involvement.py) -------------------------------------------------------------------
    def involvement_catalogue(self) -> list[Declared]:
        """Every being, legend, flare, effect, flare half, High Form task and piece rank of the files in use, and
        the rules of the mode worth watching."""
        return involvement.catalogue(self)

    def initial_involvement(self, state: State) -> list[Involvement]:
        assert isinstance(state, TashKalarState)
        return involvement.initial(state)

    def involvement(self, before: State, action: Action, after: State) -> list[Involvement]:
        """Summons, flares, discards, claims; draws; pieces destroyed (their owners), upgraded, moved; effects
        that did something; scoring and end rules: all read from ``before``/``after``."""
        assert isinstance(before, TashKalarState) and isinstance(after, TashKalarState)
        return involvement.involvement(before, action, after)

    def entry_data(self) -> dict[tuple[str, str], str]:
        """Every being's, legend's, flare's (and in High Form every task's) data as the files write it
        (``involvement.entry_data``)."""
        return involvement.entry_data(self)

    def report_setup(self, seed: int) -> Setup:
        """The schools the players bring (準備: each player takes a school deck): every seat whose ``school``
        option is ``random`` gets a school drawn from the seed, mirrors included, in every mode (duel, High Form,
        teams, melee); the seats' labels are the schools' names (``involvement.schools_setup``)."""
        return involvement.schools_setup(self, seed)

    def first_player(self, state: State) -> int | None:
        """Seat 0 takes the first turn in every mode; the seat that acts first in the initial state is the one
        that puts the setup commons (the second player, 4th in teams, the last seat in melee: 準備)."""
        return 0

    def end_conditions(self) -> list[Declared]:
        return involvement.end_conditions(self)

    def end_condition(self, state: State) -> str:
        assert isinstance(state, TashKalarState)
        return involvement.end_condition(state)

    def rules_text(self) -> str:
        text = super().rules_text() + "\n" + card_list(self.cards)
        return text + "\n" + task_list(self.task_file or load_tasks(None))
