"""The game-agnostic ``Game`` / ``State`` protocol that every game implements and every tool relies on."""

from __future__ import annotations

import functools
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from importlib import resources
from typing import Any, ClassVar, cast

from .actions import Action
from .errors import IllegalActionError, InvalidActionError, RecordError
from .options import Option, resolve_options
from .rng import Rng

MAX_TURNS = Option("max_turns", int, 200, "safety cap on the game's length in turns; reaching it is a draw", minimum=1)


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
    #: The action by which the seat to act resigns, where the game offers one (set it in ``setup``). It is a
    #: legal action like any other, but random playouts (the conformance harness, ``bench``, golden records, the
    #: random agent) never choose it: see :meth:`State.playout_actions`.
    resign_action: Action | None = None

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

    def rules_text(self) -> str:
        """The rules summary, rulings and options (the game's ``docs/games/<id>.md``)."""
        package = type(self).__module__.rsplit(".", 1)[0]
        text = resources.files(package).joinpath("rules.md").read_text(encoding="utf-8")
        return text + "\n" + self.options_text()

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


class State(ABC):
    """One position of a game, mutated in place by :meth:`apply`.

    Subclasses implement the underscored hooks. The base class owns the action history, the cache of legal
    actions and the validation in :meth:`apply`, so legality has one source: ``_legal_actions``.
    """

    game: Game
    seed: int
    history: list[Action]
    _legal: list[Action] | None
    _resampled: bool = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Wrap each game's ``resample`` so every resampled state forgets the true action history.

        The history may hold hidden choices (a card set face down), so a search agent must not get it; a resampled
        state is a hypothetical world and has no record. The legal-action cache is cleared as well.
        """
        super().__init_subclass__(**kwargs)
        impl = cls.__dict__.get("resample")
        if impl is None or getattr(impl, "_forgets_history", False):
            return

        @functools.wraps(impl)
        def resample(self: State, seat: int, rng: Rng | random.Random | int) -> State:
            world = impl(self, seat, rng)
            world.history = []
            world._legal = None
            world._resampled = True
            return world

        resample._forgets_history = True  # type: ignore[attr-defined]
        cls.resample = resample  # type: ignore[method-assign]

    def __init__(self, game: Game, seed: int) -> None:
        self.game = game
        self.seed = seed
        self.history = []
        self._legal = None

    # -- the protocol ---------------------------------------------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """Seat to act, or ``None`` once the game is over."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> list[float]:
        """One value per seat: +1 win, -1 loss, 0 draw (all zeros before the end)."""

    @abstractmethod
    def observation(self, seat: int | None) -> dict[str, Any]:
        """A JSON-ready dict of what ``seat`` may know (``None``: public facts only). Default deny."""

    @abstractmethod
    def resample(self, seat: int, rng: Rng | random.Random | int) -> State:
        """A full state that ``seat`` cannot tell from this one: hidden cards redrawn, future chance reseeded.

        The returned state has an empty ``history`` and no record (the true history may hold hidden choices).
        """

    @abstractmethod
    def clone(self) -> State:
        """An independent copy (cheap: no deepcopy)."""

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The whole state, hidden parts included, JSON-ready (for tests, debugging and servers)."""

    @property
    @abstractmethod
    def turn(self) -> int:
        """The current turn (or round) number, from 1."""

    @abstractmethod
    def _legal_actions(self) -> Sequence[Action]:
        """The legal actions of the current player, in a stable order (not called when terminal)."""

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Carry out a legal action (already validated)."""

    # -- provided -------------------------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """The legal actions, in a stable order; empty once terminal. Do not mutate the returned list."""
        legal = self._legal
        if legal is None:
            legal = [] if self.is_terminal() else cast(list[Action], self._legal_actions())
            self._legal = legal
        return legal

    def playout_actions(self) -> list[Action]:
        """The legal actions a random playout chooses among: all of them but the game's ``resign_action``.

        A playout that resigns at random plays nothing of the game, so random play (and what is measured or
        recorded with it) leaves resignation out. With no resignation offered this is ``legal_actions()``.
        """
        return playout_choices(self.game, self.legal_actions())

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions()

    def why_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal here, in plain words (games may give a more exact reason)."""
        if self.is_terminal():
            return "the game is over"
        return "it is not one of the legal actions now"

    def apply(self, action: Action) -> None:
        """Validate and carry out ``action``. On ``IllegalActionError`` the state is unchanged."""
        if action not in self.legal_actions():
            raise IllegalActionError(self, action, self.why_illegal(action))
        self._legal = None
        self._apply(action)
        self.history.append(action)

    def apply_text(self, text: str) -> Action:
        """Parse ``text`` with the game's codec and apply it; returns the action."""
        action = self.game.parse_action(self, text)
        self.apply(action)
        return action

    def parse_legal(self, text: str) -> Action:
        """Read ``text`` and check it is legal now, without applying it."""
        action = self.game.parse_action(self, text)
        if action not in self.legal_actions():
            raise IllegalActionError(self, action, self.why_illegal(action))
        return action

    def _copy_base_into(self, other: State) -> None:
        """Copy the base fields into a fresh clone (used by subclasses' ``clone``)."""
        other.game = self.game
        other.seed = self.seed
        other.history = self.history.copy()
        other._legal = self._legal
        if self._resampled:
            other._resampled = True

    def to_record(self) -> dict[str, Any]:
        """A JSON-ready record from which :func:`cardarena.replay` rebuilds this state."""
        if self._resampled:
            raise RecordError("a resampled state is a hypothetical world: it has no history and no record")
        return {
            "game": self.game.id,
            "version": self.game.version,
            "options": self.game.record_options(),
            "seed": self.seed,
            "actions": [str(a) for a in self.history],
            "result": self.returns() if self.is_terminal() else None,
            "turns": self.turn,
        }

    def render(self, seat: int | None = None) -> str:
        return self.game.render(self, seat)

    def __str__(self) -> str:
        return self.render(None)


def read_action_index(game: Game, index: int) -> Action:
    """Bounds-checked :meth:`Game.action_from_index`."""
    if not 0 <= index < game.num_distinct_actions:
        raise InvalidActionError(str(index), f"action index must be in 0..{game.num_distinct_actions - 1}")
    return game.action_from_index(index)


def playout_choices(game: Game, legal: list[Action]) -> list[Action]:
    """``legal`` without ``game.resign_action`` (see :meth:`State.playout_actions`); never empties the list."""
    resign = game.resign_action
    if resign is None or len(legal) < 2:
        return legal
    if legal[-1] == resign:  # where games list it: last
        return legal[:-1]
    return [a for a in legal if a != resign] if resign in legal else legal
