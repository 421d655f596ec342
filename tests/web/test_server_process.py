"""A real ``cardarena serve`` subprocess (issue 27): one server per database (point 8) and a client that hangs up
in the middle of its request body (point 9)."""

from __future__ import annotations

import socket
import urllib.request
from pathlib import Path

from cardarena.web.load import HOST, Server, free_port

DEADLINE_S = 60.0


def answers(port: int) -> bool:
    with urllib.request.urlopen(f"http://{HOST}:{port}/api/catalogue", timeout=10) as reply:
        return bool(reply.status == 200)


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
