"""The browser's pages (docs/web.md, Browser pages): static HTML that talks to the REST API and the WebSocket."""

from __future__ import annotations

from fastapi import APIRouter, Response
from fastapi.responses import FileResponse, HTMLResponse, PlainTextResponse

from ..rules_page import rules_page
from .deps import ServerDep

router = APIRouter(include_in_schema=False)


def page(srv: ServerDep, name: str) -> Response:
    path = srv.static_dir / name
    if not path.is_file():
        return PlainTextResponse(f"the browser pages are not installed ({name} is missing)", status_code=404)
    return FileResponse(path, media_type="text/html")


@router.get("/")
async def lobby_page(srv: ServerDep) -> Response:
    return page(srv, "lobby.html")


@router.get("/play/{key}")
async def play_page(key: str, srv: ServerDep) -> Response:
    return page(srv, "table.html")


@router.get("/watch/{key}")
async def watch_page(key: str, srv: ServerDep) -> Response:
    return page(srv, "table.html")


@router.get("/replay/{key}")
async def replay_page(key: str, srv: ServerDep) -> Response:
    return page(srv, "replay.html")


@router.get("/rules/{game_id}")
async def rules_page_route(game_id: str) -> Response:
    """A game's player's page for the browser, the same for every table."""
    text = rules_page(game_id)
    if text is None:
        return PlainTextResponse("no such game", status_code=404)
    return HTMLResponse(text)
