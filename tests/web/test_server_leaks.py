"""The leak test at the wire (issue 15, point 6): every message the server sends a seat is derivable from that
seat's observation, and every message to a spectator from what every seat sees.

Whole random games of every game (and each Tash-Kalar mode) are played through the server, one WebSocket per
seat and one spectator. Each message is compared with what the same view functions give in worlds resampled for
the viewer at the same point (``resample(seat, rng)``, the way the engine's conformance harness checks
observations): a message that depends on anything the viewer cannot know differs in some world. A spectator's
messages must be the same in worlds resampled for any seat. Log entries are checked before the action is applied:
the entry the viewer gets must be the engine's ``action_seen_by`` and read the same in every resampled world where
the action is legal and is seen. The table's own fields are checked too: ``can_undo`` (from the last action the
viewer saw, in worlds resampled for it before that action), ``spectators`` (a public count) and ``clock`` (each game
has one, on the test's time: it must follow from public facts alone, see :class:`PublicClock`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from cardarena.engine import Rng, State, load, undo_refusal
from cardarena.web import lobby, tables
from cardarena.web.clocks import Clock
from cardarena.web.views import Viewer, log_text, named_view, seat_names, state_view, with_names

from .server_fixtures import Client, create, join_all, server

MOVE = {"kind": "move", "seconds": 3600}  # long enough never to run out in a test: no AI takes a seat over
GAME = {"kind": "game", "minutes": 600}
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
#: each case with a clock of one kind (Laplaplace's secret build with the ``move`` clock, which restarts most)
CLOCKED = [(g, o, c) for (g, o), c in zip(CASES, [GAME, MOVE, GAME, MOVE, MOVE, GAME, MOVE, GAME], strict=True)]
T0 = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
STEP = timedelta(seconds=1)  # the time each decision takes (the server's clock reads the test's time)
WORLDS = 2
SPECTATORS = 1  # spectator connections of each game: a public count, the same in every world
#: ``can_undo`` of the seat that took the latest action is checked in its worlds at every ACTOR_SAMPLE-th step
#: only (a verdict costs up to 60 ms in a 4-seat Tash-Kalar; tests/engine/test_undo.py checks that property at
#: every step of its playouts); every other viewer's, which an action it did not see could move, at every step.
ACTOR_SAMPLE = 4
GAME_PART = ("to_act", "turn", "terminal", "returns", "observation", "board", "legal")


def worlds(state: State, viewer: Viewer, rng: Rng) -> list[State]:
    """Worlds the viewer cannot tell from ``state``: resampled for the seat, or for every seat (spectators)."""
    if state.is_terminal():
        return []  # the game is over: nothing is pending (the end view is checked against the true state)
    seats = range(state.game.num_players) if viewer is None else [viewer]
    return [state.resample(seat, rng.fork()) for seat in seats for _ in range(WORLDS)]


def check_state_message(
    message: dict[str, Any],
    state: State,
    viewer: Viewer,
    rng: Rng,
    where: str,
    *,
    last_seen: Seen | None,
    clock: dict[str, Any] | None,
    sample: int = 0,
) -> None:
    view = state_view(state, viewer)
    assert set(GAME_PART) <= set(view)
    # every field of the view, the new ones too (whose turn it is; a finished game's end_reason, names put in)
    game_part = {k: message.get(k) for k in view}
    names = seat_names([s["name"] for s in message["seats"]])
    assert game_part == named_view(view, names), f"{where}: the message is not the viewer's view"
    for world in worlds(state, viewer, rng):
        assert state_view(world, viewer) == view, f"{where}: the message to viewer {viewer} leaks"
    assert message["ply"] == message["log"][-1]["n"] if message["log"] else True
    assert message["spectators"] == SPECTATORS, f"{where}: the spectators are a public count"
    if clock is not None:
        assert message["clock"] == clock, f"{where}: the clock is not a function of public facts"
    if last_seen is not None and len(last_seen.before.history) + 1 == len(state.history) and sample % ACTOR_SAMPLE:
        return  # the viewer took the latest action: its verdict from its worlds is the kernel's own test's property
    assert message["can_undo"] == can_undo_in_worlds(state, viewer, last_seen, rng), f"{where}: can_undo leaks"


@dataclass(frozen=True)
class Seen:
    """The last action a viewer saw happen: the position before it, and the action."""

    before: State
    action: str


@dataclass
class PublicClock:
    """The clock as the test expects it, from public facts only: its settings, the seat to act and the times of
    the actions every viewer saw happen (or that changed the seat to act). An action hidden from someone leaves it
    as it is: on the old code a ``move`` clock restarted at each of Laplaplace's secret adds, so its time told
    that one had been made (issue 27, point 6)."""

    clock: Clock
    since: datetime | None

    def after(self, acting: int, state: State, *, seen_by_all: bool, moment: datetime) -> None:
        if not (seen_by_all or state.current_player != acting or state.is_terminal()):
            return
        used = list(self.clock.used)
        if self.clock.kind == "game" and self.since is not None:
            used[acting] += (moment - self.since).total_seconds()
        self.clock = replace(self.clock, used=tuple(used))
        self.since = None if state.is_terminal() else moment

    def view(self, state: State, moment: datetime) -> dict[str, Any]:
        return replace(self.clock, since=self.since).view(state.current_player, moment)


def can_undo_in_worlds(state: State, viewer: Viewer, last_seen: Seen | None, rng: Rng) -> bool:
    """What ``can_undo`` must say to ``viewer``, from what it knows only: ``False`` unless the last action it saw
    was its own (an action it did not see cannot change the answer) and the game goes on; then the kernel's verdict
    in a world resampled for the viewer before that action (the world forgets the history: it is given the true
    one, which the verdict reads for its length only, as in tests/engine/test_undo.py). On the old code seat 0's
    ``can_undo`` went true -> false when seat 1 made a hidden add in Laplaplace's blind build (issue 27, point 6)."""
    if viewer is None or last_seen is None or state.is_terminal() or last_seen.before.current_player != viewer:
        return False
    before = last_seen.before
    action = before.game.parse_action(before, last_seen.action)
    world = before.resample(viewer, rng.fork())
    assert action in world.legal_actions()  # chosen on what the viewer saw, so legal in its worlds
    after = world.clone()
    after.apply(action)
    world.history, after.history = list(before.history), [*before.history, action]
    world._no_record = after._no_record = None
    return undo_refusal(after, viewer, before=world) is None


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


