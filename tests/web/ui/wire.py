"""Fixtures for the browser pages: the WebSocket messages docs/web.md describes, built from seeded engine games.

The server is not needed: a game is played here with agents, and after every action the ``state`` message one
seat would receive is written as the server sends it (``observation(seat)``, ``board(seat)``, the legal actions
with their ``choice_label`` and ``confirm`` when the seat is to act, the new log lines ``action_seen_by(seat)``).
The pages' fixture mode (``table.html?fixture=URL``) plays such a file back, so a table is drawn and clicked
without a server.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cardarena.agents import make_agent
from cardarena.agents.base import SeatView
from cardarena.engine import State, load
from cardarena.web.views import legal_view, named_view, seat_names, with_names

#: The fixtures the tests and the screenshot script use: (name, game id, options, seed, seat, agent specs).
FIXTURES: tuple[tuple[str, str, dict[str, Any], int, int | None, tuple[str, str]], ...] = (
    ("torabato", "torabato", {}, 7, 0, ("heuristic", "heuristic")),
    ("torabato-seat1", "torabato", {}, 11, 1, ("heuristic", "random")),
    ("laplaplace", "laplaplace", {}, 3, 0, ("heuristic", "random")),
    ("laplaplace-open", "laplaplace", {"build": "open"}, 5, 1, ("random", "heuristic")),
    ("torabato-watch", "torabato", {}, 13, None, ("heuristic", "heuristic")),  # a spectator: observation(None)
    ("laplaplace-watch", "laplaplace", {}, 17, None, ("heuristic", "random")),
)

#: Player names: one holds markup, so the tests check it is shown as text.
NAMES = ("Ada", "<script>window.__pwned=1</script><b>Bo</b>")


def seats_summary(num: int, seat: int | None, specs: tuple[str, ...]) -> list[dict[str, Any]]:
    """The ``seats`` of a game summary (docs/web.md, REST): the fixture's seat is human, the others AI."""
    out = []
    for s in range(num):
        human = s == seat or (s == 1 and seat is None)
        out.append(
            {
                "seat": s,
                "name": NAMES[s % 2] if human else f"{specs[s % len(specs)]} AI",
                "kind": "human" if human else "ai",
                "label": None if human else specs[s % len(specs)],
                "taken": True,
                "connected": True,
            }
        )
    return out


def state_message(state: State, seat: int | None, log: list[dict[str, Any]], seats: list[dict[str, Any]]) -> dict:
    """The ``state`` message for ``seat`` (``None``: a spectator); ``log`` holds the new entries only."""
    game = state.game
    to_act = None if state.is_terminal() else state.current_player
    legal = legal_view(state, seat)  # as the server sends them: group, detail and the confirm question
    return {
        "type": "state",
        "ply": len(state.history),
        "to_act": to_act,
        "terminal": state.is_terminal(),
        "returns": list(state.returns()) if state.is_terminal() else None,
        "observation": state.observation(seat),
        "board": [
            {"title": p.title, "lines": list(p.lines), "seat": p.seat, "key": p.key} for p in game.board(state, seat)
        ],
        "legal": legal,
        "log": log,
        "seats": seats,
        "turn_player": None if state.is_terminal() else game.turn_player(state),
        **named_view({"end_reason": game.end_reason(state)}, seat_names([s["name"] for s in seats])),
    }


def play_fixture(
    game_id: str, options: dict[str, Any], seed: int, seat: int | None, specs: tuple[str, str], max_plies: int = 400
) -> dict[str, Any]:
    """Play one seeded game with ``specs`` and return ``{game, seat, welcome, rules, messages}``."""
    game = load(game_id, **options)
    state = game.new_initial_state(seed)
    agents = [make_agent(specs[s % len(specs)], seed + s) for s in range(game.num_players)]
    seats = seats_summary(game.num_players, seat, specs)
    summary = {
        "key": f"fixture-{game_id}",
        "game": game_id,
        "title": game.name,
        "status": "running",
        "seats": seats,
        "ply": 0,
        "created": "2026-01-01T00:00:00Z",
    }
    messages: list[dict[str, Any]] = [state_message(state, seat, [], seats)]
    names = seat_names([s["name"] for s in seats])
    n = 0
    while not state.is_terminal() and len(state.history) < max_plies:
        actor = state.current_player
        assert actor is not None
        action = agents[actor].act(SeatView(state, actor))
        seen = game.action_seen_by(state, action, seat)
        ply = len(state.history)
        before = state.clone()
        state.apply(action)
        log = []
        if seen:
            n += 1  # entries are numbered from 1: ``since`` is the ``n`` of the last entry a client holds
            # the story as the server sends it: the seat's narration with the players' names put in
            lines = [with_names(line, names) for line in game.narrate(before, action, state, seat) or [seen]]
            log.append({"n": n, "ply": ply, "seat": actor, "text": seen, "lines": lines})
        messages.append(state_message(state, seat, log, seats))
    return {
        "game": game_id,
        "seat": seat,
        "welcome": {
            "type": "welcome",
            "seat": seat,
            "game": summary,
            "rules_url": f"/api/games/{summary['key']}/rules",
            "cards": {name: text.as_dict() for name, text in game.card_texts().items()},
        },
        "rules": game.rules_text(),
        "messages": messages,
    }


def write_fixtures(directory: Path) -> list[Path]:
    """Write every fixture of :data:`FIXTURES` as ``directory/NAME.json``."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, game_id, options, seed, seat, specs in FIXTURES:
        data = play_fixture(game_id, options, seed, seat, specs)
        path = directory / f"{name}.json"
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        paths.append(path)
    return paths
