"""Thinking and help at the table (issue 28, point 9), at the wire: an AI seat's ``thinking`` reaches every
connection and is cleared once it has acted; ``hint`` and ``odds`` are answered to the asking seat only, from its
own view (the same in every world resampled for it), one question at a time, never to a spectator or to a seat
that is not to act (a hint)."""

from __future__ import annotations

import threading
from datetime import datetime
from itertools import pairwise
from typing import Any

import pytest

from cardarena.agents.advice import TOP_HINTS
from cardarena.engine import Rng, State, load
from cardarena.web import advice, ai
from cardarena.web.views import seat_names, with_names

from .server_fixtures import Client, create, human_game, join, server

WORLDS = 3


def _row(client: Any, key: str) -> Any:
    return client.app.state.tables.live(key).row


def _replayed(game: str, seed: int, actions: list[str]) -> State:
    state = load(game).new_initial_state(seed)
    for text in actions:
        state.apply_text(text)
    return state


def _answer(c: Client, kind: str) -> dict[str, Any]:
    """The answer to ``kind`` (``hint`` or ``odds``) or the error that refuses it."""
    while True:
        message = c.next()
        assert message["type"] != "_closed"
        if message["type"] in (kind, "error"):
            return message


def _named(answer: dict[str, Any], names: list[str]) -> dict[str, Any]:
    rows = [{**r, "label": with_names(r["label"], names)} for r in answer.get("rows", [])]
    facts = [{**f, "fact": with_names(f["fact"], names)} for f in answer.get("facts", [])]
    return {**answer, "rows": rows} if "rows" in answer else {**answer, "facts": facts}


@pytest.mark.parametrize("game", ["lyabi", "dicebattle"])
def test_hint_and_odds_go_to_the_asking_seat_only_and_read_only_its_view(game: str) -> None:
    rng = Rng(7)
    with server() as client:
        key, secrets = human_game(client, game)
        row = _row(client, key)
        names = seat_names([s.name for s in row.seats])
        seats = [Client(client, key, s) for s in secrets]
        watcher = Client(client, key)
        played: list[str] = []
        try:
            for _ in range(5):  # a few actions in: hidden cards in hand, the opponent's unknown
                state = _replayed(game, row.seed, played)
                legal = state.legal_actions()
                text = str(legal[rng.randbelow(len(legal))])
                actor = seats[state.current_player]
                actor.sync()  # its state is the latest (its ply)
                assert actor.act(text)["type"] == "ack"
                played.append(text)
            state = _replayed(game, row.seed, played)
            seat = state.current_player
            assert seat is not None
            me, other = seats[seat], seats[1 - seat]
            for c in (*seats, watcher):
                c.sync()
            ply = me.state["ply"]
            me.send({"type": "hint"})
            hint = _answer(me, "hint")
            me.send({"type": "odds"})
            odds = _answer(me, "odds")
            assert hint["type"] == "hint" and odds["type"] == "odds", (hint, odds)
            assert hint["ply"] == odds["ply"] == ply
            assert 1 <= len(hint["rows"]) <= TOP_HINTS and odds["worlds"] == advice.ODDS_WORLDS
            legal_labels = {a["text"]: a for a in me.state["legal"]}
            for r in hint["rows"]:  # in the words of the table's choices, not raw action texts only
                group, detail = legal_labels[r["action"]]["group"], legal_labels[r["action"]]["detail"]
                assert r["label"] == (f"{group}: {detail}" if detail else group)
            assert all("seat " not in f["fact"] for f in odds["facts"])
            # what the seat is told is what its own view gives, in the true state and in every world it cannot
            # tell from it (the seeds are the server's: the game's, the seat and the seat's own ply)
            hint_seed = advice.advice_seed(row.seed, advice.TAG_HINT, seat, ply)
            odds_seed = advice.advice_seed(row.seed, advice.TAG_ODDS, seat, ply)
            got = {k: v for k, v in hint.items() if k not in ("type", "ply")}
            got_odds = {k: v for k, v in odds.items() if k not in ("type", "ply")}
            for world in [state, *(state.resample(seat, rng.fork()) for _ in range(WORLDS))]:
                assert _named(advice.hint(world, seat, seed=hint_seed), names) == got, "the hint leaks"
                assert _named(advice.odds(world, seat, seed=odds_seed), names) == got_odds, "the odds leak"
            # nobody else hears of it
            for c in (other, watcher):
                assert all(m["type"] in ("state", "seats") for m in c.sync())
            # the other seat may ask for odds (its own), not for a hint; a spectator for neither
            other.send({"type": "hint"})
            assert _answer(other, "hint")["code"] == "not_your_turn"
            other.send({"type": "odds"})
            assert _answer(other, "odds")["type"] == "odds"
            for kind in ("hint", "odds"):
                watcher.send({"type": kind})
                assert _answer(watcher, kind)["code"] == "spectator"
        finally:
            for c in (*seats, watcher):
                c.close()


