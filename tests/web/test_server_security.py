"""What an attacker at the table would try (issue 15, point 7): each attempt is refused (or kept as plain text),
the game goes on unharmed, and nothing of another seat's view is returned."""

from __future__ import annotations

import json
import re
import secrets
from pathlib import Path

from cardarena.web.store import MemoryStore

from .server_fixtures import Client, create, human_game, join, receive, server, try_send
from .test_server_protocol import to_act, true_state

STATIC = Path(__file__).parents[2] / "src" / "cardarena" / "web" / "static"
SCRIPT = '<script>alert("x")</script><img src=x onerror=alert(1)>'


def goes_on(a: Client, b: Client) -> None:
    """The game is unharmed: the seat to act acts, and is acknowledged."""
    a.sync()
    b.sync()
    actor = to_act([a, b])
    assert actor.act(actor.state["legal"][0]["text"])["type"] == "ack"


def sees_only_its_own(c: Client, store: MemoryStore, key: str) -> None:
    state = true_state(store, key)
    c.sync()
    seat = c.welcome["seat"]
    assert c.state["observation"] == state.observation(seat)
    for other in [None, *range(state.game.num_players)]:
        if other != seat and state.observation(other) != state.observation(seat):
            assert all(m.get("observation") != state.observation(other) for m in c.messages)


def test_forged_and_foreign_tokens_are_refused() -> None:
    store = MemoryStore()
    with server(store) as client:
        key, tokens = human_game(client)
        _, other_tokens = human_game(client)
        with Client(client, key, tokens[0]) as a, Client(client, key, tokens[1]) as b:
            for token in ("forged", other_tokens[0], tokens[0] + "x", "", 12345, ["x"]):
                with client.websocket_connect(f"/ws/{key}") as ws:
                    ws.send_json({"type": "hello", "token": token})
                    error = receive(ws)
                    assert (error["type"], error["code"]) == ("error", "bad_token"), token
                    assert receive(ws)["type"] == "_closed"
                answer = client.post(f"/api/games/{key}/join", json={"token": token, "name": "Mallory"})
                # a token that is no text is a malformed request (400, by the request's schema), any text a forged one
                assert answer.status_code == (403 if isinstance(token, str) else 400)
                assert set(answer.json()) == {"error"}
            assert [s["name"] for s in client.get(f"/api/games/{key}").json()["seats"]] == ["p0", "p1"]
            # a seat cannot act for the other seat
            waiting = b if to_act([a, b]) is a else a
            waiting.send(
                {"type": "act", "ply": waiting.state["ply"], "action": to_act([a, b]).state["legal"][0]["text"]}
            )
            assert [m["code"] for m in waiting.sync()] == ["not_your_turn"]
            goes_on(a, b)
            sees_only_its_own(a, store, key)
            sees_only_its_own(b, store, key)


def test_a_spectator_cannot_act_or_chat_and_sees_the_public_view() -> None:
    store = MemoryStore()
    with server(store) as client:
        key, tokens = human_game(client)
        with Client(client, key, tokens[0]) as a, Client(client, key, tokens[1]) as b, Client(client, key) as w:
            legal = to_act([a, b]).state["legal"][0]["text"]
            for message in (
                {"type": "act", "ply": w.state["ply"], "action": legal},
                {"type": "chat", "text": "psst"},
                {"type": "hello", "token": tokens[0]},  # upgrading itself to a seat
            ):
                w.send(message)
                assert [m["type"] for m in w.sync()] == ["error"]
            assert w.state["legal"] == []
            goes_on(a, b)
            assert w.sync()[-1]["observation"] == true_state(store, key).observation(None)


def test_replaying_an_old_message_is_stale() -> None:
    store = MemoryStore()
    with server(store) as client:
        key, tokens = human_game(client)
        with Client(client, key, tokens[0]) as a, Client(client, key, tokens[1]) as b:
            actor = to_act([a, b])
            message = {"type": "act", "ply": actor.state["ply"], "action": actor.state["legal"][0]["text"]}
            actor.send(message)
            assert actor.until("ack")
            stored = store.actions(key)
            for _ in range(3):
                actor.send(message)
                assert [m.get("code") for m in actor.sync() if m["type"] == "error"] == ["stale_ply"]
            assert store.actions(key) == stored
            goes_on(a, b)


