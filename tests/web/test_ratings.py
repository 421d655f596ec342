"""Ratings (issue 32, part 2): Glicko-2 checked against Glickman's worked example; rated games against a bot and
between two accounts played to the end through the REST lobby and the WebSocket, each player's rating moved by
exactly what Glicko-2 gives for the result; an unrated game moves nothing; leaving a rated game loses it, whatever
the AI that plays on does; the bots' accounts and their anchored ratings; the public leaderboard and history.

Until the accounts' routes land, a test makes its people's accounts as rows and binds their seats the way those
routes will (the seat's ``account``), never by building a session."""

from __future__ import annotations

import math
from dataclasses import astuple, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import glicko2  # type: ignore[import-untyped]
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from cardarena.agents.levels import LEVELS
from cardarena.engine import Rng, load
from cardarena.web.glicko import Outcome, Rating, update
from cardarena.web.ratings import START, anchor, pairwise_scores, resigned
from cardarena.web.routes.deps import COOKIE
from cardarena.web.sql import AccountModel, RatingModel
from cardarena.web.store import GameRow, GameStatus, SeatKind, SeatRow, Store, open_store

from .server_fixtures import Client, create, server


# -- Glicko-2 -------------------------------------------------------------------------------------------------
def test_glicko2_gives_glickmans_worked_example() -> None:
    """Glickman, "Example of the Glicko-2 system": a 1500 / 200 / 0.06 player beats a 1400 / 30 and loses to a
    1550 / 100 and a 1700 / 300 (tau 0.5): 1464.06 / 151.52 / 0.05999 (the paper rounds its steps' figures)."""
    games = [Outcome(Rating(1400, 30), 1.0), Outcome(Rating(1550, 100), 0.0), Outcome(Rating(1700, 300), 0.0)]
    after = update(Rating(1500, 200, 0.06), games)
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)
    # a period without games widens the deviation only (the paper's step 6)
    idle = update(Rating(1500, 200, 0.06), [])
    assert (idle.rating, idle.volatility) == (1500, 0.06) and idle.rd == pytest.approx(
        (200**2 + (0.06 * 173.7178) ** 2) ** 0.5
    )


def test_glicko2_agrees_with_a_reference_written_apart_and_with_the_glicko2_package() -> None:
    """For players and opponents anywhere on the scale: the paper's steps with its volatility function solved by
    bisection (:func:`_reference`) give the same rating, deviation and volatility; the ``glicko2`` package, whose
    volatility function reads mu^2 for phi^2 (:mod:`cardarena.web.glicko`), gives the same rating and deviation to
    a fiftieth of a point."""
    rng = Rng(32)
    for _ in range(50):
        player = Rating(1000 + rng.randbelow(1200), 40 + rng.randbelow(320), 0.04 + rng.randbelow(5) / 100)
        games = [
            Outcome(Rating(900 + rng.randbelow(1300), 30 + rng.randbelow(320)), rng.randbelow(3) / 2)
            for _ in range(1 + rng.randbelow(4))
        ]
        got = update(player, games)
        assert astuple(got) == pytest.approx(astuple(_reference(player, games)), rel=1e-6)
        package = _package(player, games)
        assert (got.rating, got.rd) == pytest.approx((package.rating, package.rd), abs=0.02)


