"""Game options: declared once per game, given as keyword arguments or as text from the command line."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import OptionError

_TRUE = {"true", "yes", "on", "1"}
_INT_TEXT = re.compile(r"[+-]?[0-9]{1,18}")  # plain ASCII digits: no '1_000', no '٣', no 5,000-digit numbers
_FALSE = {"false", "no", "off", "0"}
BUILTIN = "builtin"  # the value of a path option that names the data shipped with the game (its default)


@dataclass(frozen=True)
class Option:
    """One option of a game.

    ``type`` is ``int``, ``bool``, ``str`` or ``float``. ``choices`` limits the values; ``minimum``/``maximum``
    bound numbers. An option whose default is ``None`` may be left unset.

    ``path=True`` declares a ``str`` option whose value may be the path of a file to read (a card list, a deck, a
    build): the command line takes any path, but a server must not let a browser name its files, so it takes only
    the ``named`` values, the data shipped with the game (Dice Battle's starter decks, Laplaplace's builds), and
    offers an option with no ``named`` value not at all. Every option that can read a file says so here: nothing
    is inferred from its type or default. The value ``builtin`` (:data:`BUILTIN`) of a path option is its default,
    the shipped data, so that a run can name it beside a file (``--baseline-option cards=builtin``); a file that
    happens to be called so is named ``./builtin``.
    """

    name: str
    type: type
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    path: bool = False
    named: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.path and self.type is not str:
            raise TypeError(f"option {self.name!r}: a path option is a str option")
        if self.named and not self.path:
            raise TypeError(f"option {self.name!r}: named values are for a path option (use choices otherwise)")

    def names_a_file(self, value: Any) -> bool:
        """Whether ``value`` of this option would be read as a path: any value of a path option but its
        ``named`` ones (a server refuses those)."""
        return self.path and value not in self.named and value != BUILTIN

    def convert(self, value: Any) -> Any:
        """Convert ``value`` (a Python value or its text form) and check it; raise :class:`OptionError`."""
        if self.path and isinstance(value, str) and value.strip() == BUILTIN:
            return self.default  # the shipped data
        v = self._coerce(value)
        if self.choices is not None and v not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise OptionError(f"option {self.name!r}: {value!r} is not one of: {allowed}")
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            if self.minimum is not None and v < self.minimum:
                raise OptionError(f"option {self.name!r}: {v} is below the minimum {_bound(self.minimum)}")
            if self.maximum is not None and v > self.maximum:
                raise OptionError(f"option {self.name!r}: {v} is above the maximum {_bound(self.maximum)}")
        return v

    def _coerce(self, value: Any) -> Any:
        if value is None and self.default is None:
            return None
        t = self.type
        if t is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                return value.strip().lower() in _TRUE
            raise OptionError(f"option {self.name!r} takes true or false, not {value!r}")
        if t is int:
            if isinstance(value, bool):
                raise OptionError(f"option {self.name!r} takes a whole number, not {value!r}")
            if isinstance(value, int):
                return value
            text = value.strip() if isinstance(value, str) else ""
            if not _INT_TEXT.fullmatch(text):
                raise OptionError(f"option {self.name!r} takes a whole number (digits 0-9), not {value!r}")
            return int(text)
        if t is float:
            try:
                number = float(value)
            except (TypeError, ValueError):
                raise OptionError(f"option {self.name!r} takes a number, not {value!r}") from None
            if not math.isfinite(number) or isinstance(value, bool):
                raise OptionError(f"option {self.name!r} takes a finite number, not {value!r}")
            return number
        if t is str:
            if isinstance(value, str):
                return value
            raise OptionError(f"option {self.name!r} takes text, not {value!r}")
        raise OptionError(f"option {self.name!r} has an unsupported type {t.__name__}")


def resolve_options(spec: Sequence[Option], given: Mapping[str, Any], *, game_id: str) -> dict[str, Any]:
    """Defaults overlaid with ``given``, every value converted and checked. Unknown names are an error."""
    by_name = {o.name: o for o in spec}
    unknown = [k for k in given if k not in by_name]
    if unknown:
        valid = ", ".join(sorted(by_name)) or "(none)"
        raise OptionError(f"{game_id} has no option {unknown[0]!r}; valid options: {valid}")
    out: dict[str, Any] = {}
    for o in spec:
        out[o.name] = o.convert(given[o.name]) if o.name in given else o.default
    return out


def parse_option_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """Read ``["k=v", ...]`` as given on the command line."""
    out: dict[str, str] = {}
    for p in pairs:
        key, sep, value = p.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"option {p!r} must look like name=value")
        out[key.strip()] = value.strip()
    return out


def _bound(x: float) -> str:
    """A bound as a person writes it: 1000000 rather than 1e+06, 0.5 as it is."""
    return str(int(x)) if float(x).is_integer() else f"{x:g}"
