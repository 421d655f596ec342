"""Replays, spectating, undo and turn clocks in a real browser against the real server (issue 18, parts 4-7):
step through a finished game's replay and download its record, watch a running game (the players see the
spectator count), take back an action where the undo policy allows it and find the Undo button gone where it
does not, and a clock that runs out hands the seat to an AI."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import pytest

import cardarena

from .browser import PageErrors, click_action
from .test_live import WAIT_MS, server  # noqa: F401 - the module's own server (cardarena serve on a free port)


def rest(base: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{base}{path}", data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def new_game(base: str, game: str, seats: list[dict[str, Any]], **extra: Any) -> tuple[str, list[str]]:
    answer = rest(base, "/api/games", {"game": game, "seats": seats, **extra})
    return answer["key"], [i["url"] for i in answer["invitations"]]


def finished_game(base: str, game: str) -> str:
    key, _ = new_game(base, game, [{"kind": "ai", "agent": "random"}] * 2)
    deadline = time.monotonic() + 120
    while rest(base, f"/api/games/{key}")["status"] != "finished":
        if time.monotonic() > deadline:
            pytest.fail("the AI game did not finish in 120 s")
        time.sleep(0.2)
    return key


def open_page(browser: Any, url: str, name: str = "Ada") -> tuple[Any, PageErrors]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(f"localStorage.setItem('cardarena.name', {name!r})")
    page = context.new_page()
    errors = PageErrors()
    errors.watch(page)
    page.set_default_timeout(WAIT_MS)
    page.goto(url)
    return page, errors


def connected(page: Any) -> None:
    page.wait_for_function("() => document.querySelector('#status')?.dataset.status === 'connected'")


def test_step_through_a_replay_from_a_seats_point_of_view(browser: Any, server: str) -> None:  # noqa: F811
    key = finished_game(server, "torabato")
    record = rest(server, f"/api/games/{key}/record")
    page, errors = open_page(browser, f"{server}/replay/{key}?seat=0&ply=0")
    try:
        page.wait_for_function("() => window.__replay.step() !== null")
        assert page.evaluate("window.__replay.step().ply") == 0
        assert page.locator("#log li").count() == 0
        page.wait_for_selector("#table .torabato")
        for ply in (1, 2, 3):
            page.click("#forward")
            page.wait_for_function(f"() => window.__replay.step().ply === {ply}")
        assert page.locator("#log li").count() >= 1
        assert "seat=0" in page.url and "ply=3" in page.url  # the address is the link to this step
        page.click("#back")
        page.wait_for_function("() => window.__replay.step().ply === 2")
        page.fill("#ply", "10")
        page.press("#ply", "Enter")
        page.wait_for_function("() => window.__replay.step().ply === 10")
        # what seat 0 saw at ply 10: exactly its observation then, nothing of seat 1's hand
        state = cardarena.load("torabato").new_initial_state(record["seed"])
        for text in record["actions"][:10]:
            state.apply_text(text)
        assert page.evaluate("window.__replay.step().observation") == json.loads(json.dumps(state.observation(0)))
        page.select_option("#viewer", "open")
        page.wait_for_function("() => window.__replay.step().seat === 'open'")
        assert page.locator("#table .replay-seat").count() == 2
        page.click("#last")
        page.wait_for_function(f"() => window.__replay.step().ply === {len(record['actions'])}")
        assert page.locator("#result").is_visible()
        href = page.get_attribute("#download", "href")
        assert href == f"/api/games/{key}/record"
        downloaded = rest(server, href)
        assert cardarena.replay(downloaded, verify=True).is_terminal()
        assert errors == []
    finally:
        page.context.close()


def test_players_see_how_many_watch_a_running_game(browser: Any, server: str) -> None:  # noqa: F811
    key, invitations = new_game(server, "torabato", [{"kind": "human"}, {"kind": "human"}])
    ada, ada_errors = open_page(browser, f"{server}{invitations[0]}", "Ada")
    bo, _ = open_page(browser, f"{server}{invitations[1]}", "Bo")
    eve = None
    try:
        connected(ada)
        connected(bo)
        ada.wait_for_function("() => document.querySelector('#spectators').dataset.count === '0'")
        eve, eve_errors = open_page(browser, f"{server}/watch/{key}", "Eve")
        connected(eve)
        assert "(watching)" in eve.text_content("#title")
        ada.wait_for_function("() => document.querySelector('#spectators').dataset.count === '1'")
        assert ada.text_content("#spectators") == "1 watching"
        # the spectator sees the game move on
        state = ada.evaluate("window.__table.state()")
        click_action(ada, "torabato", state["legal"][0]["text"])
        eve.wait_for_function("() => document.querySelectorAll('#log li').length === 1")
        assert eve.evaluate("window.__table.state().legal") == []
        assert eve_errors == []
        eve.context.close()
        eve = None
        ada.wait_for_function("() => document.querySelector('#spectators').dataset.count === '0'")
        assert ada_errors == []
    finally:
        for page in (ada, bo, eve):
            if page is not None:
                page.context.close()


def test_undo_where_allowed_and_no_undo_where_not(browser: Any, server: str) -> None:  # noqa: F811
    key, invitations = new_game(server, "laplaplace", [{"kind": "human"}, {"kind": "ai", "strength": "easy"}])
    page, errors = open_page(browser, f"{server}{invitations[0]}")
    try:
        connected(page)
        page.wait_for_function("() => window.__table.state() && window.__table.state().to_act === 0")
        assert page.locator("#undo").is_hidden()  # nothing to take back yet
        # seat 0 builds first: an added card is hidden from the AI and draws on no chance, so it may go back
        first = page.evaluate("window.__table.state().legal.find((a) => a.text.startsWith('add ')).text")
        click_action(page, "laplaplace", first)
        page.wait_for_function("() => window.__table.state().ply === 1 && window.__table.state().can_undo")
        assert page.locator("#undo").is_visible()
        assert page.locator("#log li").count() == 1
        page.click("#undo")
        page.wait_for_function("() => window.__table.state().ply === 0")
        assert page.locator("#log li").count() == 0
        assert page.locator("#undo").is_hidden()
        assert rest(server, f"/api/games/{key}")["ply"] == 0  # taken out of the stored record
        # finishing the build hands the turn to the AI, which builds at once and fights: no undo after it acted
        page.wait_for_function("() => window.__table.state().legal.some((a) => a.text === 'done')")
        for _ in range(3):
            text = page.evaluate("window.__table.state().legal.find((a) => a.text.startsWith('add ')).text")
            ply = page.evaluate("window.__table.state().ply")
            click_action(page, "laplaplace", text)
            page.wait_for_function(f"() => window.__table.state().ply === {ply + 1}")
        click_action(page, "laplaplace", "done")
        page.wait_for_function("() => window.__table.state().terminal")
        assert page.evaluate("window.__table.state().can_undo") is False
        assert page.locator("#undo").is_hidden()
        assert errors == []
    finally:
        page.context.close()


def test_a_clock_that_runs_out_hands_the_seat_to_an_ai(browser: Any, server: str) -> None:  # noqa: F811
    key, invitations = new_game(
        server,
        "torabato",
        [{"kind": "human"}, {"kind": "human"}],
        clock={"kind": "move", "seconds": 5, "then": "easy"},
    )
    ada, errors = open_page(browser, f"{server}{invitations[0]}", "Ada")
    bo, _ = open_page(browser, f"{server}{invitations[1]}", "Bo")
    try:
        connected(ada)
        connected(bo)
        bo.wait_for_selector('#seats [data-seat="0"] .clock.running')
        # Ada does nothing: after 5 seconds an easy AI plays her seat, and the game goes on to Bo
        bo.wait_for_function(
            "() => document.querySelector('#seats [data-seat=\"0\"]').textContent.includes('Ada (easy AI)')"
        )
        bo.wait_for_function("() => window.__table.state().to_act === 1 && window.__table.state().legal.length > 0")
        ada.wait_for_function("() => window.__table.state().legal.length === 0")
        assert rest(server, f"/api/games/{key}")["seats"][0]["kind"] == "ai"
        assert errors == []
    finally:
        ada.context.close()
        bo.context.close()


def test_the_lobby_sets_a_turn_clock_and_the_table_shows_it(browser: Any, server: str) -> None:  # noqa: F811
    page, errors = open_page(browser, f"{server}/")
    try:
        page.wait_for_selector("#game option", state="attached")
        page.select_option("#game", "torabato")
        page.select_option('[data-seat-kind="1"]', "ai:easy")
        assert page.locator("#clock-amount").is_hidden()
        page.select_option("#clock-kind", "game")
        page.fill("#clock-amount", "3")
        page.select_option("#clock-then", "normal")
        page.click("#create button[type=submit]")
        page.wait_for_selector("#created:not([hidden])")
        page.click("#created a.button:has-text('Sit down')")
        connected(page)
        page.wait_for_function("() => window.__table.state() && window.__table.state().clock !== null")
        clock = page.evaluate("window.__table.state().clock")
        assert (clock["kind"], clock["limit"], clock["then"]) == ("game", 180.0, "normal")
        page.wait_for_selector('#seats [data-seat="0"] .clock')
        assert page.locator('#seats [data-seat="1"] .clock').count() == 0  # AI seats have no clock
        assert page.text_content('#seats [data-seat="0"] .clock').startswith(("3:00", "2:5"))
        assert page.locator("#handover").is_visible()
        assert errors == []
    finally:
        page.context.close()
