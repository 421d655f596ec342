"""The lobby shows each AI strength with its rating on the game's ladder and its time a move (issue 31, point 4).

A ladder file (what ``cardarena ladder GAME --write`` keeps in ``agents/models/ladder.json``) rates ToraBato's
strengths; the server's catalogue and a table's "an AI plays on" menu then word each strength with its rating,
interval and time a move, and a strength the ladder does not rate, or rated as another agent spec than the
label's now, says "not yet rated".
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardarena
from cardarena.agents import levels
from cardarena.arena.ladder import model_digest

from .server_fixtures import Client, human_game, server


def ladder_fixture() -> dict[str, Any]:
    expert = {"spec": "expert", "elo": 1480, "low": 1390, "high": 1570, "seconds_per_decision": 0.38}
    digest = model_digest(cardarena.load("torabato"), "expert")  # the model shipped now, if any: rated with it
    if digest is not None:
        expert["model"] = digest
    return {
        "torabato": {
            "anchor": "random = 0",
            "seed": 0,
            "pairs": 20,
            "command": "cardarena ladder torabato -n 20 --seed 0",
            "strengths": {
                "random": {"spec": "random", "elo": 0, "low": 0, "high": 0, "seconds_per_decision": 0.00001},
                "easy": {"spec": "heuristic", "elo": 655, "low": 590, "high": 720, "seconds_per_decision": 0.00002},
                "normal": {"spec": "ismcts:iterations=99", "elo": 900, "low": 800, "high": 1000},  # another spec
                "hard": {
                    "spec": "ismcts:iterations=2000",
                    "elo": 1210,
                    "low": 1150,
                    "high": 1270,
                    "seconds_per_decision": 0.42,
                },
                "expert": expert,
            },
        }
    }


@pytest.fixture
def rated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    data = ladder_fixture()
    (tmp_path / "ladder.json").write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(levels, "MODELS", tmp_path)
    levels.reload()
    try:
        yield data
    finally:
        monkeypatch.undo()
        levels.reload()


def test_the_catalogue_words_each_strength_with_its_rating_and_time_a_move(rated: dict[str, Any]) -> None:
    with server() as client:
        games = {g["id"]: g for g in client.get("/api/catalogue").json()["games"]}
    words = games["torabato"]["strength_words"]
    assert list(words) == ["easy", "normal", "hard", "expert"]  # the expert is offered in the lobby
    assert words["hard"]["title"] == "Hard AI — rated 1210, about 0.4 s a move"
    assert "rated 1210 [1150, 1270] on this game's ladder, where random play is 0" in words["hard"]["words"]
    assert words["hard"]["rating"]["elo"] == 1210
    assert words["easy"]["title"] == "Easy AI — rated 655, under 0.1 s a move"
    assert words["expert"]["title"] == "Expert AI — rated 1480, about 0.4 s a move"
    # rated as another spec than the lobby's normal: not this strength's rating
    assert words["normal"]["title"].startswith("Normal AI — not yet rated, ")
    assert "not yet rated" in words["normal"]["words"] and words["normal"]["rating"] is None
    # a game the ladder does not cover
    for label, w in games["lyabi"]["strength_words"].items():
        assert "not yet rated" in w["title"] and w["rating"] is None, label


def test_a_tables_hand_over_menu_words_the_ratings_too(rated: dict[str, Any]) -> None:
    with server() as client:
        key, secrets = human_game(client, "torabato")
        seat = Client(client, key, secrets[0])
        try:
            welcome = seat.welcome
        finally:
            seat.close()
    assert welcome["type"] == "welcome"
    strengths = welcome["strengths"]
    assert strengths["hard"]["title"] == "Hard AI — rated 1210, about 0.4 s a move"
    assert strengths["expert"]["title"].startswith("Expert AI — rated 1480")


def test_without_a_ladder_every_strength_is_not_yet_rated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(levels, "MODELS", tmp_path)  # no ladder.json there
    levels.reload()
    try:
        with server() as client:
            games = client.get("/api/catalogue").json()["games"]
        for g in games:
            for w in g["strength_words"].values():
                assert "not yet rated" in w["title"], (g["id"], w)
    finally:
        monkeypatch.undo()
        levels.reload()
