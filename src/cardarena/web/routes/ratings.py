"""The ratings' routes (:mod:`cardarena.web.ratings`): a leaderboard per rating key, and an account's ratings with
their history. Both are public: ratings are what a player shows, like a rank."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter

from ..lobby import ApiError
from ..profiles import key_title
from ..ratings import known_key
from .deps import ServerDep
from .models import AccountRatings, Leaderboard

router = APIRouter(prefix="/api", tags=["ratings"])


@router.get("/leaderboard/{key}", response_model=Leaderboard)
async def leaderboard(key: str, srv: ServerDep) -> dict[str, Any]:
    """The rated accounts of one rating key (a game, or a Tash-Kalar mode: ``tashkalar-highform``) and the bots of
    every strength, best first: rating, deviation, whether it is provisional, rated games played."""
    if not known_key(key):
        raise ApiError(404, "not_found", "no such rating key (GET /api/ratings/keys lists them)")
    players = await asyncio.to_thread(srv.ratings.leaderboard, key)
    return {"key": key, "title": key_title(key), "players": players}


@router.get("/accounts/{account}/ratings", response_model=AccountRatings)
async def account_ratings(account: int, srv: ServerDep) -> dict[str, Any]:
    """An account's ratings, one per rating key it has played, each with its history (a private game's key is
    left out)."""
    found = await asyncio.to_thread(srv.ratings.account_ratings, account)
    if found is None:
        raise ApiError(404, "not_found", "no such account")
    return found
