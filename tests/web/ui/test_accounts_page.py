"""Issue 32 in a real browser against the real server (``cardarena serve``, a throwaway SQLite file): a person
registers in the lobby's account bar, takes a seat while signed in, then signs in from another browser, finds the
game under "Your games" (which lists the account's seats too) and opens the seat there, with no seat secret in that
browser; signs out; a wrong password is told plainly.

Set ``CARDARENA_SCREENSHOTS=DIR`` to keep the lobby's screenshot (``accounts-lobby.png``)."""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path
from typing import Any

from .browser import PageErrors
from .test_live import WAIT_MS, server  # noqa: F401 - server: the module's live server fixture

PASSWORD = "correct horse battery"


def create_vs_random(base: str) -> tuple[str, str]:
    """A Laplaplace game against the random agent, made by a client with no cookie: its key and the invitation."""
    body = {"game": "laplaplace", "seats": [{"kind": "human"}, {"kind": "ai", "agent": "random"}], "private": True}
    request = urllib.request.Request(
        f"{base}/api/games", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        made = json.load(answer)
    return made["key"], made["invitations"][0]["url"]


def new_page(browser: Any) -> tuple[Any, PageErrors]:
    """A page in a browser of its own (its own cookies and storage), with no name kept yet."""
    page = browser.new_context().new_page()
    errors = PageErrors()
    errors.watch(page)
    page.set_default_timeout(WAIT_MS)
    return page, errors


def account_bar(page: Any, base: str, name: str, button: str) -> None:
    page.goto(f"{base}/")
    page.wait_for_selector("#account-form:not([hidden])")
    page.fill("#account-user", name)
    page.fill("#account-password", PASSWORD)
    page.click(button)


def test_a_person_registers_and_comes_back_to_the_seat_from_another_browser(
    browser: Any,
    server: str,  # noqa: F811 - the fixture imported above
    tmp_path: Path,
) -> None:
    home, home_errors = new_page(browser)
    phone, phone_errors = new_page(browser)
    stranger, _ = new_page(browser)
    try:
        account_bar(home, server, "Ann Lee", "#register")
        home.wait_for_selector("#account-signed:not([hidden])")
        assert home.locator("#account-name").text_content() == "Ann Lee"
        assert home.input_value("#my-name") == "Ann Lee"  # the table name, until the person chooses another
        cookies = home.context.cookies()
        session = next(c for c in cookies if c["name"] == "cardarena_session")
        assert session["httpOnly"] and session["sameSite"] == "Lax"
        assert home.evaluate("document.cookie") == ""  # no script of the page reads the session

        # joining by an invitation while signed in binds the seat (the page sends the CSRF token it asks for)
        key, invitation = create_vs_random(server)
        home.goto(f"{server}{invitation}")
        home.wait_for_function("() => document.querySelector('#status')?.dataset.status === 'connected'")
        assert home.evaluate("window.__table.seat()") == 0

        # another browser: sign in, find the game, open the seat by the account
        account_bar(phone, server, "ann lee", "#sign-in")
        phone.wait_for_selector("#mine-box:not([hidden])")
        link = phone.locator("#mine a")
        assert link.count() == 1 and link.get_attribute("href") == f"/play/{key}#account"
        assert "Laplaplace" in phone.locator("#mine").text_content()
        shots = os.environ.get("CARDARENA_SCREENSHOTS")
        shot = Path(shots) if shots else tmp_path
        shot.mkdir(parents=True, exist_ok=True)
        phone.screenshot(path=str(shot / "accounts-lobby.png"))
        link.click()
        phone.wait_for_function("() => window.__table && window.__table.seat() === 0", timeout=WAIT_MS)
        # the seat's own buttons too: its requests go by the account, with no secret
        assert phone.locator("#leave").is_visible()
        phone.wait_for_selector("#handover:not([hidden])")
        assert phone.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('cardarena.seat.'))") == []

        # signing out: the bar offers signing in again, and the games are no longer listed
        phone.goto(f"{server}/")
        phone.wait_for_selector("#account-signed:not([hidden])")
        phone.click("#sign-out")
        phone.wait_for_selector("#account-form:not([hidden])")
        phone.wait_for_selector("#mine-box", state="hidden")
        assert not [c for c in phone.context.cookies() if c["name"] == "cardarena_session"]

        # a wrong password is told plainly, and nothing more
        stranger.goto(f"{server}/")
        stranger.wait_for_selector("#account-form:not([hidden])")
        stranger.fill("#account-user", "Ann Lee")
        stranger.fill("#account-password", "not the password")
        stranger.click("#sign-in")
        stranger.wait_for_selector(".toast:has-text('wrong name or password')")
        assert stranger.locator("#account-signed").is_hidden()
        assert home_errors == [] and phone_errors == []
    finally:
        for page in (home, phone, stranger):
            page.context.close()


def test_on_their_own_page_a_person_changes_the_password_and_deletes_the_account(
    browser: Any,
    server: str,  # noqa: F811 - the fixture imported above
) -> None:
    page, errors = new_page(browser)
    visitor, _ = new_page(browser)
    try:
        account_bar(page, server, "Cy Young", "#register")
        page.wait_for_selector("#account-signed:not([hidden])")
        page.click("#account-name")  # the player's own page
        page.wait_for_selector("#account-box:not([hidden])")
        assert page.locator("#name").text_content() == "Cy Young"
        visitor.goto(page.url)  # another person's view of it: no settings
        visitor.wait_for_function("() => document.querySelector('#name').textContent === 'Cy Young'")
        assert visitor.locator("#account-box").is_hidden()

        page.fill("#password-current", PASSWORD)
        page.fill("#password-new", "a brand new password")
        page.click("#password-form button")
        page.wait_for_selector(".toast:has-text('The password is changed')")

        page.once("dialog", lambda dialog: dialog.accept())
        page.fill("#delete-password", "a brand new password")
        page.click("#delete-form button")
        page.wait_for_url(f"{server}/")
        page.wait_for_selector("#account-form:not([hidden])")  # signed out: the account is gone
        page.fill("#account-user", "Cy Young")
        page.fill("#account-password", "a brand new password")
        page.click("#sign-in")
        page.wait_for_selector(".toast:has-text('wrong name or password')")
        assert [e for e in errors if "401" not in e] == []  # the refused sign-in's 401 only
    finally:
        page.context.close()
        visitor.context.close()
