"""The table page's live mode against stand-ins of the server (Playwright routes the WebSocket and the REST
calls, so no server runs): the invitation in the link joins once (in a POST body) and the fragment becomes
``#seat=N``; the seat's secret that the join answers travels only inside the first WebSocket message, never in a
URL, and a reload opens the seat with it; the page reconnects by itself after the connection drops, resumes with
``since`` and does not repeat the log; a spectator says hello without a token; a refused token or an expired game
stops the retries; a seat opened in another window stops this one, which says so and takes it back on a click."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from .browser import ORIGIN, PageErrors, click_action, route_static

KEY = "Gk3yT0pSecretKey"
TOKEN = "tok-Zq9_very-secret-seat-token-123456"  # the invitation in the link
SECRET = "sec-Wx4_the-seat-secret-the-join-gives-789"
NEW_INVITATION = "inv-Pq2_the-invitation-leave-gives-456"


class FakeTable:
    """A stand-in for the server's WebSocket: answers hello with welcome and the fixture's state at ``step``
    (its log: every entry after the hello's ``since``), records what the page sends."""

    def __init__(self, fixture: dict[str, Any], step: int) -> None:
        self.fixture = fixture
        self.step = step
        self.sockets: list[Any] = []
        self.hellos: list[dict[str, Any]] = []
        self.received: list[dict[str, Any]] = []
        self.urls: list[str] = []
        self.refuse: tuple[str, str] | None = None  # the error (code, message) that answers every hello

    def replace_seat(self) -> None:
        """What the server does when the seat is opened elsewhere: ``replaced``, then the socket closes."""
        message = "this seat was opened in another window or device, so this one stopped"
        self.sockets[-1].send(json.dumps({"type": "error", "code": "replaced", "message": message}))
        self.sockets[-1].close()

    def state(self, since: int) -> dict[str, Any]:
        messages = self.fixture["messages"][: self.step + 1]
        log = [e for m in messages for e in m["log"] if e["n"] > since]
        return {**messages[-1], "log": log}

    def handle(self, ws: Any) -> None:
        self.sockets.append(ws)
        self.urls.append(ws.url)

        def on_message(text: str | bytes) -> None:
            message = json.loads(text)
            if message["type"] != "hello":
                self.received.append(message)
                return
            self.hellos.append(message)
            if self.refuse is not None:
                code, text = self.refuse
                ws.send(json.dumps({"type": "error", "code": code, "message": text}))
                ws.close()
                return
            ws.send(json.dumps(self.fixture["welcome"]))
            ws.send(json.dumps(self.state(message.get("since", 0))))

        ws.on_message(on_message)


def open_live(
    browser: Any, fixtures: dict[str, Any], url: str, table: FakeTable
) -> tuple[Any, PageErrors, list[str], list[Any]]:
    context = browser.new_context()
    context.add_init_script("localStorage.setItem('cardarena.name', 'Ada')")
    page = context.new_page()
    errors = PageErrors()
    errors.watch(page)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    posted: list[Any] = []

    def api(route: Any, path: str) -> bool:
        if path == f"/api/games/{KEY}/join":
            posted.append(json.loads(route.request.post_data))
            answer = {"seat": table.fixture["seat"], "secret": SECRET}
            route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))
            return True
        if path == f"/api/games/{KEY}/leave":
            posted.append(json.loads(route.request.post_data))
            # the server closes the seat's socket ("left") as it answers: here the socket hears it first
            table.sockets[-1].send(json.dumps({"type": "error", "code": "left", "message": "this seat was left"}))
            answer = {"seat": table.fixture["seat"], "invitation": f"/play/{KEY}#{NEW_INVITATION}"}
            route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))
            return True
        if path.startswith("/api/games/") and path.endswith("/rules"):
            route.fulfill(status=200, content_type="text/plain", body=table.fixture["rules"])
            return True
        return False

    route_static(page, fixtures, api)
    page.route_web_socket(f"ws://{ORIGIN.removeprefix('http://')}/ws/**", table.handle)
    page.goto(url)
    return page, errors, requests, posted


