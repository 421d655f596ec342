"""``Store.retract_action`` (an undo) on every store: the last action goes, the ply goes back, and only the last
action of a running game can go."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cardarena.web.store import GameStatus, StaleWrite, Store, StoreError, UnknownGame

from . import test_store

game = test_store.game
make_store = test_store.make_store  # the fixtures of the Store suite: every store kind
sqlite_url = test_store.sqlite_url


@pytest.fixture
def store(make_store: Callable[[], Store]) -> Store:
    return make_store()


def test_retract_the_last_action(store: Store) -> None:
    store.create_game(game("k1", status=GameStatus.RUNNING))
    store.append_action("k1", 0, 0, "mana 7C", result=None)
    store.append_action("k1", 1, 0, "mana 8C", result=None)
    store.retract_action("k1", 1)
    row = store.get_game("k1")
    assert (row.ply, row.status) == (1, GameStatus.RUNNING)
    assert store.actions("k1") == ["mana 7C"]
    store.append_action("k1", 1, 0, "pass", result=None)  # the ply is free again
    assert store.actions("k1") == ["mana 7C", "pass"]


def test_retract_refuses_anything_but_the_last_action_of_a_running_game(store: Store) -> None:
    store.create_game(game("k1", status=GameStatus.RUNNING))
    store.append_action("k1", 0, 0, "a", result=None)
    store.append_action("k1", 1, 1, "b", result=None)
    for ply in (0, 2, -1):
        with pytest.raises(StaleWrite):
            store.retract_action("k1", ply)
    with pytest.raises(UnknownGame):
        store.retract_action("nope", 0)
    store.append_action("k1", 2, 0, "end", result=[1.0, -1.0])
    with pytest.raises(StoreError, match="finished"):
        store.retract_action("k1", 2)
    assert store.actions("k1") == ["a", "b", "end"]
    assert store.get_game("k1").ply == 3


def test_a_games_clock_is_stored_and_replaced(store: Store) -> None:
    clock = {"kind": "move", "limit": 30.0, "then": "easy", "used": [0.0, 0.0], "since": None}
    store.create_game(game("k1", clock=clock))
    assert store.get_game("k1").clock == clock
    running = {**clock, "since": "2026-11-24T08:00:00+00:00"}
    store.update_clock("k1", running, ply=0)
    assert store.get_game("k1").clock == running
    assert store.get_game("k1").ply == 0
    store.create_game(game("k2"))
    assert store.get_game("k2").clock is None
    with pytest.raises(UnknownGame):
        store.update_clock("nope", None, ply=0)
