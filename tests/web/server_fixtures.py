"""Helpers for the server's tests (the storage engineer owns tests/web/conftest.py): an app over a store, games
made through the REST lobby, and WebSocket clients that never wait forever."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from cardarena.web.app import create_app
from cardarena.web.store import MemoryStore, Store

WAIT = 60.0  # seconds a test waits for one message before failing (an AI on a busy machine is slow)


@contextmanager
def server(store: Store | None = None, **kwargs: Any) -> Iterator[TestClient]:
    """A running app (lifespan included) over ``store`` (a new ``MemoryStore`` by default)."""
    kwargs.setdefault("ai_workers", 0)
    kwargs.setdefault("replay_workers", 0)  # replay steps in a thread: no process to start per test app
    kwargs.setdefault("ws_rate", 1000)  # scripted clients are fast; the flood test sets the real limit
    kwargs.setdefault("allow_agent_specs", True)  # tests seat 'random' (fast, reproducible); the default is refused
    app = create_app(store if store is not None else MemoryStore(), **kwargs)
    with TestClient(app) as client:
        yield client


def create(client: TestClient, game: str, seats: list[dict[str, Any]], **extra: Any) -> tuple[str, list[str]]:
    """A new game: its key and the invitation tokens of its human seats (from the invitation links)."""
    answer = client.post("/api/games", json={"game": game, "seats": seats, **extra})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    return body["key"], [i["url"].split("#", 1)[1] for i in body["invitations"]]


def join(client: TestClient, key: str, token: str, name: str = "Ann") -> str:
    """Take the seat of the invitation ``token``: the seat's secret, which every later call of the seat uses."""
    answer = client.post(f"/api/games/{key}/join", json={"token": token, "name": name})
    assert answer.status_code == 200, answer.text
    secret: str = answer.json()["secret"]
    return secret


def join_all(client: TestClient, key: str, tokens: list[str]) -> list[str]:
    """Join every invitation in order (names p0, p1, ...): the seats' secrets."""
    return [join(client, key, token, f"p{i}") for i, token in enumerate(tokens)]


def human_game(client: TestClient, game: str = "torabato", **extra: Any) -> tuple[str, list[str]]:
    """A two-human game with both seats joined (running): its key and the seats' secrets."""
    key, tokens = create(client, game, [{"kind": "human"}, {"kind": "human"}], **extra)
    return key, join_all(client, key, tokens)


def receive(ws: WebSocketTestSession, timeout: float = WAIT) -> dict[str, Any]:
    """The next message, or ``{"type": "_closed", "code": ...}``; fails the test after ``timeout`` seconds.
    (TestClient's own ``receive`` waits forever; this reads the same stream with a deadline.)"""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    if message is None or message["type"] == "websocket.close":
        return {"type": "_closed", "code": None if message is None else message.get("code")}
    result: dict[str, Any] = json.loads(message["text"])
    return result


def try_send(ws: WebSocketTestSession, text: str, timeout: float = 5.0) -> bool:
    """Send ``text``; ``False`` if the server has stopped reading (TestClient's own send would wait forever)."""

    async def put() -> None:
        with anyio.fail_after(timeout):
            await ws._receive_tx.send({"type": "websocket.receive", "text": text})

    try:
        ws.portal.call(put)
    except TimeoutError:
        return False
    return True


class Client:
    """One WebSocket of a seat (its secret) or a spectator (no token), with the last ``state`` it was sent."""

    def __init__(self, client: TestClient, key: str, token: str | None = None, *, since: int | None = None) -> None:
        self._cm = client.websocket_connect(f"/ws/{key}")
        self.ws = self._cm.__enter__()
        hello: dict[str, Any] = {"type": "hello"}
        if token is not None:
            hello["token"] = token
        if since is not None:
            hello["since"] = since
        self.ws.send_json(hello)
        self.log: list[dict[str, Any]] = []
        self.state: dict[str, Any] = {}
        self.messages: list[dict[str, Any]] = []
        self.welcome = self.next()
        if self.welcome["type"] == "welcome":
            self.next()

    def next(self, timeout: float = WAIT) -> dict[str, Any]:
        message = receive(self.ws, timeout)
        self.messages.append(message)
        if message["type"] == "state":
            self.state = message
            self.log.extend(message["log"])
        return message

    def until(self, kind: str) -> dict[str, Any]:
        while True:
            message = self.next()
            if message["type"] == kind:
                return message
            assert message["type"] != "_closed", f"closed while waiting for {kind}"

    def send(self, message: Any) -> None:
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def sync(self) -> list[dict[str, Any]]:
        """Every message before the answer to a ping (what the server sent this client meanwhile)."""
        self.send({"type": "ping"})
        got = []
        while (message := self.next())["type"] != "pong":
            assert message["type"] != "_closed", "closed before the pong"
            got.append(message)
        return got

    def act(self, text: str, ply: int | None = None) -> dict[str, Any]:
        """Send an action; the answer (``ack`` or ``error``) to it."""
        self.send({"type": "act", "ply": self.state["ply"] if ply is None else ply, "action": text})
        while True:
            message = self.next()
            if message["type"] == "ack":
                self.until("state")  # the actor sees its own action: a state follows its ack
                return message
            if message["type"] in ("error", "_closed"):
                return message

    def close(self) -> None:
        self._cm.__exit__(None, None, None)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
