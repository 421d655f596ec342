"""Issue 32, point 3: turn-based play. Two people start a game with a day for each move; each comes back to the
lobby now and then, and "Your games" tells each whether the game waits for them and how long they have. The
server keeps the game across a restart, and a browser's stale or forged seat tells nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from cardarena.web.sql import SqlStore

from .server_fixtures import Client, create, human_game, join_all, server

DAY = {"kind": "turn", "hours": 24, "then": "easy"}


def statuses(client: TestClient, key: str, secrets: list[str]) -> list[dict[str, Any]]:
    answer = client.post("/api/seats/status", json={"seats": [{"key": key, "secret": s} for s in secrets]})
    assert answer.status_code == 200, answer.text
    body: list[dict[str, Any]] = answer.json()
    return body


def test_two_people_take_turns_over_days_and_the_lobby_says_whose_turn_it_is(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'turns.sqlite'}"
    store = SqlStore(url)
    with server(store) as client:
        key, secrets = human_game(client, "laplaplace", clock=DAY)
        first = statuses(client, key, secrets)
        assert [s["turn_based"] for s in first] == [True, True]
        waiting = [s for s in first if s["your_turn"]]
        assert len(waiting) == 1  # exactly one of the two is to act
        mover = waiting[0]["seat"]
        assert 24 * 3600 - 60 < waiting[0]["left"] <= 24 * 3600  # a day to answer
        assert all(s["left"] is None for s in first if not s["your_turn"])
        assert first[mover]["play"] == f"/play/{key}#seat={mover}"
        with Client(client, key, secrets[mover]) as player:
            legal = player.state["legal"]
            player.act(legal[0]["text"])
        after = statuses(client, key, secrets)
        assert sum(s["your_turn"] for s in after) <= 1
        turns_after = [s["your_turn"] for s in after]
    store.close()
    # the server restarts: the game and whose turn it is are as they were
    store = SqlStore(url)
    with server(store) as client:
        again = statuses(client, key, secrets)
        assert [s["your_turn"] for s in again] == turns_after
        assert [s["status"] for s in again] == ["running", "running"]
    store.close()


def test_a_forged_or_stale_seat_tells_nothing() -> None:
    with server() as client:
        key, secrets = human_game(client, "laplaplace", clock=DAY)
        other, tokens = create(client, "laplaplace", [{"kind": "human"}, {"kind": "human"}])
        for answer in statuses(client, key, ["forged", secrets[0] + "x"]):
            assert answer["status"] == "unknown"
            assert (answer["seat"], answer["game"], answer["players"], answer["play"]) == (None, None, [], None)
        # an invitation nobody took is not a seat yet; a key that is no game
        assert statuses(client, other, tokens[:1])[0]["status"] == "unknown"
        assert statuses(client, "nosuchgame", secrets[:1])[0]["status"] == "unknown"
        # a secret of one game says nothing of another
        assert statuses(client, other, secrets[:1])[0]["status"] == "unknown"
        join_all(client, other, tokens)
        too_many = client.post("/api/seats/status", json={"seats": [{"key": key, "secret": "x"}] * 51})
        assert too_many.status_code == 400


def test_a_turn_clock_is_hours_per_move_within_bounds() -> None:
    with server() as client:
        for hours, ok in ((0.5, False), (1, True), (336, True), (337, False), ("24", False)):
            answer = client.post(
                "/api/games",
                json={
                    "game": "laplaplace",
                    "seats": [{"kind": "human"}] * 2,
                    "clock": {"kind": "turn", "hours": hours},
                },
            )
            assert (answer.status_code == 201) == ok, (hours, answer.text)
            if not ok:
                assert "hours" in answer.json()["error"]["message"]
