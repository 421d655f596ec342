"""Issue 27, point 2: the creator of a game holds every seat's invitation, and used to hold the seat itself.

The attack: whoever creates a game (or asks for a rematch) is given every human seat's invitation link. Before
the fix, joining kept that token as the seat's credential and a seat accepted any number of sockets, so the
creator could open the invited player's seat beside them and read their hand all game, act for them, rename them,
hand their seat to an AI or leave it, unseen. Now joining gives a secret only the joiner gets, which replaces the
invitation; an invitation opens no socket; and a seat has one live connection, the newest, the older one being
told ``replaced`` (so the owner sees it).
"""

from __future__ import annotations

import json
import time
import urllib.error
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from cardarena.web.load import Server, _request, free_port
from cardarena.web.store import MemoryStore

from .server_fixtures import Client, create, join, receive, server, try_send
from .test_server_protocol import to_act, true_state

TWO = [{"kind": "human"}, {"kind": "human"}]


def refused_hello(client: Any, key: str, token: str) -> list[dict[str, Any]]:
    """What a socket saying hello with ``token`` is sent, up to its close (or up to the seat's ``state``)."""
    got = []
    with client.websocket_connect(f"/ws/{key}") as ws:
        ws.send_json({"type": "hello", "token": token})
        while (message := receive(ws))["type"] != "_closed":
            got.append(message)
            if message["type"] == "state":
                break
    return got


def until_pong_or_closed(c: Client) -> list[dict[str, Any]]:
    """Ping ``c`` and read what it is sent up to the pong, or up to its close when the server closed it."""
    try_send(c.ws, json.dumps({"type": "ping"}))
    got = []
    while (message := c.next())["type"] not in ("pong", "_closed"):
        got.append(message)
    got.append(message)
    return got


def test_an_invitation_is_refused_everywhere_once_its_seat_is_taken() -> None:
    store = MemoryStore()
    with server(store) as client:
        key, invitations = create(client, "tashkalar", TWO)  # the creator holds both invitations
        creator = join(client, key, invitations[0], "Creator")
        bo = join(client, key, invitations[1], "Bo")
        with Client(client, key, creator) as a, Client(client, key, bo) as b:
            hand = json.dumps(true_state(store, key).observation(1))
            answers: list[str] = []
            # (a) a socket as seat 1 with the invitation: refused, nothing of seat 1's view sent
            got = refused_hello(client, key, invitations[1])
            assert [(m["type"], m.get("code")) for m in got] == [("error", "bad_token")], got
            answers.append(json.dumps(got))
            # (b) joining again (renaming Bo, taking the seat back): refused
            again = client.post(f"/api/games/{key}/join", json={"token": invitations[1], "name": "Mallory"})
            assert (again.status_code, again.json()["error"]["code"]) == (403, "bad_token")
            answers.append(again.text)
            # (c) handing the seat to an AI, or leaving it: refused
            for path in ("handover", "leave", "rematch"):
                answer = client.post(f"/api/games/{key}/{path}", json={"token": invitations[1]})
                assert (answer.status_code, answer.json()["error"]["code"]) == (403, "bad_token"), path
                answers.append(answer.text)
            seat = client.get(f"/api/games/{key}").json()["seats"][1]
            assert (seat["name"], seat["kind"], seat["taken"], seat["connected"]) == ("Bo", "human", True, True)
            # (d) no endpoint shows seat 1's hand to the creator
            for path in ("", "/record", "/replay?seat=1"):
                answers.append(client.get(f"/api/games/{key}{path}").text)
            assert not [text for text in answers if hand in text]
            assert bo != invitations[1]
            # Bo's secret is the seat: nothing happened at the table meanwhile (no socket joined it), Bo plays on
            assert b.sync() == []
            assert to_act([a, b]).act("resign")["type"] == "ack"
        # the game is over: a rematch needs a seat's secret, never an invitation
        assert client.post(f"/api/games/{key}/rematch", json={"token": invitations[1]}).status_code == 403
        assert client.post(f"/api/games/{key}/rematch", json={"token": bo}).status_code == 201


def test_an_invitation_opens_no_socket_before_its_seat_is_taken() -> None:
    """Peeking at a dealt hand before the invited player joins is the same leak: hello needs a seat's secret."""
    with server() as client:
        key, invitations = create(client, "torabato", TWO)
        got = refused_hello(client, key, invitations[1])
        assert [(m["type"], m.get("code")) for m in got] == [("error", "bad_token")], got
        assert "join the seat first" in got[0]["message"]