def _reference(player: Rating, games: list[Outcome]) -> Rating:
    """Glickman's steps 2 to 8, written apart from :mod:`cardarena.web.glicko`: step 5 by bisection."""
    scale, tau = 400 / math.log(10), 0.5
    mu, phi, sigma = (player.rating - 1500) / scale, player.rd / scale, player.volatility
    opponents = [((g.opponent.rating - 1500) / scale, g.opponent.rd / scale, g.score) for g in games]

    def g(p: float) -> float:
        return 1 / math.sqrt(1 + 3 * p * p / math.pi**2)

    def e(m: float, p: float) -> float:
        return 1 / (1 + math.exp(-g(p) * (mu - m)))

    v = 1 / sum(g(p) ** 2 * e(m, p) * (1 - e(m, p)) for m, p, _ in opponents)
    delta = v * sum(g(p) * (s - e(m, p)) for m, p, s in opponents)
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    low, high = a - 20, a + 20  # f falls from positive to negative across its one root
    for _ in range(200):
        middle = (low + high) / 2
        low, high = (middle, high) if f(middle) > 0 else (low, middle)
    sigma_new = math.exp(low / 2)
    phi_new = 1 / math.sqrt(1 / (phi**2 + sigma_new**2) + 1 / v)
    mu_new = mu + phi_new**2 * sum(g(p) * (s - e(m, p)) for m, p, s in opponents)
    return Rating(mu_new * scale + 1500, phi_new * scale, sigma_new)


def _package(player: Rating, games: list[Outcome]) -> Rating:
    """What the ``glicko2`` package gives."""
    computed = glicko2.Player(player.rating, player.rd, player.volatility)
    computed.update_player([g.opponent.rating for g in games], [g.opponent.rd for g in games], [g.score for g in games])
    return Rating(computed.rating, computed.rd, computed.vol)


def test_pairwise_scores_by_standing_and_forfeits() -> None:
    # a melee of four: each pair of seats is a game won, drawn or lost by the final standing
    scores = pairwise_scores([3.0, 1.0, 3.0, 0.0], set())
    assert [scores[0, j] for j in (1, 2, 3)] == [1.0, 0.5, 1.0]
    assert [scores[3, j] for j in (0, 1, 2)] == [0.0, 0.0, 0.0]
    # a seat that forfeited loses to every seat that did not, even where its returns are higher; two draw
    scores = pairwise_scores([1.0, -1.0, 0.0], {0, 2})
    assert (scores[0, 1], scores[1, 0], scores[0, 2], scores[2, 1]) == (0.0, 1.0, 0.5, 0.0)
    # two teams (seats 0+2 against 1+3): each player against the other team only
    scores = pairwise_scores([1.0, -1.0, 1.0, -1.0], set(), team={0: 0, 1: 1, 2: 0, 3: 1})
    assert scores == {(i, j): 1.0 if i % 2 == 0 else 0.0 for i in range(4) for j in range(4) if (i - j) % 2}


def test_bots_are_anchored_on_the_ladder_and_fall_back_where_it_has_none() -> None:
    # Laplaplace's ladder: easy 463 [250, 675], expert 1063 [790, 1336] (random = 0)
    assert anchor("laplaplace", "easy") == Rating(1500.0, (675 - 250) / 2 / 1.96, 0.06)
    expert = anchor("laplaplace", "expert")
    assert expert.rating == 1500 + 1063 - 463 and expert.rd == pytest.approx((1336 - 790) / 2 / 1.96)
    # Lyabi has no ladder: 200 points a strength above the one below it, deviation 150
    assert [anchor("lyabi", label) for label in LEVELS] == [
        Rating(1500.0 + 200 * i, 150.0, 0.06) for i in range(len(LEVELS))
    ]


def test_a_resignation_is_found_in_the_record() -> None:
    options = {"mode": "highform", "resign": True}
    row = GameRow(key="k", game="tashkalar", options=options, seed=7, seats=())
    state = load("tashkalar", **options).new_initial_state(7)
    actions = []
    for _ in range(3):
        text = str(state.playout_actions()[0])
        actions.append(text)
        state.apply_text(text)
    quitter = state.current_player
    actions.append("resign")
    assert resigned(row, actions) == {quitter}
    assert resigned(row, actions[:-1]) == set()


# -- through the server ---------------------------------------------------------------------------------------
def _person(client: TestClient, name: str) -> int:
    """A person's account, made as its row (the accounts' routes make them for real)."""
    engine = client.app.state.server.ratings.engine  # type: ignore[attr-defined]
    with Session(engine) as session, session.begin():
        account = AccountModel(name=name, name_key=name.casefold(), password_hash=None, created=datetime.now(UTC))
        session.add(account)
        session.flush()
        return account.id


