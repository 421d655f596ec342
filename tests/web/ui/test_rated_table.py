"""A rated game's table (issue 32, part 2): a person plays a rated Laplaplace game against the easy AI to the end by
clicking, and the result box then says how the ratings moved ("Ann (you): 1500 → 1662? (+162)": exactly the
Glicko-2 update for that result against the easy bot's anchored rating) with a link to the game's leaderboard,
which lists them.

The server runs in this process (uvicorn in a thread over a memory store). Ann registers in the lobby's account bar
and takes her seat signed in, which binds it to her account."""

from __future__ import annotations

import json
import os
import random
import socket
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from cardarena.web.app import create_app
from cardarena.web.glicko import Outcome, update
from cardarena.web.ratings import START, anchor
from cardarena.web.store import MemoryStore

from .browser import PageErrors
from .test_live import WAIT_MS, play_to_the_end

#: where the screenshots go (``CARDARENA_SHOTS``, as tests/web/ui/test_turn_based.py keeps them)
SHOTS = Path(os.environ.get("CARDARENA_SHOTS", tempfile.gettempdir()))


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, Any]]:
    app = create_app(MemoryStore(), ai_workers=0, replay_workers=0, analysis_workers=0)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}", app
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        found: dict[str, Any] = json.load(answer)
        return found


def test_a_rated_game_against_the_easy_ai_shows_the_rating_change(browser: Any, served: tuple[str, Any]) -> None:
    base, app = served
    body = {"game": "laplaplace", "seats": [{"kind": "human"}, {"kind": "ai", "strength": "easy"}], "rated": True}
    made = _post(f"{base}/api/games", body)
    key, invitation = made["key"], made["invitations"][0]["url"]

    context = browser.new_context(viewport={"width": 1200, "height": 800})
    context.add_init_script("localStorage.setItem('cardarena.name', 'Ann')")
    page = context.new_page()
    errors = PageErrors()
    errors.watch(page)
    page.set_default_timeout(WAIT_MS)
    try:
        # Ann registers in the lobby's account bar: signed in, taking the seat binds it to her account
        page.goto(f"{base}/")
        page.wait_for_selector("#account-form:not([hidden])")
        page.fill("#account-user", "Ann")
        page.fill("#account-password", "correct horse battery")
        page.click("#register")
        page.wait_for_selector("#account-signed:not([hidden])")
        page.goto(f"{base}{invitation}")
        page.wait_for_function("() => document.querySelector('#status')?.dataset.status === 'connected'")
        ann = page.evaluate("fetch('/api/accounts/me').then((r) => r.json()).then((me) => me.account.id)")
        assert app.state.tables.live(key).row.seats[0].account == ann
        play_to_the_end([page], "laplaplace", random.Random(3))
        returns = page.evaluate("window.__table.state().returns")
        score = 1.0 if returns[0] > returns[1] else 0.5 if returns[0] == returns[1] else 0.0
        after = update(START, [Outcome(anchor("laplaplace", "easy"), score)])
        delta = round(after.rating) - 1500
        sign = "+" if delta > 0 else "−" if delta < 0 else "±"
        line = page.locator("#result .rating-changes")
        line.wait_for()
        assert line.locator("li").all_text_contents() == [
            f"Ann (you): 1500 → {round(after.rating)}? ({sign}{abs(delta)})"
        ]
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.mouse.move(0, 0)
        page.locator("#result").screenshot(path=str(SHOTS / "s32-rated-result.png"))
        line.locator("a", has_text="Leaderboard").click()
        page.wait_for_selector("#board tbody tr")
        rows = page.locator("#board tbody tr").all_text_contents()
        assert any("Ann" in r and str(round(after.rating)) in r for r in rows)
        assert sum("AI" in r for r in rows) == 4  # the bots of every strength, on the same scale
        page.screenshot(path=str(SHOTS / "s32-leaderboard.png"))
        assert errors == []
    finally:
        context.close()