def test_leaving_voids_the_secret_and_gives_a_new_invitation() -> None:
    with server() as client:
        key, invitations = create(client, "torabato", TWO)
        join(client, key, invitations[0], "Ann")
        bo = join(client, key, invitations[1], "Bo")
        with Client(client, key, bo) as b:
            left = client.post(f"/api/games/{key}/leave", json={"token": bo})
            assert left.status_code == 200, left.text
            assert left.json()["seat"] == 1
            told = until_pong_or_closed(b)
            assert [m["code"] for m in told if m["type"] == "error"] == ["left"] and told[-1]["type"] == "_closed"
        assert refused_hello(client, key, bo)[0]["code"] == "bad_token"  # the leaver's secret is void
        fresh = left.json()["invitation"].split("#", 1)[1]
        cy = join(client, key, fresh, "Cy")  # whoever gets the new invitation takes the seat
        with Client(client, key, cy) as c:
            assert c.welcome["seat"] == 1


def test_a_second_connection_replaces_the_first_which_is_told() -> None:
    with server() as client:
        key, invitations = create(client, "torabato", TWO)
        ann = join(client, key, invitations[0], "Ann")
        bo = join(client, key, invitations[1], "Bo")
        with Client(client, key, ann) as a, Client(client, key, bo) as first:
            first.sync()
            with Client(client, key, bo, since=len(first.log)) as second:  # another window, or a reconnect
                assert second.welcome["seat"] == 1 and second.state["log"] == []
                told = until_pong_or_closed(first)
                errors = [m for m in told if m["type"] == "error"]
                assert [m["code"] for m in errors] == ["replaced"], told
                assert "another window or device" in errors[0]["message"]
                assert told[-1]["type"] == "_closed"
                seats = client.get(f"/api/games/{key}").json()["seats"]
                assert [s["connected"] for s in seats] == [True, True]
                assert to_act([a, second]).act(to_act([a, second]).state["legal"][0]["text"])["type"] == "ack"
            # the page reconnects after a drop: the secret opens the seat again, and the log resumes
            with Client(client, key, bo, since=0) as third:
                assert third.welcome["seat"] == 1 and third.log


def test_against_a_real_server_the_creator_cannot_sit_in_an_invited_seat(tmp_path: Path) -> None:
    """The whole attack over the network, against ``cardarena serve``: the creator keeps seat 1's invitation and
    tries it after Bo joined; Bo's second window replaces Bo's first, which is told."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    port = free_port()
    srv = Server("memory://", port, ai_workers=0, log=tmp_path / "server.log")
    srv.start()
    base, ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"

    def post(path: str, body: dict[str, Any]) -> tuple[int, Any]:
        try:
            return 200, _request(base, "POST", path, body)
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def hello(token: str) -> Any:
        ws = sockets.enter_context(connect(f"{ws_url}/ws/{key}", open_timeout=10))
        ws.send(json.dumps({"type": "hello", "token": token}))
        return ws

    def messages(ws: Any, timeout: float = 10.0) -> list[dict[str, Any]]:
        """What ``ws`` is sent up to its close (or the first ``state``)."""
        got: list[dict[str, Any]] = []
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                got.append(json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic()))))
                if got[-1]["type"] == "state":
                    break
        except (ConnectionClosed, TimeoutError):  # closed by the server (or nothing more within the deadline)
            pass
        return got

    sockets = ExitStack()  # every socket opened, closed at the end
    try:
        created = _request(base, "POST", "/api/games", {"game": "torabato", "seats": TWO})
        key = created["key"]
        invitations = [i["url"].split("#", 1)[1] for i in created["invitations"]]
        _request(base, "POST", f"/api/games/{key}/join", {"token": invitations[0], "name": "Creator"})
        bo = _request(base, "POST", f"/api/games/{key}/join", {"token": invitations[1], "name": "Bo"})["secret"]
        first = hello(bo)
        assert [m["type"] for m in messages(first)] == ["welcome", "state"]
        # the creator, with seat 1's invitation: no socket, no rename, no hand-over, no leave
        spy = hello(invitations[1])
        seen = messages(spy)
        assert [(m["type"], m.get("code")) for m in seen] == [("error", "bad_token")], seen
        for path, body in [
            ("join", {"token": invitations[1], "name": "Mallory"}),
            ("handover", {"token": invitations[1], "strength": "easy"}),
            ("leave", {"token": invitations[1]}),
        ]:
            status, answer = post(f"/api/games/{key}/{path}", body)
            assert (status, answer["error"]["code"]) == (403, "bad_token"), path
        seat = _request(base, "GET", f"/api/games/{key}")["seats"][1]
        assert (seat["name"], seat["kind"], seat["taken"]) == ("Bo", "human", True)
        # Bo opens the seat in a second window: the first is told and closed, the second is the seat now
        second = hello(bo)
        assert [m["type"] for m in messages(second)] == ["welcome", "state"]
        told = [m for m in messages(first) if m["type"] == "error"]
        assert [m["code"] for m in told] == ["replaced"], told
    finally:
        sockets.close()
        srv.stop()
        log = (tmp_path / "server.log").read_text(errors="replace")
        assert "Traceback" not in log, log[-3000:]