def _signed_in(client: TestClient, account: int) -> dict[str, str]:
    """The headers of a browser signed in to ``account``: a new session's cookie and its CSRF token."""
    accounts = client.app.state.server.accounts  # type: ignore[attr-defined]
    secret, signed = accounts.open_session(accounts.get(account))
    return {"Cookie": f"{COOKIE}={secret}", "X-CSRF-Token": signed.csrf}


def _join_as(client: TestClient, key: str, token: str, name: str, account: int) -> str:
    """Take the seat of the invitation ``token`` signed in to ``account``, which binds the seat to it: a session
    opened by the accounts' service, its cookie and CSRF token sent as a browser sends them. The seat's secret."""
    answer = client.post(
        f"/api/games/{key}/join", json={"token": token, "name": name}, headers=_signed_in(client, account)
    )
    assert answer.status_code == 200, answer.text
    seat: str = answer.json()["secret"]
    return seat


def _play_out(*players: Client) -> dict[str, Any]:
    """Every player plays its last legal action until the game ends; the final state (of the first)."""
    while not players[0].state["terminal"]:
        actor = next((p for p in players if p.state["legal"]), None)
        if actor is None:
            players[0].next()
            continue
        assert actor.act(actor.state["legal"][-1]["text"])["type"] == "ack"
        for other in players:
            if other is not actor:
                other.sync()
    return players[0].state


def _rated(player: Client) -> dict[str, Any]:
    """The ``rated`` message ``player`` was sent: read already (a ``sync`` of the play may have read it before its
    pong), or the next one to come."""
    seen = [m for m in player.messages if m["type"] == "rated"]
    return seen[-1] if seen else player.until("rated")


def _ratings(client: TestClient, account: int) -> dict[str, Any]:
    answer = client.get(f"/api/accounts/{account}/ratings")
    assert answer.status_code == 200, answer.text
    return {r["key"]: r for r in answer.json()["ratings"]}


def _score(returns: list[float], seat: int, other: int) -> float:
    return 1.0 if returns[seat] > returns[other] else 0.5 if returns[seat] == returns[other] else 0.0


