"""Replays must not compete with live play (issue 27, point 4): a step costs what it shows (ply 0 of a long
finished game replays nothing, and the game is not rebuilt as a live table), one client's replay requests waiting
at once are bounded (429 with Retry-After beyond), and the answers are exactly those of the straightforward
implementation the server had before (every state of the game cloned, the table's logs of every viewer)."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest

from cardarena.engine import State, load
from cardarena.web.load_replays import seed_finished_games
from cardarena.web.replays import CHECKPOINT_EVERY, PER_CLIENT
from cardarena.web.store import GameRow, MemoryStore
from cardarena.web.tables import build_table
from cardarena.web.views import named_entries, named_view, state_view

from .server_fixtures import server


def reference_answer(row: GameRow, actions: list[str], viewer: int | str | None, ply: int) -> dict[str, Any]:
    """The replay answer as the server gave it before issue 27: the game rebuilt as a table (every viewer's log),
    every state cloned, then the step read from those."""
    table = build_table(row, actions)
    state = load(row.game, **row.options).new_initial_state(row.seed)
    states = [state.clone()]
    for action in table.state.history:
        state.apply(action)
        states.append(state.clone())
    at = states[ply]
    base = {
        "key": row.key,
        "game": row.game,
        "title": at.game.name,
        "ply": ply,
        "plies": len(states) - 1,
        "seat": viewer,
        "seats": table.seats(),
        "result": row.result,
    }
    if viewer == "open":
        log = []
        for i, action in enumerate(table.state.history[:ply]):
            text = states[i].game.describe_action(states[i], action)
            told = states[i].game.narrate(states[i], action, states[i + 1], None)  # the consequences, as public
            log.append(
                {"n": i + 1, "ply": i + 1, "seat": states[i].current_player, "text": text, "lines": [text, *told[1:]]}
            )
        views = [named_view(state_view(at, seat, acting=False), table.names()) for seat in range(at.game.num_players)]
        answer = {**base, "views": views, "log": named_entries(log, table.names())}
    else:
        assert viewer is None or isinstance(viewer, int)
        entries = [e for e, p in zip(table.logs[viewer], table.entry_plies[viewer], strict=True) if p < ply]
        view = named_view(state_view(at, viewer, acting=False), table.names())
        answer = {**base, **view, "log": named_entries(entries, table.names())}
    result: dict[str, Any] = json.loads(json.dumps(answer))
    return result


class CountingStore(MemoryStore):
    """A store whose ``get_game`` can be held (to keep replay requests waiting in the server)."""

    def __init__(self) -> None:
        super().__init__()
        self.hold = threading.Event()
        self.hold.set()
        self.held = 0

    def get_game(self, key: str) -> GameRow:
        if not self.hold.is_set():
            self.held += 1
            self.hold.wait(30)
        return super().get_game(key)


@pytest.mark.parametrize("game_id", ["torabato", "laplaplace", "lyabi"])
def test_replay_steps_are_the_answers_of_the_straightforward_replay(game_id: str) -> None:
    store = MemoryStore()
    [(key, (row, actions))] = seed_finished_games(store, game_id, 1, seed=27).items()
    plies = len(actions)
    asked = [plies, 0, 1, CHECKPOINT_EVERY + 1, CHECKPOINT_EVERY, plies // 2, 2, plies - 1, CHECKPOINT_EVERY - 1]
    asked = list(dict.fromkeys(ply for ply in asked if ply <= plies))  # in this order, each once
    with server(store) as client:
        for viewer in (1, "open", None, 0):  # a seat's log built far, then steps behind it, then other viewers
            for ply in asked:
                seat = "spectator" if viewer is None else str(viewer)
                answer = client.get(f"/api/games/{key}/replay", params={"seat": seat, "ply": ply})
                assert answer.status_code == 200, answer.text
                assert answer.json() == reference_answer(row, actions, viewer, ply), (viewer, ply)


def test_a_replay_step_at_ply_0_of_a_long_finished_game_replays_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    store = MemoryStore()
    [(key, (_, actions))] = seed_finished_games(store, "torabato", 1, seed=4).items()
    assert len(actions) > 200
    counts = {"apply": 0, "clone": 0}
    state_class = type(load("torabato").new_initial_state(0))
    apply, clone = State.apply, state_class.clone

    def counted_apply(self: State, action: Any) -> None:
        counts["apply"] += 1
        apply(self, action)

    def counted_clone(self: State) -> State:
        counts["clone"] += 1
        return clone(self)

    monkeypatch.setattr(State, "apply", counted_apply)
    monkeypatch.setattr(state_class, "clone", counted_clone)
    with server(store) as client:
        first = client.get(f"/api/games/{key}/replay", params={"seat": "0", "ply": "0"})
        assert first.status_code == 200 and first.json()["ply"] == 0 and first.json()["log"] == []
        assert counts == {"apply": 0, "clone": 0}, f"ply 0 of a {len(actions)}-ply game cost {counts}"
        tables = client.app.state.tables  # type: ignore[attr-defined]
        assert tables.live(key) is None, "the finished game was rebuilt as a live table to give a replay step"
        middle = len(actions) // 2
        assert client.get(f"/api/games/{key}/replay", params={"seat": "1", "ply": middle}).status_code == 200
        # the log tells each action's consequences (narrate compares the state before and after): one clone per
        # action the log covers, besides the checkpoints
        assert counts["apply"] == middle and counts["clone"] <= middle + middle // CHECKPOINT_EVERY + 1, counts
        counts.update(apply=0, clone=0)  # a step back from there starts at the checkpoint before it
        assert client.get(f"/api/games/{key}/replay", params={"seat": "1", "ply": middle - 1}).status_code == 200
        assert counts["apply"] < CHECKPOINT_EVERY and counts["clone"] <= 1, counts


def test_one_clients_replay_requests_waiting_at_once_are_bounded() -> None:
    store = CountingStore()
    [key] = seed_finished_games(store, "dicebattle", 1, seed=9)
    extra = 3
    with server(store) as client, ThreadPoolExecutor(PER_CLIENT + extra) as pool:
        store.hold.clear()  # the requests wait in the server (reading the store) until the hold is released

        def ask(ply: int) -> Any:
            return client.get(f"/api/games/{key}/replay", params={"ply": ply})

        answers: list[Future[Any]] = [pool.submit(ask, ply) for ply in range(PER_CLIENT + extra)]
        deadline = time.monotonic() + 20
        while sum(a.done() for a in answers) < extra and time.monotonic() < deadline:
            time.sleep(0.02)
        refused = [a.result() for a in answers if a.done()]
        store.hold.set()
        done = [a.result(timeout=30) for a in answers]
    assert len(refused) == extra, f"{len(refused)} of {len(answers)} requests answered while the others waited"
    for answer in refused:
        assert answer.status_code == 429 and answer.json()["error"]["code"] == "rate_limited", answer.text
        assert answer.headers["retry-after"] == "1"
    assert sorted(a.status_code for a in done) == [200] * PER_CLIENT + [429] * extra


def test_the_record_and_rules_of_a_finished_game_do_not_rebuild_it_as_a_live_table() -> None:
    """The same attack through the record and the rules page: each request for a finished game not in memory
    rebuilt it as a live table (every viewer's log) in the server process, and kept it there. Now the record is
    replayed by the replay worker, under the same bound per client, and the rules page needs the game alone."""
    store = MemoryStore()
    seeded = seed_finished_games(store, "lyabi", 2, seed=11)
    with server(store) as client:
        tables = client.app.state.tables  # type: ignore[attr-defined]
        for key, (row, actions) in seeded.items():
            record = client.get(f"/api/games/{key}/record")
            assert record.status_code == 200, record.text
            assert record.json() == build_table(row, actions).state.to_record()
            rules = client.get(f"/api/games/{key}/rules")
            assert rules.status_code == 200 and rules.text == load(row.game, **row.options).rules_text()
            assert tables.live(key) is None, "the finished game was rebuilt as a live table"
        assert client.get("/api/games/no-such-game/record").status_code == 404
        assert client.get("/api/games/no-such-game/rules").status_code == 404


def test_one_clients_record_requests_share_the_replay_bound() -> None:
    store = CountingStore()
    [key] = seed_finished_games(store, "dicebattle", 1, seed=9)
    extra = 2
    with server(store) as client, ThreadPoolExecutor(PER_CLIENT + extra) as pool:
        store.hold.clear()
        answers = [pool.submit(client.get, f"/api/games/{key}/record") for _ in range(PER_CLIENT + extra)]
        deadline = time.monotonic() + 20
        while sum(a.done() for a in answers) < extra and time.monotonic() < deadline:
            time.sleep(0.02)
        store.hold.set()
        done = [a.result(timeout=30) for a in answers]
    assert sorted(a.status_code for a in done) == [200] * PER_CLIENT + [429] * extra
