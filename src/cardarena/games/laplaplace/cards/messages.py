"""Data-file errors in plain words: a pydantic error becomes a ``CardDataError`` naming the file, the card and the
field, with a message a card designer understands (never pydantic's own text).

>>> plain({"type": "int_type", "input": "3", "loc": ("force",), "ctx": {}}, "a card")
"must be a whole number (without quotes), not '3'"
>>> plain({"type": "extra_forbidden", "input": 1, "loc": ("colour",), "ctx": {}}, "a card", ("id", "name"))
'is not a field of a card (its fields are: id, name); check the spelling'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from cardarena.engine import CardDataError


def _show(value: Any) -> str:
    """A value as the data file writes it (TOML's true/false), cut short."""
    text = ("true" if value else "false") if isinstance(value, bool) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _unquoted(e: dict[str, Any]) -> str:
    return " (without quotes)" if isinstance(e["input"], str) else ""


def _choices(ctx: Mapping[str, Any]) -> str:
    expected = str(ctx.get("expected", ""))
    return expected.replace("'", "").replace(" or ", ", ")


# pydantic error type -> message; ``e`` is the error, ``what`` names the table ("a card", "a build file")
_MESSAGES: dict[str, Callable[[dict[str, Any], str], str]] = {
    "missing": lambda e, what: f"is missing: {what} needs it",
    "int_type": lambda e, what: f"must be a whole number{_unquoted(e)}, not {_show(e['input'])}",
    "int_from_float": lambda e, what: f"must be a whole number, not {_show(e['input'])}",
    "int_parsing": lambda e, what: f"must be a whole number, not {_show(e['input'])}",
    "greater_than_equal": lambda e, what: f"must be at least {e['ctx']['ge']}, not {_show(e['input'])}",
    "less_than_equal": lambda e, what: f"must be at most {e['ctx']['le']}, not {_show(e['input'])}",
    "string_type": lambda e, what: f"must be text in quotes, not {_show(e['input'])}",
    "string_too_short": lambda e, what: "must not be empty",
    "string_too_long": lambda e, what: f"must be at most {e['ctx']['max_length']} characters long",
    "string_pattern_mismatch": lambda e, what: (
        f"must be lower-case letters, digits and '-', starting with a letter (like \"second-wind\"), "
        f"not {_show(e['input'])}"
    ),
    "literal_error": lambda e, what: f"must be one of {_choices(e['ctx'])}, not {_show(e['input'])}",
    "bool_type": lambda e, what: f"must be true or false{_unquoted(e)}, not {_show(e['input'])}",
    "list_type": lambda e, what: f'must be a list in brackets, like ["a", "b"], not {_show(e["input"])}',
    "too_long": lambda e, what: f"holds at most {e['ctx']['max_length']} items, not {e['ctx'].get('actual_length')}",
    "too_short": lambda e, what: f"must hold at least {e['ctx']['min_length']} item(s)",
    "model_type": lambda e, what: f"must be a table of fields ([[card]] with id, name, ...), not {_show(e['input'])}",
    "dict_type": lambda e, what: f"must be a table of fields, not {_show(e['input'])}",
}


def plain(err: Mapping[str, Any], what: str, fields: Sequence[str] = ()) -> str:
    """The message for one pydantic error about a field of ``what``; ``fields`` are the fields it may have."""
    kind = str(err["type"])
    if kind == "extra_forbidden":
        known = f" (its fields are: {', '.join(fields)})" if fields else ""
        return f"is not a field of {what}{known}; check the spelling"
    e = {"input": err.get("input"), "ctx": err.get("ctx") or {}}
    make = _MESSAGES.get(kind)
    if make is None:
        return f"is not valid here ({what}): {_show(err.get('input'))}"
    try:
        return make(e, what)
    except KeyError:  # a context value pydantic did not give: say less, but still in plain words
        return f"is not valid here ({what}): {_show(err.get('input'))}"


def validate(
    model: type[BaseModel],
    raw: dict[str, Any],
    file: str,
    where: Callable[[tuple[Any, ...]], tuple[str | None, str | None, str, type[BaseModel]]],
) -> Any:
    """``model.model_validate(raw)``; the first error becomes a ``CardDataError``.

    ``where(loc)`` gives the card (or ``None``), the field, what the table is in words, and the model of that
    table (for the list of its fields)."""
    try:
        return model.model_validate(raw)
    except ValidationError as ex:
        err = ex.errors()[0]
        card, fld, what, table = where(tuple(err["loc"]))
        raise CardDataError(file, plain(err, what, tuple(table.model_fields)), card=card, field=fld) from None
