"""The browser's post-game analysis (issue 31, point 5): a player opens the replay of a finished game and asks where
they went wrong. The server runs the analysis in the background (its worker, not the event loop), shows how far it
is, keeps it in the store (a restarted server gives it at once) and refuses what it must (a running game, a bad
seat, too many at once)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardarena.agents.analysis import analyse_record
from cardarena.web import analyses
from cardarena.web.sql import SqlStore

from .server_fixtures import human_game, server
from .test_server_replay import finished_ai_game

SPEC = "expert:iterations=8"
SETTINGS: dict[str, Any] = {"analysis_agent": SPEC, "analysis_workers": 0}


def wait_done(client: TestClient, key: str, seat: int) -> tuple[dict[str, Any], list[tuple[int, Any]]]:
    """Poll the analysis until it is done: the last answer and the progress seen on the way."""
    seen: list[tuple[int, Any]] = []
    for _ in range(2000):
        answer = client.get(f"/api/games/{key}/analysis", params={"seat": seat})
        assert answer.status_code == 200, answer.text
        body = answer.json()
        if body["status"] == "done":
            return body, seen
        assert body["status"] == "running", body
        seen.append((body["done"], body["total"]))
        time.sleep(0.01)
    raise AssertionError("the analysis did not finish")


def test_the_replay_of_a_finished_game_gets_its_analysis_in_the_background_the_same_as_the_command() -> None:
    with server(**SETTINGS) as client:
        key = finished_ai_game(client, "dicebattle", {})
        assert client.get(f"/api/games/{key}/analysis", params={"seat": 1}).json()["status"] == "none"
        started = client.post(f"/api/games/{key}/analysis", params={"seat": 1})
        assert started.status_code == 200 and started.json()["status"] in ("running", "done")
        assert started.json()["agent"] == SPEC and started.json()["seat"] == 1
        body, seen = wait_done(client, key, 1)
        analysis = body["analysis"]
        record = client.get(f"/api/games/{key}/record").json()
        assert analysis == analyse_record(record, seats=[1], agent=SPEC, seed=analyses.SEED).to_json()
        assert analysis["seats"] == [1] and analysis["decisions"]
        assert all(total is None or 0 <= done <= total for done, total in seen)
        # asking again (or starting again) gives the kept analysis, without running it again
        again = client.post(f"/api/games/{key}/analysis", params={"seat": 1}).json()
        assert again["status"] == "done" and again["analysis"] == analysis
        assert not client.app.state.analyses.running  # type: ignore[attr-defined]
        # the page has its place
        page = client.get(f"/replay/{key}")
        assert page.status_code == 200 and 'id="analysis"' in page.text


def test_a_restarted_server_gives_the_kept_analysis_at_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    store = SqlStore(url)
    try:
        with server(store, **SETTINGS) as client:
            key = finished_ai_game(client, "laplaplace", {})
            client.post(f"/api/games/{key}/analysis", params={"seat": 0})
            first, _ = wait_done(client, key, 0)
    finally:
        store.close()
    store = SqlStore(url)
    try:
        with server(store, **SETTINGS) as client:
            answer = client.get(f"/api/games/{key}/analysis", params={"seat": 0}).json()
            assert answer["status"] == "done" and answer["analysis"] == first["analysis"]
        with server(store, analysis_agent="expert:iterations=9", analysis_workers=0) as client:
            # another analyst: another analysis (not yet made)
            assert client.get(f"/api/games/{key}/analysis", params={"seat": 0}).json()["status"] == "none"
    finally:
        store.close()


def test_an_analysis_is_refused_for_a_running_game_a_bad_seat_an_unknown_game_and_when_too_many_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with server(**SETTINGS) as client:
        running, _ = human_game(client)
        answer = client.post(f"/api/games/{running}/analysis", params={"seat": 0})
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "not_finished"
        assert client.get("/api/games/nope/analysis", params={"seat": 0}).status_code == 404
        key = finished_ai_game(client, "dicebattle", {})
        for bad in ("2", "-1", "x", ""):
            answer = client.get(f"/api/games/{key}/analysis", params={"seat": bad})
            assert answer.status_code == 400, bad
        assert client.get(f"/api/games/{key}/analysis").status_code == 400
        monkeypatch.setattr(analyses, "RUNNING", 0)
        answer = client.post(f"/api/games/{key}/analysis", params={"seat": 0})
        assert answer.status_code == 503 and answer.json()["error"]["code"] == "busy"
        assert answer.headers["Retry-After"] == analyses.RETRY_AFTER


def test_a_server_with_an_analyst_that_cheats_does_not_start() -> None:
    with pytest.raises(Exception, match="hidden cards"), server(analysis_agent="mcts:iterations=8"):
        pass
