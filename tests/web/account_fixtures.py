"""Helpers for the accounts' tests: a server whose passwords hash fast, and browsers (each its own cookie and CSRF
token) that share one TestClient, as several people reach one server."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import httpx
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from cardarena.web.accounts import Accounts, Attempts
from cardarena.web.lobby import new_game
from cardarena.web.routes.deps import COOKIE
from cardarena.web.sql import accounts_engine
from cardarena.web.store import MemoryStore, Store

from .server_fixtures import Client, server

#: argon2id at its cheapest: the tests check what is done with a hash, not its cost
FAST = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
PASSWORD = "correct horse battery"


@contextmanager
def account_server(
    store: Store | None = None, *, attempts: Attempts | None = None, hasher: PasswordHasher = FAST, **kwargs: Any
) -> Iterator[TestClient]:
    """A running app whose accounts hash with ``hasher`` (fast by default)."""
    store = store if store is not None else MemoryStore()
    accounts = Accounts(accounts_engine(store), hasher=hasher, attempts=attempts)
    with server(store, accounts=accounts, **kwargs) as client:
        yield client


class Browser:
    """One person's browser: its own session cookie (and the CSRF token its pages send), over a shared client."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.cookie: str | None = None
        self.csrf: str | None = None

    def request(self, method: str, url: str, *, csrf: bool = True, **kwargs: Any) -> httpx.Response:
        self.client.cookies.clear()
        if self.cookie:
            self.client.cookies.set(COOKIE, self.cookie)
        headers = dict(kwargs.pop("headers", {}))
        if csrf and self.csrf and method != "GET":
            headers.setdefault("X-CSRF-Token", self.csrf)
        answer = self.client.request(method, url, headers=headers, **kwargs)
        self.client.cookies.clear()
        for line in answer.headers.get_list("set-cookie"):
            name, _, rest = line.partition("=")
            if name == COOKIE:
                value = rest.split(";", 1)[0].strip('"')
                self.cookie = None if not value or "max-age=0" in line.lower() else value
        body = answer.json() if answer.headers.get("content-type") == "application/json" else None
        if isinstance(body, dict) and "csrf" in body and "account" in body:
            self.csrf = body["csrf"]
        return answer

    def get(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", url, **kwargs)

    def post(self, url: str, body: Any = None, **kwargs: Any) -> httpx.Response:
        return self.request("POST", url, json=body if body is not None else {}, **kwargs)

    def register(self, name: str, password: str = PASSWORD) -> dict[str, Any]:
        answer = self.post("/api/accounts/register", {"name": name, "password": password})
        assert answer.status_code == 201, answer.text
        account: dict[str, Any] = answer.json()["account"]
        return account

    def sign_in(self, name: str, password: str = PASSWORD) -> httpx.Response:
        return self.post("/api/accounts/signin", {"name": name, "password": password})

    def join(self, key: str, token: str, name: str) -> httpx.Response:
        return self.post(f"/api/games/{key}/join", {"token": token, "name": name})

    @contextmanager
    def socket(self, key: str, **headers: str) -> Iterator[Client]:
        """The game's WebSocket, saying hello by the account (``{"type": "hello", "account": true}``)."""
        self.client.cookies.clear()
        if self.cookie:
            self.client.cookies.set(COOKIE, self.cookie)
        cm = self.client.websocket_connect(f"/ws/{key}", headers=headers)
        socket = Client.__new__(Client)
        socket._cm = cm
        socket.ws = cm.__enter__()
        self.client.cookies.clear()
        socket.ws.send_json({"type": "hello", "account": True})
        socket.log, socket.state, socket.messages = [], {}, []
        socket.welcome = socket.next()
        if socket.welcome["type"] == "welcome":
            socket.next()
        try:
            yield socket
        finally:
            socket.close()


def rated_game(store: Store, game: str, seats: list[dict[str, Any]]) -> tuple[str, list[str]]:
    """A rated game put in ``store`` (as the ratings' create request will make it): its key and invitations."""
    row, invitations = new_game({"game": game, "seats": seats}, allow_agent_specs=True)
    store.create_game(replace(row, rated=True))
    return row.key, [i["token"] for i in invitations]
