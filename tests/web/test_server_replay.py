"""Replays of finished games (issue 18, part 4): every step as a seat saw it at that time, and nothing more (the
leak test of test_server_leaks.py, step by step), every seat's cards open, the record that replays and verifies,
refusals for running games and bad requests."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from cardarena.cli.main import cli
from cardarena.engine import Rng, State, load
from cardarena.web.views import named_view, seat_names, state_view

from .server_fixtures import create, human_game, server
from .test_server_leaks import CASES

GAME_PART = ("to_act", "turn", "terminal", "returns", "observation", "board", "legal")


def finished_ai_game(client: TestClient, game_id: str, options: dict[str, Any]) -> str:
    """A game of random AI seats, played to its end by the server."""
    players = load(game_id, **options).num_players
    key, _ = create(client, game_id, [{"kind": "ai", "agent": "random"}] * players, options=options)
    tables = client.app.state.tables  # type: ignore[attr-defined]
    for _ in range(600):
        if client.get(f"/api/games/{key}").json()["status"] == "finished":
            return key
        task = tables.live(key).ai_task
        if task is not None:
            client.portal.call(_wait, task)  # type: ignore[attr-defined]
    raise AssertionError("the AI game did not finish")


async def _wait(task: Any) -> None:
    await asyncio.wait({task}, timeout=5)


def states_of(record: dict[str, Any]) -> list[State]:
    state = load(record["game"], **record["options"]).new_initial_state(record["seed"])
    out = [state.clone()]
    for text in record["actions"]:
        state.apply_text(text)
        out.append(state.clone())
    return out


REPLAYED = [*CASES[:5], CASES[6]]  # every game, and a 3-seat Tash-Kalar melee


@pytest.mark.parametrize(("game_id", "options"), REPLAYED, ids=[f"{g}-{len(o)}" for g, o in REPLAYED])
def test_a_seats_replay_shows_only_what_it_saw_then(game_id: str, options: dict[str, Any]) -> None:
    rng = Rng(18)
    with server() as client:
        key = finished_ai_game(client, game_id, options)
        record = client.get(f"/api/games/{key}/record").json()
        states = states_of(record)
        plies = len(states) - 1
        seat = 1
        for ply in sorted({0, 1, 2, plies // 3, plies // 2, plies - 1, plies}):
            step = client.get(f"/api/games/{key}/replay", params={"seat": seat, "ply": ply}).json()
            assert (step["ply"], step["plies"], step["seat"]) == (ply, plies, seat)
            expected = state_view(states[ply], seat, acting=False)
            assert set(GAME_PART) <= set(expected)
            view = {k: step.get(k) for k in expected}  # every field, the new ones too (end_reason: names put in)
            assert view == named_view(expected, seat_names([s["name"] for s in step["seats"]]))
            assert view["legal"] == []
            if not states[ply].is_terminal():
                for _ in range(2):  # what the seat could not see differs in resampled worlds: not in the step
                    world = states[ply].resample(seat, rng.fork())
                    assert state_view(world, seat, acting=False) == expected, f"ply {ply}: the replay step leaks"
            seen = [e["text"] for e in step["log"]]
            expected = []
            for before, text in zip(states[:ply], record["actions"][:ply], strict=True):
                action = before.game.parse_action(before, text)
                line = before.game.action_seen_by(before, action, seat)
                if not line and before.current_player == seat:
                    line = text
                if line:
                    expected.append(line)
            assert seen == expected
        spectator = client.get(f"/api/games/{key}/replay", params={"seat": "spectator", "ply": plies // 2}).json()
        assert spectator["observation"] == states[plies // 2].observation(None)


def test_the_open_replay_shows_every_seats_view_and_every_action() -> None:
    with server() as client:
        key = finished_ai_game(client, "torabato", {})
        record = client.get(f"/api/games/{key}/record").json()
        states = states_of(record)
        step = client.get(f"/api/games/{key}/replay", params={"seat": "open", "ply": 5}).json()
        assert [v["observation"] for v in step["views"]] == [states[5].observation(s) for s in (0, 1)]
        assert len(step["log"]) == 5
        end = client.get(f"/api/games/{key}/replay").json()  # no seat, no ply: a spectator at the end
        assert end["seat"] is None and end["ply"] == len(record["actions"]) and end["terminal"]


def test_the_downloaded_record_replays_and_verifies(tmp_path: Path) -> None:
    with server() as client:
        key = finished_ai_game(client, "dicebattle", {})
        path = tmp_path / "game.json"
        path.write_text(json.dumps(client.get(f"/api/games/{key}/record").json()))
    result = CliRunner().invoke(cli, ["replay", str(path), "--verify"])
    assert result.exit_code == 0, result.output


def test_replay_refusals() -> None:
    with server() as client:
        key, _ = human_game(client)
        running = client.get(f"/api/games/{key}/replay")
        assert running.status_code == 409 and running.json()["error"]["code"] == "not_finished"
        assert client.get("/api/games/nope/replay").status_code == 404
        done = finished_ai_game(client, "torabato", {})
        for params in ({"seat": "2"}, {"seat": "-1"}, {"seat": "x"}, {"ply": "100000"}, {"ply": "-1"}, {"ply": "1.5"}):
            answer = client.get(f"/api/games/{done}/replay", params=params)
            assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_request", params
        page = client.get(f"/replay/{done}")
        assert page.status_code == 200 and "replay.js" in page.text