@pytest.mark.parametrize("database", ["memory", "sqlite", "postgresql"])
def test_a_rated_game_against_a_bot_moves_the_persons_rating_by_glicko2(
    database: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    urls = {
        "sqlite": lambda: f"sqlite:///{tmp_path / 'web.db'}",
        "postgresql": lambda: request.getfixturevalue("postgres_url"),
    }
    store: Store | None = open_store(urls[database]()) if database in urls else None
    with server(store) as client:
        ann = _person(client, "Ann")
        key, tokens = create(client, "laplaplace", [{"kind": "human"}, {"kind": "ai", "strength": "easy"}], rated=True)
        game = client.get(f"/api/games/{key}").json()
        assert game["rated"] is True
        secret = _join_as(client, key, tokens[0], "Ann", ann)
        with Client(client, key, secret) as me:
            final = _play_out(me)
            rated = _rated(me)
        returns = final["returns"]
        games = [Outcome(anchor("laplaplace", "easy"), _score(returns, 0, 1))]
        expected = update(START, games)
        assert astuple(expected) == pytest.approx(astuple(_reference(START, games)), rel=1e-6)
        mine = _ratings(client, ann)["laplaplace"]
        assert (mine["rating"], mine["rd"]) == (round(expected.rating, 2), round(expected.rd, 2))
        assert mine["games"] == 1 and mine["provisional"] is True
        assert mine["history"] == [
            {"game": key, "before": 1500.0, "rating": mine["rating"], "rd": mine["rd"], "at": mine["history"][0]["at"]}
        ]
        assert rated["changes"] == [
            {"seat": 0, "account": ann, "name": "Ann", "key": "laplaplace", "before": 1500.0, "rating": mine["rating"],
             "rd": mine["rd"], "provisional": True}
        ]  # fmt: skip
        board = client.get("/api/leaderboard/laplaplace").json()
        assert (board["key"], board["title"]) == ("laplaplace", "Laplaplace")
        by_name = {p["name"]: p for p in board["players"]}
        assert set(by_name) == {"Ann", "Easy AI", "Normal AI", "Hard AI", "Expert AI"}
        assert by_name["Ann"]["rating"] == mine["rating"]
        easy = anchor("laplaplace", "easy")
        assert (by_name["Easy AI"]["rating"], by_name["Easy AI"]["games"]) == (round(easy.rating, 2), 1)
        assert by_name["Easy AI"]["bot"] == "easy" and by_name["Easy AI"]["provisional"] is False
        assert [p["rating"] for p in board["players"]] == sorted((p["rating"] for p in board["players"]), reverse=True)
        with Client(client, key, secret) as again, Client(client, key) as watcher:  # pages that come after the end
            assert again.until("rated") == rated and watcher.until("rated") == rated
    if store is not None:  # the ratings are the database's: a restarted server has them, and the same bots
        with server(store) as client:
            assert _ratings(client, ann)["laplaplace"]["rating"] == mine["rating"]
            with Client(client, key) as watcher:  # the finished table, rebuilt, tells how the ratings moved
                assert watcher.until("rated") == rated
            names = [p["name"] for p in client.get("/api/leaderboard/laplaplace").json()["players"]]
            assert sorted(names) == sorted(["Ann", "Easy AI", "Normal AI", "Hard AI", "Expert AI"])
        store.close()


def test_a_rated_game_between_two_accounts_moves_both_and_hides_a_private_games_key() -> None:
    with server() as client:
        ann, bob = _person(client, "Ann"), _person(client, "Bob")
        key, tokens = create(client, "laplaplace", [{"kind": "human"}, {"kind": "human"}], rated=True, private=True)
        secrets = [_join_as(client, key, tokens[0], "Ann", ann), _join_as(client, key, tokens[1], "Bob", bob)]
        with Client(client, key, secrets[0]) as a, Client(client, key, secrets[1]) as b:
            returns = _play_out(a, b)["returns"]
            assert _rated(a)["changes"] == _rated(b)["changes"]
        for seat, account in ((0, ann), (1, bob)):
            expected = update(START, [Outcome(START, _score(returns, seat, 1 - seat))])
            got = _ratings(client, account)["laplaplace"]
            assert (got["rating"], got["rd"], got["games"]) == (round(expected.rating, 2), round(expected.rd, 2), 1)
            assert [h["game"] for h in got["history"]] == [None]  # a private game's key is never shown
        if returns[0] != returns[1]:
            assert _ratings(client, ann)["laplaplace"]["rating"] != 1500.0


def test_an_unrated_game_moves_nothing() -> None:
    with server() as client:
        ann = _person(client, "Ann")
        key, tokens = create(client, "laplaplace", [{"kind": "human"}, {"kind": "ai", "strength": "easy"}])
        assert client.get(f"/api/games/{key}").json()["rated"] is False
        with Client(client, key, _join_as(client, key, tokens[0], "Ann", ann)) as me:
            _play_out(me)
            assert all(m["type"] != "rated" for m in me.sync() + me.messages)
        assert client.get(f"/api/accounts/{ann}/ratings").json()["ratings"] == []
        board = client.get("/api/leaderboard/laplaplace").json()["players"]
        assert len(board) == len(LEVELS) and all(p["bot"] for p in board)  # the bots only
        assert all(p["games"] == 0 for p in board)


def test_leaving_a_rated_game_loses_it_whatever_the_ai_does_after() -> None:
    with server() as client:
        ann = _person(client, "Ann")
        key, tokens = create(client, "laplaplace", [{"kind": "human"}, {"kind": "ai", "strength": "easy"}], rated=True)
        secret = _join_as(client, key, tokens[0], "Ann", ann)
        left = client.post(f"/api/games/{key}/leave", json={"token": secret})
        assert left.status_code == 409 and left.json()["error"]["code"] == "rated"  # giving the seat back: refused
        with Client(client, key) as watcher:
            answer = client.post(f"/api/games/{key}/handover", json={"token": secret, "strength": "expert"})
            assert answer.status_code == 200, answer.text
            rated = _rated(watcher)  # after the last state: the ratings are stored
            assert watcher.state["terminal"]
        seat = client.app.state.tables.store.get_game(key).seats[0]  # type: ignore[attr-defined]
        assert seat.kind == SeatKind.AI and seat.account == ann  # still Ann's seat, played by an AI
        expected = update(START, [Outcome(anchor("laplaplace", "easy"), 0.0)])
        assert _ratings(client, ann)["laplaplace"]["rating"] == round(expected.rating, 2)
        assert rated["changes"][0]["rating"] == round(expected.rating, 2) < 1500


def test_what_a_rated_game_may_be_and_the_bots_accounts() -> None:
    with server() as client:
        human, easy = {"kind": "human"}, {"kind": "ai", "strength": "easy"}
        refusals = {
            "an agent spec": [human, {"kind": "ai", "agent": "random"}],
            "no person": [easy, {"kind": "ai", "strength": "hard"}],
        }
        for why, seats in refusals.items():
            answer = client.post("/api/games", json={"game": "laplaplace", "seats": seats, "rated": True})
            assert answer.status_code == 400, why
            assert answer.json()["error"]["code"] == "bad_request"
        assert (
            client.post("/api/games", json={"game": "laplaplace", "seats": [human, easy], "rated": 1}).status_code
            == 400
        )
        key, _ = create(client, "laplaplace", [human, {"kind": "ai", "strength": "hard"}], rated=True)
        row: GameRow = client.app.state.tables.live(key).row  # type: ignore[attr-defined]
        bots = client.app.state.server.ratings.ensure_bots()  # type: ignore[attr-defined]
        assert [s.account for s in row.seats] == [None, bots["hard"]]  # the AI seat is its strength's bot account
        for label, account in bots.items():
            got = client.get(f"/api/accounts/{account}/ratings").json()
            assert (got["name"], got["bot"], got["ratings"]) == (f"{label.capitalize()} AI", label, [])
        assert client.get("/api/leaderboard/nosuchgame").status_code == 404
        assert client.get("/api/accounts/99999/ratings").status_code == 404
        # a configuration beyond the lobby's list that someone was rated in has its leaderboard too
        ratings = client.app.state.server.ratings  # type: ignore[attr-defined]
        engine = ratings.engine
        with Session(engine) as session, session.begin():
            person = AccountModel(name="Odd", name_key="odd", created=datetime.now(UTC))
            session.add(person)
            session.flush()
            session.add(RatingModel(account_id=person.id, key="tashkalar-deathmatch-teams", rating=1600, rd=200,
                                    volatility=0.06, games=1, updated=datetime.now(UTC)))  # fmt: skip
        odd = client.get("/api/leaderboard/tashkalar-deathmatch-teams")
        assert odd.status_code == 200 and "Odd" in [p["name"] for p in odd.json()["players"]]


def test_an_account_on_two_seats_of_a_rated_game_is_not_rated() -> None:
    with server() as client:
        ann = _person(client, "Ann")
        ratings = client.app.state.server.ratings  # type: ignore[attr-defined]
        seats = (SeatRow(0, SeatKind.HUMAN, "Ann", account=ann), SeatRow(1, SeatKind.HUMAN, "Ann", account=ann))
        row = GameRow(key="twice", game="laplaplace", options={}, seed=1, seats=seats, rated=True, result=[1.0, -1.0])
        assert ratings.rate_game(replace(row, status=GameStatus.FINISHED), key="laplaplace", forfeited=set()) == []
        assert client.get(f"/api/accounts/{ann}/ratings").json()["ratings"] == []


def test_a_seat_handed_to_an_ai_loses_even_where_the_ai_won() -> None:
    with server() as client:
        ann, bob = _person(client, "Ann"), _person(client, "Bob")
        ratings = client.app.state.server.ratings  # type: ignore[attr-defined]
        bots = ratings.ensure_bots()
        seats = (
            SeatRow(0, SeatKind.AI, "Ann (expert AI)", label="expert", account=ann),  # Ann left: an AI played on
            SeatRow(1, SeatKind.HUMAN, "Bob", account=bob),
            SeatRow(2, SeatKind.AI, "Easy AI", label="easy", account=bots["easy"]),
        )
        row = GameRow(
            key="melee", game="tashkalar", options={}, seed=1, seats=seats, rated=True, result=[3.0, 1.0, 0.0]
        )
        changes = ratings.rate_game(replace(row, status=GameStatus.FINISHED), key="tashkalar-melee3", forfeited=set())
        easy = anchor("tashkalar-melee3", "easy")
        assert {c.account: c.after for c in changes} == {
            ann: update(START, [Outcome(START, 0.0), Outcome(easy, 0.0)]),  # first by returns, yet lost to both
            bob: update(START, [Outcome(START, 1.0), Outcome(easy, 1.0)]),
        }
        # a game is rated once
        assert (
            ratings.rate_game(replace(row, status=GameStatus.FINISHED), key="tashkalar-melee3", forfeited=set()) == []
        )


def test_a_game_a_stopped_server_left_unrated_is_rated_at_the_next_start(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'web.db'}")
    try:
        with server(store) as client:
            ann = _person(client, "Ann")
            key, tokens = create(
                client, "laplaplace", [{"kind": "human"}, {"kind": "ai", "strength": "normal"}], rated=True
            )
            client.app.state.tables.ratings = None  # type: ignore[attr-defined]  # as if it stopped before rating
            with Client(client, key, _join_as(client, key, tokens[0], "Ann", ann)) as me:
                returns = _play_out(me)["returns"]
            assert client.get(f"/api/accounts/{ann}/ratings").json()["ratings"] == []
        with server(store) as client:  # the next start rates it
            expected = update(START, [Outcome(anchor("laplaplace", "normal"), _score(returns, 0, 1))])
            got = _ratings(client, ann)["laplaplace"]
            assert (got["rating"], [h["game"] for h in got["history"]]) == (round(expected.rating, 2), [key])
        with server(store) as client:  # and only once
            assert _ratings(client, ann)["laplaplace"]["games"] == 1
    finally:
        store.close()


def test_a_rematch_of_a_rated_game_is_rated() -> None:
    with server() as client:
        ann = _person(client, "Ann")
        key, tokens = create(client, "laplaplace", [{"kind": "human"}, {"kind": "ai", "strength": "easy"}], rated=True)
        secret = _join_as(client, key, tokens[0], "Ann", ann)
        with Client(client, key, secret) as me:
            _play_out(me)
            _rated(me)
        again = client.post(f"/api/games/{key}/rematch", json={"token": secret}, headers=_signed_in(client, ann))
        assert again.status_code == 201, again.text
        assert client.get(f"/api/games/{again.json()['key']}").json()["rated"] is True


def test_running_out_of_time_in_a_rated_game_loses_it() -> None:
    with server() as client:
        ann = _person(client, "Ann")
        key, tokens = create(
            client,
            "laplaplace",
            [{"kind": "human"}, {"kind": "ai", "strength": "easy"}],
            rated=True,
            clock={"kind": "move", "seconds": 5, "then": "expert"},
        )
        secret = _join_as(client, key, tokens[0], "Ann", ann)
        with Client(client, key, secret) as me:  # Ann never plays: 5 s, then an AI
            assert me.until("handed_over")["why"] == "time"
            rated = _rated(me)
        expected = update(START, [Outcome(anchor("laplaplace", "easy"), 0.0)])
        assert rated["changes"][0]["rating"] == round(expected.rating, 2)
