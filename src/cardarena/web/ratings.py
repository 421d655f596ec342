"""Ratings (issue 32): a Glicko-2 rating (:mod:`cardarena.web.glicko`) per account and game configuration, updated
when a rated game ends; the bots' accounts anchor the scale; the leaderboards and each account's history.

**Keys.** A rating belongs to an account and a *rating key*: :func:`cardarena.agents.levels.model_key` of the game
with its options (``torabato``, ``tashkalar-highform``, ``tashkalar-melee4``...), so each Tash-Kalar mode has its
own ladder.

**A rated game** has two or more seats, at least one of them a person's; every human seat is bound to an account
(``SeatRow.account``: the accounts' routes refuse a rated seat to a person not signed in) and every AI seat plays a
strength label and is bound to that strength's bot account (:meth:`Ratings.bind_bots`, when the game is made).

**When it ends** (:meth:`Ratings.rate_game`, called by :class:`~cardarena.web.tables.Tables` where the result is
stored) its players' ratings move, in one transaction, with one ``rating_events`` row each (before, after, the
game). The game is one rating period for each of them. Scores are pairwise: each pair of seats is a game won (1),
drawn (1/2) or lost (0) by their final standing (the game's returns), so a melee of four gives each player three
results in its period. A seat that *forfeited* loses to every seat that did not, whatever its returns: a seat
handed to an AI (it left, or its clock ran out: the seat stays bound to its account, as an AI seat) or one that
played the game's ``resign`` action. Two seats that both forfeited draw. In a game of teams (Tash-Kalar's
``teams``), team-mates are not scored against each other: each player's results are against the other team. A
game is rated once (a game with events already is skipped), and not at all when one account holds two of its seats.

**Bots** are accounts too, one per strength (``easy`` ... ``expert``), named "Easy AI" ... "Expert AI" and made
when the server starts (:meth:`Ratings.ensure_bots`). Their ratings are *anchored*, never moved by games: in a
configuration the ladder rates (``agents/models/ladder.json``), a strength's rating is 1500 plus its ladder Elo
above ``easy``'s, and its deviation the ladder interval's half width / 1.96 (at least :data:`MIN_BOT_RD`); where
the ladder does not rate the configuration or the strength, :data:`FALLBACK_STEP` points a strength above the one
below it, with deviation :data:`FALLBACK_RD`. So ``easy`` is 1500 everywhere and a person's 1600 means "a bit
better than Easy".

**People** start at 1500 / 350 / 0.06 and are *provisional* while their deviation is over :data:`PROVISIONAL_RD`
(110, as Lichess marks it: about ten games against settled opponents).

The service is SQL only, on :func:`cardarena.web.sql.accounts_engine`: the SQL store's database, or a memory
store's private one. There a rated game's row is copied into its ``games`` table when it is rated: the public history
joins the events to their games to leave out the keys of private ones, and a restarted SQL server finds the rated
games it did not rate there (:meth:`Ratings.unrated`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..agents.levels import LEVELS, ladder, model_key
from ..engine import load
from .account_names import name_key
from .glicko import Outcome, Rating, update
from .profiles import PROVISIONAL_RD, RATING_KEYS
from .sql import AccountModel, GameModel, RatingEventModel, RatingModel
from .store import GameRow, GameStatus, SeatKind

log = logging.getLogger("cardarena.web")

#: a new account's rating
START = Rating(1500.0, 350.0, 0.06)
#: where the ladder has no figures: a strength's rating above the one below it, and its deviation
FALLBACK_STEP = 200.0
FALLBACK_RD = 150.0
#: the least deviation of a bot's anchor (a ladder interval narrower than this would overstate what is known)
MIN_BOT_RD = 30.0
#: the ladder's 95% interval is this many standard deviations each side
Z95 = 1.96
#: the most rows of a leaderboard or of one key's history in a profile
MAX_ROWS = 500


def bot_name(label: str) -> str:
    return f"{label.capitalize()} AI"


def provisional(rd: float) -> bool:
    return rd > PROVISIONAL_RD


def anchor(key: str, label: str) -> Rating:
    """The fixed rating of strength ``label``'s bot in configuration ``key`` (see the module's docstring)."""
    labels = list(LEVELS)
    entry = ladder(key)
    strengths: dict[str, Any] = entry.get("strengths", {}) if entry else {}
    easy, mine = strengths.get("easy"), strengths.get(label)
    if isinstance(easy, dict) and isinstance(mine, dict) and "elo" in easy and "elo" in mine:
        elo = float(mine["elo"])
        high, low = mine.get("high"), mine.get("low")
        half = ((elo if high is None else float(high)) - (elo if low is None else float(low))) / 2
        return Rating(1500.0 + elo - float(easy["elo"]), max(MIN_BOT_RD, half / Z95), START.volatility)
    return Rating(1500.0 + FALLBACK_STEP * labels.index(label), FALLBACK_RD, START.volatility)


def known_key(key: str) -> bool:
    """Whether ``key`` is a rating key the lobby offers (:data:`cardarena.web.profiles.RATING_KEYS`)."""
    return key in RATING_KEYS


def rating_key(row: GameRow) -> str:
    """The rating key of a game's row (loading the game reads its data files: call it in a thread)."""
    return model_key(load(row.game, **row.options))