def wait_status(page: Any, status: str) -> None:
    page.wait_for_function("(s) => document.querySelector('#status')?.dataset.status === s", arg=status, timeout=10_000)


def test_a_seat_connects_with_its_token_in_the_first_message_only(browser: Any, fixtures: dict[str, Any]) -> None:
    fixture = fixtures["torabato"]
    step = next(i for i, m in enumerate(fixture["messages"]) if len(m["legal"]) > 1 and i > 10)
    table = FakeTable(fixture, step)
    page, errors, requests, posted = open_live(browser, fixtures, f"{ORIGIN}/play/{KEY}#{TOKEN}", table)
    try:
        wait_status(page, "connected")
        page.wait_for_function("() => window.__table.state() !== null")
        assert table.hellos == [{"type": "hello", "token": SECRET}]  # the seat's secret, not the invitation
        assert posted == [{"token": TOKEN, "name": "Ada"}]  # the invitation joins, in a POST body
        assert table.urls == [f"ws://cardarena.test/ws/{KEY}"]
        assert requests and not [u for u in requests if TOKEN in u or SECRET in u]
        seat = fixture["seat"]
        assert page.url == f"{ORIGIN}/play/{KEY}#seat={seat}"  # the invitation is gone from the address
        assert page.locator("#rules-link").get_attribute("href") == "/rules/torabato"
        # an action is sent with the ply of the state it answers
        action = fixture["messages"][step]["legal"][-1]["text"]
        click_action(page, "torabato", action)
        deadline = time.monotonic() + 5
        while not table.received and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        assert table.received == [{"type": "act", "ply": fixture["messages"][step]["ply"], "action": action}]
        assert errors == []
    finally:
        page.context.close()


def test_the_page_reconnects_by_itself_and_resumes_the_log(browser: Any, fixtures: dict[str, Any]) -> None:
    fixture = fixtures["torabato"]
    table = FakeTable(fixture, 40)
    page, errors, _, _ = open_live(browser, fixtures, f"{ORIGIN}/play/{KEY}#{TOKEN}", table)
    try:
        wait_status(page, "connected")
        page.wait_for_function("() => window.__table.state() !== null")
        held = page.evaluate("window.__table.logCount()")
        entries = page.locator("#log li").count()
        assert held > 0 and entries == held
        table.step = 60  # the game moves on while the page is away
        table.sockets[-1].close()
        wait_status(page, "reconnecting")
        wait_status(page, "connected")  # after 0.5 s
        page.wait_for_function("(ply) => window.__table.state().ply === ply", arg=fixture["messages"][60]["ply"])
        assert table.hellos[1] == {"type": "hello", "token": SECRET, "since": held}
        total = sum(len(m["log"]) for m in fixture["messages"][:61])
        assert page.locator("#log li").count() == total  # nothing twice, nothing missing
        assert errors == []
    finally:
        page.context.close()


def test_a_spectator_says_hello_without_a_token(browser: Any, fixtures: dict[str, Any]) -> None:
    spectator = {**fixtures["torabato"], "seat": None, "welcome": {**fixtures["torabato"]["welcome"], "seat": None}}
    table = FakeTable(spectator, 5)
    page, errors, _, posted = open_live(browser, fixtures, f"{ORIGIN}/watch/{KEY}", table)
    try:
        wait_status(page, "connected")
        assert table.hellos == [{"type": "hello"}]
        assert posted == []
        assert page.locator("#chat-form").is_hidden()
        assert "watching" in page.locator("#title").text_content()
        assert errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize(
    "refusal",
    [("bad_token", "this seat token is not valid"), ("expired", "this game expired: its seats were not all taken")],
)
def test_a_refused_token_or_an_expired_game_stops_the_retries(
    browser: Any, fixtures: dict[str, Any], refusal: tuple[str, str]
) -> None:
    table = FakeTable(fixtures["torabato"], 0)
    table.refuse = refusal
    page, errors, _, _ = open_live(browser, fixtures, f"{ORIGIN}/play/{KEY}#{TOKEN}", table)
    try:
        wait_status(page, "offline")
        assert page.locator(".toast", has_text=refusal[1]).count() == 1
        page.wait_for_timeout(1500)  # a retry would have come after 0.5 s
        assert len(table.hellos) == 1
        assert errors == []
    finally:
        page.context.close()


