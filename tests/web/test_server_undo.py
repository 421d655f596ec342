"""Undo and spectators at the server (issue 18, parts 5 and 6): ``can_undo`` offered to the seat that may take
its last action back, the ``undo`` message committed to the store before anyone is told, the log entry withdrawn
for the viewers that saw it, refusals with the reason, AI seats that never undo; the number of spectators."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from fastapi.testclient import TestClient

from cardarena.web.store import MemoryStore

from .server_fixtures import Client, create, human_game, join, join_all, server


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


def test_the_undo_button_does_not_tell_a_seat_that_another_seat_added_to_its_secret_build() -> None:
    """Issue 27, point 6: in Laplaplace's blind build an ``add`` is not seen by the other seat, not even in number.
    Seat 0 finishes its build; then seat 1 adds a card, and takes it back. Seat 0 must not be able to tell any of
    this: it is sent nothing, a fresh connection gets the same state, and its own undo gets the same verdict at
    each step (on the old code ``can_undo`` went true -> false with seat 1's first add, and the refusal said "the
    last action was taken by seat 1" exactly when seat 1 had added)."""
    with server() as client, ExitStack() as stack:
        key, tokens = create(client, "laplaplace", [{"kind": "human"}, {"kind": "human"}])
        secrets = join_all(client, key, tokens)
        seat_0 = [stack.enter_context(Client(client, key, secrets[0]))]  # its connections, the newest last
        bob = stack.enter_context(Client(client, key, secrets[1]))
        ann = seat_0[0]
        assert ann.act(ann.state["legal"][0]["text"])["type"] == "ack"  # a card, then done: its build is complete
        assert ann.act("done")["type"] == "ack"
        finished = ann.state
        assert finished["to_act"] == 1

        def what_seat_0_is_sent() -> tuple[list[dict[str, Any]], dict[str, Any]]:
            """What seat 0's connection was sent meanwhile (``seats``, who is connected, left out: the same
            either way), and the state a new connection of seat 0 gets (it replaces the older one, as a
            reload does)."""
            got = [m for m in seat_0[-1].sync() if m["type"] != "seats"]
            again = stack.enter_context(Client(client, key, secrets[0], since=seat_0[-1].state["ply"]))
            seat_0.append(again)
            return got, again.state

        def seat_0_undoes() -> dict[str, Any]:
            seat_0[-1].send({"type": "undo", "ply": seat_0[-1].state["ply"]})
            while (answer := seat_0[-1].next())["type"] not in ("error", "ack"):
                pass
            return answer

        untouched = what_seat_0_is_sent()
        bob.until("state")
        bob_ply = bob.state["ply"]  # it saw seat 0 finish its build
        assert bob.act(bob.state["legal"][0]["text"])["type"] == "ack"  # an add: hidden from seat 0
        assert bob.state["can_undo"] is True  # its own add, seen by no one else: it may take it back
        assert what_seat_0_is_sent() == untouched
        refused_after_add = seat_0_undoes()
        assert refused_after_add["code"] == "undo_refused"
        bob.send({"type": "undo", "ply": bob.state["ply"]})
        assert bob.until("ack")["ply"] == bob_ply
        assert what_seat_0_is_sent() == untouched
        assert seat_0_undoes() == refused_after_add  # the verdict where seat 1 has not acted (any more)
        # Seat 0 cannot know whether seat 1 has acted since its build: so it may not take its build back.
        assert untouched[0] == [] and untouched[1]["can_undo"] is False and finished["can_undo"] is False
        assert {k: v for k, v in untouched[1].items() if k != "log"} == {
            k: v for k, v in finished.items() if k != "log"
        }
