"""Take pictures of each browser table in a live game against the normal AI, mid-game, right after an AI turn:
the narrated log and the last-move marks as a player sees them (issue 28's closing note), desktop and phone.

    .venv/bin/python scripts/live_screenshots.py [--out docs/screenshots/live] [--seed 1]

It starts `cardarena serve` on a loopback port with a throwaway SQLite file, creates one game per table (seat 0
a person, the others the normal AI), clicks random legal actions on the table until the game has gone past a
third of its usual length and the page shows marks at the player's decision, then takes the pictures.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402
from tests.web.ui.browser import DESKTOP, PHONE, click_action  # noqa: E402
from tests.web.ui.conftest import launch  # noqa: E402
from tests.web.ui.test_tashkalar_table import click_tashkalar  # noqa: E402

#: (picture name, game, options, seats, the seat-0 decisions to play at least before a picture)
GAMES: tuple[tuple[str, str, dict[str, Any], int, int], ...] = (
    ("torabato", "torabato", {}, 2, 3),
    ("lyabi", "lyabi", {}, 2, 20),
    ("dicebattle", "dicebattle", {}, 2, 4),
    ("laplaplace", "laplaplace", {"build": "open"}, 2, 0),
    ("tashkalar-duel", "tashkalar", {}, 2, 10),
    ("tashkalar-melee", "tashkalar", {"mode": "melee", "players": 4}, 4, 6),
)

STATE = """() => {
  const s = window.__table && window.__table.state();
  return s && {...s, mine: document.querySelector('#turn').classList.contains('mine'), marks: window.__table.changed()};
}"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    exe = Path(sys.executable).with_name("cardarena")
    args = [str(exe), "serve", "--host", "127.0.0.1", "--port", str(port), "--db", f"sqlite:///{db}"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{base}/api/catalogue", timeout=2):
                return proc, base
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"cardarena serve did not answer on {base}")


def create(base: str, game: str, options: dict[str, Any], seats: int) -> str:
    """A new game, seat 0 a person and the others the normal AI; the person's invitation."""
    body = {
        "game": game,
        "options": options,
        "seats": [{"kind": "human"}] + [{"kind": "ai", "strength": "normal"}] * (seats - 1),
    }
    request = urllib.request.Request(
        f"{base}/api/games", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return str(next(i["url"] for i in json.load(answer)["invitations"] if i["seat"] == 0))


def take(page: Any, game: str, text: str) -> None:
    """Click ``text`` on the table (ToraBato, Laplaplace, Tash-Kalar) or in the list of every choice (the others:
    these pictures are about what the page shows, not about how a choice is clicked)."""
    if game == "tashkalar":
        click_tashkalar(page, text)
    elif game in ("torabato", "laplaplace"):
        click_action(page, game, text)
    else:
        page.evaluate("document.querySelector('#actions-box').open = true")
        click_action(page, game, text)
        page.evaluate("document.querySelector('#actions-box').open = false")


def play_until_marked(page: Any, game: str, rng: random.Random, least: int) -> bool:
    """Click random choices until ``least`` decisions are played and the page marks an AI move at a decision."""
    played, last = 0, -1
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        s = page.evaluate(STATE)
        if s and s["terminal"]:
            return False
        if not (s and s["mine"] and s["legal"] and s["ply"] != last):
            page.wait_for_timeout(50)
            continue
        page.wait_for_timeout(300)  # the marks' pulse is over
        marks = page.evaluate("window.__table.changed()")
        if "--debug" in sys.argv:
            print(game, played, s["ply"], marks, file=sys.stderr)
        if played >= least and marks > 0:
            return True
        choices = [a for a in s["legal"] if not a.get("resign") and not a.get("confirm")] or s["legal"]
        take(page, game, rng.choice(choices)["text"])
        last = s["ply"]
        played += 1
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots" / "live")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--debug", action="store_true", help="print each decision (game, decisions played, ply, marks)")
    parser.add_argument("--only", nargs="*", help="picture names to take (default: all)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = serve(Path(tmp) / "web.db")
        try:
            with sync_playwright() as p:
                browser = launch(p)
                for name, game, options, seats, least in GAMES:
                    if args.only and name not in args.only:
                        continue
                    for attempt in range(3):
                        context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
                        context.add_init_script("localStorage.setItem('cardarena.name', 'Ada')")
                        page = context.new_page()
                        page.set_default_timeout(60_000)
                        page.goto(base + create(base, game.split("-")[0], options, seats))
                        page.wait_for_function(
                            "() => document.querySelector('#status')?.dataset.status === 'connected'"
                        )
                        if play_until_marked(page, game, random.Random(args.seed + attempt), least):
                            page.screenshot(path=str(args.out / f"{name}.png"))
                            page.set_viewport_size(PHONE)
                            page.wait_for_timeout(300)
                            page.screenshot(path=str(args.out / f"{name}-phone.png"), full_page=True)
                            print(f"wrote {args.out / name}.png and -phone.png")
                            context.close()
                            break
                        context.close()
                    else:
                        print(f"{name}: no marked AI move mid-game in 3 games", file=sys.stderr)
        finally:
            proc.terminate()
            proc.wait(timeout=10)


if __name__ == "__main__":
    main()
