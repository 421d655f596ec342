"""Helpers of the browser tests: pages that serve the static files and the wire fixtures through request routing
(no server, no port), a collector of page errors, and the clicks that take a legal action on a table."""

from __future__ import annotations

import json
import mimetypes
from collections.abc import Callable
from pathlib import Path
from typing import Any

STATIC = Path(__file__).resolve().parents[3] / "src" / "cardarena" / "web" / "static"
ORIGIN = "http://cardarena.test"  # never resolved: every request to it is answered by the routes below
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 740}
#: ToraBato's kinds of action that name a card first (the card a click starts from), as in tables/torabato.js
CARD_KINDS = {"reveal", "mana", "play", "use", "recur", "attacker", "block", "assign", "choose"}


def route_static(page: Any, fixtures: dict[str, dict[str, Any]], api: Callable[[Any, str], bool] | None = None) -> None:
    """Answer requests to :data:`ORIGIN` as the server's pages would: ``/`` the lobby, ``/play/..`` and
    ``/watch/..`` the table shell, ``/static/...`` the package's static folder, ``/fixtures/NAME.json`` from
    ``fixtures``; ``api(route, path)`` answers the rest (REST stand-ins) and returns whether it did."""

    def handle(route: Any) -> None:
        path = route.request.url[len(ORIGIN) :].split("?", 1)[0].split("#", 1)[0]
        if path == "/":
            path = "/static/lobby.html"
        elif path.startswith(("/play/", "/watch/")):
            path = "/static/table.html"
        if path.startswith("/fixtures/"):
            name = path.removeprefix("/fixtures/").removesuffix(".json")
            if name in fixtures:
                route.fulfill(status=200, content_type="application/json", body=json.dumps(fixtures[name]))
                return
        elif path.startswith("/static/"):
            file = (STATIC / path.removeprefix("/static/")).resolve()
            if file.is_file() and STATIC in file.parents:
                kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
                if file.suffix == ".js":
                    kind = "text/javascript"
                route.fulfill(status=200, content_type=kind, body=file.read_bytes())
                return
        elif api is not None and api(route, path):
            return
        elif path == "/api/accounts/me":  # unless a stand-in says otherwise: nobody is signed in
            route.fulfill(status=200, content_type="application/json", body='{"account": null, "csrf": null}')
            return
        route.fulfill(status=404, content_type="text/plain", body="not found")

    page.route(f"{ORIGIN}/**", handle)


class PageErrors(list[str]):
    """Uncaught exceptions and console errors of a page, collected as they happen."""

    def watch(self, page: Any) -> None:
        page.on("pageerror", lambda exc: self.append(f"pageerror: {exc}"))
        page.on("console", lambda msg: self.append(f"console: {msg.text}") if msg.type == "error" else None)


def open_fixture(
    browser: Any, fixtures: dict[str, dict[str, Any]], name: str, *, step: int = 0, viewport: dict[str, int] = DESKTOP
) -> tuple[Any, PageErrors]:
    """A new page showing fixture ``name`` at message ``step``, with its errors collected."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors = PageErrors()
    errors.watch(page)
    route_static(page, fixtures)
    page.goto(f"{ORIGIN}/static/table.html?fixture=/fixtures/{name}.json&step={step}")
    page.wait_for_function(
        "() => window.__fixture !== undefined && document.querySelector('#table').children.length > 0"
    )
    return page, errors


def answer_confirmation(page: Any, *, accept: bool = True) -> bool:
    """Answer the page's confirmation (dom.js ``confirmDialog``: an action that ends a build, a turn or the game
    early, or cannot be taken back, is asked first) when one is open; whether one was."""
    dialog = page.locator("dialog.confirm[open]")
    if not dialog.count():
        return False
    dialog.locator(f'[data-confirm="{"yes" if accept else "no"}"]').click()
    return True


def click_action(page: Any, game: str, text: str) -> None:
    """Take the legal action ``text`` by clicking on the table as a player would (:func:`pick_action`), accepting
    the confirmation the page asks for before an action that cannot be taken back."""
    pick_action(page, game, text)
    answer_confirmation(page)


def pick_action(page: Any, game: str, text: str) -> None:
    """The clicks that take the legal action ``text`` on the table, as a player would (a confirmation the page
    then asks is left open).

    ToraBato: the card the action starts from, then (when several actions start from it) the chooser's button;
    actions without a card (pass, attack, done) are buttons of the table. Laplaplace: the card in the picker or
    the ``done`` button. Other games: the action list.
    """
    if game == "torabato":
        kind, _, rest = text.partition(" ")
        if kind in CARD_KINDS:
            page.locator(f'#table [data-card="{rest.split(" ")[0]}"]').first.click()
            choice = page.locator(f'#table .chooser [data-action="{text}"]')
            if choice.count():
                choice.click()
            return
    selector = (
        f'#table [data-action="{text}"]' if game in ("torabato", "laplaplace") else f'#actions [data-action="{text}"]'
    )
    page.locator(selector).first.click()


def touch_and_hold(page: Any, target: Any, *, from_top: float | None = None) -> Callable[[], None]:
    """Put a finger on ``target`` (a locator; at its centre, or ``from_top`` pixels below its top edge) through
    Chromium's touch input and keep it there until the card viewer opens as a sheet (dom.js: a long press reads
    the card); returns the function that lifts the finger. The page's context must have ``has_touch``."""
    target.scroll_into_view_if_needed()
    box = target.bounding_box()
    assert box is not None
    y = box["y"] + (box["height"] / 2 if from_top is None else from_top)
    cdp = page.context.new_cdp_session(page)
    cdp.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": box["x"] + box["width"] / 2, "y": y}]}
    )
    page.locator("#card-viewer.sheet").wait_for(state="visible")  # held: it opens while the finger is down
    return lambda: cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
