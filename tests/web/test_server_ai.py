"""AI seats: they think in the worker pool and play to the end; a failing agent falls back to random; a restarted
server rebuilds its unfinished games from the store and a reconnecting client resumes. Issue 27: the most
expensive spec the server accepts cannot starve another game's easy AI, a decision thinks within the budget and
a worker that does not stop is replaced, a browser gives strengths (agent specs only where the operator allows),
and the workers die with a server killed with SIGKILL."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import time
import urllib.request
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from cardarena.engine import load
from cardarena.web.ai import AIOverrun, AIPool, ThinkJob, check_agent, think
from cardarena.web.load import HOST, Server, free_port
from cardarena.web.store import MemoryStore

from .server_fixtures import Client, create, join, join_all, server
from .test_server_protocol import true_state

#: The most expensive spec the caps accept (issue 27: about 77 minutes a decision without a budget).
EXPENSIVE = "ismcts:iterations=20000,rollout=heuristic,depth=1000"


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


def _play_until_the_ai_is_to_act(me: Client) -> None:
    """Play the human seat's first legal actions until the AI seat (seat 1) is to act."""
    while me.state["to_act"] != 1:
        if me.state["legal"]:
            assert me.act(me.state["legal"][0]["text"])["type"] == "ack"
        else:
            me.next()


def _seconds_until_the_ai_acts(me: Client, limit: float) -> float:
    """Seconds from now until the AI seat's action reaches ``me`` (``limit`` and more: it did not in time)."""
    start = time.perf_counter()
    seen = len(me.log)
    while not any(entry["seat"] == 1 for entry in me.log[seen:]):
        left = limit - (time.perf_counter() - start)
        try:
            if left <= 0 or me.next(timeout=left)["type"] == "_closed":
                break
        except TimeoutError:
            break
    return time.perf_counter() - start


def test_the_most_expensive_spec_does_not_starve_another_games_easy_ai() -> None:
    check_agent(EXPENSIVE)  # accepted: the worst case this server takes (with agent specs allowed)
    with server(ai_workers=2, allow_agent_specs=True) as client:
        key, tokens = create(client, "torabato", [{"kind": "human"}, {"kind": "ai", "strength": "easy"}])
        secret = join(client, key, tokens[0])
        client.portal.call(client.app.state.tables.ai.warm)  # every worker started: no cold start is measured
        with Client(client, key, secret) as me:
            # as many games of the expensive spec as there are search workers: every one of them searches
            for _ in range(2):
                create(client, "torabato", [{"kind": "ai", "agent": EXPENSIVE}] * 2)
            for _ in range(3):  # three decisions of the easy AI while the searches run
                _play_until_the_ai_is_to_act(me)
                took = _seconds_until_the_ai_acts(me, 10.0)
                assert took < 2.0, f"the easy AI answered after {took:.1f} s beside two searches"


WARM_UP = 60.0  # seconds for the pool's first start on a busy machine


def _stubborn(job: ThinkJob, budget: float) -> str:
    """A worker's task that ignores its budget for the agent 'stubborn' (an agent that never looks at the clock)."""
    if job.agent == "stubborn":
        time.sleep(600)
    return think(job, budget)


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (not gone, not a zombie waiting to be reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def _gone(pids: list[int], within: float) -> list[int]:
    """The processes of ``pids`` still alive after waiting up to ``within`` seconds for them to end."""
    deadline = time.monotonic() + within
    while (alive := [p for p in pids if _alive(p)]) and time.monotonic() < deadline:
        time.sleep(0.05)
    return alive


def test_a_decision_thinks_within_the_budget_and_a_worker_that_overruns_is_replaced() -> None:
    budget, grace = 0.5, 1.0
    job = ThinkJob("k", "torabato", {}, 5, (), 0, "ismcts:iterations=10", 1)

    async def scenario() -> None:
        pool = AIPool(1, budget=budget, grace=grace, task=_stubborn)
        try:
            await pool.think(job, timeout=WARM_UP)  # every worker started, the game loaded
            start = time.perf_counter()
            text = await pool.think(replace(job, key="x", agent=EXPENSIVE), timeout=WARM_UP)
            took = time.perf_counter() - start
            assert took < budget + grace, f"the expensive spec answered after {took:.2f} s"
            load("torabato").new_initial_state(5).parse_legal(text)  # the search's choice: a legal action
            before = pool.pids()
            start = time.perf_counter()
            with pytest.raises(AIOverrun):
                await pool.think(replace(job, agent="stubborn"), timeout=WARM_UP)
            took = time.perf_counter() - start
            assert budget + grace - 0.05 <= took < budget + grace + 2.0, f"the overrun was noticed after {took:.2f} s"
            after = pool.pids()
            assert len(after) == len(before) and len(set(before) - set(after)) == 1
            assert _gone(list(set(before) - set(after)), 10.0) == [], "the overrunning worker still runs"
            assert await pool.think(job, timeout=WARM_UP)  # its replacement answers
        finally:
            pool.close()

    asyncio.run(scenario())


def test_a_browser_gets_strengths_and_an_agent_spec_is_refused_by_default() -> None:
    with server(allow_agent_specs=False) as client:
        answer = client.post(
            "/api/games", json={"game": "torabato", "seats": [{"kind": "human"}, {"kind": "ai", "agent": EXPENSIVE}]}
        )
        assert answer.status_code == 400, answer.text
        assert "--allow-agent-specs" in answer.json()["error"]["message"]
        assert client.get("/api/games").json() == []
        assert client.get("/api/catalogue").json()["agent_specs"] is False  # the lobby offers none
        create(client, "torabato", [{"kind": "human"}, {"kind": "ai", "strength": "hard"}])


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                out.append(int(entry.name))
    return out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process tree from Linux's /proc")
def test_the_ai_and_replay_workers_die_with_a_server_killed_with_sigkill(tmp_path: Path) -> None:
    port = free_port()
    served = Server(f"sqlite:///{tmp_path / 'web.db'}", port, ai_workers=1, log=tmp_path / "server.log")
    served.start()
    assert served.process is not None
    pid = served.process.pid
    try:

        def call(path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
            data = None if body is None else json.dumps(body).encode()
            request = urllib.request.Request(f"http://{HOST}:{port}{path}", data, {"content-type": "application/json"})
            with urllib.request.urlopen(request, timeout=30) as answer:
                reply: dict[str, Any] = json.loads(answer.read())
                return reply

        call("/api/games", {"game": "torabato", "seats": [{"kind": "ai", "strength": "hard"}] * 2})
        short = call("/api/games", {"game": "laplaplace", "seats": [{"kind": "ai", "strength": "easy"}] * 2})["key"]
        deadline = time.monotonic() + WARM_UP
        while len(_children(pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)  # the pool starts its workers (and multiprocessing its resource tracker)
        while call(f"/api/games/{short}")["status"] != "finished" and time.monotonic() < deadline:
            time.sleep(0.1)
        before_replay = set(_children(pid))
        assert call(f"/api/games/{short}/replay?ply=0")["ply"] == 0  # the replay worker starts: a process too
        time.sleep(0.5)  # let a search get under way (the test holds whether or not one is)
        started = _children(pid)
        assert started, "the server started no AI worker"
        assert set(started) - before_replay, "the replay started no worker process"
        os.kill(pid, signal.SIGKILL)  # the server only: its process group lives on
        served.process.wait(10)
        left = _gone(started, 10.0)
        assert left == [], f"processes the server started outlived it by 10 s: {left}"
    finally:
        if served.process.poll() is None:
            served.process.kill()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)  # whatever outlived it (the old code's workers)
