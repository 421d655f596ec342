"""Take the screenshots of the balance report's page shown in docs/report.md, with Playwright and Debian's chromium.

    .venv/bin/python scripts/report_screenshots.py REPORT [--out docs]

REPORT is a report directory written by ``cardarena report`` (its report.json is read) or a report.json file
(default: the hand-made sample tests/arena/data/report-sample.json). The page is rendered afresh from the JSON by
``cardarena.arena.report_page.render_page``, so the screenshots show the current page. It writes
``report-desktop.png`` (the top of the page: header, what changed, the cards out of line, strongest and weakest), ``report-cards.png`` (the
card plot and the first card table) and ``report-phone.png`` (a phone's first screen) into ``--out``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.ui.browser import PageErrors  # noqa: E402
from tests.web.ui.conftest import launch  # noqa: E402

from cardarena.arena.report_page import render_page  # noqa: E402

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "report", type=Path, nargs="?", default=ROOT / "tests" / "arena" / "data" / "report-sample.json"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    args = parser.parse_args()
    path: Path = args.report / "report.json" if args.report.is_dir() else args.report
    report = json.loads(path.read_text(encoding="utf-8"))
    args.out.mkdir(parents=True, exist_ok=True)

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        page_file = Path(tmp) / "index.html"
        page_file.write_text(render_page(report), encoding="utf-8")
        browser = launch(p)
        try:
            for name, viewport in (("desktop", DESKTOP), ("cards", DESKTOP), ("phone", PHONE)):
                context = browser.new_context(viewport=viewport, device_scale_factor=1)
                page = context.new_page()
                errors = PageErrors()
                errors.watch(page)
                page.goto(page_file.as_uri())
                target = args.out / f"report-{name}.png"
                if name == "desktop":
                    page.screenshot(
                        path=str(target), clip={"x": 0, "y": 0, "width": 1280, "height": 1500}, full_page=True
                    )
                elif name == "cards":
                    top = page.evaluate("document.querySelector('#cards').getBoundingClientRect().top + window.scrollY")
                    page.screenshot(
                        path=str(target), clip={"x": 0, "y": top, "width": 1280, "height": 1400}, full_page=True
                    )
                else:
                    page.screenshot(path=str(target))
                context.close()
                if errors:
                    raise SystemExit(f"page errors: {errors}")
                print(f"wrote {target}")
        finally:
            browser.close()


if __name__ == "__main__":
    main()
