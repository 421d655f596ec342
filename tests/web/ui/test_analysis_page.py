"""The replay page's post-game analysis in a real browser against a real server (issue 31, point 5): a player opens
the replay of their finished game, asks for the analysis of their decisions, sees it progress, then reads the table
(mistakes marked) and clicks a decision to see the position before it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .test_live import WAIT_MS, free_port
from .test_live_replay_undo import finished_game, open_page, rest

SPEC = "expert:iterations=8"


@pytest.fixture(scope="module")
def analysing_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``cardarena serve`` with a cheap analyst (the tests' budgets), on a free port."""
    port = free_port()
    db = tmp_path_factory.mktemp("analysis") / "web.db"
    exe = Path(sys.executable).with_name("cardarena")
    command = [str(exe), "serve", "--host", "127.0.0.1", "--port", str(port), "--db", f"sqlite:///{db}"]
    proc = subprocess.Popen(
        [*command, "--allow-agent-specs", "--analysis-agent", SPEC],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=os.environ.copy(),
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/catalogue", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"cardarena serve did not answer on {base} within 60 s", pytrace=False)
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_a_player_asks_for_the_analysis_of_their_game_and_jumps_to_a_decision(
    browser: Any, analysing_server: str, tmp_path: Path
) -> None:
    base = analysing_server
    key = finished_game(base, "dicebattle")
    page, errors = open_page(browser, f"{base}/replay/{key}?seat=0&ply=0")
    try:
        page.wait_for_function("() => window.__replay.step() !== null")
        page.wait_for_function("() => window.__replay.analysis()?.status === 'none'")
        assert "not analysed yet" in page.inner_text("#analysis-status")
        page.click("#analyse")
        page.wait_for_selector("#analysis-table tbody tr", timeout=WAIT_MS)
        answer = rest(base, f"/api/games/{key}/analysis?seat=0")
        assert answer["status"] == "done"
        rated = [d for d in answer["analysis"]["decisions"] if not d["forced"]]
        assert page.locator("#analysis-table tbody tr").count() == len(rated)
        mistakes = [d for d in rated if d["mistake"]]
        assert page.locator("#analysis-table tbody tr.mistake").count() == len(mistakes)
        summary = page.inner_text("#analysis-summary")
        assert f"{answer['analysis']['summary']['0']['mistakes']} mistake" in summary
        target = rated[-1]
        page.click(f"#analysis-table tbody tr[data-ply='{target['ply']}']")
        page.wait_for_function(f"() => window.__replay.step().ply === {target['ply']}")
        assert page.locator("#analysis-table tbody tr.here").count() == 1
        page.locator("#analysis").screenshot(path=str(tmp_path / "analysis.png"))
        shot = os.environ.get("CARDARENA_SCREENSHOT_DIR")
        if shot:
            page.screenshot(path=str(Path(shot) / "replay-analysis.png"), full_page=True)
        # the other player: not analysed yet, then its own analysis
        page.select_option("#analysis-seat", "1")
        page.wait_for_function("() => window.__replay.analysis()?.seat === 1")
        assert page.locator("#analyse").is_visible()
        assert not errors, errors
    finally:
        page.context.close()