def test_names_and_chat_with_markup_are_kept_and_sent_as_plain_text() -> None:
    with server() as client:
        key, tokens = create(client, "torabato", [{"kind": "human", "name": SCRIPT[:24]}, {"kind": "human"}])
        tokens = [join(client, key, tokens[0], SCRIPT[:24]), join(client, key, tokens[1], "<b>Bob</b>&amp;")]
        raw = client.get(f"/api/games/{key}").text
        assert json.loads(raw)["seats"][1]["name"] == "<b>Bob</b>&amp;"  # verbatim, not escaped or stripped
        assert client.get(f"/api/games/{key}").headers["content-type"] == "application/json"
        with Client(client, key, tokens[0]) as a, Client(client, key, tokens[1]) as b:
            chat = SCRIPT + " & ' \" é 漢"
            a.send({"type": "chat", "text": chat})
            for c in (a, b):
                got = c.until("chat")
                assert got["text"] == chat and got["name"] == SCRIPT[:24]
            goes_on(a, b)


def test_the_pages_put_user_text_in_with_textcontent_never_as_html() -> None:
    scripts = [*STATIC.rglob("*.js"), *STATIC.rglob("*.html")]
    assert scripts, "no browser pages to check"
    sinks = re.compile(r"\.(innerHTML|outerHTML)\s*\+?=(?!\s*(\"\"|''|``)\s*;)|insertAdjacentHTML|document\.write")
    offenders = [f"{p.name}: {m.group(0)}" for p in scripts for m in sinks.finditer(p.read_text(encoding="utf-8"))]
    assert offenders == [], "user text must go in with textContent"
    assert any("textContent" in p.read_text(encoding="utf-8") for p in scripts)


def test_oversized_malformed_and_flooding_clients_are_refused_then_cut_off() -> None:
    with server(ws_rate=20) as client:
        key, tokens = human_game(client)
        with Client(client, key, tokens[0]) as a, Client(client, key, tokens[1]) as b:
            a.send({"type": "chat", "text": "x" * 100_000})
            a.send("{" * 3000)
            a.send("[" * 1000 + "]" * 1000)
            codes = [m["code"] for m in a.sync() if m["type"] == "error"]
            assert codes == ["too_large", "malformed", "malformed"]
            flooder = Client(client, key, tokens[1])  # seat 1 again: the newest connection wins, b is closed
            assert b.until("error")["code"] == "replaced"
            sent = 0
            while sent < 500 and try_send(flooder.ws, '{"type": "ping"}'):
                sent += 1
            seen = []
            while (m := flooder.next())["type"] != "_closed":
                seen.append(m.get("code", m["type"]))
            flooder.close()
            assert "rate_limited" in seen and seen.count("pong") < sent
            with Client(client, key, tokens[1]) as b:
                goes_on(a, b)


def test_guessing_game_keys_gives_nothing() -> None:
    with server() as client:
        human_game(client)
        answers = set()
        for _ in range(20):
            guess = secrets.token_urlsafe(12)
            for path in (f"/api/games/{guess}", f"/api/games/{guess}/record", f"/api/games/{guess}/rules"):
                answer = client.get(path)
                answers.add((answer.status_code, answer.text))
            answer = client.post(f"/api/games/{guess}/join", json={"token": "t", "name": "n"})
            answers.add((answer.status_code, answer.text))
        for guess in ("../../etc/passwd", "x" * 500, "%00", "' OR 1=1 --"):
            answers.add((client.get(f"/api/games/{guess}").status_code, "404 expected"))
        assert answers == {
            (404, '{"error":{"code":"not_found","message":"no such game"}}'),
            (404, "404 expected"),
        }


def test_the_record_of_an_unfinished_game_is_refused() -> None:
    store = MemoryStore()
    with server(store) as client:
        key, tokens = human_game(client)
        with Client(client, key, tokens[0]) as a, Client(client, key, tokens[1]) as b:
            goes_on(a, b)
            answer = client.get(f"/api/games/{key}/record")
            assert (
                answer.status_code == 409
                and "actions" not in answer.text
                and str(store.get_game(key).seed) not in answer.text
            )
            summary = client.get(f"/api/games/{key}").json()
            assert "seed" not in summary and "token" not in json.dumps(summary)
            goes_on(a, b)
