"""The kill-and-restart test (issue 15, point 8), small: 10 games of scripted WebSocket clients against
``cardarena serve`` on a SQLite file; the server is killed with SIGKILL in the middle and restarted on the same
database; every game must finish and every acknowledged action be in its record. ``make load`` runs 200 games."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from cardarena.web.load import run


def test_a_killed_server_loses_no_acknowledged_action_and_every_game_finishes(tmp_path: Path) -> None:
    # In a thread of its own: Playwright's sync API (the browser tests, same worker) keeps an event loop running
    # in this one, and asyncio.run refuses to start inside it.
    job = run(games=10, db=f"sqlite:///{tmp_path / 'faults.db'}", kill_after=150, seconds=300)
    with ThreadPoolExecutor(1) as pool:
        report = pool.submit(asyncio.run, job).result()
    assert report["killed"], "the games ended before the server could be killed"
    assert report["problems"] == [], report["server_log_tail"]
    assert report["finished"] == 10
    assert report["reconnects"] > 0
