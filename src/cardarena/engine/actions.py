"""Actions: small immutable values with a canonical text form.

A game's actions subclass :class:`Action`, a ``tuple`` whose first item is the kind (a short word) and whose other
items are small integers or strings. Tuples make equality and hashing fast; the subclass gives ``str()`` its
canonical text, which the game's ``parse_action`` reads back.
"""

from __future__ import annotations

from typing import Any


class Action(tuple[Any, ...]):
    """An immutable action ``(kind, *args)``. ``str(action)`` is its canonical text.

    >>> a = Action.of("move", 3, 4)
    >>> str(a), a.kind, a.args
    ('move 3 4', 'move', (3, 4))
    """

    __slots__ = ()

    @classmethod
    def of(cls, kind: str, *args: Any) -> Action:
        return cls((kind, *args))

    @property
    def kind(self) -> str:
        return str(self[0])

    @property
    def args(self) -> tuple[Any, ...]:
        return tuple(self[1:])

    def __str__(self) -> str:
        return " ".join(str(x) for x in self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"
