"""Browser fixtures: one headless Debian Chromium per test session (Playwright for Python) and the wire fixtures.

Playwright cannot download its own browser here: it drives ``/usr/bin/chromium`` (the Makefile's ``test`` target
installs Debian's chromium when it is missing). Without it these tests fail with that message; they never skip.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .wire import FIXTURES, play_fixture

CHROMIUM = os.environ.get("CARDARENA_CHROMIUM", "/usr/bin/chromium")


def launch(playwright: Any) -> Any:
    """Debian's chromium, headless; a clear failure when it is not installed."""
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"{CHROMIUM} is missing: the browser tests drive Debian's chromium (make test installs it: "
            "apt-get install -y chromium); Playwright cannot download a browser here",
            pytrace=False,
        )
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = launch(p)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="session")
def fixtures() -> dict[str, dict[str, Any]]:
    """The wire fixtures by name, played once per session (about a second)."""
    return {name: play_fixture(game, options, seed, seat, specs) for name, game, options, seed, seat, specs in FIXTURES}
