"""Take the screenshots of the replay page and of a table with the undo button, the clocks and the spectator count
in docs/screenshots/, with Playwright and Debian's chromium against a real server (``cardarena serve`` on a free
loopback port over a throwaway in-memory store): the replay page needs the REST API, which the fixture mode of
scripts/web_screenshots.py does not have.

    .venv/bin/python scripts/replay_screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.ui.browser import DESKTOP, PHONE  # noqa: E402
from tests.web.ui.conftest import launch  # noqa: E402


def rest(base: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{base}{path}", data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def start_server() -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    exe = Path(sys.executable).with_name("cardarena")
    cmd = [str(exe), "serve", "--host", "127.0.0.1", "--port", str(port), "--db", "memory://"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            rest(base, "/api/catalogue")
            return proc, base
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"cardarena serve did not answer on {base}")


def finished(base: str, game: str, agents: list[str]) -> str:
    key = rest(base, "/api/games", {"game": game, "seats": [{"kind": "ai", "agent": a} for a in agents]})["key"]
    deadline = time.monotonic() + 300
    while rest(base, f"/api/games/{key}")["status"] != "finished":
        if time.monotonic() > deadline:
            raise SystemExit("the AI game did not finish")
        time.sleep(0.3)
    return str(key)


def shoot(browser: Any, url: str, path: Path, viewport: dict[str, int], ready: str) -> None:
    context = browser.new_context(viewport=viewport)
    context.add_init_script("localStorage.setItem('cardarena.name', 'Ada')")
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(ready)
    page.wait_for_timeout(300)
    page.screenshot(path=str(path), full_page=True)
    context.close()
    print(path.relative_to(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    out = parser.parse_args().out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    proc, base = start_server()
    try:
        key = finished(base, "torabato", ["heuristic", "heuristic"])
        plies = rest(base, f"/api/games/{key}/replay")["plies"]
        step = "() => window.__replay.step() !== null && document.querySelector('#table').children.length > 0"
        middle = plies * 2 // 3
        with sync_playwright() as p:
            browser = launch(p)
            try:
                shoot(browser, f"{base}/replay/{key}?seat=0&ply={middle}", out / "replay-seat.png", DESKTOP, step)
                shoot(browser, f"{base}/replay/{key}?seat=open&ply={middle}", out / "replay-open.png", DESKTOP, step)
                shoot(browser, f"{base}/replay/{key}?seat=1&ply={middle}", out / "replay-phone.png", PHONE, step)
                # a table with a clock, the undo button (a Laplaplace build) and a spectator
                answer = rest(
                    base,
                    "/api/games",
                    {
                        "game": "laplaplace",
                        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "ai", "strength": "easy"}],
                        "clock": {"kind": "game", "minutes": 10},
                    },
                )
                context = browser.new_context(viewport=DESKTOP)
                context.add_init_script("localStorage.setItem('cardarena.name', 'Ada')")
                page = context.new_page()
                page.goto(base + answer["invitations"][0]["url"])
                page.wait_for_function("() => window.__table.state() && window.__table.state().legal.length > 0")
                watcher = browser.new_context().new_page()
                watcher.goto(base + answer["watch"])
                text = page.evaluate("window.__table.state().legal.find((a) => a.text.startsWith('add ')).text")
                page.locator(f'#table [data-action="{text}"]').first.click()
                page.wait_for_function("() => window.__table.state().can_undo")
                page.wait_for_function("() => document.querySelector('#spectators').dataset.count === '1'")
                page.wait_for_timeout(300)
                page.screenshot(path=str(out / "table-undo-clock.png"), full_page=True)
                print((out / "table-undo-clock.png").relative_to(ROOT))
                context.close()
            finally:
                browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
