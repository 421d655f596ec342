"""A real ``cardarena serve`` subprocess (issue 27): one server per database (point 8) and a client that hangs up
in the middle of its request body (point 9)."""

from __future__ import annotations

import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardarena.web.load import HOST, Server, free_port
from cardarena.web.sql import SqlStore
from cardarena.web.store import DatabaseInUse

DEADLINE_S = 60.0


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'data' / 'cardarena.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def first_server(db_url: str, tmp_path: Path) -> Iterator[Server]:
    server = Server(db_url, free_port(), ai_workers=0, log=tmp_path / "first.log")
    try:
        server.start()
        yield server
    finally:
        server.stop()


def serve(db: str, port: int, *, timeout: float = DEADLINE_S) -> subprocess.CompletedProcess[str]:
    """Run ``cardarena serve`` until it exits by itself (a server that starts is stopped by the timeout)."""
    command = [sys.executable, "-m", "cardarena.cli.main", "serve", "--host", HOST, "--port", str(port), "--db", db]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout)


def answers(port: int) -> bool:
    with urllib.request.urlopen(f"http://{HOST}:{port}/api/catalogue", timeout=10) as reply:
        return bool(reply.status == 200)


def test_a_second_server_on_one_database_is_refused_and_a_killed_ones_database_is_free(
    first_server: Server, db_url: str, tmp_path: Path
) -> None:
    second = serve(db_url, free_port())
    assert second.returncode == 2, second.stdout + second.stderr
    assert second.stderr.startswith("error: another cardarena server is using the database"), second.stderr
    assert "one server per database" in second.stderr and "Traceback" not in second.stderr
    assert answers(first_server.port)  # the first one serves on
    first_server.kill()  # SIGKILL: the operating system (or PostgreSQL) releases its hold
    third = Server(db_url, free_port(), ai_workers=0, log=tmp_path / "third.log")
    try:
        third.start()
        assert answers(third.port)
    finally:
        third.stop()


def test_a_store_held_for_a_server_refuses_a_second_hold_until_closed(db_url: str) -> None:
    first, second = SqlStore(db_url), SqlStore(db_url)
    try:
        first.hold_for_server()
        with pytest.raises(DatabaseInUse, match="another cardarena server is using the database"):
            second.hold_for_server()
        first.close()
        second.hold_for_server()
    finally:
        first.close()
        second.close()


def test_a_client_hanging_up_mid_body_is_a_closed_request_not_a_traceback(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    server = Server("memory://", free_port(), ai_workers=0, log=log)
    try:
        server.start()
        head = (
            f"POST /api/games HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
            "Content-Length: 1000\r\n\r\n"
        )
        with socket.create_connection((HOST, server.port), timeout=10) as client:
            client.sendall(head.encode() + b'{"game": "')  # 10 of the 1000 bytes announced, then hang up
        assert answers(server.port)  # it still answers
    finally:
        server.stop()  # a graceful stop waits for every request's task: the hung-up one has ended by then
    text = log.read_text()
    assert "Traceback" not in text, text
    assert "ClientDisconnect" not in text, text
    # the server's own log is shown beside uvicorn's: the closed request is one line of it
    assert "cardarena.web: POST /api/games: the client closed the request before its body was complete" in text
