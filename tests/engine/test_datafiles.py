"""Reading a data file (issue 27, point 1): only a regular file, of at most 1 MiB, is read; a named pipe, a
directory or a device is refused at once (never waited on), and every game declares the options that take a path."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import pytest

from cardarena.engine import CardDataError, game_class, games, load
from cardarena.engine.datafiles import MAX_DATA_FILE, read_text, read_toml

DEADLINE = 10.0  # seconds: a refusal is immediate; the old reader of a pipe waited for a writer forever


def outcome_within_deadline(call: Callable[[], object], path: Path) -> object:
    """What ``call()`` (which reads ``path``) returns, or the error it raises, run in a thread; fails the test if
    it has not returned by the deadline (and then releases a reader blocked on the pipe ``path``)."""
    outcome: list[object] = []

    def target() -> None:
        try:
            outcome.append(call())
        except BaseException as e:  # handed back to the test, which checks its type
            outcome.append(e)

    reader = threading.Thread(target=target, daemon=True)
    reader.start()
    reader.join(DEADLINE)
    if reader.is_alive():
        if path.is_fifo():  # a writer that opens and closes at once gives the blocked reader an end of file
            with contextlib.suppress(OSError):
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(DEADLINE)
        pytest.fail(f"reading {str(path)!r} did not return within {DEADLINE:g} s")
    return outcome[0]


def read_with_deadline(path: Path) -> object:
    return outcome_within_deadline(lambda: read_text(path), path)


def test_a_named_pipe_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "deck.toml"
    os.mkfifo(fifo)
    outcome = read_with_deadline(fifo)
    assert isinstance(outcome, CardDataError), outcome
    assert str(fifo) in str(outcome) and "named pipe" in str(outcome)


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CardDataError, match="this is a directory, not a data file"):
        read_text(tmp_path)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero on this system")
def test_a_device_is_refused_without_reading_it() -> None:
    outcome = read_with_deadline(Path("/dev/zero"))  # the old reader ate memory until MemoryError
    assert isinstance(outcome, CardDataError), outcome
    assert "/dev/zero" in str(outcome) and "character device" in str(outcome)


def test_a_link_to_a_device_is_refused(tmp_path: Path) -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero on this system")
    link = tmp_path / "cards.toml"
    link.symlink_to("/dev/zero")
    outcome = read_with_deadline(link)
    assert isinstance(outcome, CardDataError) and "character device" in str(outcome), outcome


def test_a_file_over_the_cap_is_refused_and_one_at_the_cap_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (MAX_DATA_FILE + 1))
    with pytest.raises(CardDataError, match="larger than 1 MiB"):
        read_text(big)
    at_cap = tmp_path / "cap.toml"
    at_cap.write_bytes(b"#" * MAX_DATA_FILE)
    assert len(read_text(at_cap)) == MAX_DATA_FILE


def test_a_regular_file_reads_as_before(tmp_path: Path) -> None:
    crlf = tmp_path / "crlf.toml"
    crlf.write_bytes('name = "Żubr"\r\ncards = []\r\n'.encode())
    assert read_text(crlf) == 'name = "Żubr"\ncards = []\n'  # newlines as Path.read_text gives them
    assert read_toml(crlf) == {"name": "Żubr", "cards": []}
    with pytest.raises(CardDataError, match="file not found"):
        read_text(tmp_path / "missing.toml")
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b"name = '\xe9'\n")
    with pytest.raises(CardDataError, match="cannot read the file"):
        read_text(latin)


def test_the_command_line_still_takes_a_path(tmp_path: Path) -> None:
    """A designer's own file still loads (``--option deck0=my.toml``); a pipe given so is refused, not waited on."""
    deck = tmp_path / "mine.toml"
    deck.write_text(resources.files("cardarena.games.dicebattle").joinpath("data/decks/horde.toml").read_text())
    assert load("dicebattle", deck0=str(deck)).decks[0].source == str(deck)
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    outcome = outcome_within_deadline(lambda: load("dicebattle", deck1=str(fifo)), fifo)
    assert isinstance(outcome, CardDataError) and "named pipe" in str(outcome), outcome


# -- the games' declarations ----------------------------------------------------------------------------------------
FILE_WORDS = ("path", "toml")  # "file" alone is no sign: a Tash-Kalar school is "a school id of the card file"


@pytest.mark.parametrize("game_id", games())
def test_every_option_that_takes_a_file_is_declared(game_id: str) -> None:
    """An option whose help speaks of a path or a TOML file is a path option (``Option.path``): the web server relies
    on the declaration, and nothing is inferred from a missing default."""
    for option in game_class(game_id).option_spec:
        speaks_of_files = any(word in option.help.lower() for word in FILE_WORDS)
        assert option.path == speaks_of_files, f"{game_id} option {option.name!r}: path={option.path}"
        for name in option.named:
            load(game_id, **{option.name: name})  # each named value names shipped data that loads


@pytest.mark.parametrize("game_id", [g for g in games() if any(o.path for o in game_class(g).option_spec)])
def test_builtin_names_the_shipped_data_for_every_file_option(game_id: str) -> None:
    """``builtin`` (engine.options.BUILTIN) as the value of any path option is the shipped data, its default, so a
    report can compare a card file with the shipped one (``--baseline-option cards=builtin``, docs/report.md); it
    names no file, so a server may take it too."""
    path_options = [o for o in game_class(game_id).option_spec if o.path]
    for option in path_options:
        assert option.convert("builtin") == option.default and not option.names_a_file("builtin")
    shipped = load(game_id, **{o.name: "builtin" for o in path_options})
    assert shipped.options == load(game_id).options