def test_one_question_at_a_time_per_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    gate = threading.Event()
    real = ai.advise

    def held(job: ai.ThinkJob, budget: float | None = None) -> str:
        assert gate.wait(30), "the test did not release the question"
        return real(job, budget)

    monkeypatch.setattr(ai, "advise", held)
    with server() as client:
        key, secrets = human_game(client, "lyabi")
        state = load("lyabi").new_initial_state(_row(client, key).seed)
        me = Client(client, key, secrets[state.current_player])
        try:
            me.send({"type": "hint"})
            me.send({"type": "odds"})  # the hint is still being computed: refused, nothing queued
            refused = _answer(me, "odds")
            assert refused["type"] == "error" and refused["code"] == "busy", refused
            gate.set()
            assert _answer(me, "hint")["type"] == "hint"
            me.send({"type": "odds"})  # answered: the seat may ask again
            assert _answer(me, "odds")["type"] == "odds"
        finally:
            gate.set()
            me.close()


def _until_thinking(c: Client, seat: int | None) -> list[dict[str, Any]]:
    """The messages up to and including the ``thinking`` message about ``seat``."""
    got = []
    while True:
        message = c.next(timeout=20)
        assert message["type"] != "_closed"
        got.append(message)
        if message["type"] == "thinking" and message["seat"] == seat:
            return got


def test_thinking_reaches_every_connection_and_is_cleared_when_the_ai_has_acted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gate = threading.Event()
    real = ai._rebuild

    def held(job: ai.ThinkJob) -> State:
        assert gate.wait(30), "the test did not let the AI think"
        return real(job)

    monkeypatch.setattr(ai, "_rebuild", held)
    with server() as client:
        key, tokens = create(client, "torabato", [{"kind": "human"}, {"kind": "ai", "agent": "random"}])
        secret = join(client, key, tokens[0])
        me, watcher = Client(client, key, secret), Client(client, key)
        try:
            rng = Rng(3)
            if me.state["to_act"] == 0:  # the human first: act until the AI is to act
                while me.state["to_act"] == 0:
                    legal = me.state["legal"]
                    assert me.act(legal[rng.randbelow(len(legal))]["text"])["type"] == "ack"
            started = [_until_thinking(c, 1)[-1] for c in (me, watcher)]
            assert started[0] == started[1], "the thinking is public: the same to everyone"
            assert started[0]["elapsed"] >= 0 and datetime.fromisoformat(started[0]["since"])
            late = Client(client, key)  # a page that comes while the AI thinks is told so after its state
            assert late.next(timeout=20)["type"] == "thinking" and late.messages[-1]["seat"] == 1
            late.close()
            gate.set()
            for c in (me, watcher):
                got = _until_thinking(c, None)
                states = [m for m in got if m["type"] == "state"]
                assert states and states[-1]["to_act"] != 1, "cleared once the AI has acted and is no longer to act"
                assert any(e["seat"] == 1 for s in states for e in s["log"]), "the AI's action came first"
        finally:
            gate.set()
            me.close()
            watcher.close()


def test_thinking_does_not_count_hidden_decisions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Laplaplace's secret build between two AI seats: a spectator does not see the adds, not even in number, so a
    run of one seat's decisions is one ``thinking`` (one message per decision would count the hidden adds)."""
    gate = threading.Event()
    real = ai._rebuild

    def held(job: ai.ThinkJob) -> State:
        assert gate.wait(30), "the test did not let the AI think"
        return real(job)

    monkeypatch.setattr(ai, "_rebuild", held)
    with server() as client:
        random_ai = {"kind": "ai", "agent": "random"}
        key, _ = create(client, "laplaplace", [random_ai, random_ai])
        watcher = Client(client, key)  # before the first decision: it hears every thinking
        try:
            gate.set()
            thinking: list[int | None] = []
            while not watcher.state.get("terminal"):
                message = watcher.next(timeout=30)
                assert message["type"] != "_closed"
                if message["type"] == "thinking":
                    thinking.append(message["seat"])
            if watcher.messages[-1]["type"] != "thinking" or watcher.messages[-1]["seat"] is not None:
                thinking.extend(m["seat"] for m in watcher.sync() if m["type"] == "thinking")
            played = len(client.app.state.tables.live(key).state.history)  # type: ignore[attr-defined]
            assert len(watcher.log) < played, "the spectator did not see every action (the secret build)"
            assert thinking and thinking[-1] is None
            assert all(a != b for a, b in pairwise(thinking)), thinking
            assert len(thinking) <= len(watcher.log) + 2, "no more thinking than what the spectator saw happen"
        finally:
            gate.set()
            watcher.close()
