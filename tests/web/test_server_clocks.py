"""Turn clocks and leaving (issue 18, part 7): the clock options of a new game, a seat that runs out of time or
leaves handed to an AI of the chosen strength so the game goes on, the clock shown to everyone, and a clock that
survives a restart of the server (its deadline recomputed from what is stored)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from cardarena.web.clocks import Clock, read_clock
from cardarena.web.lobby import ApiError
from cardarena.web.store import GameStatus, SeatKind, open_store

from .server_fixtures import Client, create, join, join_all, server


def test_clock_options_are_checked() -> None:
    assert read_clock(None, 2) is None and read_clock({"kind": "none"}, 2) is None
    game = read_clock({"kind": "game", "minutes": 10, "then": "hard"}, 3)
    assert game is not None and (game.kind, game.limit, game.then, game.used) == ("game", 600.0, "hard", (0.0,) * 3)
    move = read_clock({"kind": "move", "seconds": 30}, 2)
    assert move is not None and (move.limit, move.then) == (30.0, "easy")
    for bad in (
        {"kind": "blitz"},
        {"kind": "game"},
        {"kind": "game", "minutes": 0},
        {"kind": "game", "minutes": "10"},
        {"kind": "game", "minutes": float("nan")},
        {"kind": "move", "seconds": 1},
        {"kind": "move", "seconds": 30, "then": "godlike"},
        [1],
    ):
        with pytest.raises(ApiError):
            read_clock(bad, 2)


def test_a_clock_round_trips_and_charges_only_the_running_seat() -> None:
    clock = read_clock({"kind": "game", "minutes": 1}, 2)
    assert clock is not None and clock.since is None
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    running = clock.start(t0)
    assert running.left(0, t0 + timedelta(seconds=20), running=True) == 40.0
    assert running.left(1, t0 + timedelta(seconds=20), running=False) == 60.0
    stopped = running.stop(0, t0 + timedelta(seconds=20))
    assert stopped.used == (20.0, 0.0) and stopped.since is None
    assert Clock.from_json(running.to_json()) == running


def test_create_refuses_a_bad_clock() -> None:
    with server() as client:
        answer = client.post(
            "/api/games", json={"game": "torabato", "seats": [{"kind": "human"}] * 2, "clock": {"kind": "move"}}
        )
        assert answer.status_code == 400 and "clock seconds" in answer.json()["error"]["message"]


def _clock_game(client: Any, seconds: int = 5, then: str = "easy") -> tuple[str, list[str]]:
    key, tokens = create(
        client,
        "torabato",
        [{"kind": "human"}, {"kind": "human"}],
        clock={"kind": "move", "seconds": seconds, "then": then},
    )
    return key, join_all(client, key, tokens)


def test_a_seat_that_runs_out_of_time_is_played_by_an_ai_and_the_game_goes_on() -> None:
    with server() as client:
        key, tokens = _clock_game(client)
        with Client(client, key, tokens[0]) as ann, Client(client, key, tokens[1]) as bob:
            clock = ann.state["clock"]
            assert clock["kind"] == "move" and clock["running"] == 0 and 0 < clock["left"][0] <= 5
            assert bob.state["clock"]["running"] == 0
            handed = bob.until("handed_over")  # seat 0 thinks for more than 5 seconds
            assert handed == {"type": "handed_over", "seat": 0, "strength": "easy", "why": "time"}
            while bob.state.get("to_act") != 1:  # the AI took seat 0's choice: seat 1 is to act now
                bob.until("state")
            row = client.app.state.tables.live(key).row  # type: ignore[attr-defined]
            assert row.seats[0].kind == SeatKind.AI and row.seats[0].agent == "heuristic"
            assert bob.state["clock"]["running"] == 1
            refused = ann.act("pass", ply=ann.state["ply"])
            assert refused["type"] == "error" and refused["code"] in ("handed_over", "stale_ply", "not_your_turn")


def test_a_seat_may_leave_a_running_game_to_an_ai_of_its_choice() -> None:
    with server() as client:
        key, tokens = create(client, "torabato", [{"kind": "human"}, {"kind": "human"}])
        tokens[0] = join(client, key, tokens[0], "p0")
        assert client.post(f"/api/games/{key}/handover", json={"token": tokens[0]}).status_code == 409  # not running
        tokens[1] = join(client, key, tokens[1], "p1")
        with Client(client, key, tokens[1]) as bob:
            bad = client.post(f"/api/games/{key}/handover", json={"token": tokens[0], "strength": "godlike"})
            assert bad.status_code == 400
            assert client.post(f"/api/games/{key}/handover", json={"token": "nope"}).status_code == 403
            answer = client.post(f"/api/games/{key}/handover", json={"token": tokens[0], "strength": "normal"})
            assert answer.status_code == 200 and answer.json() == {"seat": 0, "strength": "normal"}
            assert bob.until("handed_over")["why"] == "left"
            while bob.state.get("to_act") != 1:
                bob.until("state")
            seat0 = client.get(f"/api/games/{key}").json()["seats"][0]
            assert (seat0["kind"], seat0["label"]) == ("ai", "normal")
            again = client.post(f"/api/games/{key}/handover", json={"token": tokens[0]})
            assert again.status_code == 409


def test_a_clock_survives_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'clock.db'}"
    store = open_store(url)
    try:
        with server(store) as client:
            key, tokens = _clock_game(client, seconds=3600)
            with Client(client, key, tokens[0]) as ann:
                assert ann.act(ann.state["legal"][0]["text"])["type"] == "ack"
                since = store.get_game(key).clock["since"]  # type: ignore[index]
                assert since is not None and ann.state["clock"]["running"] == 1
    finally:
        store.close()
    store = open_store(url)  # the server again, on the same database
    try:
        stored = store.get_game(key)
        assert stored.status == GameStatus.RUNNING and stored.clock is not None and stored.clock["since"] == since
        with server(store) as client:
            table = client.app.state.tables.live(key)  # type: ignore[attr-defined]
            assert table.clock.since.isoformat() == since  # not restarted: the deadline is where it was
            assert table.clock_task is not None and not table.clock_task.done()
            with Client(client, key, tokens[1]) as bob:
                assert bob.state["clock"]["running"] == 1 and bob.state["clock"]["left"][1] <= 3600
        assert table.clock_task.done()  # cancelled when the server closed
    finally:
        store.close()
