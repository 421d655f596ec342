"""The REST lobby and the WebSocket protocol of docs/web.md, through Starlette's TestClient over a MemoryStore:
every refusal is a typed error to the sender only, and the game is unchanged by it."""

from __future__ import annotations

from typing import Any

import pytest

from cardarena.agents.levels import GAME_LEVELS
from cardarena.engine import State, load
from cardarena.web.store import MemoryStore

from .server_fixtures import Client, create, human_game, join, server


def true_state(store: MemoryStore, key: str) -> State:
    """The game's true state, rebuilt from the store the way the server does (tests only)."""
    row = store.get_game(key)
    state = load(row.game, **row.options).new_initial_state(row.seed)
    for text in store.actions(key):
        state.apply_text(text)
    return state


def illegal_text(state: State) -> str:
    """The text of an action of the game that is not legal now."""
    game, legal = state.game, state.legal_actions()
    for index in range(game.num_distinct_actions):
        action = game.action_from_index(index)
        if action not in legal:
            return str(action)
    raise AssertionError("every action is legal")


def to_act(clients: list[Client]) -> Client:
    return next(c for c in clients if c.state["legal"])


# -- REST ---------------------------------------------------------------------------------------------------------
def test_catalogue_lists_every_game_with_options_and_strengths() -> None:
    with server() as client:
        body = client.get("/api/catalogue").json()
    ids = [g["id"] for g in body["games"]]
    assert {"dicebattle", "laplaplace", "lyabi", "tashkalar", "torabato"} <= set(ids)  # (+ the tests' toy games)
    tash = next(g for g in body["games"] if g["id"] == "tashkalar")
    assert tash["players"] == [2, 4]
    names = {o["name"] for o in tash["options"]}
    assert {"mode", "players", "teams"} <= names and "cards" not in names  # file options are not offered
    assert body["strengths"] == {
        "easy": "heuristic",
        "normal": "ismcts:iterations=300",
        "hard": "ismcts:iterations=2000",
        "expert": "expert",  # issue 31: the search with the game's learned evaluation is offered too
    }
    # each game lists the spec of every label: the generic one, or the game's own where it set one
    for g in body["games"]:
        assert set(g["strengths"]) == set(body["strengths"])
        assert g["strengths"]["easy"] == "heuristic" and g["strengths"]["normal"] == "ismcts:iterations=300"
    assert tash["strengths"]["hard"] == GAME_LEVELS["tashkalar"]["hard"] != body["strengths"]["hard"]
    assert next(g for g in body["games"] if g["id"] == "lyabi")["strengths"]["hard"] == "ismcts:iterations=2000"


def test_a_strength_label_seats_the_games_own_spec_at_creation_and_at_a_handover() -> None:
    store = MemoryStore()
    with server(store) as client:
        seats = [{"kind": "human"}, {"kind": "ai", "strength": "hard"}]
        tk, tokens = create(client, "tashkalar", seats)
        ly, _ = create(client, "lyabi", seats)
        assert store.get_game(tk).seats[1].agent == GAME_LEVELS["tashkalar"]["hard"]
        assert store.get_game(ly).seats[1].agent == "ismcts:iterations=2000"
        secret = join(client, tk, tokens[0])
        answer = client.post(f"/api/games/{tk}/handover", json={"token": secret, "strength": "hard"})
        assert answer.status_code == 200, answer.text
        assert store.get_game(tk).seats[0].agent == GAME_LEVELS["tashkalar"]["hard"]
        assert store.get_game(tk).seats[0].label == "hard"


