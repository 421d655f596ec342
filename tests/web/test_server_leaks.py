"""The leak test at the wire (issue 15, point 6): every message the server sends a seat is derivable from that
seat's observation, and every message to a spectator from what every seat sees.

Whole random games of every game (and each Tash-Kalar mode) are played through the server, one WebSocket per
seat and one spectator. Each message is compared with what the same view functions give in worlds resampled for
the viewer at the same point (``resample(seat, rng)``, the way the engine's conformance harness checks
observations): a message that depends on anything the viewer cannot know differs in some world. A spectator's
messages must be the same in worlds resampled for any seat. Log entries are checked before the action is applied:
the entry the viewer gets must be the engine's ``action_seen_by`` and read the same in every resampled world where
the action is legal and is seen.
"""

from __future__ import annotations

from typing import Any

import pytest

from cardarena.engine import Rng, State, load
from cardarena.web.views import Viewer, log_text, state_view

from .server_fixtures import Client, create, join_all, server

CASES = [
    ("torabato", {}),
    ("lyabi", {}),
    ("dicebattle", {}),
    ("laplaplace", {}),
    ("tashkalar", {}),
    ("tashkalar", {"mode": "highform"}),
    ("tashkalar", {"mode": "melee", "players": 3}),
    ("tashkalar", {"mode": "deathmatch", "players": 4, "teams": True}),
]
WORLDS = 2
GAME_PART = ("to_act", "terminal", "returns", "observation", "board", "legal")


def worlds(state: State, viewer: Viewer, rng: Rng) -> list[State]:
    """Worlds the viewer cannot tell from ``state``: resampled for the seat, or for every seat (spectators)."""
    if state.is_terminal():
        return []  # the game is over: nothing is pending (the end view is checked against the true state)
    seats = range(state.game.num_players) if viewer is None else [viewer]
    return [state.resample(seat, rng.fork()) for seat in seats for _ in range(WORLDS)]


def check_state_message(message: dict[str, Any], state: State, viewer: Viewer, rng: Rng, where: str) -> None:
    game_part = {k: message[k] for k in GAME_PART}
    assert game_part == state_view(state, viewer), f"{where}: the message is not the viewer's view"
    for world in worlds(state, viewer, rng):
        assert state_view(world, viewer) == game_part, f"{where}: the message to viewer {viewer} leaks"
    assert message["ply"] == message["log"][-1]["n"] if message["log"] else True


def expected_entry(state: State, action_text: str, viewer: Viewer, rng: Rng, where: str) -> str:
    action = state.game.parse_action(state, action_text)
    # The engine's contract for how a seat sees an action (checked against leaks by the conformance harness's
    # commitment check), not the server's own function: the server must send exactly that.
    text = state.game.action_seen_by(state, action, viewer)
    if viewer is not None and viewer == state.current_player:
        text = text or action_text
    for world in worlds(state, viewer, rng):
        if action in world.legal_actions():
            seen = log_text(world, action, viewer)
            # Whether an action is seen at all may depend on the actor's hidden position (Laplaplace: an add
            # that fills a build reads "finishes its build", the others are unseen), which the engine's own
            # commitment check covers; what a seen action says must not depend on anything hidden.
            assert not (seen and text) or seen == text, f"{where}: the log entry for viewer {viewer} leaks"
    return text


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=[f"{g}-{'-'.join(map(str, o.values()))}" for g, o in CASES])
def test_every_message_is_derivable_from_the_viewers_observation(game_id: str, options: dict[str, Any]) -> None:
    rng = Rng(20261124)
    with server() as client:
        players = load(game_id, **options).num_players
        key, tokens = create(client, game_id, [{"kind": "human"}] * players, options=options)
        tokens = join_all(client, key, tokens)
        row = client.app.state.tables.live(key).row  # type: ignore[attr-defined]
        state = load(game_id, **options).new_initial_state(row.seed)
        clients: list[Client] = [Client(client, key, t) for t in tokens] + [Client(client, key)]
        viewer_of = {id(c): (i if i < players else None) for i, c in enumerate(clients)}
        try:
            for c in clients:
                check_state_message(c.state, state, viewer_of[id(c)], rng, "start")
            step = 0
            while not state.is_terminal():
                where = f"{game_id} {options} step {step}"
                actor = clients[state.current_player]  # type: ignore[index]
                legal = state.playout_actions()
                text = str(legal[rng.randbelow(len(legal))])
                entries = {id(c): expected_entry(state, text, viewer_of[id(c)], rng, where) for c in clients}
                before = {id(c): len(c.log) for c in clients}
                assert actor.act(text)["type"] == "ack", where
                state.apply_text(text)
                for c in clients:
                    got = c.sync() if c is not actor else []
                    states = [m for m in [*got, c.state] if m.get("type") == "state"]
                    for message in states[-1:]:
                        check_state_message(message, state, viewer_of[id(c)], rng, where)
                    new = [e["text"] for e in c.log[before[id(c)] :]]
                    assert new == ([entries[id(c)]] if entries[id(c)] else []), f"{where}: log of {viewer_of[id(c)]}"
                    assert all(m["type"] in ("state", "seats") for m in got), where
                step += 1
        finally:
            for c in clients:
                c.close()
