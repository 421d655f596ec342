"""The replay load test (issue 27, point 4), small: a few live games of scripted WebSocket clients against
``cardarena serve`` while a client asks for steps of finished games that the server does not have in memory (random
games, viewers and plies, 0 and the end included). A correctness check, without timing: every step answered must be
what the game's record shows, the refusals only the bounded ones (429), and the live games must play on.
``make load-replays`` is the full run that reports the live games' latency."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from cardarena.web.load_replays import run


def test_replays_beside_live_games_answer_what_the_record_shows() -> None:
    # in a thread of its own, as test_faults.py does: asyncio.run cannot start inside Playwright's event loop
    job = run(games=3, replay_games=3, replay_rate=10, seconds=4, warmup=1, think=0.2, check=True)
    with ThreadPoolExecutor(1) as pool:
        report = pool.submit(asyncio.run, job).result()
    assert report["problems"] == [], report["server_log_tail"]
    assert report["replay_statuses"].get(200, 0) > 0, report
    assert set(report["replay_statuses"]) <= {200, 429}, report
    assert report["actions"] > 0, report
