"""Finding an opponent (issue 28, part 8; docs/web.md, Finding an opponent): a listed game's open seats are taken
by anyone (``POST /api/games/{key}/sit``) while a private game's stay invitation-only; "Play anyone" pairs
waiters (``POST /api/match``, long polls on ``GET /api/match/{ticket}``) and gives each only their own seat's
secret; a rematch seats whoever asks for it at once.

Issue 27's guarantees hold throughout: whoever created a game (and holds every invitation) never learns the
secret of a seat someone else took, and nobody's answer carries another player's secret."""

from __future__ import annotations

import threading
import time
from typing import Any

from fastapi.testclient import TestClient

from cardarena.web.match import MatchRules
from cardarena.web.store import StoreError

from .server_fixtures import Client, create, join, server
from .test_server_protocol import to_act

TWO = [{"kind": "human", "name": "Creator"}, {"kind": "human"}]
FAST = MatchRules(poll_wait=0.2, stale_after=30.0)


def error(answer: Any) -> tuple[int, str]:
    return answer.status_code, answer.json()["error"]["code"]


# -- sitting at a listed game ----------------------------------------------------------------------------------
def test_a_stranger_sits_at_a_listed_game_and_the_creator_never_gets_the_secret() -> None:
    with server() as client:
        made = client.post("/api/games", json={"game": "tashkalar", "seats": TWO, "private": False})
        key = made.json()["key"]
        invitations = [i["url"].split("#", 1)[1] for i in made.json()["invitations"]]
        creator = join(client, key, invitations[0], "Creator")
        listed = client.get("/api/games").json()
        assert [(g["key"], [s["taken"] for s in g["seats"]]) for g in listed] == [(key, [True, False])]
        answer = client.post(f"/api/games/{key}/sit", json={"seat": 1, "name": "Stranger"})
        assert answer.status_code == 200, answer.text
        sat = answer.json()
        assert sat["seat"] == 1 and sat["secret"] not in invitations
        # the creator's invitation for that seat is dead, and nothing the creator can read holds the secret
        again = client.post(f"/api/games/{key}/join", json={"token": invitations[1], "name": "Mallory"})
        assert error(again) == (403, "bad_token")
        seen = made.text + client.get(f"/api/games/{key}").text + client.get("/api/games").text
        assert sat["secret"] not in seen
        # the secret is the seat: it opens it, the game runs
        with Client(client, key, creator) as a, Client(client, key, sat["secret"]) as b:
            assert b.welcome["seat"] == 1 and client.get(f"/api/games/{key}").json()["status"] == "running"
            assert to_act([a, b]).act("resign")["type"] == "ack"
        seats = client.get(f"/api/games/{key}").json()["seats"]
        assert [(s["name"], s["taken"]) for s in seats] == [("Creator", True), ("Stranger", True)]


def test_a_taken_seat_cannot_be_sat_in() -> None:
    with server() as client:
        key, invitations = create(client, "tashkalar", TWO, private=False)
        join(client, key, invitations[0], "Creator")
        assert error(client.post(f"/api/games/{key}/sit", json={"seat": 0, "name": "Thief"})) == (409, "taken")
        first = client.post(f"/api/games/{key}/sit", json={"seat": 1, "name": "Bo"}).json()["secret"]
        assert error(client.post(f"/api/games/{key}/sit", json={"seat": 1, "name": "Thief"})) == (409, "taken")
        assert client.get(f"/api/games/{key}").json()["seats"][1]["name"] == "Bo"
        with Client(client, key, first) as b:
            assert b.welcome["seat"] == 1


def test_a_seat_named_when_the_game_was_made_is_kept_for_its_player() -> None:
    """The creator's own seat (named in the create request) is not offered: a stranger cannot take it before the
    creator sits down."""
    with server() as client:
        key, invitations = create(client, "tashkalar", TWO, private=False)
        answer = client.post(f"/api/games/{key}/sit", json={"seat": 0, "name": "Stranger"})
        assert error(answer) == (409, "reserved") and "Creator" in answer.json()["error"]["message"]
        join(client, key, invitations[0], "Creator")


