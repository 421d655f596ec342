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


def plain_names(data: dict[str, Any]) -> None:
    """Plain names in the pictures (the tests' names hold markup on purpose)."""
    people = iter(("Ada", "Bo", "Cy", "Di"))
    names = {}
    for row in data["welcome"]["game"]["seats"]:
        who = next(people)
        names[row["seat"]] = who if row["kind"] == "human" else f"{who} (AI)"
    for m in [data["welcome"]["game"], *data["messages"]]:
        for row in m.get("seats", []):
            row["name"] = names[row["seat"]]


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
    parser.add_argument("--only", choices=["tashkalar"], help="take only this game's screenshots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    if args.only == "tashkalar":
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            browser = launch(p)
            try:
                tashkalar_screenshots(browser, args.out)
            finally:
                browser.close()
        return
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
            tashkalar_screenshots(browser, args.out)
        finally:
            browser.close()


# ------------------------------------------------------------------------------------------- Tash-Kalar


def tashkalar_screenshots(browser: Any, out: Path) -> None:
    """The Tash-Kalar table: a duel with a being chosen and one placement's pattern shown, High Form with its tasks,
    a 4-player melee; desktop and phone-sized (390x844)."""
    from tests.web.ui.test_tashkalar_table import PHONE_TALL, TK_FIXTURES

    wanted = {"tk-duel", "tk-highform", "tk-melee"}
    fixtures = {
        name: play_fixture("tashkalar", options, seed, seat, specs)  # type: ignore[arg-type]
        for name, options, seed, seat, specs in TK_FIXTURES
        if name in wanted
    }

    def busiest_summon(data: dict[str, Any]) -> tuple[int, str | None]:
        """A state where the seat can summon, with the most pieces on the board, and a summon to preview there."""
        steps = [i for i, m in enumerate(data["messages"]) if any(a["text"].startswith("summon ") for a in m["legal"])]
        if not steps:
            return len(data["messages"]) // 2, None
        step = max(steps, key=lambda i: len(data["messages"][i]["observation"]["board"]))
        summon = next(a["text"] for a in data["messages"][step]["legal"] if a["text"].startswith("summon "))
        return step, summon

    def preview(page: Any, summon: str | None) -> None:
        if summon is None:
            return
        words = summon.split(" ")
        page.locator(f'#table .tk-card[data-card="{words[1]}"]').click()
        page.locator(f'#table .hit[data-square="{words[3]}"]').click()

    for data in fixtures.values():
        plain_names(data)

    for name, file in (
        ("tk-duel", "tashkalar-duel"),
        ("tk-highform", "tashkalar-highform"),
        ("tk-melee", "tashkalar-melee"),
    ):
        step, summon = busiest_summon(fixtures[name])
        for viewport, suffix in ((DESKTOP, ""), (PHONE_TALL, "-phone")):
            page, errors = open_fixture(browser, fixtures, name, step=step, viewport=viewport)
            page.emulate_media(reduced_motion="reduce")  # a still picture: no last-move animation caught midway
            try:
                preview(page, summon)
                page.evaluate("() => document.querySelector('#table .tk-status').scrollIntoView()")
                page.wait_for_timeout(200)
                path = out / f"{file}{suffix}.png"
                page.screenshot(path=str(path), full_page=viewport is DESKTOP)
                if errors:
                    raise SystemExit(f"{name}: page errors: {errors}")
                print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
            finally:
                page.context.close()


if __name__ == "__main__":
    main()
