"""Reading TOML data files (cards, decks, builds, tasks) with errors a card designer understands."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from .errors import CardDataError


def parse_toml(text: str, name: str) -> dict[str, Any]:
    """Parse TOML ``text`` read from the file ``name``; ``CardDataError`` if it is not valid TOML."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise CardDataError(name, f"not valid TOML: {e}") from None


def read_text(path: str | Path) -> str:
    """The text of a data file; ``CardDataError`` naming the file if it is missing or unreadable."""
    name = str(path)
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CardDataError(name, "file not found") from None
    except (OSError, UnicodeDecodeError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else e
        raise CardDataError(name, f"cannot read the file: {reason}") from None


def read_toml(path: str | Path) -> dict[str, Any]:
    """Read and parse a TOML data file, naming the file in any error."""
    return parse_toml(read_text(path), str(path))