def test_a_private_game_s_seats_are_taken_only_with_their_invitations() -> None:
    with server() as client:
        key, invitations = create(client, "tashkalar", TWO, private=True)
        answer = client.post(f"/api/games/{key}/sit", json={"seat": 1, "name": "Stranger"})
        assert error(answer) == (403, "private")
        assert not any(s["taken"] for s in client.get(f"/api/games/{key}").json()["seats"])
        join(client, key, invitations[1], "Invited")  # the invitation still works


def test_sitting_refuses_bad_seats_and_names_plainly() -> None:
    with server() as client:
        key, _ = create(client, "tashkalar", [{"kind": "human"}, {"kind": "ai", "agent": "random"}], private=False)
        for body in ({"seat": "0", "name": "x"}, {"seat": True, "name": "x"}, {"seat": 5, "name": "x"}):
            assert error(client.post(f"/api/games/{key}/sit", json=body)) == (400, "bad_request"), body
        assert error(client.post(f"/api/games/{key}/sit", json={"seat": 1, "name": "x"})) == (400, "bad_request")
        assert error(client.post(f"/api/games/{key}/sit", json={"seat": 0})) == (400, "bad_request")
        assert error(client.post("/api/games/nosuchgame/sit", json={"seat": 0, "name": "x"})) == (404, "not_found")
        assert not client.get(f"/api/games/{key}").json()["seats"][0]["taken"]


# -- "Play anyone" -----------------------------------------------------------------------------------------------
def enter(client: TestClient, game: str, name: str, status: str = "waiting") -> str:
    """A new waiter's ticket; ``status``: what the answer says (``waiting``, or ``matched`` for the last waiter)."""
    answer = client.post("/api/match", json={"game": game, "name": name})
    assert answer.status_code == 201, answer.text
    assert answer.json()["status"] == status
    ticket: str = answer.json()["ticket"]
    return ticket


def test_two_waiters_are_paired_and_each_gets_only_their_own_secret() -> None:
    with server(matching=FAST) as client:
        ada = enter(client, "tashkalar", "Ada")
        assert client.get(f"/api/match/{ada}").json()["status"] == "waiting"
        bo = enter(client, "tashkalar", "Bo", "matched")
        got = {name: client.get(f"/api/match/{t}") for name, t in (("Ada", ada), ("Bo", bo))}
        a, b = got["Ada"].json(), got["Bo"].json()
        assert a["status"] == b["status"] == "matched" and a["key"] == b["key"]
        assert {a["seat"], b["seat"]} == {0, 1} and a["secret"] != b["secret"]
        assert b["secret"] not in got["Ada"].text and a["secret"] not in got["Bo"].text
        assert a["play"] == f"/play/{a['key']}#seat={a['seat']}"
        game = client.get(f"/api/games/{a['key']}").json()
        assert game["status"] == "running" and game["private"] is True
        names = {s["seat"]: s["name"] for s in game["seats"]}
        assert (names[a["seat"]], names[b["seat"]]) == ("Ada", "Bo")
        assert a["key"] not in client.get("/api/games").text  # not listed: the two asked for no audience
        with Client(client, a["key"], a["secret"]) as ca, Client(client, b["key"], b["secret"]) as cb:
            assert (ca.welcome["seat"], cb.welcome["seat"]) == (a["seat"], b["seat"])
            assert to_act([ca, cb]).act("resign")["type"] == "ack"
        # a ticket answers its match once
        assert error(client.get(f"/api/match/{ada}")) == (404, "not_found")


def test_a_long_poll_answers_as_soon_as_the_match_is_made() -> None:
    with server(matching=MatchRules(poll_wait=30.0)) as client:
        ada = enter(client, "laplaplace", "Ada")
        answers: list[Any] = []
        poller = threading.Thread(target=lambda: answers.append(client.get(f"/api/match/{ada}").json()))
        poller.start()
        deadline = time.monotonic() + 10
        while not client.app.state.matchmaker.tickets[ada].polls and time.monotonic() < deadline:  # type: ignore[attr-defined]
            time.sleep(0.01)
        enter(client, "laplaplace", "Bo", "matched")
        poller.join(20)
        assert not poller.is_alive() and answers[0]["status"] == "matched"


