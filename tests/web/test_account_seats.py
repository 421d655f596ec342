"""Issue 32: seats bound to accounts. A signed-in person who takes a seat has it bound to their account and comes
back to it from another browser by signing in there; a rated game seats signed-in people only."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.orm import Session

from cardarena.web.sql import RatingModel
from cardarena.web.store import MemoryStore

from .account_fixtures import Browser, account_server, rated_game
from .server_fixtures import Client, create

HUMANS = [{"kind": "human"}, {"kind": "human"}]
VS_RANDOM = [{"kind": "human"}, {"kind": "ai", "agent": "random"}]


def test_taking_a_seat_signed_in_binds_it_and_leaving_unbinds_it() -> None:
    store = MemoryStore()
    with account_server(store) as client:
        ann = Browser(client)
        ann_id = ann.register("Ann")["id"]
        key, tokens = create(client, "laplaplace", HUMANS)
        secret = ann.join(key, tokens[0], "Ann").json()["secret"]
        anonymous = client.post(f"/api/games/{key}/join", json={"token": tokens[1], "name": "Guest"})
        assert anonymous.status_code == 200
        assert [s.account for s in store.get_game(key).seats] == [ann_id, None]
        assert ann.post(f"/api/games/{key}/leave", {"token": secret}).status_code == 200
        assert [s.account for s in store.get_game(key).seats] == [None, None]
        assert ann.get("/api/accounts/me/games").json() == []
        # sitting in a listed game's open seat binds it too
        key2, _ = create(client, "laplaplace", HUMANS)
        assert ann.post(f"/api/games/{key2}/sit", {"seat": 1, "name": "Ann"}).status_code == 200
        assert [s.account for s in store.get_game(key2).seats] == [None, ann_id]


def test_a_rated_game_seats_signed_in_people_only_one_seat_each() -> None:
    store = MemoryStore()
    key, tokens = rated_game(store, "laplaplace", HUMANS)
    with account_server(store) as client:
        answer = client.post(f"/api/games/{key}/join", json={"token": tokens[0], "name": "Guest"})
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "sign_in_required"
        answer = client.post(f"/api/games/{key}/sit", json={"seat": 0, "name": "Guest"})
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "sign_in_required"
        ann = Browser(client)
        ann_id = ann.register("Ann")["id"]
        assert ann.join(key, tokens[0], "Ann").status_code == 200
        twice = ann.post(f"/api/games/{key}/sit", {"seat": 1, "name": "Ann again"})
        assert twice.status_code == 409 and twice.json()["error"]["code"] == "same_account"
        bob = Browser(client)
        bob_id = bob.register("Bob")["id"]
        assert bob.post(f"/api/games/{key}/sit", {"seat": 1, "name": "Bob"}).status_code == 200
        row = store.get_game(key)
        assert [s.account for s in row.seats] == [ann_id, bob_id] and row.status == "running"


def test_a_signed_in_player_comes_back_to_the_seat_from_another_browser() -> None:
    with account_server() as client:
        home = Browser(client)
        home.register("Ann")
        key, tokens = create(client, "laplaplace", VS_RANDOM)
        assert home.join(key, tokens[0], "Ann").status_code == 200
        # another browser: no seat secret, only the account
        phone = Browser(client)
        assert phone.sign_in("Ann").status_code == 200
        games = phone.get("/api/accounts/me/games").json()
        assert games == [
            {
                "key": key,
                "game": "laplaplace",
                "title": "Laplaplace",
                "status": "running",
                "seat": 0,
                "play": f"/play/{key}#account",
            }
        ]
        with phone.socket(key, origin="http://testserver") as me:
            assert me.welcome["type"] == "welcome" and me.welcome["seat"] == 0
            acted = 0
            while not me.state["terminal"]:
                if me.state["legal"]:
                    assert me.act(me.state["legal"][0]["text"])["type"] == "ack"
                    acted += 1
                else:
                    me.next()
            assert acted > 0
        assert client.get(f"/api/games/{key}").json()["status"] == "finished"
        assert phone.get("/api/accounts/me/games").json() == []  # in progress only


def test_an_account_opens_no_seat_but_its_own() -> None:
    with account_server() as client:
        ann, bob = Browser(client), Browser(client)
        ann.register("Ann")
        bob.register("Bob")
        key, tokens = create(client, "laplaplace", VS_RANDOM)
        ann.join(key, tokens[0], "Ann")
        with bob.socket(key) as socket:
            assert socket.welcome["type"] == "error" and socket.welcome["code"] == "no_seat"
        with Browser(client).socket(key) as socket:  # not signed in
            assert socket.welcome["type"] == "error" and socket.welcome["code"] == "not_signed_in"
        # another site's page opening a socket that carries Ann's cookie reads nothing
        with ann.socket(key, origin="https://evil.example") as socket:
            assert socket.welcome["type"] == "error" and socket.welcome["code"] == "cross_origin"
            assert all(m["type"] != "state" for m in socket.messages)


def test_a_rematch_signed_in_binds_the_new_seat() -> None:
    store = MemoryStore()
    with account_server(store) as client:
        ann = Browser(client)
        ann_id = ann.register("Ann")["id"]
        key, tokens = create(client, "laplaplace", VS_RANDOM)
        secret = ann.join(key, tokens[0], "Ann").json()["secret"]
        with ann.socket(key) as me:
            while not me.state["terminal"]:
                if me.state["legal"]:
                    me.act(me.state["legal"][0]["text"])
                else:
                    me.next()
        again = ann.post(f"/api/games/{key}/rematch", {"token": secret})
        assert again.status_code == 201, again.text
        assert store.get_game(again.json()["key"]).seats[0].account == ann_id


def test_play_anyone_signed_in_binds_each_players_seat() -> None:
    store = MemoryStore()
    with account_server(store) as client:
        ann, bob = Browser(client), Browser(client)
        ann_id, bob_id = ann.register("Ann")["id"], bob.register("Bob")["id"]
        first = ann.post("/api/match", {"game": "laplaplace", "name": "Ann"}).json()
        assert bob.post("/api/match", {"game": "laplaplace", "name": "Bob"}).json()["status"] == "matched"
        matched = ann.get(f"/api/match/{first['ticket']}").json()
        assert matched["status"] == "matched"
        seats = store.get_game(matched["key"]).seats
        assert {(s.name, s.account) for s in seats} == {("Ann", ann_id), ("Bob", bob_id)}


def test_a_seat_handed_to_an_ai_stays_the_accounts_and_a_rated_seat_is_not_left_to_another() -> None:
    store = MemoryStore()
    key, tokens = rated_game(store, "laplaplace", HUMANS)
    with account_server(store) as client:
        ann, bob = Browser(client), Browser(client)
        ann_id = ann.register("Ann")["id"]
        bob.register("Bob")
        ann_secret = ann.join(key, tokens[0], "Ann").json()["secret"]
        bob.join(key, tokens[1], "Bob")
        refused = ann.post(f"/api/games/{key}/leave", {"token": ann_secret})
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "rated"
        assert ann.post(f"/api/games/{key}/handover", {"token": ann_secret, "strength": "easy"}).status_code == 200
        seat = store.get_game(key).seats[0]
        assert (seat.kind, seat.account) == ("ai", ann_id)  # the result counts for Ann's account
        assert ann.get("/api/accounts/me/games").json() == []  # an AI plays it: nothing for Ann to do there
        assert [g["key"] for g in bob.get("/api/accounts/me/games").json()] == [key]


def test_your_games_lists_the_accounts_seats_in_a_browser_that_holds_none() -> None:
    with account_server() as client:
        home = Browser(client)
        home.register("Ann")
        key, tokens = create(client, "laplaplace", VS_RANDOM)
        secret = home.join(key, tokens[0], "Ann").json()["secret"]
        phone = Browser(client)
        assert phone.post("/api/seats/status", {"seats": []}).json() == []  # not signed in: nothing
        phone.sign_in("Ann")
        games = phone.post("/api/seats/status", {"seats": []}).json()
        assert [(g["key"], g["seat"], g["play"], g["your_turn"]) for g in games] == [
            (key, 0, f"/play/{key}#account", True)
        ]
        # the browser that holds the seat's secret sees it once, by its secret's link
        held = home.post("/api/seats/status", {"seats": [{"key": key, "secret": secret}]}).json()
        assert [(g["key"], g["play"]) for g in held] == [(key, f"/play/{key}#seat=0")]


def test_play_anyone_signed_in_waits_with_the_accounts_rating() -> None:
    with account_server() as client:
        ann = Browser(client)
        ann_id = ann.register("Ann")["id"]
        engine = client.app.state.server.accounts.engine  # type: ignore[attr-defined]
        with Session(engine) as session, session.begin():
            session.add(
                RatingModel(account_id=ann_id, key="laplaplace", rating=1812.5, rd=80.0, volatility=0.06, games=9,
                            updated=datetime.now(UTC))
            )  # fmt: skip
        ticket = ann.post("/api/match", {"game": "laplaplace", "name": "Ann"}).json()["ticket"]
        guest = client.post("/api/match", json={"game": "torabato", "name": "Guest"}).json()["ticket"]
        tickets = client.app.state.matchmaker.tickets  # type: ignore[attr-defined]
        assert (tickets[ticket].rating, tickets[ticket].account) == (1812.5, ann_id)
        assert (tickets[guest].rating, tickets[guest].account) == (1500.0, None)


def test_a_players_own_page_lists_their_private_games_to_them_only() -> None:
    with account_server() as client:
        ann, bob = Browser(client), Browser(client)
        ann.register("Ann")
        bob.register("Bob")
        key, tokens = create(client, "laplaplace", VS_RANDOM, private=True)
        ann.join(key, tokens[0], "Ann")
        own = ann.get("/api/players/Ann").json()
        assert own["owner"] is True and [g["key"] for g in own["playing"]] == [key]
        for other in (bob, Browser(client)):  # another account, and nobody signed in
            seen = other.get("/api/players/Ann").json()
            assert seen["owner"] is False and seen["playing"] == []


def test_from_another_browser_the_account_leaves_hands_over_and_asks_a_rematch_without_the_secret() -> None:
    store = MemoryStore()
    with account_server(store) as client:
        home, phone, bob = Browser(client), Browser(client), Browser(client)
        ann_id = home.register("Ann")["id"]
        bob.register("Bob")
        phone.sign_in("Ann")
        key, tokens = create(client, "laplaplace", VS_RANDOM)
        home.join(key, tokens[0], "Ann")
        # nobody else touches Ann's seat without its secret: not another account, not a stranger
        for other in (bob, Browser(client)):
            refused = other.post(f"/api/games/{key}/handover", {"strength": "easy"})
            assert refused.status_code == 403 and refused.json()["error"]["code"] == "no_seat"
            assert other.post(f"/api/games/{key}/leave", {}).status_code == 403
        assert phone.post(f"/api/games/{key}/handover", {"strength": "easy"}).json() == {"seat": 0, "strength": "easy"}
        with Client(client, key) as watcher:  # the AIs play it to the end
            while not watcher.state["terminal"]:
                watcher.next()
        again = phone.post(f"/api/games/{key}/rematch", {})
        assert again.status_code == 201, again.text
        new = again.json()["key"]
        assert store.get_game(new).seats[0].account == ann_id
        left = phone.post(f"/api/games/{new}/leave", {"token": again.json()["secret"]})
        assert left.status_code == 200 and store.get_game(new).seats[0].account is None
        # and leaving by the account, in a game the phone never held a secret of
        key2, tokens2 = create(client, "laplaplace", [{"kind": "human"}, {"kind": "human"}])
        home.join(key2, tokens2[0], "Ann")
        left = phone.post(f"/api/games/{key2}/leave", {})
        assert left.status_code == 200 and left.json()["seat"] == 0
        assert store.get_game(key2).seats[0].claimed is False


def test_play_anyone_offers_the_ai_of_about_the_players_rating() -> None:
    """Issue 32, point 5: nobody came; the person asks for a bot of about their rating. A newcomer (or someone not
    signed in) gets the bot nearest 1500; someone rated far above gets a stronger one."""
    from cardarena.web.ratings import anchor

    with account_server() as client:
        guest = client.get("/api/ratings/bot", params={"game": "laplaplace"}).json()
        bots = {label: anchor("laplaplace", label).rating for label in ("easy", "normal", "hard", "expert")}
        assert guest["strength"] == min(bots, key=lambda label: abs(bots[label] - 1500))
        assert (guest["yours"], guest["provisional"], guest["key"]) == (1500.0, True, "laplaplace")
        ann = Browser(client)
        ann_id = ann.register("Ann")["id"]
        engine = client.app.state.server.accounts.engine  # type: ignore[attr-defined]
        strong = max(bots.values()) + 40
        with Session(engine) as session, session.begin():
            session.add(
                RatingModel(account_id=ann_id, key="laplaplace", rating=strong, rd=60.0, volatility=0.06, games=40,
                            updated=datetime.now(UTC))
            )  # fmt: skip
        mine = ann.get("/api/ratings/bot", params={"game": "laplaplace"}).json()
        assert mine["strength"] == max(bots, key=lambda label: bots[label])
        assert (mine["yours"], mine["provisional"]) == (round(strong, 1), False)
        assert mine["rating"] == round(bots[mine["strength"]], 1)
        assert client.get("/api/ratings/bot", params={"game": "chess"}).status_code == 400


def test_a_rated_game_without_a_clock_gets_one_so_nobody_escapes_a_loss() -> None:
    with account_server() as client:
        ann = Browser(client)
        ann.register("Ann")
        body = {"game": "laplaplace", "seats": [{"kind": "human"}, {"kind": "ai", "strength": "easy"}], "rated": True}
        key = ann.post("/api/games", body).json()["key"]
        row = client.app.state.tables.live(key).row  # type: ignore[attr-defined]
        assert (row.clock["kind"], row.clock["limit"], row.clock["then"]) == ("move", 300.0, "easy")
        chosen = {**body, "clock": {"kind": "turn", "hours": 24}}
        key = ann.post("/api/games", chosen).json()["key"]
        assert client.app.state.tables.live(key).row.clock["kind"] == "turn"  # type: ignore[attr-defined]
        casual = {**body, "rated": False}
        key = ann.post("/api/games", casual).json()["key"]
        assert client.app.state.tables.live(key).row.clock is None  # type: ignore[attr-defined]


def test_a_rated_game_offers_no_hints_or_odds() -> None:
    """In a rated game a person's own play is rated: the table offers no Help box and refuses a question."""
    with account_server() as client:
        ann = Browser(client)
        ann.register("Ann")
        body = {"game": "torabato", "seats": [{"kind": "human"}, {"kind": "ai", "strength": "easy"}], "rated": True}
        made = ann.post("/api/games", body).json()
        key, token = made["key"], made["invitations"][0]["url"].split("#", 1)[1]
        secret = ann.post(f"/api/games/{key}/join", {"token": token, "name": "Ann"}).json()["secret"]
        with Client(client, key, secret) as seat:
            assert seat.welcome["advice"] is False
            seat.send({"type": "odds"})
            assert [m["code"] for m in seat.sync() if m["type"] == "error"] == ["rated"]
        casual = ann.post("/api/games", {**body, "rated": False}).json()
        key, token = casual["key"], casual["invitations"][0]["url"].split("#", 1)[1]
        secret = ann.post(f"/api/games/{key}/join", {"token": token, "name": "Ann"}).json()["secret"]
        with Client(client, key, secret) as seat:
            assert seat.welcome["advice"] is True
