"""Shared by the games' data loaders (not a game): pydantic validation errors as ``CardDataError``."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ..engine import CardDataError

M = TypeVar("M", bound=BaseModel)


def validate(model: type[M], data: Any, *, file: str, card: str | None = None) -> M:
    """``model.model_validate(data)``; the first error becomes a ``CardDataError`` naming file, card and field
    (the field is the dotted path of the error, e.g. ``effect.0.who``)."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        field = ".".join(str(x) for x in err["loc"]) or None
        raise CardDataError(file, err["msg"], card=card, field=field) from None
