"""Take the screenshot of the replay page's post-game analysis (docs/screenshots/replay-analysis.png) with Playwright
and Debian's chromium against a real server (``cardarena serve --analysis-agent SPEC`` on a free loopback port over
a throwaway in-memory store): a heuristic seat against a random one in ToraBato (a game where the random seat made a
flagged mistake), the random seat's decisions analysed, the page showing the position before its biggest mistake.

    .venv/bin/python scripts/analysis_screenshot.py [--out docs/screenshots] [--agent expert:iterations=300]
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from replay_screenshots import finished, rest  # noqa: E402
from tests.web.ui.browser import DESKTOP  # noqa: E402
from tests.web.ui.conftest import launch  # noqa: E402


def start_server(agent: str) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    exe = Path(sys.executable).with_name("cardarena")
    cmd = [str(exe), "serve", "--host", "127.0.0.1", "--port", str(port), "--db", "memory://"]
    proc = subprocess.Popen([*cmd, "--allow-agent-specs", "--analysis-agent", agent], stdout=subprocess.DEVNULL)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--agent", default="expert:iterations=300", help="the server's analyst")
    args = parser.parse_args()
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    proc, base = start_server(args.agent)
    try:
        for _ in range(4):  # a game whose random seat made a mistake the analyst flags (most do)
            key = finished(base, "torabato", ["heuristic", "random"])
            rest(base, f"/api/games/{key}/analysis?seat=1", {})  # POST: start it
            deadline = time.monotonic() + 1200
            while (answer := rest(base, f"/api/games/{key}/analysis?seat=1"))["status"] != "done":
                if answer["status"] == "failed" or time.monotonic() > deadline:
                    raise SystemExit(f"the analysis did not finish: {answer}")
                time.sleep(1)
            decisions = answer["analysis"]["decisions"]
            if any(d["mistake"] for d in decisions):
                break
        worst = max(decisions, key=lambda d: d["swing"])
        with sync_playwright() as p:
            browser = launch(p)
            try:
                context = browser.new_context(viewport=DESKTOP)
                page = context.new_page()
                page.goto(f"{base}/replay/{key}?seat=1&ply={worst['ply']}")
                page.wait_for_selector("#analysis-table tbody tr")
                page.wait_for_timeout(300)
                path = out / "replay-analysis.png"
                page.screenshot(path=str(path), full_page=True)
                print(path)
                context.close()
            finally:
                browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