@pytest.mark.parametrize(
    ("request_body", "status", "words"),
    [
        ({"game": "chess", "seats": []}, 400, "unknown game"),
        ({"game": "torabato", "seats": [{"kind": "human"}]}, 400, "2 seats"),
        ({"game": "torabato", "seats": [{"kind": "human"}, {"kind": "robot"}]}, 400, "kind"),
        ({"game": "torabato", "seats": [{"kind": "human"}, {"kind": "ai", "agent": "mcts"}]}, 400, "cheats"),
        ({"game": "torabato", "seats": [{"kind": "human"}, {"kind": "ai", "agent": "nobody"}]}, 400, "unknown agent"),
        ({"game": "torabato", "seats": [{"kind": "human"}, {"kind": "ai", "strength": "godlike"}]}, 400, "strength"),
        (
            {"game": "torabato", "seats": [{"kind": "human"}, {"kind": "ai", "agent": "ismcts:iterations=9000000"}]},
            400,
            "at most",
        ),
        ({"game": "torabato", "options": {"cards": "/etc/passwd"}, "seats": []}, 400, "file on the server"),
        ({"game": "torabato", "options": {"max_turns": "many"}, "seats": []}, 400, "whole number"),
        ({"game": "torabato", "seats": [{"kind": "human", "name": ""}, {"kind": "human"}]}, 400, "name"),
        ({"game": "torabato", "seats": [{"kind": "human"}, {"kind": "human"}], "private": "yes"}, 400, "private"),
        ([1, 2], 400, "JSON object"),
    ],
)
def test_create_refuses_bad_requests(request_body: Any, status: int, words: str) -> None:
    with server() as client:
        answer = client.post("/api/games", json=request_body)
        assert answer.status_code == status
        assert words in answer.json()["error"]["message"]
        assert client.get("/api/games").json() == []


def test_create_refuses_bodies_that_are_not_json_or_too_large() -> None:
    with server() as client:
        answer = client.post("/api/games", content=b"{not json", headers={"content-type": "application/json"})
        assert (answer.status_code, answer.json()["error"]["code"]) == (400, "bad_request")
        answer = client.post("/api/games", content=b"[" + b"1," * 20_000 + b"1]")
        assert (answer.status_code, answer.json()["error"]["code"]) == (413, "too_large")


def test_create_any_game_and_seat_count_then_list_get_join_leave() -> None:
    with server() as client:
        key, tokens = create(
            client,
            "tashkalar",
            [{"kind": "human", "name": "Ann"}, {"kind": "ai", "strength": "easy"}, {"kind": "human"}],
            options={"mode": "melee", "players": 3},
        )
        hidden, _ = create(client, "lyabi", [{"kind": "human"}, {"kind": "human"}], private=True)
        assert len(tokens) == 2
        listed = client.get("/api/games").json()
        assert [g["key"] for g in listed] == [key]  # the private game is reached by its key only
        assert client.get(f"/api/games/{hidden}").json()["key"] == hidden
        game = client.get(f"/api/games/{key}").json()
        assert game["status"] == "open" and game["options"] == {"mode": "melee", "players": 3}
        assert [(s["kind"], s["label"], s["taken"]) for s in game["seats"]] == [
            ("human", None, False),
            ("ai", "easy", True),
            ("human", None, False),
        ]
        joined = client.post(f"/api/games/{key}/join", json={"token": tokens[0], "name": "Ann"}).json()
        assert joined["seat"] == 0 and isinstance(joined["secret"], str) and joined["secret"] != tokens[0]
        assert client.get(f"/api/games/{key}").json()["status"] == "open"
        bob = join(client, key, tokens[1], "Bob")
        game = client.get(f"/api/games/{key}").json()
        assert game["status"] == "running" and [s["name"] for s in game["seats"]][::2] == ["Ann", "Bob"]
        left = client.post(f"/api/games/{key}/leave", json={"token": bob}).json()
        assert left["seat"] == 2 and left["invitation"].startswith(f"/play/{key}#")
        seat = client.get(f"/api/games/{key}").json()["seats"][2]
        assert (seat["name"], seat["taken"]) == ("", False)
        # the seat is open again through the new invitation only: the leaver's secret and the old one are void
        for dead in (bob, tokens[1]):
            assert client.post(f"/api/games/{key}/join", json={"token": dead, "name": "Cy"}).status_code == 403
        cy = join(client, key, left["invitation"].split("#", 1)[1], "Cy")
        assert client.get(f"/api/games/{key}").json()["seats"][2]["name"] == "Cy" and cy != bob


def test_join_refusals() -> None:
    with server() as client:
        key, tokens = create(client, "torabato", [{"kind": "human"}, {"kind": "human"}])
        for body, status in [
            ({"token": "forged", "name": "x"}, 403),
            ({"token": tokens[0], "name": "x" * 25}, 400),
            ({"token": tokens[0], "name": "tab\there"}, 400),
            ({"token": tokens[0], "name": 7}, 400),
            ("token", 400),
        ]:
            assert client.post(f"/api/games/{key}/join", json=body).status_code == status
        assert client.post("/api/games/nosuchgame/join", json={"token": tokens[0], "name": "x"}).status_code == 404
        assert not any(s["taken"] for s in client.get(f"/api/games/{key}").json()["seats"])


