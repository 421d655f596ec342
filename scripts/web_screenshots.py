"""Take the screenshots of the browser tables in docs/screenshots/ (desktop and phone-sized) with Playwright and
Debian's chromium, from the pages' fixture mode: seeded engine games (tests/web/ui/wire.py), no server needed.

    .venv/bin/python scripts/web_screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.ui.browser import DESKTOP, PHONE, open_fixture  # noqa: E402
from tests.web.ui.conftest import launch  # noqa: E402
from tests.web.ui.wire import FIXTURES, play_fixture  # noqa: E402

PHONE_TALL = {"width": 390, "height": 844}  # Lyabi and Dice Battle on a phone: the whole page, to see all of the table


def busiest_torabato_step(data: dict[str, Any]) -> int:
    """A state where the seat acts and the table is full: soldiers on both sides, the stack, an attack."""

    def fullness(m: dict[str, Any]) -> int:
        o = m["observation"]
        soldiers = sum(len(p["soldiers"]) for p in o["players"])
        return soldiers + 3 * len(o["stack"]) + 2 * len(o["attack"]["attackers"]) + len(m["legal"])

    return max(
        (i for i, m in enumerate(data["messages"]) if len(m["legal"]) > 1), key=lambda i: fullness(data["messages"][i])
    )


def busiest_lyabi_step(data: dict[str, Any]) -> int:
    """A state of the seat's battle with both sets revealed (the triangle lit) and a decision to take."""
    steps = [i for i, m in enumerate(data["messages"]) if m["legal"] and m["observation"]["battle_colours"]]
    return max(steps, key=lambda i: len(data["messages"][i]["observation"]["players"][0]["field"]) * 100 - i)


def busiest_dice_step(data: dict[str, Any]) -> int:
    """A battle of the seat with effects still to resolve, both sets revealed."""
    return max(
        (i for i, m in enumerate(data["messages"]) if m["legal"] and m["observation"]["queue"]),
        key=lambda i: len(data["messages"][i]["observation"]["queue"]),
    )


def shoot(
    browser: Any,
    fixtures: dict[str, Any],
    name: str,
    step: int,
    viewport: dict[str, int],
    path: Path,
    *,
    lines: int = 0,
    walk: bool = False,
) -> None:
    page, errors = open_fixture(browser, fixtures, name, step=0 if walk else step, viewport=viewport)
    try:
        for i in range(1, step + 1 if walk else 0):  # state by state, as a live table draws them
            page.evaluate("(i) => window.__fixture.goto(i)", i)
        for _ in range(lines):  # the battle's playback, a few lines in
            page.click('#table [data-play="step"]')
        page.wait_for_timeout(200)
        page.screenshot(path=str(path), full_page=viewport is not PHONE)  # a 360x740 phone: its first screen
        if errors:
            raise SystemExit(f"{name}: page errors: {errors}")
        print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    finally:
        page.context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    fixtures = {
        name: play_fixture(game, options, seed, seat, specs) for name, game, options, seed, seat, specs in FIXTURES
    }
    tora = busiest_torabato_step(fixtures["torabato"])
    lap = fixtures["laplaplace"]["messages"]
    build = max(i for i, m in enumerate(lap) if m["legal"])
    battle = len(lap) - 1
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        try:
            shoot(browser, fixtures, "torabato", tora, DESKTOP, args.out / "torabato-table.png")
            shoot(browser, fixtures, "torabato", tora, PHONE, args.out / "torabato-table-phone.png")
            shoot(browser, fixtures, "laplaplace", battle, DESKTOP, args.out / "laplaplace-table.png", lines=40)
            shoot(browser, fixtures, "laplaplace", build, PHONE, args.out / "laplaplace-table-phone.png")
            shoot(browser, fixtures, "laplaplace", build, DESKTOP, args.out / "laplaplace-build.png")
            ly = {"lyabi": play_fixture("lyabi", {}, 3, 0, ("heuristic", "heuristic"))}
            main_step = next(i for i, m in enumerate(ly["lyabi"]["messages"]) if i > 60 and len(m["legal"]) > 5)
            for step, suffix in ((busiest_lyabi_step(ly["lyabi"]), "table"), (main_step, "buy")):
                shoot(browser, ly, "lyabi", step, DESKTOP, args.out / f"lyabi-{suffix}.png", walk=True)
                shoot(browser, ly, "lyabi", step, PHONE_TALL, args.out / f"lyabi-{suffix}-phone.png", walk=True)
            dice = {"dicebattle": play_fixture("dicebattle", {}, 3, 0, ("heuristic", "random"))}
            setting = next(i for i, m in enumerate(dice["dicebattle"]["messages"]) if i > 10 and len(m["legal"]) > 3)
            for step, suffix in ((busiest_dice_step(dice["dicebattle"]), "table"), (setting, "dice")):
                shoot(browser, dice, "dicebattle", step, DESKTOP, args.out / f"dicebattle-{suffix}.png", walk=True)
                shoot(
                    browser,
                    dice,
                    "dicebattle",
                    step,
                    PHONE_TALL,
                    args.out / f"dicebattle-{suffix}-phone.png",
                    walk=True,
                )
        finally:
            browser.close()


if __name__ == "__main__":
    main()
