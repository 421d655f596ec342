"""The kill-and-restart test (issue 15, point 8), small: 10 games of scripted WebSocket clients against
``cardarena serve`` on a SQLite file; the server is killed with SIGKILL in the middle and restarted on the same
database; every game must finish and every acknowledged action be in its record. ``make load`` runs 200 games."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from cardarena.web.load import run
from cardarena.web.store import StoreError, open_store


def _sql_store_missing(tmp: Path) -> bool:
    try:
        open_store(f"sqlite:///{tmp / 'probe.db'}").close()
    except StoreError:
        return True
    return False


def test_a_killed_server_loses_no_acknowledged_action_and_every_game_finishes(tmp_path: Path) -> None:
    if _sql_store_missing(tmp_path):
        if os.environ.get("CI") == "true":
            pytest.fail("the SQL store (cardarena.web.sql) is missing: the fault test needs a durable database")
        pytest.skip("LOUD SKIP: no SQL store in this checkout (cardarena.web.sql lands with the storage work)")
    report = asyncio.run(run(games=10, db=f"sqlite:///{tmp_path / 'faults.db'}", kill_after=150, seconds=300))
    assert report["killed"], "the games ended before the server could be killed"
    assert report["problems"] == [], report["server_log_tail"]
    assert report["finished"] == 10
    assert report["reconnects"] > 0
