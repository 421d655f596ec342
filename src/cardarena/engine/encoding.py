"""Numeric encodings for learning agents: a seat's observation as a fixed-size vector, and actions as short
sequences of small integers.

Both are per-game hooks (:meth:`Game.observation_encoder`, :meth:`Game.action_factoring`) written in each game's
``encoding.py`` and used by the reinforcement-learning faces (:mod:`cardarena.rl`). The kernel stays standard
library only: an encoder writes numbers into any mutable sequence it is handed (a numpy array in ``cardarena.rl``,
a plain list in tests), so no game needs numpy to load.

An encoder reads the seat's ``observation(seat)`` dict and nothing else, so nothing hidden can enter the vector
(the RL tests check it the way the conformance harness checks observations: the vector from the true state equals
the vector from every ``resample`` for that seat).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from mypy_extensions import mypyc_attr

if TYPE_CHECKING:
    from .actions import Action
    from .game import Game

#: The most entries one sub-decision of a factored action space may have (issue 19: a network's output layer).
MAX_FACTOR_WIDTH = 4096


class Buffer(Protocol):
    """Where an encoder writes, by position: a numpy array of zeros (``cardarena.rl``) or a list of zeros."""

    def __getitem__(self, index: int, /) -> Any: ...

    def __setitem__(self, index: int, value: float, /) -> None: ...


@dataclass(frozen=True)
class EncodedField:
    """One named block of an observation vector: ``size`` numbers from ``offset``, each in ``[low, high]``."""

    name: str
    offset: int
    size: int
    doc: str
    low: float = 0.0
    high: float = 1.0


class Layout:
    """Builds the list of fields of an encoding, one block after another.

    >>> lay = Layout()
    >>> lay.add("stars", 2, "stars of each seat / 3"), lay.add("phase", 4, "one-hot phase")
    (0, 2)
    >>> lay.size, [f.name for f in lay.fields]
    (6, ['stars', 'phase'])
    """

    def __init__(self) -> None:
        self.fields: list[EncodedField] = []
        self.size = 0

    def add(self, name: str, size: int, doc: str, *, low: float = 0.0, high: float = 1.0) -> int:
        """Append a block of ``size`` numbers; returns its offset."""
        if size < 1:
            raise ValueError(f"field {name!r} needs at least one number")
        offset = self.size
        self.fields.append(EncodedField(name, offset, size, doc, low, high))
        self.size += size
        return offset


@mypyc_attr(allow_interpreted_subclasses=True)
class ObservationEncoder(ABC):
    """A fixed-size numeric encoding of ``observation(seat)``.

    Subclasses build their :class:`Layout` in ``__init__`` (keeping each block's offset) and implement
    :meth:`encode_into`. The layout is documented field by field in the game's ``docs/games/<id>.md``.
    """

    layout: Layout

    @property
    def size(self) -> int:
        return self.layout.size

    @property
    def fields(self) -> tuple[EncodedField, ...]:
        return tuple(self.layout.fields)

    def bounds(self) -> tuple[list[float], list[float]]:
        """The lowest and highest value of every number (for an observation space)."""
        low: list[float] = []
        high: list[float] = []
        for f in self.layout.fields:
            low += [f.low] * f.size
            high += [f.high] * f.size
        return low, high

    @abstractmethod
    def encode_into(self, observation: dict[str, Any], seat: int, out: Buffer) -> None:
        """Write the encoding of ``observation`` (what ``seat`` sees) into ``out``, which reads 0 everywhere.

        Write the non-zero entries only (reading an entry back, to add to it, is allowed). Read ``observation``
        only: never the state.
        """

    def encode(self, observation: dict[str, Any], seat: int) -> list[float]:
        """The encoding as a list of floats (the RL faces write into numpy arrays instead)."""
        out = [0.0] * self.size
        self.encode_into(observation, seat, out)
        return out

    def describe(self) -> list[str]:
        """One line per field: offset, size, range, name and meaning (for docs and ``--help``)."""
        return [f"{f.offset:>5} {f.size:>4}  [{f.low:g}, {f.high:g}]  {f.name}: {f.doc}" for f in self.layout.fields]


# The factorings are plain Python classes even when compiled (not hot: a dict lookup per action), so that a
# subclass may give ``width``, ``depth`` and ``steps`` as class attributes, interpreted or compiled alike.
@mypyc_attr(native_class=False)
class ActionFactoring(ABC):
    """How one game decision is taken as a short sequence of sub-decisions, each an integer below ``width``.

    ``factors(action)`` is the sequence for a legal action. A face walks the legal actions' sequences as a tree:
    at each sub-decision only the integers that continue some legal action are allowed (masked in), so every
    masked-in choice leads to a legal action and every legal action is reachable, provided that no action's
    sequence is a prefix of another's and that two different actions never share a sequence (checked by
    :func:`check_factoring` and the RL tests).
    """

    #: entries per sub-decision (the action space of one step)
    width: int
    #: the most sub-decisions one action takes
    depth: int
    #: what each sub-decision chooses, by position (for docs and observations)
    steps: tuple[str, ...]

    @abstractmethod
    def factors(self, action: Action) -> tuple[int, ...]:
        """The sub-decisions that take ``action``: 1 to ``depth`` integers, each in ``range(width)``."""

    def token_text(self, position: int, token: int) -> str:
        """A short human text for ``token`` at sub-decision ``position`` (debugging); default: the number."""
        return str(token)


@mypyc_attr(native_class=False)
class CachedFactoring(ActionFactoring):
    """A factoring whose sequences take some work to find: each action's (:meth:`_factors`) is worked out once and
    remembered, up to ``cache_limit`` actions (then all are forgotten at once: a dict lookup beats the work, and
    memory stays bounded over long training runs)."""

    cache_limit = 100_000
    #: made on first use, so that subclasses need not call this class's constructor
    _cache: dict[Action, tuple[int, ...]] | None = None

    @property
    def known(self) -> dict[Action, tuple[int, ...]]:
        """The actions whose sequences are remembered, with their sequences."""
        cache = self._cache
        if cache is None:
            cache = self._cache = {}
        return cache

    def factors(self, action: Action) -> tuple[int, ...]:
        cache = self.known
        got = cache.get(action)
        if got is None:
            if len(cache) > self.cache_limit:
                cache.clear()
            got = cache[action] = self._factors(action)
        return got

    @abstractmethod
    def _factors(self, action: Action) -> tuple[int, ...]:
        """The sub-decisions that take ``action`` (see :meth:`ActionFactoring.factors`), worked out."""


@mypyc_attr(native_class=False)
class FlatActions(ActionFactoring):
    """The default: one sub-decision, the game's own fixed integer encoding (``Discrete(num_distinct_actions)``)."""

    depth = 1
    steps: tuple[str, ...] = ("action",)

    def __init__(self, game: Game) -> None:
        self.game = game
        self.width = game.num_distinct_actions
        self._index: Callable[[Action], int] = game.action_index
        self._cache: dict[Action, tuple[int, ...]] = {}  # actions are few and prebuilt: index each once

    def factors(self, action: Action) -> tuple[int, ...]:
        got = self._cache.get(action)
        if got is None:
            got = self._cache[action] = (self._index(action),)
        return got

    def token_text(self, position: int, token: int) -> str:
        return str(self.game.action_from_index(token))


