"""The ratings' routes (:mod:`cardarena.web.ratings`): a leaderboard per rating key, and an account's ratings with
their history. Both are public: ratings are what a player shows, like a rank."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter

from ...agents.levels import LEVELS, model_key
from ..lobby import ApiError, load_game
from ..profiles import key_title
from ..ratings import START, anchor, known_key, provisional
from .deps import AccountDep, ServerDep
from .models import AccountRatings, BotMatch, Leaderboard

router = APIRouter(prefix="/api", tags=["ratings"])


@router.get("/leaderboard/{key}", response_model=Leaderboard)
async def leaderboard(key: str, srv: ServerDep) -> dict[str, Any]:
    """The rated accounts of one rating key (a game, or a Tash-Kalar mode: ``tashkalar-highform``) and the bots of
    every strength, best first: rating, deviation, whether it is provisional, rated games played."""
    if not known_key(key) and not await asyncio.to_thread(srv.ratings.has_key, key):
        raise ApiError(404, "not_found", "no such rating key (GET /api/ratings/keys lists them)")
    players = await asyncio.to_thread(srv.ratings.leaderboard, key)
    return {"key": key, "title": key_title(key), "players": players}


@router.get("/ratings/bot", response_model=BotMatch)
async def bot_match(game: str, srv: ServerDep, signed: AccountDep) -> dict[str, Any]:
    """The AI strength whose rating in ``game`` (its default options) is nearest the caller's: the signed-in
    account's rating there, or a new account's (1500) for a person without one. "Play anyone" offers it when
    nobody comes."""
    loaded = await asyncio.to_thread(load_game, game, {})
    key = model_key(loaded)
    yours = START if signed is None else await asyncio.to_thread(srv.ratings.rating_of, signed.account.id, key)
    strength, bot = min(
        ((label, anchor(key, label)) for label in LEVELS), key=lambda p: abs(p[1].rating - yours.rating)
    )
    return {
        "game": loaded.id,
        "key": key,
        "strength": strength,
        "rating": round(bot.rating, 1),
        "yours": round(yours.rating, 1),
        "provisional": provisional(yours.rd),
    }


@router.get("/accounts/{account}/ratings", response_model=AccountRatings)
async def account_ratings(account: int, srv: ServerDep) -> dict[str, Any]:
    """An account's ratings, one per rating key it has played, each with its history (a private game's key is
    left out)."""
    found = await asyncio.to_thread(srv.ratings.account_ratings, account)
    if found is None:
        raise ApiError(404, "not_found", "no such account")
    return found
