"""Browser fixtures: one headless Debian Chromium per test session (Playwright for Python), pages that serve the
static files and the wire fixtures through request routing (no server, no port), and a collector of page errors.

Playwright cannot download its own browser here: it drives ``/usr/bin/chromium`` (the Makefile's ``test`` target
installs Debian's chromium when it is missing). Without it these tests fail with that message; they never skip.
"""

from __future__ import annotations

import json
import mimetypes
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .wire import FIXTURES, play_fixture

CHROMIUM = os.environ.get("CARDARENA_CHROMIUM", "/usr/bin/chromium")
STATIC = Path(__file__).resolve().parents[3] / "src" / "cardarena" / "web" / "static"
ORIGIN = "http://cardarena.test"  # never resolved: every request to it is answered by the routes below
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 740}


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"{CHROMIUM} is missing: the browser tests drive Debian's chromium (make test installs it: "
            "apt-get install -y chromium); Playwright cannot download a browser here",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="session")
def fixtures() -> dict[str, dict[str, Any]]:
    """The wire fixtures by name, played once per session (a few seconds)."""
    return {name: play_fixture(game, options, seed, seat, specs) for name, game, options, seed, seat, specs in FIXTURES}


def route_static(page: Any, fixtures: dict[str, dict[str, Any]]) -> None:
    """Answer /static/... from the package's static folder and /fixtures/NAME.json from ``fixtures``."""

    def handle(route: Any) -> None:
        path = route.request.url[len(ORIGIN) :].split("?", 1)[0].split("#", 1)[0]
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
        route.fulfill(status=404, content_type="text/plain", body="not found")

    page.route(f"{ORIGIN}/**", handle)


class PageErrors(list[str]):
    """Uncaught exceptions and console errors of a page, collected as they happen."""

    def watch(self, page: Any) -> None:
        page.on("pageerror", lambda exc: self.append(f"pageerror: {exc}"))
        page.on("console", lambda msg: self.append(f"console: {msg.text}") if msg.type == "error" else None)


def open_fixture(browser: Any, fixtures: dict[str, dict[str, Any]], name: str, *, step: int = 0, viewport: dict[str, int] = DESKTOP) -> tuple[Any, PageErrors]:
    """A new page showing fixture ``name`` at message ``step``, with its errors collected."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors = PageErrors()
    errors.watch(page)
    route_static(page, fixtures)
    page.goto(f"{ORIGIN}/static/table.html?fixture=/fixtures/{name}.json&step={step}")
    page.wait_for_function("() => window.__fixture !== undefined && document.querySelector('#table').children.length > 0")
    return page, errors
