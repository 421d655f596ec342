"""Laplaplace as a cardarena game: the build decisions, then the automatic battle inside the last one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardarena.engine import MAX_TURNS as ENGINE_MAX_TURNS
from cardarena.engine import (
    Action,
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

from . import ai, encoding, end_words, involvement, render, report_builds
from .actions import ActionCodec
from .cards import SHIPPED_BUILDS, Build, CardDef, CardTable, load_build_ref, load_cards
from .constants import DONE_KIND, JUDGE_TURN, LEAGUE, MAX_CARDS, OPEN, Identical, Scene
from .state import LaplaplaceState

# Every game has the safety cap max_turns (RULINGS). Here it may not pre-empt the rulebook's judgement after
# turn 30, which ends every battle, so values below 30 are refused and the cap is never reached.
MAX_TURNS = Option(
    "max_turns",
    int,
    200,
    f"safety cap on the battle's length in turns, at least {JUDGE_TURN}: the judgement after turn {JUDGE_TURN} "
    "ends every battle first, so the cap never ends one",
    maximum=ENGINE_MAX_TURNS.maximum,  # the bound of every game's cap (a game stops at 1,000,000 turns at most)
)

_BUILD_HELP = (
    f"a shipped build ({', '.join(SHIPPED_BUILDS)}), the path of a build file (TOML) or cards: and the card ids "
    "top to bottom (cards:jab,edge,blank); that seat then makes no build decisions"
)

OPTIONS = (
    MAX_TURNS,
    Option(
        "build",
        str,
        Scene.BLIND.value,
        "build scene: blind (secret builds), open (4 shown, then 4 hidden added) or league (both builds fixed by "
        "build0 and build1)",
        choices=tuple(s.value for s in Scene),
    ),
    Option("build0", str, None, f"seat 0's build: {_BUILD_HELP}", path=True, named=SHIPPED_BUILDS),
    Option("build1", str, None, f"seat 1's build: {_BUILD_HELP}", path=True, named=SHIPPED_BUILDS),
    Option("cards", str, None, "card list file (TOML) replacing the built-in data/cards.toml", path=True),
    Option(
        "identical",
        str,
        Identical.DRAW.value,
        "identical builds: draw (the rule) or coin (a seeded coin, for tournaments that must have a winner)",
        choices=tuple(i.value for i in Identical),
    ),
)


class LaplaplaceGame(Game):
    """Options, the data (card list and build files, loaded in ``setup``), the action codec and the face hooks.

    Laplaplace has no pass: ``done`` ends a build for good, it does not give the turn back (the
    game keeps ``Game.is_pass``, so ``has_passes`` is False).
    """

    id = "laplaplace"
    name = "Laplaplace"
    length = "16 decisions in all (up to 8 cards each), then a battle that plays itself"
    version = "2"
    option_spec = OPTIONS

    table: CardTable
    fixed: list[Build | None]
    scene: Scene
    identical: Identical
    codec: ActionCodec

    def setup(self) -> None:
        cap = self.options["max_turns"]
        if cap < JUDGE_TURN:
            raise OptionError(
                f"option 'max_turns': {cap} is below {JUDGE_TURN}; a Laplaplace battle ends with the rulebook's "
                f"judgement after turn {JUDGE_TURN} (バトルが30ターンを超えたら…判定します), which a cap must not cut "
                f"short: give {JUDGE_TURN} or more (the cap is then never reached)"
            )
        self.scene = Scene(self.options["build"])
        self.identical = Identical(self.options["identical"])
        self.table = load_cards(self.options["cards"])
        self.fixed = [None, None]
        for s in (0, 1):
            ref = self.options[f"build{s}"]
            if ref is not None:
                self.fixed[s] = load_build_ref(ref, self.table)
        if self.scene is LEAGUE and None in self.fixed:
            raise OptionError(
                "the league scene plays two fixed builds: give build0 and build1 (a shipped build or a build file)"
            )
        if self.scene is OPEN and any(b is not None for b in self.fixed):
            raise OptionError("fixed builds are for the blind and league scenes (open builds are made in play)")
        self.codec = ActionCodec(self.table)

    def new_initial_state(self, seed: int = 0) -> LaplaplaceState:
        state = LaplaplaceState(self, seed)
        state.start()
        return state

    # -- codec ----------------------------------------------------------------------------------------------
    def parse_action(self, state: State, text: str) -> Action:
        return self.codec.parse(text)

    @property
    def num_distinct_actions(self) -> int:
        return len(self.codec.all)

    def action_index(self, action: Action) -> int:
        return self.codec.index(action)

    def action_from_index(self, index: int) -> Action:
        return self.codec.all[index]

    def card_of(self, action: Action) -> CardDef | None:
        """The card an ``add``/``show`` action names; ``None`` for ``done``."""
        i = self.codec.card_index.get(action)
        return None if i is None else self.table.cards[i]

    # -- build files (the arena's league of fixed builds) -----------------------------------------------------
    def build_name(self, seat: int) -> str | None:
        """The name of the build ``seat`` plays from a file (option ``build0``/``build1``), else ``None``."""
        fixed = self.fixed[seat]
        return None if fixed is None else fixed.name

    def fixed_build_options(self, path0: str | Path, path1: str | Path) -> dict[str, str]:
        """The options under which two build files battle with no decision (the league scene)."""
        return {"build": LEAGUE.value, "build0": str(path0), "build1": str(path1)}

    # -- card lists (the arena's optimiser, arena/optimise.py) ----------------------------------------------------
    def card_ids(self) -> tuple[str, ...]:
        """Every card of the card list in use, by id, in the list's order."""
        return tuple(c.id for c in self.table.cards)

    def seat_card_list(self, seat: int) -> tuple[str, tuple[str, ...]] | None:
        """The name and the card ids (top to bottom) of the build ``seat`` plays from a file, else ``None``."""
        fixed = self.fixed[seat]
        return None if fixed is None else (fixed.name, tuple(c.id for c in fixed.cards))

    # -- faces ----------------------------------------------------------------------------------------------
    def describe_action(self, state: State, action: Action) -> str:
        return render.describe_action(self.card_of(action), action)

    def action_seen_by(self, state: State, action: Action, seat: int | None) -> str:
        assert isinstance(state, LaplaplaceState)
        return render.action_seen_by(state, action, seat, self.describe_action(state, action))

    def render(self, state: State, seat: int | None) -> str:
        assert isinstance(state, LaplaplaceState)
        return render.render(state, seat)

    def confirm_text(self, state: State, action: Action) -> str | None:
        """``done`` ends the seat's build for good (it is never taken back: the battle may follow at once), so
        the table asks first, saying how many cards the build holds; an empty build cannot win."""
        assert isinstance(state, LaplaplaceState)
        if action[0] != DONE_KIND:
            return None
        seat = state.current_player
        assert seat is not None
        n = len(state.builds[seat])
        if n == 0:
            return f"Finish your build with no cards (of {MAX_CARDS})? An empty build cannot win the battle."
        return f"Finish your build with {n} of {MAX_CARDS} cards?"

    def card_texts(self) -> dict[str, CardText]:
        """Every card of the card list in use, keyed by its id (as observations and actions name it), with its
        notation (``<A>``, ``<E: …>``, ``[Downless]``, force, up and down) explained in words (render.py)."""
        return render.card_texts(self.table)

    def choice_label(self, state: State, action: Action) -> tuple[str, str]:
        return render.choice_label(self.card_of(action))

    def board(self, state: State, seat: int | None) -> list[Panel]:
        assert isinstance(state, LaplaplaceState)
        return render.board(state, seat)

    def narrate(self, before: State, action: Action, after: State, seat: int | None) -> list[str]:
        assert isinstance(before, LaplaplaceState) and isinstance(after, LaplaplaceState)
        return render.narrate(before, action, after, seat, self.action_seen_by(before, action, seat))

    def end_reason(self, state: State) -> str | None:
        """How the battle was decided, in words (``end_words.py``: "P1's HP fell to -3")."""
        assert isinstance(state, LaplaplaceState)
        return None if state.outcome is None else end_words.end_reason(state.outcome.reason)

    # -- AI hooks (ai.py) -----------------------------------------------------------------------------------------
    def evaluate(self, observation: dict[str, Any], seat: int) -> float | None:
        return ai.evaluate(self.table, observation, seat)

    def heuristic_action(self, observation: dict[str, Any], legal: list[Action], seat: int, rng: Rng) -> Action | None:
        return ai.heuristic_action(self.table, self.scene, observation, legal, seat, rng)

    def hidden_cards(self, state: State, seat: int) -> dict[str, dict[str, Any]] | None:
        assert isinstance(state, LaplaplaceState)
        return ai.hidden_cards(state, seat)

    def hidden_facts(self, world: State, seat: int) -> dict[str, str]:
        assert isinstance(world, LaplaplaceState)
        return ai.hidden_facts(world, seat)

    def make_observation_encoder(self) -> ObservationEncoder:
        return encoding.LaplaplaceEncoder(self.table)

    # -- the balance report (involvement.py) ------------------------------------------------------------------
    def involvement_catalogue(self) -> list[Declared]:
        return involvement.catalogue(self.table)

    def initial_involvement(self, state: State) -> list[Involvement]:
        assert isinstance(state, LaplaplaceState)
        return involvement.initial(state)

    def involvement(self, before: State, action: Action, after: State) -> list[Involvement]:
        assert isinstance(before, LaplaplaceState) and isinstance(after, LaplaplaceState)
        return involvement.involvement(before, action, after)

    def entry_data(self) -> dict[tuple[str, str], str]:
        """Each card's data as a line of text (``report_builds.entry_data``)."""
        return report_builds.entry_data(self.table)

    def report_setup(self, seed: int) -> Setup | None:
        """A build for each seat, from the shipped builds, random legal builds and the agent's own
        (``report_builds.py``), while the options leave the building to the agents."""
        return report_builds.report_setup(self, seed)

    def report_population(self) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
        """The shipped and random builds :meth:`report_setup` deals from, worked out once per loaded game."""
        found = getattr(self, "_report_population", None)
        if found is None:
            found = self._report_population = report_builds.population(self.table)
        return found

    def first_player(self, state: State) -> int | None:
        """None: no seat goes first in the game as a whole: the builds are made at the same time and every battle
        turn decides its first player anew (先攻後攻決定フェイズ: speed, then the tie-breaks)."""
        return None

    def end_conditions(self) -> list[Declared]:
        return involvement.end_conditions()

    def end_condition(self, state: State) -> str:
        assert isinstance(state, LaplaplaceState)
        return involvement.end_condition(state)

    def rules_text(self) -> str:
        return super().rules_text() + render.cards_text(self.table)