def test_waiting_for_different_games_pairs_nobody_and_the_bound_per_address_holds() -> None:
    with server(matching=MatchRules(poll_wait=0.1, per_address=2)) as client:
        first = enter(client, "tashkalar", "Ada")
        enter(client, "laplaplace", "Ada")
        assert client.get(f"/api/match/{first}").json()["status"] == "waiting"
        refused = client.post("/api/match", json={"game": "torabato", "name": "Ada"})
        assert error(refused) == (409, "too_many_waiting")
        assert client.post(f"/api/match/{first}/cancel").json() == {"status": "cancelled"}
        enter(client, "torabato", "Ada")  # one left the queue: room for another


def test_a_cancelled_waiter_is_never_matched() -> None:
    with server(matching=FAST) as client:
        quitter = enter(client, "laplaplace", "Quitter")
        assert client.post(f"/api/match/{quitter}/cancel").json() == {"status": "cancelled"}
        bo = enter(client, "laplaplace", "Bo")  # waits: the quitter left the queue
        assert client.get(f"/api/match/{bo}").json()["status"] == "waiting"
        assert error(client.get(f"/api/match/{quitter}")) == (404, "not_found")


def test_a_waiter_whose_page_stopped_asking_leaves_the_queue() -> None:
    with server(matching=MatchRules(poll_wait=0.1, stale_after=0.05)) as client:
        gone = enter(client, "tashkalar", "Gone")
        time.sleep(0.3)  # the page stopped asking (closed): longer than stale_after
        enter(client, "tashkalar", "Ada")  # is not paired with the page that left: waits
        assert error(client.get(f"/api/match/{gone}")) == (404, "not_found")


def test_nobody_waits_longer_than_the_longest_wait() -> None:
    with server(matching=MatchRules(poll_wait=0.1, longest=0.05)) as client:
        ada = enter(client, "tashkalar", "Ada")
        time.sleep(0.3)
        assert error(client.get(f"/api/match/{ada}")) == (404, "not_found")
        enter(client, "tashkalar", "Bo")  # waits: Ada's ticket ran out


def test_a_match_the_database_refuses_is_told_to_both_waiters() -> None:
    with server(matching=FAST) as client:
        tables = client.app.state.tables  # type: ignore[attr-defined]

        async def refuse(row: Any) -> Any:
            raise StoreError("the disk is full")

        tables.create = refuse
        ada = enter(client, "tashkalar", "Ada")
        assert error(client.post("/api/match", json={"game": "tashkalar", "name": "Bo"})) == (503, "unavailable")
        assert error(client.get(f"/api/match/{ada}")) == (503, "unavailable")  # told, not left waiting in no queue
        assert error(client.get(f"/api/match/{ada}")) == (404, "not_found")


def test_asking_for_a_match_refuses_bad_requests_plainly() -> None:
    with server(matching=FAST) as client:
        for body in ({"game": "nosuch", "name": "x"}, {"game": "tashkalar"}, ["tashkalar"]):
            assert error(client.post("/api/match", json=body)) == (400, "bad_request"), body
        assert error(client.get("/api/match/forged")) == (404, "not_found")
        assert error(client.post("/api/match/forged/cancel")) == (404, "not_found")