def expected_lines(state: State, action_text: str, viewer: Viewer, rng: Rng, where: str) -> list[str]:
    """The narration ``viewer`` is told of the action (``lines`` of its entry, before names are put in): the
    engine's ``narrate`` for it. Its consequences may tell what the viewer learns by the action (a card revealed,
    a die rolled), so it is checked in the worlds resampled for the viewer before the action in which the action
    is legal and leaves the viewer the same observation as the true game: the viewer cannot tell those from the
    true game even after the action, so what it is told must read the same there."""
    action = state.game.parse_action(state, action_text)
    after = state.clone()
    after.apply(action)
    lines = state.game.narrate(state, action, after, viewer)
    for world in worlds(state, viewer, rng):
        if action in world.legal_actions():
            world_after = world.clone()
            world_after.apply(action)
            if world_after.observation(viewer) != after.observation(viewer):
                continue  # the action shows the viewer which world it is in: the narration may too
            told = world.game.narrate(world, action, world_after, viewer)
            assert not (told and lines) or told == lines, f"{where}: the narration for viewer {viewer} leaks"
    return lines


@pytest.mark.parametrize(
    ("game_id", "options", "clock"), CLOCKED, ids=[f"{g}-{'-'.join(map(str, o.values()))}" for g, o in CASES]
)
def test_every_message_is_derivable_from_the_viewers_observation(
    game_id: str, options: dict[str, Any], clock: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = Rng(20261124)
    moment = [T0]
    monkeypatch.setattr(tables, "now", lambda: moment[0])
    # one deal every run: whether a confirm question comes up (checked below) depends on it
    monkeypatch.setattr(lobby, "new_seed", lambda: 20261128)
    with server() as client:
        players = load(game_id, **options).num_players
        key, tokens = create(client, game_id, [{"kind": "human"}] * players, options=options, clock=clock)
        tokens = join_all(client, key, tokens)
        row = client.app.state.tables.live(key).row  # type: ignore[attr-defined]
        public = PublicClock(Clock.from_json(row.clock), since=T0)  # it started when the last seat was taken
        state = load(game_id, **options).new_initial_state(row.seed)
        names = seat_names([s.name for s in row.seats])  # as the log names the seats
        spectator = Client(client, key)  # first: every seat's messages then count one spectator
        clients: list[Client] = [Client(client, key, t) for t in tokens] + [spectator]
        viewer_of = {id(c): (i if i < players else None) for i, c in enumerate(clients)}
        try:
            last_seen: dict[Viewer, Seen] = {}
            for c in clients:
                expected = public.view(state, moment[0])
                check_state_message(c.state, state, viewer_of[id(c)], rng, "start", last_seen=None, clock=expected)
            step = 0
            asked = 0  # legal actions that carried a ``confirm`` question (issue 28, point 6): checked like the rest
            while not state.is_terminal():
                where = f"{game_id} {options} step {step}"
                acting = state.current_player
                assert acting is not None
                actor = clients[acting]
                legal = state.playout_actions()
                text = str(legal[rng.randbelow(len(legal))])
                entries = {id(c): expected_entry(state, text, viewer_of[id(c)], rng, where) for c in clients}
                told = {id(c): expected_lines(state, text, viewer_of[id(c)], rng, where) for c in clients}
                before = {id(c): len(c.log) for c in clients}
                moment[0] += STEP
                assert actor.act(text)["type"] == "ack", where
                for c in clients:
                    if entries[id(c)]:
                        last_seen[viewer_of[id(c)]] = Seen(state.clone(), text)
                state.apply_text(text)
                public.after(acting, state, seen_by_all=all(entries.values()), moment=moment[0])
                for c in clients:
                    viewer = viewer_of[id(c)]
                    got = c.sync() if c is not actor else []
                    states = [m for m in [*got, c.state] if m.get("type") == "state"]
                    # a message sent now shows the clock now; one sent earlier (nothing changed for the viewer
                    # since) showed it then, and is checked for everything else
                    sent_now = c is actor or any(m.get("type") == "state" for m in got)
                    expected = public.view(state, moment[0]) if sent_now else None
                    for message in states[-1:]:
                        seen = last_seen.get(viewer)
                        check_state_message(
                            message, state, viewer, rng, where, last_seen=seen, clock=expected, sample=step
                        )
                    new = [e["text"] for e in c.log[before[id(c)] :]]
                    assert new == ([entries[id(c)]] if entries[id(c)] else []), f"{where}: log of {viewer}"
                    lines = [e["lines"] for e in c.log[before[id(c)] :]]
                    named = [with_names(line, names) for line in told[id(c)] or [entries[id(c)]]]
                    assert lines == ([named] if entries[id(c)] else []), f"{where}: narration of {viewer}"
                    assert all(m["type"] in ("state", "seats") for m in got), where
                    asked += sum("confirm" in a for m in states[-1:] for a in m.get("legal") or [])
                step += 1
            assert asked, f"{game_id} {options}: no legal action carried a confirm question"
        finally:
            for c in clients:
                c.close()
