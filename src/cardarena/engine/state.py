"""A position of a game: the ``State`` base class every game's state derives from, and the playout choices.

A game's state is a native (compiled) class when cardarena runs compiled (``make compiled``, docs/speed.md): its
rules then reach its fields directly. So the base class is written for mypyc as much as for Python:

- ``State[G]`` is generic in its game, so ``state.game`` has the game's own type in the rules (no narrowing of an
  inherited attribute, which compiled classes forbid);
- the constructor only binds the game and the seed: a game's ``new_initial_state`` builds the state, then lays out
  the position (its ``start()``), so ``clone`` can build an empty state of the class cheaply and fill it;
- ``clone`` is written out as plain code from ``FIELDS`` (:func:`cardarena.engine.fields.clone_source`, kept in
  step by ``make clones`` and a test); only classes the interpreter runs (tests' toy games, a designer's own game)
  may still leave it out and get one derived at class creation;
- nothing is assigned onto a class after it is made: ``resample`` is a method of the base that calls the game's
  ``_resample`` and forgets the history.
"""

from __future__ import annotations

import random
import sys
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic

from mypy_extensions import mypyc_attr

from .actions import Action
from .errors import IllegalActionError, RecordError, RulesError
from .fields import Field, check_fields, make_clone, snapshot_of
from .rng import Rng

if sys.version_info >= (3, 13):
    from typing import Self, TypeVar
else:
    from typing import Self

    from typing_extensions import TypeVar

if TYPE_CHECKING:
    from .game import Game

#: The game a state belongs to: ``State[ToraBatoGame]`` (a bare ``State`` is any game's).
G = TypeVar("G", bound="Game", covariant=True, default="Game")

NO_RECORD_RESAMPLED = "a resampled state is a hypothetical world: it has no history and no record"