def teams(row: GameRow) -> dict[int, int]:
    """Each seat's team where the game is played in teams (the ``teams`` option: seats 0+2 against 1+3, as Tash-Kalar
    plays them), else none: team-mates are not scored against each other."""
    return {s.seat: s.seat % 2 for s in row.seats} if row.options.get("teams") else {}


def pairwise_scores(
    returns: Sequence[float], forfeited: set[int], *, team: dict[int, int] | None = None
) -> dict[tuple[int, int], float]:
    """Seat ``i``'s score against seat ``j`` for every ordered pair of seats not on one ``team``: by final standing
    (higher returns win), except that a forfeited seat loses to every seat that did not forfeit (two forfeited
    seats draw)."""
    team = team or {}
    scores: dict[tuple[int, int], float] = {}
    for i in range(len(returns)):
        for j in range(len(returns)):
            if i == j or (i in team and team.get(j) == team[i]):
                continue
            if (i in forfeited) != (j in forfeited):
                scores[i, j] = 0.0 if i in forfeited else 1.0
            elif i in forfeited:
                scores[i, j] = 0.5
            else:
                scores[i, j] = 1.0 if returns[i] > returns[j] else 0.5 if returns[i] == returns[j] else 0.0
    return scores


@dataclass(frozen=True)
class Change:
    """One account's rating after a rated game: the seat it played and the account's name."""

    seat: int
    account: int
    name: str
    key: str
    before: Rating
    after: Rating

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "account": self.account,
            "name": self.name,
            "key": self.key,
            "before": round(self.before.rating, 2),
            "rating": round(self.after.rating, 2),
            "rd": round(self.after.rd, 2),
            "provisional": provisional(self.after.rd),
        }