def test_a_reload_opens_the_seat_with_its_secret_without_joining_again(browser: Any, fixtures: dict[str, Any]) -> None:
    table = FakeTable(fixtures["torabato"], 5)
    page, errors, requests, posted = open_live(browser, fixtures, f"{ORIGIN}/play/{KEY}#{TOKEN}", table)
    try:
        wait_status(page, "connected")
        page.reload()
        wait_status(page, "connected")
        assert posted == [{"token": TOKEN, "name": "Ada"}]  # joined once
        assert table.hellos == [{"type": "hello", "token": SECRET}] * 2
        # the invitation link opened again in this browser finds the seat it took, without a join
        page.goto(f"{ORIGIN}/play/{KEY}#{TOKEN}")
        page.wait_for_function("() => location.hash.startsWith('#seat=')")
        wait_status(page, "connected")
        assert len(posted) == 1 and table.hellos == [{"type": "hello", "token": SECRET}] * 3
        assert page.url.endswith(f"#seat={fixtures['torabato']['seat']}")
        assert not [u for u in requests if TOKEN in u or SECRET in u]
        assert errors == []
    finally:
        page.context.close()


def test_a_seat_without_its_secret_in_this_browser_says_so(browser: Any, fixtures: dict[str, Any]) -> None:
    table = FakeTable(fixtures["torabato"], 5)
    page, errors, _, posted = open_live(browser, fixtures, f"{ORIGIN}/play/{KEY}#seat=1", table)
    try:
        wait_status(page, "offline")
        assert "does not hold player 2's seat" in page.locator("#notice").text_content()
        assert table.hellos == [] and posted == []
        assert errors == []
    finally:
        page.context.close()


def test_a_seat_opened_elsewhere_stops_this_window_which_says_so(browser: Any, fixtures: dict[str, Any]) -> None:
    table = FakeTable(fixtures["torabato"], 5)
    page, errors, _, _ = open_live(browser, fixtures, f"{ORIGIN}/play/{KEY}#{TOKEN}", table)
    try:
        wait_status(page, "connected")
        table.replace_seat()
        wait_status(page, "offline")
        assert "opened in another window or device" in page.locator("#notice").text_content()
        page.wait_for_timeout(1500)  # a retry would have come after 0.5 s: it would take the seat back unasked
        assert len(table.hellos) == 1
        page.click("#play-here")  # the player takes the seat back here
        wait_status(page, "connected")
        assert page.locator("#notice").is_hidden()
        assert table.hellos[-1]["token"] == SECRET and len(table.hellos) == 2
        assert errors == []
    finally:
        page.context.close()


def test_leaving_shows_the_seats_new_invitation_and_forgets_the_secret(browser: Any, fixtures: dict[str, Any]) -> None:
    table = FakeTable(fixtures["torabato"], 5)
    page, errors, _, posted = open_live(browser, fixtures, f"{ORIGIN}/play/{KEY}#{TOKEN}", table)
    try:
        wait_status(page, "connected")
        page.on("dialog", lambda dialog: dialog.accept())
        page.click("#leave")
        page.wait_for_selector("#notice [data-invitation]")
        assert posted[-1] == {"token": SECRET}
        assert page.input_value("#notice [data-invitation]") == f"{ORIGIN}/play/{KEY}#{NEW_INVITATION}"
        page.wait_for_timeout(300)  # the socket's "left" came first: it does not replace the invitation shown
        assert page.locator("#notice [data-invitation]").count() == 1
        assert page.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('cardarena.seat.'))") == []
        assert errors == []
    finally:
        page.context.close()
