"""Options that name server files, from a browser (issue 27, point 1).

A game declares the options whose value may be a path (``Option.path``); the web takes only their named values
(Dice Battle's starter decks, Laplaplace's shipped builds) and refuses anything else before reading a byte, with a
message that does not depend on the path: a browser learns nothing of the server's files and cannot make the
server wait on a named pipe or read ``/dev/zero``.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from cardarena.engine import game_class, games, load
from cardarena.games.dicebattle.cards import STARTERS
from cardarena.games.laplaplace.cards import SHIPPED_BUILDS
from cardarena.web import lobby
from cardarena.web.load import HOST, Server, free_port

from .server_fixtures import WAIT, server

ANSWER_WITHIN = 5.0  # seconds: how soon the server must answer the lobby after an attack


def _call(port: int, method: str, path: str, body: Any = None, *, timeout: float = 30.0) -> tuple[int, Any]:
    """One request to the server on ``port``: the status and the JSON answer (an error's answer too)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://{HOST}:{port}{path}", data=data, method=method)
    request.add_header("content-type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as e:
        text = e.read()
        try:
            return e.code, json.loads(text)
        except ValueError:  # not the server's JSON error (a crash's 500)
            return e.code, text.decode(errors="replace")


@pytest.fixture(scope="module")
def live() -> Iterator[int]:
    """``cardarena serve`` in a subprocess (no database, no AI worker): its port."""
    with tempfile.TemporaryDirectory(prefix="cardarena-paths-") as tmp:
        process = Server("memory://", free_port(), ai_workers=0, log=Path(tmp) / "server.log")
        process.start()
        try:
            yield process.port
        finally:
            process.stop()


@pytest.fixture(scope="module")
def attacks() -> Iterator[dict[str, str]]:
    """Paths a browser might name, by what they are: a secret file, a directory, a named pipe, a device, nothing."""
    with tempfile.TemporaryDirectory(prefix="cardarena-paths-") as tmp:
        fifo = Path(tmp) / "deck.toml"
        os.mkfifo(fifo)
        yield {
            "passwd": "/etc/passwd",
            "directory": tmp,
            "fifo": str(fifo),
            "zero": "/dev/zero",
            "missing": str(Path(tmp) / "no-such-deck.toml"),
        }


def _create(port: int, options: dict[str, Any]) -> tuple[int, Any]:
    body = {"game": "dicebattle", "options": options, "seats": [{"kind": "human"}, {"kind": "human"}]}
    return _call(port, "POST", "/api/games", body, timeout=ANSWER_WITHIN)


@pytest.mark.skipif(sys.platform == "win32", reason="named pipes and /dev/zero are POSIX")
@pytest.mark.parametrize(("kind", "seat"), [("passwd", 0), ("directory", 0), ("fifo", 1), ("zero", 0)])
def test_a_deck_path_is_refused_alike_whatever_it_names(
    live: int, attacks: dict[str, str], kind: str, seat: int
) -> None:
    """``deck0=/etc/passwd``, a directory, a named pipe, ``/dev/zero``: each refused (400) with the very answer a
    path that does not exist gets, which names none of them; and the server answers the lobby at once after."""
    status, answer = _create(live, {f"deck{seat}": attacks[kind]})
    _, baseline = _create(live, {f"deck{seat}": attacks["missing"]})
    assert status == 400, answer
    assert answer == baseline  # the same code and message: nothing tells whether the path exists or what it is
    message = answer["error"]["message"]
    assert attacks[kind] not in message and "toml" not in message.lower()
    assert all(name in message for name in STARTERS)  # it says what is allowed
    started = time.monotonic()
    status, catalogue = _call(live, "GET", "/api/catalogue", timeout=ANSWER_WITHIN)
    assert status == 200 and catalogue["games"]
    assert time.monotonic() - started < ANSWER_WITHIN


def test_a_starter_deck_is_taken(live: int) -> None:
    status, answer = _create(live, {"deck0": "vanguard", "deck1": "horde"})
    assert status == 201, answer


# -- the catalogue, and every path option of every game ---------------------------------------------------------
def test_the_catalogue_offers_decks_and_builds_by_name_and_no_file_option() -> None:
    with server() as client:
        body = client.get("/api/catalogue").json()
    options = {g["id"]: {o["name"]: o for o in g["options"]} for g in body["games"]}
    for name in ("deck0", "deck1"):
        assert options["dicebattle"][name]["choices"] == list(STARTERS)
    for name in ("build0", "build1"):
        assert options["laplaplace"][name]["choices"] == list(SHIPPED_BUILDS)
        assert options["laplaplace"][name]["default"] is None  # unset: the seat builds in play
    assert "fortress" in SHIPPED_BUILDS and len(SHIPPED_BUILDS) == 10
    for game in ("dicebattle", "laplaplace", "lyabi", "tashkalar", "torabato"):
        assert "cards" not in options[game]
    assert "tasks" not in options["tashkalar"]


def _text_options() -> list[tuple[str, str]]:
    return [(g, o.name) for g in games() for o in game_class(g).option_spec if o.type is str]


class Opened:
    """The files opened while ``watching``: an audit hook (``open`` is raised by ``open``, ``os.open`` and
    ``io.open``) that sees every read, whichever loader does it and in whichever thread. Python cannot remove an
    audit hook: it is added once and does nothing while no test watches."""

    watching: set[str] | None = None
    seen: list[str] = []  # noqa: RUF012 - one list for the process, as the hook is

    @classmethod
    def hook(cls, event: str, args: tuple[Any, ...]) -> None:
        if event == "open" and cls.watching is not None and isinstance(args[0], (str, bytes, os.PathLike)):
            path = os.fsdecode(args[0])
            if path in cls.watching:
                cls.seen.append(path)


sys.addaudithook(Opened.hook)


@pytest.mark.parametrize(("game_id", "option"), _text_options())
def test_no_option_of_any_game_makes_the_server_read_a_file(game_id: str, option: str, tmp_path: Path) -> None:
    """Every text option of every game, given the path of a real file from the web: refused (400), and the file is
    never opened, whatever the option's default (so no option that reads a file goes undeclared)."""
    planted = tmp_path / "planted.toml"
    planted.write_text('name = "planted"\n')
    seats = [{"kind": "human"} for _ in range(min(game_class(game_id).player_counts))]
    Opened.watching, Opened.seen = {str(planted)}, []
    try:
        with server() as client:
            answer = client.post(
                "/api/games", json={"game": game_id, "options": {option: str(planted)}, "seats": seats}
            )
    finally:
        Opened.watching = None
    assert Opened.seen == [], f"{game_id} option {option!r} made the server open {planted}"
    assert answer.status_code == 400, answer.text


def test_loading_a_game_does_not_hold_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """While a new game loads (its data files are read), the server answers other requests: the load runs in a
    thread. Here the load waits until the catalogue has been answered; on the event loop it would wait in vain."""
    entered, release = threading.Event(), threading.Event()
    waited: list[bool] = []

    def slow_load(game_id: str, **options: Any) -> Any:
        entered.set()
        waited.append(release.wait(WAIT))  # False: nothing answered the catalogue meanwhile
        return load(game_id, **options)

    monkeypatch.setattr(lobby, "load", slow_load)
    with server() as client, ThreadPoolExecutor(1) as pool:
        body = {"game": "torabato", "seats": [{"kind": "human"}, {"kind": "human"}]}
        created = pool.submit(client.post, "/api/games", json=body)
        assert entered.wait(WAIT)
        assert client.get("/api/catalogue").status_code == 200
        release.set()
        assert created.result(WAIT).status_code == 201
    assert waited == [True]