def test_record_only_of_finished_games_and_rematch() -> None:
    with server() as client:
        key, tokens = human_game(client, "tashkalar")
        assert client.get(f"/api/games/{key}/record").status_code == 409
        assert client.post(f"/api/games/{key}/rematch", json={"token": tokens[0]}).status_code == 409
        assert "Tash-Kalar" in client.get(f"/api/games/{key}/rules").text
        with Client(client, key, tokens[0]) as a, Client(client, key, tokens[1]) as b:
            assert to_act([a, b]).act("resign")["type"] == "ack"
        record = client.get(f"/api/games/{key}/record").json()
        assert record["actions"] == ["resign"] and record["game"] == "tashkalar"
        load("tashkalar").new_initial_state(record["seed"]).apply_text("resign")  # the record replays
        assert client.post(f"/api/games/{key}/rematch", json={"token": "forged"}).status_code == 403
        answer = client.post(f"/api/games/{key}/rematch", json={"token": tokens[1]})
        assert answer.status_code == 201
        again = client.get(f"/api/games/{answer.json()['key']}").json()
        assert again["rematch_of"] == key and again["status"] == "open" and again["game"] == "tashkalar"
        assert len(answer.json()["invitations"]) == 1  # the caller is seated at once: the other seat's only


def test_pages_answer_clearly_when_the_static_files_are_absent(tmp_path: Any) -> None:
    with server(static_dir=tmp_path) as client:
        for path in ("/", "/play/abc", "/watch/abc"):
            answer = client.get(path)
            assert answer.status_code == 404 and "not installed" in answer.text
        (tmp_path / "table.html").write_text("<!doctype html><title>t</title>")
        answer = client.get("/play/abc")
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
        assert answer.headers["referrer-policy"] == "no-referrer"
        assert answer.headers["content-security-policy"].startswith("default-src 'self'")


# -- the WebSocket ------------------------------------------------------------------------------------------------
def test_a_seat_and_a_spectator_get_welcome_state_and_pong() -> None:
    with server() as client:
        key, tokens = human_game(client)
        with Client(client, key, tokens[0]) as a, Client(client, key) as watcher:
            assert a.welcome["seat"] == 0 and watcher.welcome["seat"] is None
            assert a.welcome["rules_url"] == f"/api/games/{key}/rules"
            assert a.state["ply"] == 0 and a.state["status"] == "running" and a.state["log"] == []
            assert watcher.state["legal"] == []
            assert set(a.state) >= {"to_act", "terminal", "returns", "observation", "board", "legal", "seats"}
            # ``confirm``: only on an action the page asks about first (docs/web.md, Confirmations)
            assert all(
                {"text", "group", "detail"} <= set(e) <= {"text", "group", "detail", "confirm"}
                for e in a.state["legal"]
            )
            assert a.state["legal"] or a.state["to_act"] != 0
            assert watcher.sync()[-1:] == [] or watcher.sync() == []


ERRORS = ["stale_ply", "malformed_text", "illegal", "not_your_turn", "spectator", "too_large", "bad_json", "types"]


@pytest.mark.parametrize("case", ERRORS)
def test_every_refusal_goes_to_the_sender_only_and_changes_nothing(case: str) -> None:
    store = MemoryStore()
    with server(store) as client:
        key, tokens = human_game(client)
        with (
            Client(client, key, tokens[0]) as a,
            Client(client, key, tokens[1]) as b,
            Client(client, key) as watcher,
        ):
            actor = to_act([a, b])
            other = b if actor is a else a
            actor.act(actor.state["legal"][0]["text"])  # one action in, so that ply 0 is stale
            for c in (other, watcher):
                c.sync()
            actor = to_act([a, b])
            other = b if actor is a else a
            before = {c: c.state for c in (a, b, watcher)}
            stored = store.actions(key)
            legal = actor.state["legal"][0]["text"]
            sender, message, code = {
                "stale_ply": (actor, {"type": "act", "ply": actor.state["ply"] - 1, "action": legal}, "stale_ply"),
                "malformed_text": (actor, {"type": "act", "ply": actor.state["ply"], "action": "%%"}, "malformed"),
                "illegal": (
                    actor,
                    {"type": "act", "ply": actor.state["ply"], "action": illegal_text(true_state(store, key))},
                    "illegal",
                ),
                "not_your_turn": (other, {"type": "act", "ply": other.state["ply"], "action": legal}, "not_your_turn"),
                "spectator": (watcher, {"type": "act", "ply": watcher.state["ply"], "action": legal}, "spectator"),
                "too_large": (actor, {"type": "chat", "text": "x" * 5000}, "too_large"),
                "bad_json": (actor, '{"type": "act", "ply": ', "malformed"),
                "types": (actor, {"type": "act", "ply": "1", "action": legal}, "malformed"),
            }[case]
            sender.send(message)
            answers = sender.sync()
            assert [m["type"] for m in answers] == ["error"] and answers[0]["code"] == code, answers
            assert answers[0]["message"]
            for c in (a, b, watcher):
                if c is not sender:
                    assert c.sync() == []  # nothing reached the others
                assert c.state == before[c]
            assert store.actions(key) == stored
            assert actor.act(legal)["type"] == "ack"  # and the game goes on