# -- rematch -------------------------------------------------------------------------------------------------------
def test_a_rematch_seats_the_caller_at_once_and_gives_only_the_others_invitations() -> None:
    with server() as client:
        key, invitations = create(client, "tashkalar", [{"kind": "human"}, {"kind": "human"}])
        ada, bo = join(client, key, invitations[0], "Ada"), join(client, key, invitations[1], "Bo")
        with Client(client, key, ada) as a, Client(client, key, bo) as b:
            assert to_act([a, b]).act("resign")["type"] == "ack"
            b.sync()
            answer = client.post(f"/api/games/{key}/rematch", json={"token": bo})
            assert answer.status_code == 201, answer.text
            again = answer.json()
            # Ada's page at the finished table is offered her own seat of the rematch; Bo's page is sent nothing
            offer = a.until("rematch")
            assert offer == {
                "type": "rematch",
                "key": again["key"],
                "by": "Bo",
                "invitation": again["invitations"][0]["url"],
            }
            assert b.sync() == []
        assert again["seat"] == 1 and again["play"] == f"/play/{again['key']}#seat=1"
        assert [i["seat"] for i in again["invitations"]] == [0]
        seats = client.get(f"/api/games/{again['key']}").json()["seats"]
        assert [(s["name"], s["taken"]) for s in seats] == [("", False), ("Bo", True)]
        with Client(client, again["key"], again["secret"]) as mine:
            assert mine.welcome["seat"] == 1
        # Ada takes her seat with the invitation Bo passes on; Bo never learns her secret
        theirs = join(client, again["key"], again["invitations"][0]["url"].split("#", 1)[1], "Ada")
        assert theirs not in answer.text


def test_a_rematch_against_the_ai_goes_straight_to_a_running_table() -> None:
    with server() as client:
        key, invitations = create(client, "tashkalar", [{"kind": "human"}, {"kind": "ai", "agent": "random"}])
        ada = join(client, key, invitations[0], "Ada")
        with Client(client, key, ada) as a:
            while not a.state["legal"]:
                a.next()
            assert a.act("resign")["type"] == "ack"
        again = client.post(f"/api/games/{key}/rematch", json={"token": ada}).json()
        assert again["invitations"] == [] and again["seat"] == 0
        assert client.get(f"/api/games/{again['key']}").json()["status"] == "running"
        with Client(client, again["key"], again["secret"]) as mine:
            assert mine.welcome["seat"] == 0


# -- close ratings first (issue 32, point 5) --------------------------------------------------------------------
def test_close_ratings_are_paired_first_and_the_window_widens_with_waiting(monkeypatch: Any) -> None:
    """A 1500 and a 2000 player wait: they are too far apart at first. A 1560 player comes and is paired with the
    1500 at once; the 2000 player keeps waiting until a 1800 player has waited long enough for the windows to meet
    (100 points at first, 15 more each second)."""
    from cardarena.web import match

    clock = [1000.0]
    monkeypatch.setattr(match.time, "monotonic", lambda: clock[0])
    with server(matching=MatchRules(poll_wait=0.0, stale_after=3600.0)) as client:
        maker = client.app.state.matchmaker  # type: ignore[attr-defined]

        def enter(name: str, rating: float) -> dict[str, Any]:
            body = {"game": "laplaplace", "name": name}
            answer: dict[str, Any] = client.portal.call(  # type: ignore[union-attr]
                lambda: maker.enter(body, f"10.0.0.{len(name)}{int(rating) % 97}", rating=rating)
            )
            return answer

        low, high = enter("Lo", 1500), enter("High", 2000)
        assert (low["status"], high["status"]) == ("waiting", "waiting")
        near = enter("Near", 1560)
        assert near["status"] == "matched"
        assert maker.tickets[low["ticket"]].result["key"] == maker.tickets[near["ticket"]].result["key"]
        assert maker.tickets[high["ticket"]].result is None
        clock[0] += 5  # High's window: 175; a 1800 newcomer's: 100 -> too far apart
        mid = enter("Mid", 1800)
        assert mid["status"] == "waiting"
        clock[0] += 3  # High's window 220 > 200, Mid's 145 < 200: still not
        poll = client.get(f"/api/match/{mid['ticket']}").json()
        assert poll["status"] == "waiting"
        clock[0] += 4  # Mid's window 205 >= 200: a poll pairs them
        poll = client.get(f"/api/match/{mid['ticket']}").json()
        assert poll["status"] == "matched"
        assert client.get(f"/api/match/{high['ticket']}").json()["status"] == "matched"