def check_factoring(factoring: ActionFactoring, legal: Sequence[Action]) -> None:
    """Raise ``ValueError`` unless ``legal``'s factor sequences are in range, distinct and prefix-free."""
    seqs: dict[tuple[int, ...], Action] = {}
    for a in legal:
        f = factoring.factors(a)
        if not 1 <= len(f) <= factoring.depth:
            raise ValueError(f"{a}: {len(f)} sub-decisions, expected 1 to {factoring.depth}")
        if any(not 0 <= t < factoring.width for t in f):
            raise ValueError(f"{a}: sub-decision out of range(0, {factoring.width}): {f}")
        if f in seqs:
            raise ValueError(f"{a} and {seqs[f]} share the sub-decisions {f}")
        seqs[f] = a
    for f, a in seqs.items():
        for n in range(1, len(f)):
            if f[:n] in seqs:
                raise ValueError(f"{seqs[f[:n]]}'s sub-decisions {f[:n]} are a prefix of {a}'s {f}")


# -- small writers shared by the games' encoders (plain loops: they write into numpy arrays or lists alike) -----
def put_counts(out: Buffer, offset: int, keys: Sequence[Any], index: dict[Any, int], unit: float) -> None:
    """Add ``unit`` at ``offset + index[key]`` for each key (a zone's cards as counts, ``unit`` = 1 / copies)."""
    for k in keys:
        out[offset + index[k]] += unit


def put_one_hot(out: Buffer, offset: int, position: int | None) -> None:
    """Write 1 at ``offset + position`` (nothing for ``None``)."""
    if position is not None:
        out[offset + position] = 1.0


def ratio(value: float, most: float) -> float:
    """``value / most`` capped to [0, 1]: counts that have no hard limit stay in their field's range."""
    x = value / most
    return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x
