"""Typed errors of the engine. Every error a user can cause is a ``RulesError`` (a ``ValueError``)."""

from __future__ import annotations

from typing import Any


class RulesError(ValueError):
    """Base class of every error caused by bad input: a malformed or illegal action, a bad option or data file."""


class InvalidActionError(RulesError):
    """The text of an action could not be read at all (malformed, unknown word, unknown card)."""

    def __init__(self, text: str, reason: str, *, state: Any = None) -> None:
        self.text = text
        self.reason = reason
        self.state = state
        super().__init__(f"cannot read action {text!r}: {reason}")


class IllegalActionError(RulesError):
    """A well-formed action that the rules do not allow in this state. The state is left unchanged."""

    def __init__(self, state: Any, action: Any, reason: str = "") -> None:
        self.state = state
        self.action = action
        self.reason = reason
        who = getattr(state, "current_player", None)
        detail = f": {reason}" if reason else ""
        super().__init__(f"illegal action {str(action)!r} for seat {who}{detail}")


class OptionError(RulesError):
    """An unknown option name or a value the option does not accept."""


class UnknownGameError(RulesError, KeyError):
    """A game id that is not registered."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class CardDataError(RulesError):
    """A data file (cards, decks, builds) that is missing, malformed or breaks a rule of the game."""

    def __init__(self, file: str, message: str, *, card: str | None = None, field: str | None = None) -> None:
        self.file = file
        self.card = card
        self.field = field
        where = []
        if card is not None:
            where.append(f"card {card!r}")
        if field is not None:
            where.append(f"field {field!r}")
        place = f" ({', '.join(where)})" if where else ""
        super().__init__(f"{file}{place}: {message}")


class RecordError(RulesError):
    """A game record that is malformed, or whose actions do not replay."""
