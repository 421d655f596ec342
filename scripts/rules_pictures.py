"""Take the pictures of the tables that the games' browser pages show (``GET /rules/{game}``, docs/web.md):
one picture of each game's table mid-game, the table alone (no side panels), with plain player names, saved as
``src/cardarena/web/static/rules/<game>.png``. From the pages' fixture mode (seeded engine games of
tests/web/ui/wire.py), with Playwright and Debian's chromium; no server needed. Run it again when a table's look
changes:

    .venv/bin/python scripts/rules_pictures.py
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts.web_screenshots import (  # noqa: E402
    busiest_dice_step,
    busiest_lyabi_step,
    busiest_torabato_step,
    plain_names,
)
from tests.web.ui.browser import DESKTOP, open_fixture  # noqa: E402
from tests.web.ui.conftest import launch  # noqa: E402
from tests.web.ui.wire import play_fixture  # noqa: E402

OUT = ROOT / "src" / "cardarena" / "web" / "static" / "rules"
VIEWPORT = {"width": 1000, "height": DESKTOP["height"]}


def middle_summon(data: dict[str, Any]) -> int:
    """A Tash-Kalar state where the seat can summon right after the other seat's turn (its changes marked), with
    the most pieces on the board."""
    messages = data["messages"]
    steps = [
        i
        for i, m in enumerate(messages)
        if any(a["text"].startswith("summon ") for a in m["legal"]) and any(e["seat"] != data["seat"] for e in m["log"])
    ]
    return max(steps, key=lambda i: len(messages[i]["observation"]["board"]))


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    games = {
        "torabato": play_fixture("torabato", {}, 7, 0, ("heuristic", "heuristic")),
        "laplaplace": play_fixture("laplaplace", {}, 3, 0, ("heuristic", "random")),
        "lyabi": play_fixture("lyabi", {}, 3, 0, ("heuristic", "heuristic")),
        "dicebattle": play_fixture("dicebattle", {}, 3, 0, ("heuristic", "random")),
        "tashkalar": play_fixture("tashkalar", {}, 3, 0, ("heuristic", "heuristic")),
    }
    for data in games.values():
        plain_names(data)
    lap = games["laplaplace"]["messages"]
    steps = {
        "torabato": busiest_torabato_step(games["torabato"]),
        "laplaplace": max(i for i, m in enumerate(lap) if m["legal"] and i > 2),  # the picker, a build under way
        "lyabi": busiest_lyabi_step(games["lyabi"]),
        "dicebattle": busiest_dice_step(games["dicebattle"]),
        "tashkalar": middle_summon(games["tashkalar"]),
    }
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        try:
            for game, step in steps.items():
                page, errors = open_fixture(browser, games, game, step=0, viewport=VIEWPORT)
                page.emulate_media(reduced_motion="reduce")  # a still picture: no last-move animation caught midway
                try:
                    for i in range(1, step + 1):  # state by state, as a live table draws them
                        page.evaluate("(i) => window.__fixture.goto(i)", i)
                    page.wait_for_timeout(200)
                    path = OUT / f"{game}.png"
                    page.locator("#table").screenshot(path=str(path))
                    if errors:
                        raise SystemExit(f"{game}: page errors: {errors}")
                    print(f"wrote {path.relative_to(ROOT)} (step {step})")
                finally:
                    page.context.close()
        finally:
            browser.close()


if __name__ == "__main__":
    main()
