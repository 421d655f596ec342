"""A person's (or a bot's) public page (issue 32, point 4): their ratings per game with the history of each, their
finished games with result, opponents, rating change and the links to the replay and its analysis, and their games
in progress.

Read-only, from the stored rows: the account and its ratings (``accounts``, ``ratings``, ``rating_events``, written
by :mod:`cardarena.web.accounts` and :mod:`cardarena.web.ratings`) and the games whose seats are bound to it
(:meth:`Store.list_games` with ``account``). A private game is a secret of its players (its key is its link): it is
listed only to the account's owner."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from ..engine import game_class, games
from .account_names import name_key
from .lobby import ApiError
from .sql import AccountModel, RatingEventModel, RatingModel
from .store import GameRow, GameStatus, Store

#: a rating whose deviation is above this is provisional (shown with a "?"): Glicko-2's newcomer starts at 350
PROVISIONAL_RD = 110.0
#: the most finished games a profile lists
FINISHED_SHOWN = 50

MODES = {"deathmatch": "duel", "highform": "High Form", "melee": "melee"}
#: the game configurations people are rated in, as the lobby offers them: each game, each Tash-Kalar mode
RATING_KEYS = (
    "dicebattle",
    "laplaplace",
    "lyabi",
    "torabato",
    "tashkalar-deathmatch",
    "tashkalar-highform",
    "tashkalar-melee3",
    "tashkalar-melee4",
    "tashkalar-melee4-teams",
)


def key_title(key: str) -> str:
    """A rating key (``agents.levels.model_key``) in words: ``tashkalar-melee4`` -> "Tash-Kalar ... (melee, 4
    players)"."""
    game, _, rest = key.partition("-")
    title = game_class(game).name if game in games() else game
    if not rest:
        return title
    teams = rest.endswith("-teams")
    mode = rest.removesuffix("-teams")
    players = "".join(c for c in mode if c.isdigit())
    words = MODES.get(mode.rstrip("0123456789"), mode.rstrip("0123456789"))
    details = [words] + ([f"{players} players"] if players else []) + (["teams"] if teams else [])
    return f"{title} ({', '.join(details)})"


def _outcome(row: GameRow, seat: int) -> str:
    if row.result is None:
        return "unfinished"
    mine, best = row.result[seat], max(row.result)
    if mine < best:
        return "loss"
    return "draw" if sum(1 for r in row.result if r == best) > 1 else "win"


def profile(engine: Engine, store: Store, name: str, *, viewer: int | None = None) -> dict[str, Any]:
    """The page of the account called ``name`` (404 ``not_found`` for none or a deleted one); ``viewer``: the
    signed-in account asking, which sees its own private games too."""
    with Session(engine) as session:
        account = session.scalars(select(AccountModel).where(AccountModel.name_key == name_key(name))).first()
        if account is None or account.deleted is not None:
            raise ApiError(404, "not_found", "no such player")
        ratings = session.scalars(select(RatingModel).where(RatingModel.account_id == account.id)).all()
        events = session.scalars(
            select(RatingEventModel).where(RatingEventModel.account_id == account.id).order_by(RatingEventModel.id)
        ).all()
        owner = viewer is not None and viewer == account.id
        changes = {(e.game_key, e.key): round(e.rating - e.before, 1) for e in events if e.game_key is not None}
        shown_ratings = [
            {
                "key": r.key,
                "title": key_title(r.key),
                "rating": round(r.rating, 1),
                "rd": round(r.rd, 1),
                "provisional": r.rd > PROVISIONAL_RD,
                "games": r.games,
                "history": [
                    {
                        "at": e.at.isoformat(),
                        "before": round(e.before, 1),
                        "rating": round(e.rating, 1),
                        "rd": round(e.rd, 1),
                    }
                    for e in events
                    if e.key == r.key
                ],
            }
            for r in sorted(ratings, key=lambda r: (-r.games, r.key))
        ]
        ident = account.id
        info = {"id": ident, "name": account.name, "bot": account.bot, "created": account.created.isoformat()}
    finished = store.list_games((GameStatus.FINISHED,), account=ident, limit=FINISHED_SHOWN * 2)
    playing = store.list_games((GameStatus.OPEN, GameStatus.RUNNING), account=ident, limit=100)
    return {
        **info,
        "owner": owner,
        "ratings": shown_ratings,
        "finished": [_finished(g, ident, changes) for g in finished if owner or not g.private][:FINISHED_SHOWN],
        "playing": [_playing(g, ident) for g in playing if owner or not g.private],
    }


def _seat(row: GameRow, account: int) -> int:
    return next(s.seat for s in row.seats if s.account == account)


def _others(row: GameRow, seat: int) -> list[str]:
    return [s.name or f"player {s.seat + 1}" for s in row.seats if s.seat != seat]


def _finished(row: GameRow, account: int, changes: dict[tuple[str, str], float]) -> dict[str, Any]:
    seat = _seat(row, account)
    change = next((v for (game_key, _), v in changes.items() if game_key == row.key), None)
    return {
        "key": row.key,
        "game": row.game,
        "title": game_class(row.game).name,
        "seat": seat,
        "outcome": _outcome(row, seat),
        "opponents": _others(row, seat),
        "rated": row.rated,
        "rating_change": change,
        "ended": _iso(row.updated),
        "replay": f"/replay/{row.key}?seat={seat}",
    }


def _playing(row: GameRow, account: int) -> dict[str, Any]:
    seat = _seat(row, account)
    return {
        "key": row.key,
        "game": row.game,
        "title": game_class(row.game).name,
        "seat": seat,
        "status": str(row.status),
        "opponents": _others(row, seat),
        "rated": row.rated,
        "turn_based": (row.clock or {}).get("kind") == "turn",
        "watch": f"/watch/{row.key}",
    }


def _iso(moment: datetime) -> str:
    return moment.isoformat()
