"""Whole games in a real browser against the real server (``cardarena serve`` on a loopback port and a throwaway
SQLite file): a ToraBato game and a Laplaplace game against an AI seat, played to the end by clicking on the
tables, and a two-human Laplaplace game through two browser contexts and the invitation links.

``CARDARENA_LIVE_URL`` runs them against a server that runs already instead.
"""

from __future__ import annotations

import json
import os
import random
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser import PageErrors, click_action
from .story import Watch, no_jargon
from .torabato_marks import RECORD_STATES, check_marks

READY = """(last) => {
  const s = window.__table && window.__table.state();
  if (!s) return false;
  if (s.terminal) return true;
  return s.ply !== last && s.to_act === window.__table.seat() && s.legal.length > 0;
}"""
#: the page's latest state with ``mine``: whether it says "Your turn." for it (read together, in one evaluation)
STATE = """() => {
  const s = window.__table && window.__table.state();
  return s && {...s, mine: document.querySelector('#turn').classList.contains('mine')};
}"""
#: the player's decision: "Your turn." at a ply not answered yet (no click of its own still being sent), or the end
MY_DECISION = """(last) => {
  const s = window.__table && window.__table.state();
  if (!s) return false;
  if (s.terminal) return true;
  return s.ply !== last && document.querySelector('#turn').classList.contains('mine')
    && !document.body.classList.contains('sending');
}"""
WAIT_MS = 60_000  # no single wait in these tests is longer


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    given = os.environ.get("CARDARENA_LIVE_URL")  # a server already running (e.g. behind a proxy): use it
    if given:
        yield given.rstrip("/")
        return
    port = free_port()
    db = tmp_path_factory.mktemp("live") / "web.db"
    exe = Path(sys.executable).with_name("cardarena")
    proc = subprocess.Popen(
        [
            str(exe),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{db}",
            "--allow-agent-specs",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/catalogue", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                out = proc.stdout.read().decode(errors="replace") if proc.stdout and proc.poll() is not None else ""
                pytest.fail(f"cardarena serve did not answer on {base} within 60 s: {out[-2000:]}", pytrace=False)
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def new_page(browser: Any, name: str) -> tuple[Any, PageErrors]:
    context = browser.new_context()
    context.add_init_script(f"localStorage.setItem('cardarena.name', {name!r})")
    page = context.new_page()
    errors = PageErrors()
    errors.watch(page)
    page.set_default_timeout(WAIT_MS)
    return page, errors


def create_game(
    page: Any, base: str, game: str, seat1: str, options: dict[str, str] | None = None, *, listed: bool = False
) -> None:
    """Create a game in the lobby: seat 0 is the page's player, seat 1 ``seat1`` (``human`` or ``ai:easy``...);
    ``listed``: not private (shown in the lobby's list, its open seats offered to anyone)."""
    page.goto(f"{base}/")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", game)
    if listed:
        page.uncheck("#private")
    for name, value in (options or {}).items():
        page.click("#options summary")
        page.select_option(f"#opt-{name}", value)
    page.select_option('[data-seat-kind="1"]', seat1)
    page.click("#create button[type=submit]")
    page.wait_for_selector("#created:not([hidden])")


def sit_down(page: Any) -> None:
    page.click("#created a.button:has-text('Sit down')")
    # the click navigates: until the table's page is loaded the lobby's has no #status (the predicate is null-safe
    # because an exception in it ends the wait instead of polling again)
    page.wait_for_function("() => document.querySelector('#status')?.dataset.status === 'connected'")


def held_secret(page: Any, key: str, seat: int) -> str:
    """The secret of ``seat`` the page's browser keeps (localStorage, as table.js keeps it)."""
    secret: str = page.evaluate(f"JSON.parse(localStorage.getItem('cardarena.seat.{key}.{seat}')).secret")
    return secret


def play_to_the_end(pages: list[Any], game: str, rng: random.Random, max_actions: int = 5000) -> int:
    """Each page clicks a random legal action whenever it must decide ("Your turn.": a decision with a single
    forced action is taken by the page itself, auto-pass being on by default), until the game is over; returns the
    count of clicks."""
    last = {id(p): -1 for p in pages}
    actions = 0
    deadline = time.monotonic() + 600
    while actions < max_actions and time.monotonic() < deadline:
        states = [p.evaluate(STATE) for p in pages]
        if all(s and s["terminal"] for s in states):
            return actions
        acted = False
        for page, s in zip(pages, states, strict=True):
            if (
                s
                and not s["terminal"]
                and s["legal"]
                and s["ply"] != last[id(page)]
                and s["to_act"] == page.evaluate("window.__table.seat()")
                and s["mine"]
            ):
                text = rng.choice(s["legal"])["text"]
                click_action(page, game, text)
                last[id(page)] = s["ply"]
                actions += 1
                acted = True
        if not acted:
            pages[0].wait_for_timeout(50)
    pytest.fail(f"the game did not end after {actions} actions")


def test_a_whole_torabato_game_against_the_ai_by_clicking(browser: Any, server: str) -> None:
    page, errors = new_page(browser, "Ada")
    page.context.add_init_script(RECORD_STATES)  # every state the page gets: the baseline of its marks
    try:
        create_game(page, server, "torabato", "ai:easy")
        sit_down(page)
        # a random legal click at each decision ("Your turn."); before it, the last move (issue 28, part 2): every
        # change since the player's previous click (the AI's moves and what followed) is marked on the table
        rng = random.Random(1)
        watch = Watch(page)  # the newcomer's checks (story.py): story, marks, no click for a forced step, jargon
        actions = marked = 0
        clicked: int | None = None
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            page.wait_for_function(MY_DECISION, arg=-1 if clicked is None else clicked)
            s = page.evaluate("window.__table.state()")
            marked += check_marks(page, clicked) > 0
            if s["terminal"]:
                break
            watch.before_click(s)
            no_jargon(page)  # mid-game too: the table, its buttons and the players name players, never seats
            click_action(page, "torabato", rng.choice(s["legal"])["text"])
            clicked = s["ply"]
            actions += 1
        else:
            pytest.fail(f"the game did not end after {actions} actions")
        assert marked > 5, marked  # the AI's moves were marked after many of its turns
        assert actions > 10
        assert page.locator("#result").is_visible()
        assert page.locator("#log li").count() > actions
        # the story (issue 28): the page's log is the seat's story as the engine narrates it, with names, rebuilt
        # from the game's record; the end says who won; no jargon anywhere on the page at the end
        told = watch.finish(server)
        assert page.locator("#log .told").count() > 0
        assert "wins" in " ".join(told[-1])
        assert errors == []
    finally:
        page.context.close()


def play_laplaplace_marking(page: Any, rng: random.Random, watch: Watch) -> int:
    """:func:`play_to_the_end` for one Laplaplace seat, with the newcomer's checks (``watch``: tests/web/ui/story.py)
    before each click, and the Laplaplace marks (issue 28, part 2): whenever the page must decide again after the
    AI acted, the table marks what the AI's actions changed in this seat's view: its open cards once both have shown
    4, or its build, complete now; returns the count of AI turns checked so."""
    seat = page.evaluate("window.__table.seat()")
    last = -1
    checked = 0
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        s = page.evaluate(STATE)
        if s and s["terminal"]:
            return checked
        if not (s and s["legal"] and s["mine"] and s["ply"] != last):
            page.wait_for_timeout(50)
            continue
        other = s["observation"]["seats"][1 - seat]
        if page.evaluate(
            "JSON.stringify(window.__table.before()) !== JSON.stringify(window.__table.state().observation)"
        ):
            if other.get("open"):  # both have shown 4: the AI's open cards came out
                page.wait_for_function(
                    "([s, n]) => document.querySelectorAll(`#table .column[data-seat='${s}'] .chip.changed`).length"
                    " === n",
                    arg=[1 - seat, len(other["open"])],
                )
            else:  # its build is complete now (still hidden)
                page.wait_for_selector("#table .hidden-column .back-tile.changed")
            checked += 1
        watch.before_click(s)
        click_action(page, "laplaplace", rng.choice(s["legal"])["text"])
        last = s["ply"]
    pytest.fail("the Laplaplace game did not end in 10 minutes")


def test_a_whole_laplaplace_game_against_the_ai_by_clicking(browser: Any, server: str) -> None:
    """Seat 0 against the easy AI in the open scene: the AI's 4 open cards are marked when they come out; at the end
    the battle marks the AI's revealed build and the result, the table names the players (no P0/P1), and the
    newcomer's checks hold (the story, no forced click, no jargon); then a rematch."""
    page, errors = new_page(browser, "Ada")
    try:
        create_game(page, server, "laplaplace", "ai:easy", {"build": "open"})
        sit_down(page)
        watch = Watch(page)
        assert play_laplaplace_marking(page, random.Random(2), watch) == 1  # the AI shows its 4 open cards
        page.wait_for_selector("#table .battle-log")
        build = page.evaluate("window.__table.state().observation.seats[1].build")
        page.wait_for_function(
            "(n) => document.querySelectorAll(`#table .battle .column[data-seat='1'] .lcard.changed`).length === n",
            arg=len(build),
        )
        assert page.locator("#table .battle-result.changed").count() == 1
        assert page.locator("#table .battle .column[data-seat='0'] .lcard.changed").count() == 0
        table_text = page.locator("#table").inner_text()
        assert not re.search(r"\bP[01]\b", table_text) and "seat " not in table_text and "Ada" in table_text
        watch.finish(server)
        page.click('#table [data-play="end"]')
        assert page.locator("#table .battle-log .current").text_content().startswith("Result")
        # a rematch goes straight to the new table, the caller seated (issue 28, part 8)
        key = page.url.split("/play/", 1)[1].split("#", 1)[0]
        page.click("#result button:has-text('Rematch')")
        page.wait_for_url(lambda url: "/play/" in url and key not in url and url.endswith("#seat=0"))
        page.wait_for_function("() => document.querySelector('#status')?.dataset.status === 'connected'")
        assert page.evaluate("window.__table.seat()") == 0
        assert errors == []
    finally:
        page.context.close()


def test_a_whole_blind_laplaplace_game_as_the_second_builder(browser: Any, server: str) -> None:
    """Seat 1 against the easy AI in the blind scene: the AI builds first, and its finished (hidden) build is
    marked before the first click; the newcomer's checks hold."""
    body = {"game": "laplaplace", "seats": [{"kind": "ai", "strength": "easy"}, {"kind": "human"}]}
    request = urllib.request.Request(
        f"{server}/api/games", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        invitation = next(i["url"] for i in json.load(answer)["invitations"] if i["seat"] == 1)
    page, errors = new_page(browser, "Ada")
    try:
        page.goto(f"{server}{invitation}")
        page.wait_for_function("() => document.querySelector('#status')?.dataset.status === 'connected'")
        watch = Watch(page)
        assert play_laplaplace_marking(page, random.Random(5), watch) == 1
        watch.finish(server)
        assert errors == []
    finally:
        page.context.close()


def test_two_humans_play_through_their_invitation_links(browser: Any, server: str) -> None:
    ada, ada_errors = new_page(browser, "Ada")
    bo, bo_errors = new_page(browser, "<b>Bo</b>")
    requests: list[str] = []
    bo.on("request", lambda r: requests.append(r.url))
    try:
        create_game(ada, server, "laplaplace", "human")
        invitation = ada.input_value('[data-invitation="1"]')
        own = ada.input_value('[data-invitation="0"]')
        token0, token1 = own.split("#", 1)[1], invitation.split("#", 1)[1]
        sit_down(ada)
        bo.goto(invitation)
        bo.wait_for_function("() => document.querySelector('#status')?.dataset.status === 'connected'")
        assert ada.url.endswith("#seat=0") and bo.url.endswith("#seat=1")  # the invitations left the addresses
        # the creator kept Bo's invitation: once Bo has joined it takes nothing (issue 27, point 2)
        spy = ada.context.new_page()
        spy.goto(invitation)
        spy.wait_for_function("() => document.querySelector('#status')?.dataset.status === 'offline'")
        assert "Could not take the seat" in spy.locator("#notice").text_content()
        assert spy.evaluate("window.__table.seat()") is None
        spy.close()
        ada.wait_for_function(
            "() => [...document.querySelectorAll('#seats .name')].some((e) => e.textContent === '<b>Bo</b>')"
        )
        ada.fill("#chat-input", "<script>window.__pwned=1</script>good luck")
        ada.click("#chat-form button")
        bo.wait_for_function("() => document.querySelector('#chat li') !== null")
        assert bo.locator("#chat li").last.text_content().endswith("<script>window.__pwned=1</script>good luck")
        play_to_the_end([ada, bo], "laplaplace", random.Random(3))
        for page in (ada, bo):
            assert page.locator("#result").is_visible()
            assert page.evaluate("window.__pwned") is None
        # neither seat's token nor secret reaches the other's page, nor any URL requested
        key = ada.url.split("/play/", 1)[1].split("#", 1)[0]
        secret0, secret1 = held_secret(ada, key, 0), held_secret(bo, key, 1)
        assert token0 not in bo.content() and token1 not in ada.content()
        assert secret0 not in bo.content() and secret1 not in ada.content()
        assert not [u for u in requests if token1 in u or token0 in u or secret1 in u or secret0 in u]
        assert ada_errors == [] and bo_errors == []
    finally:
        ada.context.close()
        bo.context.close()


def test_a_seat_opened_in_a_second_window_stops_the_first_which_says_so(browser: Any, server: str) -> None:
    """One live connection per seat (issue 27, point 2): the newest wins, the older window is told and stops, and
    a click there takes the seat back."""
    first, errors = new_page(browser, "Ada")
    try:
        create_game(first, server, "torabato", "ai:easy")
        sit_down(first)
        second = first.context.new_page()  # the same browser: it holds the seat's secret
        second.goto(first.url)
        offline = "() => document.querySelector('#status')?.dataset.status === 'offline'"
        online = "() => document.querySelector('#status')?.dataset.status === 'connected'"
        second.wait_for_function(online)
        first.wait_for_function(offline)
        assert "opened in another window or device" in first.locator("#notice").text_content()
        assert second.evaluate("window.__table.seat()") == 0
        first.click("#play-here")
        first.wait_for_function(online)
        second.wait_for_function(offline)
        assert "opened in another window or device" in second.locator("#notice").text_content()
        assert errors == []
    finally:
        first.context.close()
