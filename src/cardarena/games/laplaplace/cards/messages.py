"""Data-file errors in plain words: a pydantic error becomes a ``CardDataError`` naming the file, the card and the
field, in the shared words of ``games/_datamodel.py`` (never pydantic's own text), with Laplaplace's words for its ids.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from cardarena.engine import CardDataError

from ..._datamodel import Messages
from ..._datamodel import plain as plain_error

_ID_PATTERN: Messages = {
    "string_pattern_mismatch": lambda e, what: (
        f"must be lower-case letters, digits and '-', starting with a letter (like \"second-wind\"), not {e['input']!r}"
    ),
}


def plain(err: Mapping[str, Any], what: str, fields: Sequence[str] = ()) -> str:
    """The shared plain-words message, with Laplaplace's words for its ids."""
    return plain_error(err, what, fields, _ID_PATTERN)


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
