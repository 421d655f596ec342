"""Reading TOML data files (cards, decks, builds, tasks) with errors a card designer understands."""

from __future__ import annotations

import io
import os
import stat
import tomllib
from pathlib import Path
from typing import Any

from .errors import CardDataError

# The largest data file read: far above any real one (the largest shipped file, Tash-Kalar's cards.toml, is 24 KB),
# so that a path naming something huge (a log, /dev/zero behind a link) fails at once instead of eating memory.
MAX_DATA_FILE = 1024 * 1024
_MAX_TEXT = "1 MiB"

# Opening a named pipe for reading waits for a writer, possibly forever: O_NONBLOCK makes the open return at once,
# and the check of the opened file (not of its path, which could be swapped in between) then refuses it.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def parse_toml(text: str, name: str) -> dict[str, Any]:
    """Parse TOML ``text`` read from the file ``name``; ``CardDataError`` if it is not valid TOML."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise CardDataError(name, f"not valid TOML: {e}") from None


def read_text(path: str | Path) -> str:
    """The text of a data file; ``CardDataError`` naming the file if it is missing or unreadable, is not a regular
    file (a directory, a pipe, a device: refused without waiting on it) or is larger than :data:`MAX_DATA_FILE`."""
    name = str(path)
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        raise CardDataError(name, "file not found") from None
    except OSError as e:
        raise CardDataError(name, f"cannot read the file: {e.strerror or e}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = next((what for test, what in _KINDS if test(mode)), "a special file")
            raise CardDataError(name, f"this is {kind}, not a data file: give the path of a TOML file")
        with open(fd, "rb", closefd=False) as file:
            data = file.read(MAX_DATA_FILE + 1)  # a file's size may lie (/proc) or grow: read no more than the cap
    except OSError as e:
        raise CardDataError(name, f"cannot read the file: {e.strerror or e}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_DATA_FILE:
        raise CardDataError(name, f"the file is larger than {_MAX_TEXT}, the most a data file may hold")
    try:
        return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8").read()  # newlines as Path.read_text reads them
    except UnicodeDecodeError as e:
        raise CardDataError(name, f"cannot read the file: {e}") from None


def read_toml(path: str | Path) -> dict[str, Any]:
    """Read and parse a TOML data file, naming the file in any error."""
    return parse_toml(read_text(path), str(path))
