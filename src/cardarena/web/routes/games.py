"""Finished games' routes: the record, replay steps, the post-game analysis, and any game's rules text. Records
and replay steps are built off the server process (:mod:`cardarena.web.replays`), analyses in the background
(:mod:`cardarena.web.analyses`)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse, PlainTextResponse

from ...engine import load
from ..analyses import RETRY_AFTER as ANALYSIS_RETRY
from ..lobby import ApiError
from ..replays import RETRY_AFTER, ReplayBusy
from ..store import GameStatus
from .deps import ServerDep
from .models import AnalysisStatus, Error, Record, ReplayStep

router = APIRouter(prefix="/api/games", tags=["finished games"])

BUSY: dict[int | str, dict[str, Any]] = {
    503: {"model": Error, "description": "busy: retry after the Retry-After header's seconds"}
}


async def _replayed(request: Request, srv: ServerDep, build: Callable[[], Awaitable[bytes]]) -> Response:
    """The JSON the replay worker builds for ``request``, within its client's bound on replay requests (a client
    with too many waiting is told to retry)."""
    try:
        async with srv.replays.gate.slot(request.client.host if request.client else ""):
            answer = await build()
    except ReplayBusy as e:
        return JSONResponse(e.body(), status_code=e.status, headers={"Retry-After": RETRY_AFTER})
    return Response(answer, media_type="application/json")


@router.get("/{key}/record", responses={200: {"model": Record}, 429: {"model": Error}})
async def record(key: str, request: Request, srv: ServerDep) -> Response:
    """A finished game's record; that of a game not in memory is built by the replay worker (it costs a replay of
    the whole game), under the same bound per client as replay steps."""
    return await _replayed(request, srv, lambda: srv.replays.record(key))


@router.get("/{key}/replay", responses={200: {"model": ReplayStep}, 429: {"model": Error}})
async def replay(
    key: str, request: Request, srv: ServerDep, seat: str | None = None, ply: str | None = None
) -> Response:
    """One step of a finished game's replay, as ``seat`` saw it (docs/web.md, Replays), built off the server
    process."""
    return await _replayed(request, srv, lambda: srv.replays.step(key, seat, ply))


async def _analysis(srv: ServerDep, key: str, seat: str | None, *, start: bool) -> Response:
    try:
        return JSONResponse(await srv.analyses.status(key, seat, start=start))
    except ApiError as e:
        headers = {"Retry-After": ANALYSIS_RETRY} if e.code == "busy" else None
        return JSONResponse(e.body(), status_code=e.status, headers=headers)


@router.get("/{key}/analysis", responses={200: {"model": AnalysisStatus}, **BUSY})
async def analysis(key: str, srv: ServerDep, seat: str | None = None) -> Response:
    """How far the analysis of ``seat``'s decisions in a finished game is, and the analysis once done
    (docs/web.md, Post-game analysis). Asking does not start it."""
    return await _analysis(srv, key, seat, start=False)


@router.post("/{key}/analysis", responses={200: {"model": AnalysisStatus}, **BUSY})
async def analysis_start(key: str, srv: ServerDep, seat: str | None = None) -> Response:
    """Start the analysis of ``seat``'s decisions in a finished game (if it is neither kept nor under way), in the
    background; answers as the ``GET``."""
    return await _analysis(srv, key, seat, start=True)


@router.get("/{key}/rules", response_class=PlainTextResponse, responses={200: {"content": {"text/plain": {}}}})
async def rules(key: str, srv: ServerDep) -> PlainTextResponse:
    """The game's rules text. A finished game not in memory is not rebuilt for it: its game and options are
    enough (an open or running one is loaded, as its players will come)."""
    table = srv.tables.live(key)
    if table is None:
        row = await srv.tables.stored_row(key)
        if row.status == GameStatus.FINISHED:
            return PlainTextResponse(await asyncio.to_thread(_rules_text, row.game, row.options))
        table = await srv.tables.get(key)
    return PlainTextResponse(table.state.game.rules_text())


def _rules_text(game: str, options: dict[str, Any]) -> str:
    return load(game, **options).rules_text()
