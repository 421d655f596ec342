"""Shared by the games' data loaders (not a game): pydantic validation errors as ``CardDataError``, in the words of a
card designer (never pydantic's own text).

>>> plain({"type": "int_type", "input": "3", "loc": ("force",), "ctx": {}}, "a card")
"must be a whole number (without quotes), not '3'"
>>> plain({"type": "extra_forbidden", "input": 1, "loc": ("colour",), "ctx": {}}, "a card", ("id", "name"))
"'colour' is not a field of a card (its fields are: id, name); check the spelling"
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, GetCoreSchemaHandler, ValidationError
from pydantic_core import PydanticCustomError, core_schema

from ..engine import CardDataError

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class Whole:
    """A whole number from ``lo`` to ``hi``, for a field of a data file: ``cost: Annotated[int, Whole(0, 26)]``.

    Strict, as a designer reads the file: ``true`` is not 1, ``1.5`` and ``2.0`` are not whole numbers, ``"3"`` is
    text; and a number the game cannot play (``-1000``, ``10**18``) is refused. Every refusal states the range
    ("must be a whole number 0..26, not 1000000000000000000"), so the designer learns what is allowed at once.
    """

    lo: int
    hi: int
    word: str | None = None  # a word accepted instead of a number (Tash-Kalar's count = "all")

    def check(self, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool) and self.lo <= value <= self.hi:
            return value
        if self.word is not None and value == self.word:
            return value
        raise PydanticCustomError(
            "whole_range", "must be a whole number {lo}..{hi}", {"lo": self.lo, "hi": self.hi, "word": self.word}
        )

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(self.check)


def whole_message(e: Mapping[str, Any], what: str) -> str:
    """The words for a ``Whole`` refusal: the range, then the value as written (``true``, ``1.5``, ``'3'``)."""
    ctx = e["ctx"]
    word = f' or "{ctx["word"]}"' if ctx.get("word") else ""
    quotes = " (without quotes)" if isinstance(e["input"], str) and not word else ""
    return f"must be a whole number {ctx['lo']}..{ctx['hi']}{word}{quotes}, not {shown(e['input'])}"


def validate(
    model: type[M], data: Any, *, file: str, card: str | None = None, what: str = "a card", table: str = ""
) -> M:
    """``model.model_validate(data)``; the first error becomes a ``CardDataError`` naming file, card and field
    (the field is the dotted path of the error, e.g. ``effect.0.who``, after ``table`` if given: ``rules.x``), in
    the plain words of :func:`plain` (``what`` names the table: "a card", "a task")."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        field = ".".join(str(x) for x in (table, *err["loc"]) if x != "") or None
        raise CardDataError(file, plain(err, what), card=card, field=field) from None


def shown(value: Any) -> str:
    """A value from a data file as the designer wrote it (TOML spelling), kept short."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:37] + "...")
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


def _unquoted(e: dict[str, Any]) -> str:
    return " (without quotes)" if isinstance(e["input"], str) else ""


def _choices(ctx: Mapping[str, Any]) -> str:
    expected = str(ctx.get("expected", ""))
    return expected.replace("'", "").replace(" or ", ", ")


# pydantic error type -> message; ``e`` is the error, ``what`` names the table ("a card", "a build file")
_MESSAGES: dict[str, Callable[[dict[str, Any], str], str]] = {
    "whole_range": whole_message,
    "missing": lambda e, what: f"is missing: {what} needs it",
    "int_type": lambda e, what: f"must be a whole number{_unquoted(e)}, not {shown(e['input'])}",
    "int_from_float": lambda e, what: f"must be a whole number, not {shown(e['input'])}",
    "int_parsing": lambda e, what: f"must be a whole number, not {shown(e['input'])}",
    "greater_than_equal": lambda e, what: f"must be at least {e['ctx']['ge']}, not {shown(e['input'])}",
    "greater_than": lambda e, what: f"must be more than {e['ctx']['gt']}, not {shown(e['input'])}",
    "float_type": lambda e, what: f"must be a number{_unquoted(e)}, not {shown(e['input'])}",
    "finite_number": lambda e, what: f"must be a finite number, not {shown(e['input'])}",
    "less_than_equal": lambda e, what: f"must be at most {e['ctx']['le']}, not {shown(e['input'])}",
    "string_type": lambda e, what: f"must be text in quotes, not {shown(e['input'])}",
    "string_too_short": lambda e, what: "must not be empty",
    "string_too_long": lambda e, what: f"must be at most {e['ctx']['max_length']} characters long",
    "string_pattern_mismatch": lambda e, what: f"must match the pattern {e['ctx']['pattern']}, not {shown(e['input'])}",
    "literal_error": lambda e, what: f"must be one of {_choices(e['ctx'])}, not {shown(e['input'])}",
    "enum": lambda e, what: f"must be one of {_choices(e['ctx'])}, not {shown(e['input'])}",
    "bool_type": lambda e, what: f"must be true or false{_unquoted(e)}, not {shown(e['input'])}",
    "list_type": lambda e, what: f'must be a list in brackets, like ["a", "b"], not {shown(e["input"])}',
    "too_long": lambda e, what: f"holds at most {e['ctx']['max_length']} items, not {e['ctx'].get('actual_length')}",
    "too_short": lambda e, what: f"must hold at least {e['ctx']['min_length']} item(s)",
    "model_type": lambda e, what: f"must be a table of fields ([[card]] with id, name, ...), not {shown(e['input'])}",
    "dict_type": lambda e, what: f"must be a table of fields, not {shown(e['input'])}",
    "model_attributes_type": lambda e, what: f"must be a table of fields, not {shown(e['input'])}",
}


Messages = Mapping[str, Callable[[dict[str, Any], str], str]]


def plain(err: Mapping[str, Any], what: str, fields: Sequence[str] = (), overrides: Messages | None = None) -> str:
    """The message for one pydantic error about a field of ``what``; ``fields`` are the fields it may have;
    ``overrides`` gives a game's own words for some error types (say, what its ids look like)."""
    kind = str(err["type"])
    if kind == "extra_forbidden":
        known = f" (its fields are: {', '.join(fields)})" if fields else ""
        name = f"{err['loc'][-1]!r} " if err.get("loc") else ""
        return f"{name}is not a field of {what}{known}; check the spelling"
    e = {"input": err.get("input"), "ctx": err.get("ctx") or {}}
    make = (overrides or {}).get(kind) or _MESSAGES.get(kind)
    if make is None:
        return f"is not valid here ({what}): {shown(err.get('input'))}"
    try:
        return make(e, what)
    except KeyError:  # a context value pydantic did not give: say less, but still in plain words
        return f"is not valid here ({what}): {shown(err.get('input'))}"
