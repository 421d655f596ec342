"""The story (issue 28, point 1): each seat's log tells, in order, every action it sees *and its consequences*, as
``narrate(before, action, after, seat)`` tells that seat, with the players' names instead of seat numbers; the
last entry says who won and why; a replay gives the same entries as the live table gave.

Whole games of every game are played through the server by scripted clients (random legal actions), one
WebSocket per seat and one spectator; the wire leak test (tests/web/test_server_leaks.py) checks the same
``lines`` against worlds resampled for each viewer.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from cardarena.engine import Rng, State, load

from .server_fixtures import Client, create, join, server

CASES = [
    ("torabato", {}),
    ("lyabi", {}),
    ("dicebattle", {}),
    ("laplaplace", {}),
    ("tashkalar", {"mode": "melee", "players": 3}),
]
NAMES = ["Alice", "Bob", "Carol"]
#: how the engine's narration names a seat; none may reach the page
SEAT_NUMBER = re.compile(r"\b(?:[Ss]eat(?:\(s\))? \d|P\d)\b")


def told(before: State, text: str, viewer: int | None) -> list[str] | None:
    """What ``viewer``'s log entry for ``text`` taken in ``before`` says, names put in; ``None``: no entry."""
    game = before.game
    action = game.parse_action(before, text)
    after = before.clone()
    after.apply(action)
    seen = game.action_seen_by(before, action, viewer) or (text if viewer == before.current_player else "")
    if not seen:
        return None
    lines = game.narrate(before, action, after, viewer) or [seen]
    names = NAMES[: game.num_players]
    for seat, name in enumerate(names):  # "seat 1's", "seat(s) 1", "P1": every way the games name a seat
        lines = [re.sub(rf"\b(?:[Ss]eat(?:\(s\))? |P){seat}\b", name, line) for line in lines]
    return lines


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=[g for g, _ in CASES])
def test_each_seat_is_told_every_action_and_its_consequences_with_names(game_id: str, options: dict[str, Any]) -> None:
    rng = Rng(20261127)
    with server() as client:
        players = load(game_id, **options).num_players
        key, tokens = create(client, game_id, [{"kind": "human"}] * players, options=options)
        secrets = [join(client, key, token, NAMES[i]) for i, token in enumerate(tokens)]
        row = client.app.state.tables.live(key).row  # type: ignore[attr-defined]
        state = load(game_id, **options).new_initial_state(row.seed)
        seats = [Client(client, key, s) for s in secrets]
        spectator = Client(client, key)
        viewers: list[tuple[int | None, Client]] = [*enumerate(seats), (None, spectator)]
        expected: dict[int | None, list[list[str]]] = {v: [] for v, _ in viewers}
        try:
            while not state.is_terminal():
                legal = state.playout_actions()
                text = str(legal[rng.randbelow(len(legal))])
                for viewer, _ in viewers:
                    lines = told(state, text, viewer)
                    if lines is not None:
                        expected[viewer].append(lines)
                acting = state.current_player
                assert acting is not None
                assert seats[acting].act(text)["type"] == "ack"
                state.apply_text(text)
                for _, c in viewers:
                    if c is not seats[acting]:
                        c.sync()
            for viewer, c in viewers:
                got = [e["lines"] for e in c.log]
                assert got == expected[viewer], f"the log of viewer {viewer}"
                assert [e["n"] for e in c.log] == list(range(1, len(c.log) + 1))
                assert all(e["lines"][0] == e["text"] or SEAT_NUMBER.search(e["text"]) for e in c.log)
                page = "\n".join(line for e in c.log for line in e["lines"])
                assert not SEAT_NUMBER.search(page), f"a seat number in the log of viewer {viewer}"
                returns = state.returns()
                winners = [NAMES[s] for s, r in enumerate(returns) if r == max(returns)]
                last = " ".join(c.log[-1]["lines"])
                if len(winners) == len(returns):  # the game's seed (the server's) may end it in a draw
                    assert "draw" in last, last
                else:
                    assert "win" in last and any(
                        w in last or (viewer is not None and w == NAMES[viewer]) for w in winners
                    ), last
            # a replay of the finished game gives each viewer the entries the live table gave it
            plies = len(state.history)
            for viewer, c in viewers:
                seat = "spectator" if viewer is None else viewer
                step = client.get(f"/api/games/{key}/replay", params={"seat": seat, "ply": plies}).json()
                assert step["log"] == c.log, f"the replay's log of viewer {viewer}"
        finally:
            for _, c in viewers:
                c.close()
