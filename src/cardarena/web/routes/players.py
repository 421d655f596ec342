"""Players' pages (issue 32, point 4): each account's public profile, ``/players/{name}`` and its JSON."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Response

from ..profiles import RATING_KEYS, key_title, profile
from .deps import AccountDep, ServerDep
from .models import Profile, RatingKey
from .pages import page

router = APIRouter()


@router.get("/api/players/{name}", response_model=Profile, tags=["players"])
async def player(name: str, srv: ServerDep, signed: AccountDep) -> dict[str, Any]:
    """A player's ratings per game (with their history), finished games and games in progress; 404 for no such
    player. Private games are listed to their own player only (signed in: ``owner``)."""
    viewer = None if signed is None else signed.account.id
    return await asyncio.to_thread(profile, srv.accounts_engine, srv.store, name, viewer=viewer)


@router.get("/api/ratings/keys", response_model=list[RatingKey], tags=["players"])
async def rating_keys() -> list[dict[str, str]]:
    """The game configurations with ratings (a game, or a Tash-Kalar mode) and their names in words."""
    return [{"key": key, "title": key_title(key)} for key in RATING_KEYS]


@router.get("/leaderboard/{key}", include_in_schema=False)
async def leaderboard_page(key: str, srv: ServerDep) -> Response:
    return page(srv, "leaderboard.html")


@router.get("/players/{name}", include_in_schema=False)
async def player_page(name: str, srv: ServerDep) -> Response:
    return page(srv, "profile.html")
