"""Issue 32, point 4: a player's page. Someone looks up a player and reads their ratings per game (provisional
ones marked) with each rating's history, their finished games with the result, opponents and rating change, and
their games in progress; private games stay their own player's."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from cardarena.web.profiles import key_title
from cardarena.web.sql import AccountModel, RatingEventModel, RatingModel
from cardarena.web.store import GameRow, GameStatus, MemoryStore, SeatKind, SeatRow

from .server_fixtures import server

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def row(key: str, status: GameStatus, seats: tuple[SeatRow, ...], **fields: Any) -> GameRow:
    return GameRow(key=key, game="laplaplace", options={}, seed=1, seats=seats, status=status, **fields)


def test_a_players_page_shows_ratings_history_finished_games_and_games_in_progress() -> None:
    store = MemoryStore()
    with server(store) as client:
        engine = client.app.state.server.accounts_engine  # type: ignore[attr-defined]
        # ids past the bots' accounts (Easy AI ... Expert AI), which the server makes when it starts
        with Session(engine) as session, session.begin():
            session.add_all(
                [
                    AccountModel(id=101, name="Aki", name_key="aki", password_hash="x", created=T0),
                    AccountModel(id=102, name="Bo", name_key="bo", password_hash="x", created=T0),
                    RatingModel(
                        account_id=101, key="laplaplace", rating=1562.3, rd=180.0, volatility=0.06, games=2, updated=T0
                    ),
                    RatingModel(
                        account_id=101,
                        key="tashkalar-melee4",
                        rating=1490,
                        rd=90,
                        volatility=0.06,
                        games=30,
                        updated=T0,
                    ),
                ]
            )
        aki = SeatRow(0, SeatKind.HUMAN, "Aki", claimed=True, account=101)
        bo = SeatRow(1, SeatKind.HUMAN, "Bo", claimed=True, account=102)
        ai = SeatRow(1, SeatKind.AI, "Easy AI", agent="heuristic", label="easy", claimed=True)
        store.create_game(row("won", GameStatus.FINISHED, (aki, bo), result=[1.0, -1.0], rated=True))
        store.create_game(row("lost", GameStatus.FINISHED, (replace(aki, seat=1), replace(ai, seat=0)), result=[1, -1]))
        store.create_game(row("secret", GameStatus.FINISHED, (aki, ai), result=[0.0, 0.0], private=True))
        store.create_game(row("now", GameStatus.RUNNING, (aki, bo), clock={"kind": "turn"}))
        with Session(engine) as session, session.begin():
            for i, (before, after, game) in enumerate([(1500.0, 1530.0, None), (1530.0, 1562.3, "won")]):
                session.add(
                    RatingEventModel(
                        account_id=101,
                        key="laplaplace",
                        game_key=game,
                        before=before,
                        rating=after,
                        rd=200 - 20 * i,
                        at=T0 + timedelta(days=i),
                    )
                )
        page = client.get("/api/players/AKI")  # names are found whatever their case
        assert page.status_code == 200, page.text
        p = page.json()
        assert (p["name"], p["bot"], p["owner"]) == ("Aki", None, False)
        ratings = {r["key"]: r for r in p["ratings"]}
        assert ratings["laplaplace"]["provisional"] is True and ratings["tashkalar-melee4"]["provisional"] is False
        assert [h["rating"] for h in ratings["laplaplace"]["history"]] == [1530.0, 1562.3]
        assert ratings["tashkalar-melee4"]["title"] == key_title("tashkalar-melee4")
        finished = {g["key"]: g for g in p["finished"]}
        assert set(finished) == {"won", "lost"}  # the private game is Aki's own
        assert (finished["won"]["outcome"], finished["won"]["opponents"], finished["won"]["rating_change"]) == (
            "win",
            ["Bo"],
            32.3,
        )
        assert (finished["lost"]["outcome"], finished["lost"]["seat"], finished["lost"]["rated"]) == ("loss", 1, False)
        assert finished["won"]["replay"] == "/replay/won?seat=0"
        assert [(g["key"], g["turn_based"]) for g in p["playing"]] == [("now", True)]
        assert client.get("/api/players/nobody").status_code == 404
        html = client.get("/players/Aki")
        assert html.status_code == 200 and "profile.js" in html.text


def test_a_rating_key_reads_as_words() -> None:
    assert key_title("laplaplace") == "Laplaplace"
    assert key_title("tashkalar-melee4").endswith("(melee, 4 players)")
    assert key_title("tashkalar-highform").endswith("(High Form)")
    assert key_title("tashkalar-melee4-teams").endswith("(melee, 4 players, teams)")
