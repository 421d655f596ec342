"""The game-agnostic ``Game`` / ``State`` protocol that every game implements and every tool relies on."""

from __future__ import annotations

import functools
import json
from abc import ABC, abstractmethod
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

from . import carddata
from .actions import Action
from .encoding import ActionFactoring, FlatActions, ObservationEncoder
from .errors import InvalidActionError, RulesError
from .involvement import Declared, Involvement, Setup
from .options import Option, resolve_options
from .panels import CardText, Panel
from .rng import Rng
from .state import State

MAX_TURNS = Option(
    "max_turns",
    int,
    200,
    "safety cap on the game's length in turns; reaching it is a draw",
    minimum=1,
    maximum=1_000_000,
)
MAX_ACTION_TEXT = 1000  # characters; no game's action text comes near it


class Game(ABC):
    """A game with fixed options: a factory of initial states plus the action codec.

    Subclasses set ``id``, ``name``, ``version``, ``player_counts`` and ``option_spec`` and implement the
    abstract methods. Options are checked in ``__init__``; ``setup()`` then loads data files.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    version: ClassVar[str] = "1"
    player_counts: ClassVar[tuple[int, ...]] = (2,)
    option_spec: ClassVar[tuple[Option, ...]] = (MAX_TURNS,)
    #: how long a game typically lasts, in words, for the lobby (measured: ``cardarena simulate GAME --json``'s
    #: ``mean_decisions`` and turns with heuristic agents); empty where nobody measured it
    length: ClassVar[str] = ""
    #: The action by which the seat to act resigns, where the game offers one (set it in ``setup``). It is a
    #: legal action like any other, but random playouts (the conformance harness, ``bench``, golden records, the
    #: random agent) never choose it: see :meth:`State.playout_actions`.
    resign_action: Action | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Guard each game's ``parse_action``: only ``InvalidActionError`` ever leaves it on bad input.

        Text that is not a string, absurdly long text, and a ``ValueError`` from the game's reader (``int()`` of
        a digit that is not ASCII, of 5,000 digits) all become ``InvalidActionError``.
        """
        super().__init_subclass__(**kwargs)
        impl = cls.__dict__.get("parse_action")
        if impl is None or getattr(impl, "_guarded", False):
            return

        @functools.wraps(impl)
        def parse_action(self: Game, state: State, text: str) -> Action:
            if not isinstance(text, str):
                raise InvalidActionError(repr(text), f"an action's text must be a string, not a {type(text).__name__}")
            if len(text) > MAX_ACTION_TEXT:
                raise InvalidActionError(text[:40] + "...", f"an action's text is at most {MAX_ACTION_TEXT} characters")
            try:
                action: Action = impl(self, state, text)
            except RulesError:
                raise
            except ValueError as e:
                raise InvalidActionError(text, str(e), state=state) from None
            return action

        parse_action._guarded = True  # type: ignore[attr-defined]
        cls.parse_action = parse_action  # type: ignore[method-assign]

    def __init__(self, **options: Any) -> None:
        self.options: dict[str, Any] = resolve_options(self.option_spec, options, game_id=self.id)
        self.setup()

    def setup(self) -> None:  # noqa: B027 - an optional hook, empty by default
        """Load data files and precompute tables; raise ``CardDataError``/``OptionError`` on bad input."""

    @property
    def num_players(self) -> int:
        return self.player_counts[0]

    @abstractmethod
    def new_initial_state(self, seed: int = 0) -> State:
        """The state before the first decision; all of the game's randomness flows from ``seed``."""

    @abstractmethod
    def parse_action(self, state: State, text: str) -> Action:
        """Read an action's canonical text. Raise ``InvalidActionError`` if the text is malformed."""

    @property
    @abstractmethod
    def num_distinct_actions(self) -> int:
        """Size of the fixed integer action encoding (for RL action masks)."""

    @abstractmethod
    def action_index(self, action: Action) -> int:
        """The action's integer in ``range(num_distinct_actions)``."""

    @abstractmethod
    def action_from_index(self, index: int) -> Action:
        """Inverse of :meth:`action_index`."""

    def render(self, state: State, seat: int | None) -> str:
        """A text picture of the state as ``seat`` may see it (``None``: a spectator who sees only public facts)."""
        return json.dumps(state.observation(seat), ensure_ascii=False, indent=1)

    def describe_action(self, state: State, action: Action) -> str:
        """A longer, human-friendly description of ``action`` in ``state`` (default: its canonical text)."""
        return str(action)

    def action_seen_by(self, state: State, action: Action, seat: int | None) -> str:
        """How ``action``, about to be taken in ``state``, looks to ``seat``: hidden parts censored.

        Games with hidden choices (a card set face down, a secret pick) override this; the default shows
        :meth:`describe_action`. An empty string means the seat does not see the action happen at all (even
        the number of such actions is secret). The command line uses it to tell a person what others did.
        """
        return self.describe_action(state, action)

    def evaluate(self, observation: dict[str, Any], seat: int) -> float | None:
        """A cheap estimate in [-1, 1] of how well ``seat`` stands, from its ``observation`` only (search agents
        use it to cut playouts short). ``None``, the default, means no estimate: playouts go to the end."""
        return None

    def choice_label(self, state: State, action: Action) -> tuple[str, str]:
        """``(group, detail)`` of a legal action, for faces that list many choices grouped.

        Actions with the same group are shown together (``"play 7S"`` and its targets, ``"summon Knight"`` and
        its places, ``"buy Fire Ryabi"`` and its payments); the detail tells them apart within the group and is
        empty when the group has one action. A person may type a group's name (or an unambiguous prefix of it)
        to see or take it. Group by card or kind of action; the default splits the text at its first space.
        """
        group, _, detail = str(action).partition(" ")
        return group, detail

    def board(self, state: State, seat: int | None) -> list[Panel]:
        """The table as ``seat`` sees it, zone by zone (see :class:`Panel`); the default is one panel of
        :meth:`render`. Only what ``observation(seat)`` allows may appear."""
        return [Panel(self.name, tuple(self.render(state, seat).splitlines()))]

    def narrate(self, before: State, action: Action, after: State, seat: int | None) -> list[str]:
        """What ``seat`` learns when ``action`` is taken in ``before`` and leads to ``after``, one line each:
        the action as the seat sees it, then every outcome it caused (damage dealt, cards milled or destroyed,
        a battle's result, a summon's victims, a card revealed). Only what the seat may see; the default is the
        one line of :meth:`action_seen_by` (nothing when the seat does not see the action happen)."""
        seen = self.action_seen_by(before, action, seat)
        return [seen] if seen else []

    def end_reason(self, state: State) -> str | None:
        """Why the game ``state`` ended, in a player's words ("seat 1 fell to 0 HP", "seat 0's deck ran out",
        "the turn limit (60) was reached"); ``None`` while it runs, or where the game does not say. Public words
        only (the same for every seat), naming seats as "seat N": the server puts the players' names in, as it does
        for the log (``cardarena.web.views.with_names``), and the table's result line says who won, then this. The
        default: ``None`` (the result line then says only who won)."""
        return None

    def turn_player(self, state: State) -> int | None:
        """The seat whose turn ``state.turn`` is (public), where turns belong to one player each; ``None`` where a
        turn is both players' (rounds in which each acts) or before the first turn. The table's "Pass until my
        turn" passes until it is this seat's turn again, so it is offered only where the game says. The default:
        ``None``."""
        return None

    def heuristic_action(self, observation: dict[str, Any], legal: list[Action], seat: int, rng: Rng) -> Action | None:
        """A good player's rule of thumb: one of ``legal`` chosen from ``seat``'s ``observation`` only (``rng``
        breaks ties). ``None``, the default, means no opinion: the heuristic agent then tries each action on a
        sampled world and keeps the one :meth:`evaluate` likes best."""
        return None

    def hidden_cards(self, state: State, seat: int) -> dict[str, dict[str, Any]] | None:
        """Every place whose card ``seat`` cannot see, by pool: ``{pool: {place: card}}``.

        A pool gathers the places whose cards the seat's information lets trade places with one another (``"seat
        1 hand and deck"``: the opponent's unseen hand and deck cards; ``"your deck"``); a place is named
        (``"hand 3"``, ``"deck 12"``) and holds the card there in ``state`` (any hashable value). Places the seat
        knows (a card it saw put there) are not hidden. The conformance harness resamples many times and checks
        that no place keeps its true card in every world when its pool would often give it another, so a
        resample that leaves a true hidden card in place is caught. ``None`` (the default): not declared.
        """
        return None

    def hidden_facts(self, world: State, seat: int) -> dict[str, str]:
        """A few facts about what ``seat`` cannot see that a player would like odds on (``"opponent holds a red
        ryabi": "yes"``), read from a world drawn by ``resample(seat, ...)``. A face tallies them over many
        resamples to show odds; since resamples know only what the seat knows, the odds reveal nothing more."""
        return {}

    def undo_refusal(self, before: State, action: Action, after: State) -> str | None:
        """Why a seat may not take ``action`` (taken in ``before``, giving ``after``) back, beyond the kernel's own
        checks (:mod:`cardarena.engine.undo`: the seat's own last action, no chance used, nothing hidden shown to
        any seat, found by resampling). A game names here what resampling cannot see; it may only refuse more.
        ``None``, the default, adds nothing."""
        return None

    def confirm_text(self, state: State, action: Action) -> str | None:
        """The question a table asks before it sends ``action`` for the seat to act in ``state`` (one of its legal
        actions), or ``None`` when the action is sent at once: an action that ends the seat's build, turn or game
        early, or that cannot be taken back, is confirmed first, so no single stray click loses anything. The
        words say what the action does ("Resign: you lose the game?"). It reads only what the seat to act sees
        (it is sent to that seat with its legal actions). The default asks for the game's ``resign_action``."""
        if self.resign_action is not None and action == self.resign_action:
            return "Resign: you lose the game?"
        return None

    def card_texts(self) -> dict[str, CardText]:
        """What each card (being, item, piece...) of this game, with its options and card file, says, for faces
        that show a card's text wherever it lies face up (the browser's card viewer): its name as the game's texts
        and observations name it, mapped to a :class:`CardText`. Public facts only (the same for every seat: the
        rules and card list, never where a card lies); the default is none."""
        return {}

    # -- the balance report (cardarena report): see :mod:`.involvement` ------------------------------------------
    def involvement_catalogue(self) -> list[Declared]:
        """Everything this game (with its options and card file) declares that can be involved: every card,
        ability or effect kind, item, task, flare, and the rules worth watching. The default declares nothing."""
        return []

    def initial_involvement(self, state: State) -> list[Involvement]:
        """What the initial ``state`` already involves: each seat's deck or build (``in_deck``/``in_build``),
        the supply on offer, the opening hands drawn. The default: nothing."""
        return []

    def involvement(self, before: State, action: Action, after: State) -> list[Involvement]:
        """What ``action``, taken in ``before`` and leading to ``after``, involves: the cards of the action itself
        and every automatic event it set off (draws, abilities fired, pieces destroyed, rules applied). Only the
        balance report calls it (``before`` is its clone), so the rules pay nothing for it. The default: nothing."""
        return []

    def entry_data(self) -> dict[tuple[str, str], str]:
        """For each entry of :meth:`involvement_catalogue` that has data of its own (a card's cost, numbers,
        abilities; an item's price), a canonical text of that data, keyed ``(kind, name)``: two texts differ
        exactly when a designer changed the entry. The balance report compares two variants (``--baseline-option
        cards=old.toml``) through it and lists every changed entry first ("what changed"). Build it from the
        loaded data (e.g. ``repr`` of the card's frozen dataclass, or its TOML table as sorted ``key=value``
        pairs), not from prose. The default: no entry has data."""
        return {}

    def report_setup(self, seed: int) -> Setup | None:
        """The decks, builds or schools the players of one balance-report game bring, drawn from ``seed`` (the
        same seed gives the same setup, in every variant: common random numbers): what players of this game
        would bring, varied enough that no card's use is tied to one deck or one seat (legal decks from the
        pool, one-card swaps of the starter decks, builds from a varied population, schools rotated). ``None``,
        the default, means every game is played with the variant's options as they are (a game whose players
        bring nothing of their own, or whose options already vary per game)."""
        return None

    def card_file(self) -> Path | None:
        """The TOML card file this game plays, which a balance-report sweep copies with one number changed
        (``cardarena report GAME --sweep CARD.FIELD=a:b``, :mod:`cardarena.arena.sweep`) and plays through the
        ``cards`` option. The default: the file the ``cards`` path option names, else the ``data/cards.toml``
        beside the game's module; ``None`` for a game with no such option or file."""
        return carddata.card_file(self)

    def card_entries(self, document: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
        """The entries of a card file (``document``, as :mod:`tomllib` reads :meth:`card_file`) whose numbers a
        designer can change by name, keyed ``(kind, name)`` as :meth:`involvement_catalogue` names them: each the
        table of ``document`` that holds the entry's fields (the same dict: a sweep sets a number in it and
        writes the document back). The default (:func:`~cardarena.engine.carddata.default_entries`): the tables
        of arrays of tables named by their ``id``, ``rank`` or ``name``, and the top-level tables such as
        ``[rules]`` (kind ``"table"``); a game whose file names its entries otherwise extends it."""
        return carddata.default_entries(document, self.involvement_catalogue())

    def first_player(self, state: State) -> int | None:
        """The seat that takes the game's first turn (the rulebook's 先手), read from ``state``; ``None`` while the
        rules have not decided it yet (or where the game has no such seat). The balance report asks on the initial
        state, then after each action until it gets a seat. The default: the seat to act in the initial state,
        which is right only where the first decision is the first player's (not a setup or a reveal)."""
        return state.current_player

    def end_conditions(self) -> list[Declared]:
        """Every way a game can end, as the rulebook names them (kind ``"end"``), and the turn cap. The default
        knows only a decided game and a draw."""
        return [Declared("end", "decided", "a seat won"), Declared("end", "draw", "a draw")]

    def end_condition(self, state: State) -> str:
        """The name (one of :meth:`end_conditions`) of the way the terminal ``state`` ended."""
        returns = state.returns()
        return "draw" if max(returns) == min(returns) else "decided"

    # -- learning agents (cardarena.rl): each game's ``encoding.py`` -------------------------------------------
    def make_observation_encoder(self) -> ObservationEncoder:
        """Build the game's fixed-size numeric encoding of ``observation(seat)`` (see :mod:`.encoding`).

        Games override it (in their ``encoding.py``); the default says the game has none.
        """
        raise NotImplementedError(
            f"{self.id} has no observation encoding for learning agents: its package must supply one "
            "(encoding.py, returned by make_observation_encoder) before cardarena.rl can run it"
        )

    def make_action_factoring(self) -> ActionFactoring:
        """How one decision is taken as sub-decisions (see :mod:`.encoding`). The default is the game's own flat
        integer encoding in one step; games whose encoding is too large for a network's output layer override it."""
        return FlatActions(self)

    def observation_encoder(self) -> ObservationEncoder:
        """The game's observation encoder, built once per game (the per-game hook is ``make_observation_encoder``)."""
        encoder: ObservationEncoder | None = self.__dict__.get("_observation_encoder")
        if encoder is None:
            encoder = self.make_observation_encoder()
            self._observation_encoder = encoder
        return encoder

    def action_factoring(self) -> ActionFactoring:
        """The game's action factoring, built once per game (the per-game hook is ``make_action_factoring``)."""
        factoring: ActionFactoring | None = self.__dict__.get("_action_factoring")
        if factoring is None:
            factoring = self.make_action_factoring()
            self._action_factoring = factoring
        return factoring

    def encode(self, observation: dict[str, Any], seat: int) -> list[float]:
        """``observation`` (what ``seat`` sees) as the game's fixed-size list of numbers (``NotImplementedError`` if
        the game has no encoding). ``cardarena.rl`` writes the same numbers into numpy arrays."""
        return self.observation_encoder().encode(observation, seat)

    def is_pass(self, action: Action) -> bool:
        """Whether ``action`` is a pass: the seat declines to act now (gives up priority, skips an optional step)
        and the game goes on. Faces use it (the command line's ``:skip``) instead of comparing texts; the default
        is no pass at all."""
        return False

    @property
    def has_passes(self) -> bool:
        """Whether the game ever offers a pass: it names its passes by overriding :meth:`is_pass` (faces offer a
        ``skip`` command only then)."""
        return type(self).is_pass is not Game.is_pass

    def rules_text(self) -> str:
        """The player's page (the package's ``rules.md``: how to play in the terminal, the rules, the rulings a
        player needs) and the options."""
        package = type(self).__module__.rsplit(".", 1)[0]
        text = resources.files(package).joinpath("rules.md").read_text(encoding="utf-8")
        return text + "\n" + self.options_text()

    @classmethod
    def browser_rules(cls) -> str:
        """The player's page for the browser (the package's ``browser.md``, Markdown): the goal, a turn, what to
        click on the web table, the notation, the options; no terminal commands. Empty where the game has none.
        A class method: the lobby and the rules page need no game built with options."""
        package = cls.__module__.rsplit(".", 1)[0]
        page = resources.files(package).joinpath("browser.md")
        return page.read_text(encoding="utf-8") if page.is_file() else ""

    @classmethod
    def description(cls) -> str:
        """The game in one paragraph: the first paragraph of :meth:`browser_rules` after its title (the lobby
        shows it), joined onto one line; empty without a browser page."""
        for block in cls.browser_rules().split("\n\n"):
            text = block.strip()
            if text and not text.startswith("#"):
                return " ".join(text.split())
        return ""

    def options_text(self) -> str:
        lines = ["## Options (current values)", ""]
        for o in self.option_spec:
            extra = f" (one of: {', '.join(map(str, o.choices))})" if o.choices else ""
            lines.append(f"- `{o.name}` = {self.options[o.name]!r} (default {o.default!r}){extra}: {o.help}")
        return "\n".join(lines) + "\n"

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "version": self.version,
            "players": list(self.player_counts),
        }

    def record_options(self) -> dict[str, Any]:
        """Options that differ from their defaults, as recorded in a game record."""
        return {o.name: self.options[o.name] for o in self.option_spec if self.options[o.name] != o.default}

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.record_options().items())
        return f"{type(self).__name__}({opts})"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle by reference (id and options), so a state sent to another process does not carry the card
        tables; the receiving process loads the game once and shares it among every state it receives."""
        return (_game_by_reference, (type(self), tuple(sorted(self.record_options().items()))))


@functools.lru_cache(maxsize=64)
def _game_by_reference(cls: type[Game], options: tuple[tuple[str, Any], ...]) -> Game:
    return cls(**dict(options))


def read_action_index(game: Game, index: int) -> Action:
    """Bounds-checked :meth:`Game.action_from_index`."""
    if not 0 <= index < game.num_distinct_actions:
        raise InvalidActionError(str(index), f"action index must be in 0..{game.num_distinct_actions - 1}")
    return game.action_from_index(index)
