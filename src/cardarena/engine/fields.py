"""State fields declared once: the kernel derives ``clone``, ``snapshot`` and position editing from the list.

A game's ``State`` subclass lists its fields in ``FIELDS`` with how each is copied::

    class ToyState(State):
        FIELDS = (
            *shared("step"),            # immutable values (int, str, tuple, None) or never changed in place
            *copied("rng", "deck"),     # one ``.copy()``: a list, dict or set of immutable items, an Rng
            *nested("hands"),           # a list of such containers (one per seat): each one copied
            *shared("cards", snapshot=False),  # configuration: shared, and left out of the snapshot
        )

From the list come ``clone`` as straight-line code (no loops over the fields, no ``deepcopy``), ``snapshot`` as
every snapshotted field in JSON-ready form, and the names that :meth:`cardarena.engine.State.edit` accepts.

A game's state is compiled (docs/speed.md), and a compiled class cannot be given a method after it is made, so
its ``clone`` is written out in its module: :func:`clone_source` writes the code, ``make clones`` (:mod:`.clones`)
puts it between the markers in each game's ``state.py``, and a test checks that every game's code is what its
``FIELDS`` give. A class the interpreter runs (a test's toy game) may leave ``clone`` out: :func:`make_clone` then
makes the same code at class creation.
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


def _clone_body(make: list[str], fields: tuple[Field, ...], indent: str) -> list[str]:
    """The statements of ``clone``: ``make`` (which builds the bare copy ``c``), then the base fields and each of
    ``fields``, each line indented by ``indent``."""
    lines = [
        *make,
        "c.history = self.history.copy()",
        "c._legal = self._legal",
        "if self._no_record is not None:",
        "    c._resampled = self._resampled",
        "    c._no_record = self._no_record",
    ]
    for f in fields:
        n = f.name
        if f.copy is Copy.SHARE:
            lines.append(f"c.{n} = self.{n}")
        elif f.copy is Copy.COPY:
            lines.append(f"c.{n} = self.{n}.copy()")
        else:
            lines.append(f"c.{n} = [x.copy() for x in self.{n}]")
    lines.append("return c")
    return [indent + line for line in lines]


#: The markers around a game's generated ``clone`` in its ``state.py``.
BEGIN_MARK = "# -- clone: written from FIELDS by `make clones` (cardarena.engine.fields); do not edit by hand --"
END_MARK = "# -- end of the written clone --"


def clone_source(cls: type[State]) -> str:
    """The ``clone`` method of ``cls`` as source, between the markers, indented for a class body."""
    name = cls.__name__
    lines = [
        f"    {BEGIN_MARK}",
        f"    def clone(self) -> {name}:",
        f'        """An independent copy, field by field as {name}.FIELDS says."""',
        *_clone_body([f"c = {name}(self.game, self.seed)"], cls.FIELDS, "        "),
        "",
        f"    {END_MARK}",
    ]
    return "\n".join(lines) + "\n"


def make_clone(
    cls: type[State], fields: tuple[Field, ...], bind: Callable[[Any, Any, int], None]
) -> Callable[[State], State]:
    """The same straight-line ``clone`` as :func:`clone_source`, made at class creation for a class the
    interpreter runs (a test's toy game) that writes none. Its own constructor may deal a whole game, so the copy
    is made bare and ``bind`` (the base class's constructor) binds it to the game and seed."""
    make = ["c = cls.__new__(cls)", "bind(c, self.game, self.seed)"]
    body = ["def clone(self):", *_clone_body(make, fields, "    ")]
    namespace: dict[str, Any] = {"cls": cls, "bind": bind}
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


def snapshot_of(state: State, fields: tuple[Field, ...]) -> dict[str, Any]:
    """The whole ``state``, hidden parts included, JSON-ready: every snapshotted field of ``fields`` as its
    ``snapshot`` says (:func:`to_json` by default), and the history."""
    out: dict[str, Any] = {}
    for f in fields:
        write = f.snapshot
        if write is True:
            out[f.name] = to_json(getattr(state, f.name))
        elif write is not False:
            out[f.name] = write(getattr(state, f.name))
    out["history"] = [str(a) for a in state.history]
    return out
