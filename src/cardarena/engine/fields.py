"""State fields declared once: the kernel derives ``clone``, ``snapshot`` and position editing from the list.

A game's ``State`` subclass lists its fields in ``FIELDS`` with how each is copied::

    class ToyState(State):
        FIELDS = (
            *shared("step"),            # immutable values (int, str, tuple, None) or never changed in place
            *copied("rng", "deck"),     # one ``.copy()``: a list, dict or set of immutable items, an Rng
            *nested("hands"),           # a list of such containers (one per seat): each one copied
            *shared("cards", snapshot=False),  # configuration: shared, and left out of the snapshot
        )

The kernel then writes ``clone`` as straight-line code (as fast as a hand-written one: no loops over the
fields, no ``deepcopy``), ``snapshot`` as every snapshotted field in JSON-ready form, and checks the names that
tests pass to :meth:`cardarena.engine.State.edited`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .rng import Rng

if TYPE_CHECKING:
    from .game import State


class Copy(enum.Enum):
    """How :meth:`State.clone` copies a field."""

    SHARE = "share"
    COPY = "copy"
    NESTED = "nested"


@dataclass(frozen=True, slots=True)
class Field:
    """One declared field of a state."""

    name: str
    copy: Copy
    #: ``True``: in the snapshot (as :func:`to_json` writes it); ``False``: left out; a function: how to write it.
    snapshot: bool | Callable[[Any], Any] = True


Snap = bool | Callable[[Any], Any]


def shared(*names: str, snapshot: Snap = True) -> tuple[Field, ...]:
    """Fields whose values are shared by clones: immutable, or replaced rather than changed in place."""
    return tuple(Field(n, Copy.SHARE, snapshot) for n in names)


def copied(*names: str, snapshot: Snap = True) -> tuple[Field, ...]:
    """Fields copied with one ``.copy()`` (a list, dict or set of immutable items; an ``Rng``)."""
    return tuple(Field(n, Copy.COPY, snapshot) for n in names)


def nested(*names: str, snapshot: Snap = True) -> tuple[Field, ...]:
    """Fields that are lists of containers (one per seat, say), each copied with ``.copy()``."""
    return tuple(Field(n, Copy.NESTED, snapshot) for n in names)


def check_fields(owner: str, fields: Iterable[Field]) -> tuple[Field, ...]:
    """The declaration as a tuple; a name declared twice, or not an identifier, is a programming error."""
    out = tuple(fields)
    seen: set[str] = set()
    for f in out:
        if not isinstance(f, Field):
            raise TypeError(f"{owner}.FIELDS holds {f!r}; build it with shared(), copied() and nested()")
        if not f.name.isidentifier() or f.name.startswith("__"):
            raise TypeError(f"{owner}.FIELDS: {f.name!r} is not a field name")
        if f.name in seen:
            raise TypeError(f"{owner}.FIELDS declares {f.name!r} twice")
        seen.add(f.name)
    return out


def make_clone(cls: type[State], fields: tuple[Field, ...]) -> Callable[[State], State]:
    """Straight-line ``clone`` code for ``cls``: base fields, then each declared field as its ``Copy`` says.

    A nested field of two items (two seats, the usual case) is copied without a loop.
    """
    body = [
        "def clone(self):",
        "    c = new(cls)",
        "    c.game = self.game",
        "    c.seed = self.seed",
        "    c.history = self.history.copy()",
        "    c._legal = self._legal",
        "    if self._no_record is not None:",
        "        c._resampled = self._resampled",
        "        c._no_record = self._no_record",
    ]
    for f in fields:
        n = f.name
        if f.copy is Copy.SHARE:
            body.append(f"    c.{n} = self.{n}")
        elif f.copy is Copy.COPY:
            body.append(f"    c.{n} = self.{n}.copy()")
        else:
            body.append(f"    v = self.{n}")
            body.append(f"    c.{n} = [v[0].copy(), v[1].copy()] if len(v) == 2 else [x.copy() for x in v]")
    body.append("    return c")
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    exec("\n".join(body), namespace)  # the names were checked in check_fields
    clone: Callable[[State], State] = namespace["clone"]
    clone.__qualname__ = f"{cls.__qualname__}.clone"
    clone.__doc__ = f"An independent copy, derived from {cls.__name__}.FIELDS."
    return clone


def to_json(value: Any) -> Any:
    """A field's value in JSON-ready form: tuples become lists, an ``Rng`` its state, enums their value."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value.value if isinstance(value, enum.Enum) else value
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {(k if isinstance(k, str) else str(to_json(k))): to_json(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted(to_json(v) for v in value)
    if isinstance(value, Rng):
        return value.state
    if isinstance(value, enum.Enum):
        return to_json(value.value)
    snap = getattr(value, "snapshot", None)
    if callable(snap):
        return snap()
    raise TypeError(f"cannot put a {type(value).__name__} in a snapshot: give it a snapshot() method")


def make_snapshot(fields: tuple[Field, ...]) -> Callable[[State], dict[str, Any]]:
    writers = tuple((f.name, to_json if f.snapshot is True else f.snapshot) for f in fields if f.snapshot)

    def snapshot(self: State) -> dict[str, Any]:
        """The whole state, hidden parts included, JSON-ready: every declared field (and the history)."""
        out = {name: write(getattr(self, name)) for name, write in writers}
        out["history"] = [str(a) for a in self.history]
        return out

    return snapshot
