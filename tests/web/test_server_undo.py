"""Undo and spectators at the server (issue 18, parts 5 and 6): ``can_undo`` offered to the seat that may take
its last action back, the ``undo`` message committed to the store before anyone is told, the log entry withdrawn
for the viewers that saw it, refusals with the reason, AI seats that never undo; the number of spectators."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from cardarena.web.store import MemoryStore

from .server_fixtures import Client, create, human_game, join, server


def _table(client: TestClient, key: str) -> Any:
    return client.app.state.tables.live(key)  # type: ignore[attr-defined]


def test_a_seat_takes_back_its_face_down_reveal_card_and_everyone_sees_it_withdrawn() -> None:
    store = MemoryStore()
    with server(store) as client:
        key, tokens = human_game(client)
        with Client(client, key, tokens[0]) as ann, Client(client, key, tokens[1]) as bob, Client(client, key) as eve:
            first = ann.state["legal"][0]["text"]
            assert ann.state["can_undo"] is False
            assert ann.act(first)["type"] == "ack"
            assert ann.state["can_undo"] is True
            assert bob.until("state")["can_undo"] is False and len(bob.log) == 1
            assert eve.until("state")["can_undo"] is False and len(eve.log) == 1
            assert store.actions(key) == [first]

            ann.send({"type": "undo", "ply": ann.state["ply"]})
            assert ann.until("undone") == {"type": "undone", "seat": 0, "ply": 0}
            assert ann.until("ack")["ply"] == 0
            assert ann.until("state")["ply"] == 0 and ann.state["to_act"] == 0
            assert ann.state["can_undo"] is False  # nothing left to take back
            for other in (bob, eve):
                assert other.until("undone") == {"type": "undone", "seat": 0, "ply": 0}
                assert other.until("state")["ply"] == 0 and other.state["to_act"] == 0
            assert store.actions(key) == [] and store.get_game(key).ply == 0
            assert _table(client, key).state.history == []

            second = ann.state["legal"][1]["text"]  # a different choice now: the game goes on from ply 0
            assert ann.act(second)["type"] == "ack"
            assert store.actions(key) == [second]


def test_undo_refusals_change_nothing() -> None:
    store = MemoryStore()
    with server(store) as client:
        key, tokens = human_game(client)
        with Client(client, key, tokens[0]) as ann, Client(client, key, tokens[1]) as bob, Client(client, key) as eve:
            bob.send({"type": "undo", "ply": 0})
            refused = bob.until("error")
            assert refused["code"] == "undo_refused" and "no action to take back" in refused["message"]
            assert ann.act(ann.state["legal"][0]["text"])["type"] == "ack"
            bob.until("state")
            bob.send({"type": "undo", "ply": bob.state["ply"]})
            refused = bob.until("error")
            assert refused["code"] == "undo_refused" and "taken by seat 0" in refused["message"]
            ann.send({"type": "undo", "ply": 0})
            assert ann.until("error")["code"] == "stale_ply"
            eve.send({"type": "undo", "ply": 1})
            assert eve.until("error")["code"] == "spectator"
            assert bob.act(bob.state["legal"][0]["text"])["type"] == "ack"
            ann.until("state")
            assert ann.state["can_undo"] is False
            ann.send({"type": "undo", "ply": ann.state["ply"]})
            refused = ann.until("error")
            assert refused["code"] == "undo_refused" and "taken by seat 1" in refused["message"]
            assert len(store.actions(key)) == 2


def test_once_the_ai_has_answered_there_is_no_undo() -> None:
    with server() as client:
        key, tokens = create(client, "torabato", [{"kind": "human"}, {"kind": "ai", "agent": "random"}])
        secret = join(client, key, tokens[0])
        with Client(client, key, secret) as ann:
            ann.act(ann.state["legal"][0]["text"])
            while ann.state["to_act"] != 0:  # the AI reveals its card
                ann.until("state")
            assert ann.state["can_undo"] is False
            ann.send({"type": "undo", "ply": ann.state["ply"]})
            assert ann.until("error")["code"] == "undo_refused"


def test_players_see_how_many_spectators_watch() -> None:
    with server() as client:
        key, tokens = human_game(client)
        with Client(client, key, tokens[0]) as ann:
            assert ann.state["spectators"] == 0 and ann.welcome["game"]["spectators"] == 0
            with Client(client, key) as eve, Client(client, key):
                counts = [m["spectators"] for m in ann.sync() if m["type"] == "seats"]
                assert counts[-1] == 2
                assert eve.state["spectators"] >= 1
                assert client.get(f"/api/games/{key}").json()["spectators"] == 2
            seats = ann.until("seats")
            while seats["spectators"] != 0:
                seats = ann.until("seats")
            assert client.get(f"/api/games/{key}").json()["spectators"] == 0