def test_more_malformed_messages() -> None:
    with server() as client:
        key, tokens = human_game(client)
        with Client(client, key, tokens[0]) as a:
            for message in ("[1]", '"act"', '{"type": "dance"}', '{"no": "type"}', '{"type": "hello"}'):
                a.send(message)
                assert [m["code"] for m in a.sync()] == ["malformed"]
            for message in (
                {"type": "act", "ply": True, "action": "x"},
                {"type": "act", "ply": -1, "action": "x"},
                {"type": "act", "ply": 0, "action": ["x"]},
                {"type": "chat", "text": 5},
                {"type": "chat", "text": ""},
                {"type": "chat", "text": "x" * 301},
            ):
                a.send(message)
                assert [m["code"] for m in a.sync()] == ["malformed"], message
            a.ws.send_bytes(b"\x00\x01")
            assert [m["code"] for m in a.sync()] == ["malformed"]


def test_acting_before_every_seat_is_taken_waits() -> None:
    with server() as client:
        key, tokens = create(client, "torabato", [{"kind": "human"}, {"kind": "human"}])
        secret = join(client, key, tokens[0])
        with Client(client, key, secret) as a:
            assert a.state["status"] == "open" and a.state["legal"] == []
            a.send({"type": "act", "ply": 0, "action": "pass"})
            assert [m["code"] for m in a.sync()] == ["waiting"]
            join(client, key, tokens[1], "Bo")
            got = a.sync()
            assert {m["type"] for m in got} == {"seats", "state"}
            assert a.state["status"] == "running"


def test_a_finished_game_refuses_actions() -> None:
    with server() as client:
        key, tokens = human_game(client, "tashkalar")
        with Client(client, key, tokens[0]) as a, Client(client, key, tokens[1]) as b:
            actor = to_act([a, b])
            actor.act("resign")
            assert actor.state["terminal"] and actor.state["returns"] is not None
            for c in (a, b):
                c.sync()
                assert c.state["terminal"] and c.state["legal"] == []
                c.send({"type": "act", "ply": c.state["ply"], "action": "resign"})
                assert [m["code"] for m in c.sync()] == ["finished"]


def test_hello_refusals_close_the_socket() -> None:
    with server() as client:
        key, _ = human_game(client)
        for path, hello, code in [
            (f"/ws/{key}", {"type": "hello", "token": "forged"}, "bad_token"),
            (f"/ws/{key}", {"type": "ping"}, "malformed"),
            (f"/ws/{key}", {"type": "hello", "since": "all"}, "malformed"),
            ("/ws/nosuchgame", {"type": "hello"}, "not_found"),
        ]:
            with client.websocket_connect(path) as ws:
                ws.send_json(hello)
                from .server_fixtures import receive

                assert receive(ws)["code"] == code
                assert receive(ws)["type"] == "_closed"


def test_chat_reaches_every_connection_verbatim() -> None:
    with server() as client:
        key, tokens = human_game(client)
        with Client(client, key, tokens[0]) as a, Client(client, key, tokens[1]) as b, Client(client, key) as w:
            a.send({"type": "chat", "text": "gl hf <3"})
            for c in (a, b, w):
                assert c.until("chat") == {"type": "chat", "seat": 0, "name": "p0", "text": "gl hf <3"}
            w.send({"type": "chat", "text": "hi"})
            assert [m["code"] for m in w.sync()] == ["spectator"]