class Ratings:
    """The ratings over the accounts' database (thread-safe: each call is its own transaction; the server calls
    them in threads)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._bots: dict[str, int] = {}
        self._lock = threading.Lock()

    # -- bots -------------------------------------------------------------------------------------------------
    def ensure_bots(self) -> dict[str, int]:
        """The bot account of each strength (its id), made where missing."""
        with self._lock:
            if len(self._bots) == len(LEVELS):
                return dict(self._bots)
            for label in LEVELS:
                self._bots[label] = self._bot(label)
            return dict(self._bots)

    def _bot(self, label: str) -> int:
        with Session(self.engine) as session, session.begin():
            found = session.scalar(select(AccountModel.id).where(AccountModel.bot == label))
            if found is not None:
                return found
        for name in (bot_name(label), f"{bot_name(label)} (bot)"):
            try:
                with Session(self.engine) as session, session.begin():
                    account = AccountModel(
                        name=name, name_key=name_key(name), bot=label, created=datetime.now(UTC), password_hash=None
                    )
                    session.add(account)
                    session.flush()
                    return account.id
            except IntegrityError:  # the name is a person's (an account made before bots were): the next one
                continue
        raise RuntimeError(f"no name is free for the {label} bot's account")

    def bind_bots(self, row: GameRow) -> GameRow:
        """A new rated game's row with each AI seat bound to its strength's bot account."""
        bots = self.ensure_bots()
        seats = tuple(
            replace(s, account=bots[s.label]) if s.kind == SeatKind.AI and s.label in bots else s for s in row.seats
        )
        return replace(row, seats=seats)

    # -- a finished game --------------------------------------------------------------------------------------
    def rate_game(self, row: GameRow, *, key: str, forfeited: set[int]) -> list[Change]:
        """Update the ratings of the accounts of finished rated game ``row`` (rating key ``key``; ``forfeited``: the
        seats that resigned, besides those handed to an AI, which the rows tell), in one transaction. The changes,
        none when the game was rated already or cannot be (see the module's docstring)."""
        if not row.rated or row.result is None or row.status != GameStatus.FINISHED:
            return []
        now = datetime.now(UTC)
        with Session(self.engine) as session, session.begin():
            done = session.scalar(select(func.count()).where(RatingEventModel.game_key == row.key))
            if done:
                return []
            seated = [s for s in row.seats if s.account is not None]
            accounts = {
                a.id: a
                for a in session.scalars(select(AccountModel).where(AccountModel.id.in_([s.account for s in seated])))
            }
            people = [s.account for s in seated if s.account in accounts and accounts[s.account].bot is None]
            if len(people) != len(set(people)) or not people:
                log.warning("game %s is not rated: an account holds two of its seats, or no person plays", row.key)
                return []
            lost = set(forfeited)
            lost |= {s.seat for s in seated if s.kind == SeatKind.AI and accounts[s.account].bot is None}  # type: ignore[index]
            players: dict[int, tuple[int, Rating, bool]] = {}  # seat -> account, rating before, anchored
            for s in seated:
                account = accounts.get(s.account)  # type: ignore[arg-type]
                if account is None:
                    continue
                if account.bot is not None:
                    players[s.seat] = (account.id, anchor(key, account.bot), True)
                else:
                    stored = session.get(RatingModel, (account.id, key))
                    before = START if stored is None else Rating(stored.rating, stored.rd, stored.volatility)
                    players[s.seat] = (account.id, before, False)
            scores = pairwise_scores(row.result, lost, team=teams(row))
            self._keep_game(session, row)
            changes = []
            for seat, (account_id, before, anchored) in players.items():
                outcomes = [Outcome(players[j][1], scores[seat, j]) for j in players if (seat, j) in scores]
                after = before if anchored else update(before, outcomes)
                self._store(session, account_id, key, after, now)
                if not anchored:
                    session.add(
                        RatingEventModel(
                            account_id=account_id,
                            key=key,
                            game_key=row.key,
                            before=before.rating,
                            rating=after.rating,
                            rd=after.rd,
                            at=now,
                        )
                    )
                    changes.append(Change(seat, account_id, accounts[account_id].name, key, before, after))
            return changes

    def has_key(self, key: str) -> bool:
        """Whether someone has a rating in ``key`` (a configuration beyond the lobby's list may have been played)."""
        if len(key) > 64:
            return False
        with Session(self.engine) as session, session.begin():
            return session.scalar(select(func.count()).where(RatingModel.key == key)) != 0

    def changes_of(self, row: GameRow) -> list[dict[str, Any]]:
        """How finished rated game ``row`` moved its players' ratings, as its ``rated`` message told it (from its
        ``rating_events``; none when it was not rated): for a page that comes to the table after the end."""
        seats = {s.account: s.seat for s in row.seats if s.account is not None}
        with Session(self.engine) as session, session.begin():
            found = session.execute(
                select(RatingEventModel, AccountModel)
                .join(AccountModel, AccountModel.id == RatingEventModel.account_id)
                .where(RatingEventModel.game_key == row.key)
                .order_by(RatingEventModel.id)
            ).all()
            return [
                Change(
                    seats[event.account_id],
                    event.account_id,
                    account.name,
                    event.key,
                    Rating(event.before, event.rd, START.volatility),  # to_json reads only the rating before
                    Rating(event.rating, event.rd, START.volatility),
                ).to_json()
                for event, account in found
                if event.account_id in seats
            ]

    def unrated(self, *, limit: int = 100) -> list[str]:
        """The finished rated games of the SQL store that have no rating event: a server stopped between storing a
        game's result and rating it (at most ``limit`` of them, oldest first). A memory store's accounts keep only
        the games they rated."""
        rated = select(RatingEventModel.game_key).where(RatingEventModel.game_key.is_not(None))
        query = (
            select(GameModel.key)
            .where(
                GameModel.rated.is_(True),
                GameModel.status == GameStatus.FINISHED.value,
                GameModel.key.not_in(rated),
            )
            .order_by(GameModel.updated)
            .limit(limit)
        )
        with Session(self.engine) as session, session.begin():
            return list(session.scalars(query))

    @staticmethod
    def _store(session: Session, account_id: int, key: str, rating: Rating, now: datetime) -> None:
        stored = session.get(RatingModel, (account_id, key))
        if stored is None:
            session.add(
                RatingModel(
                    account_id=account_id,
                    key=key,
                    rating=rating.rating,
                    rd=rating.rd,
                    volatility=rating.volatility,
                    games=1,
                    updated=now,
                )
            )
        else:
            stored.rating, stored.rd, stored.volatility = rating.rating, rating.rd, rating.volatility
            stored.games += 1
            stored.updated = now

    @staticmethod
    def _keep_game(session: Session, row: GameRow) -> None:
        """The game's row in the accounts' database, where a memory store's accounts have a database of their own
        (the public history asks whether the game is private)."""
        if session.get(GameModel, row.key) is not None:
            return
        session.add(
            GameModel(
                key=row.key,
                game=row.game,
                options=row.options,
                seed=row.seed,
                status=GameStatus.FINISHED.value,
                private=row.private,
                ply=row.ply,
                result=row.result,
                created=row.created,
                updated=row.updated,
                rated=True,
            )
        )

    # -- what anyone may read ---------------------------------------------------------------------------------
    def rating_of(self, account_id: int, key: str) -> Rating:
        """An account's rating in ``key`` (a bot's anchor; a person's start where they have played no rated game)."""
        with Session(self.engine) as session, session.begin():
            account = session.get(AccountModel, account_id)
            if account is not None and account.bot is not None:
                return anchor(key, account.bot)
            stored = session.get(RatingModel, (account_id, key))
            return START if stored is None else Rating(stored.rating, stored.rd, stored.volatility)

    def leaderboard(self, key: str, *, limit: int = MAX_ROWS) -> list[dict[str, Any]]:
        """The accounts rated in ``key`` and every bot, best first (deleted accounts left out)."""
        bots = self.ensure_bots()
        with Session(self.engine) as session, session.begin():
            query = (
                select(RatingModel, AccountModel)
                .join(AccountModel, AccountModel.id == RatingModel.account_id)
                .where(RatingModel.key == key, AccountModel.deleted.is_(None), AccountModel.bot.is_(None))
                .order_by(RatingModel.rating.desc(), AccountModel.id)
                .limit(limit)
            )
            rows = [
                _entry(account.id, account.name, None, Rating(r.rating, r.rd, r.volatility), r.games)
                for r, account in session.execute(query)
            ]
            bot_games = {
                r.account_id: r.games
                for r in session.scalars(
                    select(RatingModel).where(RatingModel.key == key, RatingModel.account_id.in_(bots.values()))
                )
            }
            names = {
                a.id: a.name for a in session.scalars(select(AccountModel).where(AccountModel.id.in_(bots.values())))
            }
        for label, account_id in bots.items():
            rows.append(_entry(account_id, names[account_id], label, anchor(key, label), bot_games.get(account_id, 0)))
        rows.sort(key=lambda e: (-e["rating"], e["account"]))
        return rows[:limit]

    def account_ratings(self, account_id: int) -> dict[str, Any] | None:
        """An account's public ratings: each key's rating and its history (games of private tables without their
        key); ``None`` when there is no such account (or it was deleted)."""
        with Session(self.engine) as session, session.begin():
            account = session.get(AccountModel, account_id)
            if account is None or account.deleted is not None:
                return None
            ratings = []
            stored = session.scalars(
                select(RatingModel).where(RatingModel.account_id == account_id).order_by(RatingModel.key)
            ).all()
            for r in stored:
                rating = anchor(r.key, account.bot) if account.bot is not None else Rating(r.rating, r.rd, r.volatility)
                events = session.execute(
                    select(RatingEventModel, GameModel.private)
                    .outerjoin(GameModel, GameModel.key == RatingEventModel.game_key)
                    .where(RatingEventModel.account_id == account_id, RatingEventModel.key == r.key)
                    .order_by(RatingEventModel.at.desc(), RatingEventModel.id.desc())
                    .limit(MAX_ROWS)
                )
                history = [
                    {
                        "game": None if private is not False else e.game_key,
                        "before": round(e.before, 2),
                        "rating": round(e.rating, 2),
                        "rd": round(e.rd, 2),
                        "at": e.at.isoformat(),
                    }
                    for e, private in events
                ]
                history.reverse()
                ratings.append(
                    {**_entry(account.id, account.name, account.bot, rating, r.games), "key": r.key, "history": history}
                )
            return {"account": account.id, "name": account.name, "bot": account.bot, "ratings": ratings}


def _entry(account: int, name: str, bot: str | None, rating: Rating, played: int) -> dict[str, Any]:
    return {
        "account": account,
        "name": name,
        "bot": bot,
        "rating": round(rating.rating, 2),
        "rd": round(rating.rd, 2),
        "provisional": bot is None and provisional(rating.rd),
        "games": played,
    }


def resigned(row: GameRow, actions: Sequence[str]) -> set[int]:
    """The seats that played the game's ``resign`` action in its record (replayed from the seed: call it in a
    thread)."""
    game = load(row.game, **row.options)
    if game.resign_action is None:
        return set()
    resign = str(game.resign_action)
    if resign not in actions:
        return set()
    state = game.new_initial_state(row.seed)
    seats = set()
    for text in actions:
        action = game.parse_action(state, text)
        if text == resign and state.current_player is not None:
            seats.add(state.current_player)
        state.apply(action)
    return seats
