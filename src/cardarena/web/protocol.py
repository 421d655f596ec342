"""The WebSocket messages a client may send, read with their limits (docs/web.md): size, JSON, types, rate.

Nothing here touches a game: a message that fails these checks is answered with an ``error`` to its sender only
and goes no further.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

MAX_MESSAGE = 4096  # bytes of one message
RATE = 20  # messages a second; the excess is dropped
DROPPED_BEFORE_DISCONNECT = 60  # dropped messages (without a quiet second between) before the client is cut off

CLIENT_TYPES = ("hello", "act", "undo", "chat", "ping", "hint", "odds")


class ProtocolError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


def parse(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A received ASGI ``websocket.receive`` event -> the message object, or :class:`ProtocolError`."""
    text = raw.get("text")
    if text is None:
        raise ProtocolError("malformed", "messages are JSON text, not binary")
    if len(text) > MAX_MESSAGE or len(text.encode("utf-8")) > MAX_MESSAGE:
        raise ProtocolError("too_large", f"a message is at most {MAX_MESSAGE} bytes")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("malformed", "a message is one JSON object") from None
    if not isinstance(message, dict):
        raise ProtocolError("malformed", "a message is one JSON object")
    kind = message.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError("malformed", f"a message's type is one of {', '.join(CLIENT_TYPES)}")
    return message


def whole_number(message: dict[str, Any], name: str, *, default: int | None = None) -> int:
    value = message.get(name, default)
    if type(value) is not int or value < 0:
        raise ProtocolError("malformed", f"{name!r} must be a whole number, 0 or more")
    return value


def text_field(message: dict[str, Any], name: str) -> str:
    value = message.get(name)
    if not isinstance(value, str):
        raise ProtocolError("malformed", f"{name!r} must be text")
    return value


class RateLimit:
    """At most ``rate`` messages in each one-second window; :meth:`check` says whether a message is let through
    and whether the client has kept on flooding long enough to be disconnected."""

    def __init__(self, rate: int = RATE, *, limit: int = DROPPED_BEFORE_DISCONNECT) -> None:
        self.rate = rate
        self.limit = limit
        self.window = time.monotonic()
        self.count = 0
        self.dropped = 0

    def check(self) -> str:
        """``"ok"``, ``"warn"`` (the first dropped message of a window: tell the client), ``"drop"`` or
        ``"disconnect"``."""
        now = time.monotonic()
        if now - self.window >= 1.0:
            if self.count <= self.rate:
                self.dropped = 0  # a quiet second forgives
            self.window, self.count = now, 0
        self.count += 1
        if self.count <= self.rate:
            return "ok"
        self.dropped += 1
        if self.dropped > self.limit:
            return "disconnect"
        return "warn" if self.count == self.rate + 1 else "drop"
