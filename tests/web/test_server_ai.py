"""AI seats: they think in the worker pool and play to the end; a failing agent falls back to random; a restarted
server rebuilds its unfinished games from the store and a reconnecting client resumes."""

from __future__ import annotations

import logging

import pytest

from cardarena.web.ai import ThinkJob, check_agent, think
from cardarena.web.store import MemoryStore

from .server_fixtures import Client, create, join, join_all, server
from .test_server_protocol import true_state


def test_two_ai_seats_play_to_the_end_through_the_process_pool() -> None:
    store = MemoryStore()
    with server(store, ai_workers=1) as client:
        key, tokens = create(
            client, "torabato", [{"kind": "ai", "agent": "random"}, {"kind": "ai", "strength": "easy"}]
        )
        assert tokens == []
        with Client(client, key) as watcher:
            while not watcher.state["terminal"]:
                watcher.next()
            assert watcher.state["returns"] is not None
        game = client.get(f"/api/games/{key}").json()
        assert game["status"] == "finished" and game["result"] == watcher.state["returns"]
        assert client.get(f"/api/games/{key}/record").json()["actions"] == store.actions(key)


def test_a_human_plays_an_ai_to_the_end_through_the_websocket() -> None:
    with server(ai_workers=1) as client:
        key, tokens = create(client, "laplaplace", [{"kind": "human"}, {"kind": "ai", "strength": "easy"}])
        tokens[0] = join(client, key, tokens[0], "Ann")
        with Client(client, key, tokens[0]) as me:
            acted = 0
            while not me.state["terminal"]:
                if me.state["legal"]:
                    assert me.act(me.state["legal"][-1]["text"])["type"] == "ack"
                    acted += 1
                else:
                    me.next()
            assert acted > 0 and me.state["returns"] is not None
            assert any(entry["seat"] == 1 for entry in me.log)


def test_a_failing_agent_is_logged_and_the_seat_plays_random(caplog: pytest.LogCaptureFixture) -> None:
    store = MemoryStore()
    with server(store, ai_workers=0, ai_timeout=0.000001) as client, caplog.at_level(logging.ERROR):
        key, _ = create(client, "dicebattle", [{"kind": "ai", "strength": "hard"}, {"kind": "ai", "agent": "random"}])
        with Client(client, key) as watcher:
            while not watcher.state["terminal"]:
                watcher.next()
    assert "falls back to 'random'" in caplog.text
    assert true_state(store, key).is_terminal()


def test_agent_specs_and_the_worker_task() -> None:
    for bad in ("mcts", "ismcts:iterations=20001", "flatmc:seconds=60", "nobody", "", "x" * 300):
        with pytest.raises(ValueError):
            check_agent(bad)
    check_agent("ismcts:iterations=2000")
    job = ThinkJob("k", "torabato", {}, 5, (), 0, "random", 1)
    first = think(job)
    assert think(job) == first  # same seed, same choice; the second call reuses the worker's rebuilt state


def test_a_restarted_server_rebuilds_unfinished_games_and_clients_resume() -> None:
    store = MemoryStore()
    with server(store) as client:
        key, tokens = create(client, "lyabi", [{"kind": "human"}, {"kind": "human"}])
        tokens = join_all(client, key, tokens)
        with Client(client, key, tokens[0]) as a, Client(client, key, tokens[1]) as b:
            for _ in range(12):
                actor = a if a.state["legal"] else b
                actor.act(actor.state["legal"][0]["text"])
                (b if actor is a else a).sync()
            kept = {0: list(a.log), 1: list(b.log)}
            last = {0: a.state, 1: b.state}
    with server(store) as client:  # a new app on the same store: the server restarted
        assert client.get(f"/api/games/{key}").json()["status"] == "running"
        for seat, token in enumerate(tokens):
            with Client(client, key, token, since=len(kept[seat])) as again:
                assert again.state["log"] == []  # nothing sent twice
                assert again.state["ply"] == last[seat]["ply"]
                assert {k: again.state[k] for k in ("observation", "legal", "board")} == {
                    k: last[seat][k] for k in ("observation", "legal", "board")
                }
            with Client(client, key, token, since=0) as fresh:
                assert fresh.state["log"] == kept[seat]
        with Client(client, key, tokens[0]) as a, Client(client, key, tokens[1]) as b:
            actor = a if a.state["legal"] else b
            assert actor.act(actor.state["legal"][0]["text"])["type"] == "ack"
        assert len(store.actions(key)) == 13
