"""The end of a game in words (issue 28, point 7): every game says why it ended (``Game.end_reason``), and a finished
game's ``state`` message carries it with the players' names put in, never a seat number; the AI strengths come in
words with what they mean (the welcome's ``strengths``, the catalogue's ``strength_words``), never an agent spec,
and each thinks under its own time cap (point 9)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest

from cardarena.agents import SeatView, make_agent
from cardarena.engine import load
from cardarena.web import ai as web_ai
from cardarena.web.ai import ThinkJob, strength_seconds
from cardarena.web.views import seat_names, with_names

from .server_fixtures import Client, create, server
from .test_server_leaks import CASES
from .test_server_replay import finished_ai_game

#: how the engine names a seat, and the words a result line must not show
JARGON = re.compile(r"\b(?:[Ss]eat(?:\(s\))? \d|P\d)\b|returns|ismcts|iterations=|heuristic")


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=[f"{g}-{len(o)}" for g, o in CASES])
def test_every_game_says_why_it_ended_in_words(game_id: str, options: dict[str, Any]) -> None:
    game = load(game_id, **options)
    names = [f"Player{seat}" for seat in range(game.num_players)]
    for seed in (1, 2):
        state = game.new_initial_state(seed)
        agents = [make_agent("random", seed + s) for s in range(game.num_players)]
        assert game.end_reason(state) is None  # a running game has no end yet
        while not state.is_terminal():
            state.apply(agents[state.current_player].act(SeatView(state, state.current_player)))
        reason = game.end_reason(state)
        assert reason, f"{game_id} seed {seed}: no end reason"
        named = with_names(reason, names)
        assert not JARGON.search(named), named


@pytest.mark.parametrize(("game_id", "options"), [CASES[0], CASES[6]], ids=["torabato", "melee"])
def test_a_finished_games_state_says_why_it_ended_with_names(game_id: str, options: dict[str, Any]) -> None:
    with server() as client:
        key = finished_ai_game(client, game_id, options)
        table = client.app.state.tables.live(key)  # type: ignore[attr-defined]
        spectator = Client(client, key)
        try:
            state = spectator.state
            assert state["terminal"]
            names = seat_names([s["name"] for s in state["seats"]])
            expected = with_names(table.state.game.end_reason(table.state), names)
            assert state["end_reason"] == expected
            assert not JARGON.search(re.sub(r"AI \(random\)", "", expected)), expected
            assert state["turn_player"] is None
            # the AI strengths in words (the table's "an AI plays on" menu), never an agent spec
            words = spectator.welcome["strengths"]
            assert set(words) == {"easy", "normal", "hard", "expert"}
            for label, w in words.items():
                assert w["title"].lower().startswith(label) and " s a move" in w["title"], w
                assert not JARGON.search(w["title"] + w["words"]), w
        finally:
            spectator.close()


def test_the_catalogue_gives_each_strength_in_words() -> None:
    with server() as client:
        games = client.get("/api/catalogue").json()["games"]
    for g in games:
        if g["id"].startswith("toy"):
            continue
        choices = [g["strength_words"], *(w for by in g["strength_words_by"].values() for w in by.values())]
        for words in choices:
            assert set(words) == {"easy", "normal", "hard", "expert"}
            for w in words.values():
                assert " s a move" in w["title"] and not JARGON.search(w["title"] + w["words"]), (g["id"], w)
        for o in g["options"]:
            assert o["label"] and not JARGON.search(o["label"] + " " + o["about"]), (g["id"], o)
    tash = next(g for g in games if g["id"] == "tashkalar")
    assert set(tash["strength_words_by"]["mode"]) == {"highform", "deathmatch", "melee"}


def test_ai_seats_are_named_in_words_and_told_apart() -> None:
    with server() as client:
        seats = [{"kind": "human"}, *([{"kind": "ai", "strength": "normal"}] * 2), {"kind": "ai", "strength": "hard"}]
        key, _ = create(client, "tashkalar", seats, options={"mode": "melee", "players": 4})
        names = [s["name"] for s in client.get(f"/api/games/{key}").json()["seats"]]
    assert names == ["", "Normal AI", "Normal AI 2", "Hard AI"]


def test_an_ai_decision_thinks_under_its_strengths_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """A strength's cap (``levels.LEVEL_SECONDS``) is the time limit the worker imposes, under the server's budget; an
    agent spec given instead of a label has the budget alone. (What a decision costs is measured, not tested:
    scripts/ai_timings.py.)"""
    seen: list[float] = []

    @contextmanager
    def spy(seconds: float) -> Iterator[float]:
        seen.append(seconds)
        yield 0.0

    monkeypatch.setattr(web_ai, "time_limit", spy)
    state = load("torabato").new_initial_state(1)
    job = ThinkJob("k", "torabato", {}, 1, (), state.current_player, "random", 1, seconds=strength_seconds("hard"))
    for budget in (10.0, 1.0, None):
        web_ai.think(job, budget)
    web_ai.think(replace(job, seconds=strength_seconds(None)), 10.0)
    assert seen == [2.5, 1.0, 2.5, 10.0]
    assert strength_seconds("hard") == 2.5 and strength_seconds("normal") == strength_seconds("easy") == 1.0
