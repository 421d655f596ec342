"""Issue 32, accounts on each store: on SQLite and PostgreSQL the accounts, sessions and bound seats survive a
restart (a new app on the same database), the account's games come from the database's index of seats, and
deleting the account renames its seats there; the memory store keeps its accounts for the app's life."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cardarena.web.sql import SqlStore
from cardarena.web.store import MemoryStore, Store

from .account_fixtures import PASSWORD, Browser, account_server
from .server_fixtures import create


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "memory":
        yield MemoryStore()
        return
    url = f"sqlite:///{tmp_path / 'web.db'}" if request.param == "sqlite" else request.getfixturevalue("postgres_url")
    opened = SqlStore(url)
    try:
        yield opened
    finally:
        opened.close()


def test_accounts_sessions_and_bound_seats_on_each_store(store: Store) -> None:
    with account_server(store) as client:
        ann, bob = Browser(client), Browser(client)
        ann_id = ann.register("Ann")["id"]
        bob.register("Bob")
        taken = Browser(client).post("/api/accounts/register", {"name": "ANN", "password": PASSWORD})
        assert taken.status_code == 409 and taken.json()["error"]["code"] == "name_taken"
        key, tokens = create(client, "laplaplace", [{"kind": "human"}, {"kind": "human"}])
        other, _ = create(client, "laplaplace", [{"kind": "human"}, {"kind": "human"}])
        ann.join(key, tokens[0], "Ann")
        bob.join(key, tokens[1], "Bob")
        assert [(g["key"], g["seat"]) for g in ann.get("/api/accounts/me/games").json()] == [(key, 0)]
        assert [(g["key"], g["seat"]) for g in bob.get("/api/accounts/me/games").json()] == [(key, 1)]
        assert other not in {g["key"] for g in ann.get("/api/accounts/me/games").json()}
        assert store.get_game(key).seats[0].account == ann_id
    if isinstance(store, MemoryStore):
        return  # a memory store's accounts live as long as its app
    with account_server(store) as client:  # the server restarted: the cookie still signs Ann in
        ann.client = bob.client = client
        assert ann.get("/api/accounts/me").json()["account"]["name"] == "Ann"
        assert [g["key"] for g in ann.get("/api/accounts/me/games").json()] == [key]
        assert ann.post("/api/accounts/delete", {"password": PASSWORD}).status_code == 200
        assert [s["name"] for s in client.get(f"/api/games/{key}").json()["seats"]] == ["Deleted player", "Bob"]
        assert store.get_game(key).seats[0].name == "Deleted player"
        assert Browser(client).sign_in("Ann").status_code == 401
        assert Browser(client).sign_in("Bob").status_code == 200