@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC, Generic[G]):
    """One position of a game, mutated in place by :meth:`apply`.

    Subclasses implement the underscored hooks. The base class owns the action history, the cache of legal
    actions and the validation in :meth:`apply`, so legality has one source: ``_legal_actions``.
    """

    game: G
    seed: int
    history: list[Action]
    _legal: list[Action] | None
    _resampled: bool = False
    #: Why this state has no record (a hypothetical world, a position built by hand), or ``None``.
    _no_record: str | None = None
    #: The game's own fields, declared once (see :mod:`cardarena.engine.fields`): ``clone`` and ``snapshot``
    #: are derived from them unless the class writes its own.
    FIELDS: ClassVar[tuple[Field, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Check ``FIELDS`` (inherited ones first), and derive ``clone`` for a class that writes none.

        Compiled game states write their ``clone`` out (see the module's docstring); a class the interpreter runs may
        leave it out and gets the same straight-line code, made here once.
        """
        super().__init_subclass__(**kwargs)
        own_fields = vars(cls).get("FIELDS")
        if own_fields is None:
            return
        inherited = tuple(f for base in cls.__mro__[1:] for f in vars(base).get("FIELDS", ()))
        fields = check_fields(cls.__name__, (*inherited, *own_fields))
        if inherited:
            cls.FIELDS = fields
        if "clone" not in vars(cls):
            cls.clone = make_clone(cls, fields, State.__init__)  # type: ignore[method-assign,assignment]

    def __init__(self, game: G, seed: int) -> None:
        """Bind the state to its game and seed; the position itself is laid out by the game's state (its
        ``start()``, which ``new_initial_state`` calls), or filled in by ``clone``."""
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

    def resample(self, seat: int, rng: Rng | random.Random | int) -> Self:
        """A full state that ``seat`` cannot tell from this one: hidden cards redrawn, future chance reseeded.

        The returned state has an empty ``history`` and no record: the true history may hold hidden choices (a card
        set face down), so a search agent must not get it. The game draws the world in :meth:`_resample`.
        """
        world = self._resample(seat, rng)
        world.history = []
        world._legal = None
        world._resampled = True
        world._no_record = NO_RECORD_RESAMPLED
        return world

    @abstractmethod
    def _resample(self, seat: int, rng: Rng | random.Random | int) -> Self:
        """The game's half of :meth:`resample`: a copy with what ``seat`` cannot see redrawn."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy (cheap: no deepcopy)."""

    def snapshot(self) -> dict[str, Any]:
        """The whole state, hidden parts included, JSON-ready (for tests, debugging and servers): every declared
        field as ``FIELDS`` says, and the history."""
        return snapshot_of(self, type(self).FIELDS)

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
            if self.is_terminal():
                legal = []
            else:
                actions = self._legal_actions()
                legal = actions if isinstance(actions, list) else list(actions)
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

    def why_not(self, action: Action) -> str | None:
        """``None`` when ``action`` is legal here, otherwise the reason in plain words.

        Games override it with the same checks that build their legal actions (one source of legality); the
        conformance harness checks that the two agree. The default knows only the list.
        """
        return None if action in self.legal_actions() else "it is not one of the legal actions now"

    def why_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal here, in plain words."""
        if self.is_terminal():
            return "the game is over"
        return self.why_not(action) or "it is not one of the legal actions now"

    def apply(self, action: Action | str) -> None:
        """Validate and carry out ``action`` (an action, or its text as ``game.parse_action`` reads it). On
        ``InvalidActionError`` or ``IllegalActionError`` the state is unchanged.

        Only this game's own actions are accepted: an equal tuple of another type (a plain tuple, a bare
        ``Action``, another game's action) is refused, because its text might not read back as the same action
        and the record would no longer replay. Take actions from :meth:`legal_actions` or ``game.parse_action``.
        """
        if isinstance(action, str):
            action = self.game.parse_action(self, action)
        legal = self.legal_actions()
        for own in legal:  # an action taken from the list is found by identity, before comparing tuples
            if own is action:
                break
        else:
            try:
                own = legal[legal.index(action)]
            except ValueError:
                raise IllegalActionError(self, action, self._refusal(action)) from None
        if type(own) is not type(action):
            raise IllegalActionError(self, action, self._refusal(action))
        self._legal = None
        self._apply(action)
        self.history.append(action)

    def apply_legal(self, action: Action) -> None:
        """The unchecked fast path of :meth:`apply`, for search playouts: ``action`` must be taken from this very
        state's ``legal_actions()`` (or ``playout_actions()``); anything else leaves the state undefined."""
        self._legal = None
        self._apply(action)
        self.history.append(action)

    def _refusal(self, action: object) -> str:
        """Why ``action`` was refused. Objects that are not this game's actions never reach ``why_illegal``."""
        if not isinstance(action, Action):
            return f"expected an action of {self.game.id}, got a {type(action).__name__}"
        try:
            own: Action | None = self.game.parse_action(self, str(action))
        except RulesError:
            own = None
        if own is None or own != action or type(own) is not type(action):
            return (
                f"{str(action)!r} is not an action of {self.game.id}: "
                "take actions from legal_actions() or read them with game.parse_action"
            )
        return self.why_illegal(action)

    def apply_text(self, text: str) -> Action:
        """Parse ``text`` with the game's codec and apply it; returns the action."""
        action = self.game.parse_action(self, text)
        self.apply(action)
        return action

    def parse_legal(self, text: str) -> Action:
        """Read ``text`` and check it is legal now, without applying it."""
        action = self.game.parse_action(self, text)
        if action not in self.legal_actions():
            raise IllegalActionError(self, action, self._refusal(action))
        return action

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle the position: the game (by reference), the seed and every field, not the cache of legal actions
        (rebuilt on demand; it can be long). The same for a compiled state, which has no ``__dict__``."""
        fields: dict[str, Any] = {"history": self.history}
        if self._no_record is not None:
            fields["_resampled"] = self._resampled
            fields["_no_record"] = self._no_record
        for f in type(self).FIELDS:
            fields[f.name] = getattr(self, f.name)
        extra = getattr(self, "__dict__", None)  # a class the interpreter runs may hold undeclared attributes
        if extra:
            fields.update((k, v) for k, v in extra.items() if k not in ("game", "seed", "_legal"))
        return (_rebuild, (type(self), self.game, self.seed, fields))

    def _copy_base_into(self, other: State) -> None:
        """Copy the base fields into a fresh clone (used by hand-written ``clone`` methods)."""
        other.game = self.game
        other.seed = self.seed
        other.history = self.history.copy()
        other._legal = self._legal
        if self._no_record is not None:
            other._resampled = self._resampled
            other._no_record = self._no_record

    def edit(self, **fields: Any) -> None:
        """Set declared fields in place: the public way for tests and tools to build a position.

        Only names of ``FIELDS`` are accepted (a ``TypeError`` names the others). The cache of legal actions is
        cleared, and the state has no record from now on: its history no longer leads to it.
        """
        declared = {f.name for f in type(self).FIELDS}
        unknown = sorted(set(fields) - declared)
        if unknown:
            raise TypeError(
                f"{type(self).__name__} has no declared field {unknown[0]!r}; fields: {', '.join(sorted(declared))}"
            )
        for name, value in fields.items():
            setattr(self, name, value)
        self._legal = None
        self._no_record = "a position built by hand (State.edit): its history does not lead to it, so no record"

    def to_record(self) -> dict[str, Any]:
        """A JSON-ready record from which :func:`cardarena.replay` rebuilds this state."""
        if self._no_record is not None:
            raise RecordError(self._no_record)
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


def playout_choices(game: Game, legal: list[Action]) -> list[Action]:
    """``legal`` without ``game.resign_action`` (see :meth:`State.playout_actions`); never empties the list."""
    resign = game.resign_action
    if resign is None or len(legal) < 2:
        return legal
    if legal[-1] == resign:  # where games list it: last
        return legal[:-1]
    return [a for a in legal if a != resign] if resign in legal else legal


def _rebuild(cls: type[State], game: Game, seed: int, fields: dict[str, Any]) -> State:
    """Unpickle a state (see :meth:`State.__reduce__`): a bare state of the class, then its fields."""
    if cls.__init__ is State.__init__:  # the constructor only binds the game and seed (every game's state)
        state = cls(game, seed)
    else:  # a constructor of its own (a test's toy game) may deal a whole game: bind the two fields only
        state = cls.__new__(cls)
        State.__init__(state, game, seed)
    for name, value in fields.items():
        setattr(state, name, value)
    return state
