"""Take the platform's screenshots (docs/screenshots/platform-*.png) with Playwright and Debian's chromium against a
real server (``cardarena serve`` over a throwaway in-memory store): Ada's lobby, signed in, with several
turn-based games against Bo, some waiting for her ("Your games", desktop and phone); then, after a few rated games
against the easy AI played by the server's random moves for her, her page and the game's leaderboard.

    .venv/bin/python scripts/platform_screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from analysis_screenshot import start_server  # noqa: E402
from tests.web.ui.browser import DESKTOP, PHONE  # noqa: E402
from tests.web.ui.conftest import launch  # noqa: E402

#: a page's fetch with its session cookie and the CSRF token (dom.js's getJSON keeps it)
CALL = """async ([url, body]) => {
  const {getJSON} = await import('/static/dom.js');
  return getJSON(url, body === null ? {} : {method: 'POST', body});
}"""


def person(browser: Any, base: str, name: str, viewport: dict[str, int] = DESKTOP) -> Any:
    context = browser.new_context(viewport=viewport)
    context.add_init_script(f"localStorage.setItem('cardarena.name', {name!r})")
    page = context.new_page()
    page.goto(f"{base}/")
    page.wait_for_selector("#account-form:not([hidden])")
    page.fill("#account-user", name)
    page.fill("#account-password", "correct horse battery")
    page.click("#register")
    page.wait_for_selector("#account-signed:not([hidden])")
    return page


def call(page: Any, url: str, body: dict[str, Any] | None = None) -> Any:
    return page.evaluate(CALL, [url, body])


def join(page: Any, url: str, name: str) -> dict[str, Any]:
    key, token = url.split("/play/", 1)[1].split("#", 1)
    answer: dict[str, Any] = call(page, f"/api/games/{key}/join", {"token": token, "name": name})
    return {"key": key, **answer}


def play_rated_games(page: Any, rng: random.Random, games: int) -> None:
    """Rated Laplaplace games against the easy AI, Ada's decisions random, played through the table page."""
    from tests.web.ui.test_live import play_to_the_end

    for _ in range(games):
        body = {"game": "laplaplace", "seats": [{"kind": "human"}, {"kind": "ai", "strength": "easy"}], "rated": True}
        made = call(page, "/api/games", body)
        origin = "/".join(page.url.split("/", 3)[:3])
        page.goto(origin + made["invitations"][0]["url"])
        page.wait_for_function("() => document.querySelector('#status')?.dataset.status === 'connected'")
        play_to_the_end([page], "laplaplace", rng)
        page.locator("#result .rating-changes li").first.wait_for()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    proc, base = start_server("expert:iterations=50")
    try:
        with sync_playwright() as p:
            browser = launch(p)
            ada, bo = person(browser, base, "Ada"), person(browser, base, "Bo")
            ada.set_default_timeout(60_000)
            for game in ("laplaplace", "torabato", "dicebattle", "laplaplace", "lyabi"):
                seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
                made = call(ada, "/api/games", {"game": game, "seats": seats, "clock": {"kind": "turn", "hours": 48}})
                join(ada, made["invitations"][0]["url"], "Ada")
                join(bo, made["invitations"][1]["url"], "Bo")
            for viewport, name in ((DESKTOP, "platform-lobby-turn-based.png"), (PHONE, "platform-lobby-phone.png")):
                ada.set_viewport_size(viewport)
                ada.goto(f"{base}/")
                ada.wait_for_selector("#mine li")
                ada.wait_for_timeout(300)
                ada.screenshot(path=str(out / name), full_page=name.endswith("phone.png") is False)
                print(out / name, ada.title())
            ada.set_viewport_size(DESKTOP)
            play_rated_games(ada, random.Random(2), 3)
            for viewport, suffix in ((DESKTOP, ""), (PHONE, "-phone")):
                ada.set_viewport_size(viewport)
                ada.goto(f"{base}/players/Ada")
                ada.wait_for_selector("#ratings li")
                ada.screenshot(path=str(out / f"platform-profile{suffix}.png"), full_page=True)
                ada.goto(f"{base}/leaderboard/laplaplace")
                ada.wait_for_selector("#board tbody tr")
                ada.screenshot(path=str(out / f"platform-leaderboard{suffix}.png"), full_page=True)
            print(out / "platform-profile.png", out / "platform-leaderboard.png")
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)


if __name__ == "__main__":
    main()
