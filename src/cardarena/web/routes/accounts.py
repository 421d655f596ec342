"""The accounts' routes (issue 32): registering, signing in and out, the signed-in account, its password, deleting
it, and its games in progress. The service is :mod:`cardarena.web.accounts`; the session and CSRF checks are
:mod:`.deps`'s.

The session cookie is HttpOnly (no script reads it), SameSite=Lax (another site's requests do not carry it, but
for a link followed to this one), ``Path=/``, expires with the session, and is Secure when the request came over
HTTPS: ``request.url.scheme``, which uvicorn sets from ``X-Forwarded-Proto`` when the request comes from a proxy
it trusts (``--forwarded-allow-ips``, 127.0.0.1 by default), so a server behind a TLS proxy on the same machine
sends Secure cookies with no setting of its own.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Depends, Request, Response

from ...engine import game_class
from ..account_names import DELETED
from ..accounts import SignedIn
from ..lobby import ApiError
from ..store import GameStatus, SeatKind
from .deps import COOKIE, AccountDep, ClientDep, ServerDep, SignedInDep, same_origin
from .models import AccountGame, Credentials, Done, Me, NewPassword, PasswordAgain


def no_store(response: Response) -> None:
    """An account's answers are its owner's: no cache keeps them (a shared one would show them to others)."""
    response.headers["Cache-Control"] = "no-store"


router = APIRouter(prefix="/api/accounts", tags=["accounts"], dependencies=[Depends(no_store)])


def _me(signed: SignedIn | None) -> dict[str, Any]:
    if signed is None:
        return {"account": None, "csrf": None}
    return {"account": signed.account.public(), "csrf": signed.csrf}


def _set_cookie(request: Request, response: Response, secret: str, signed: SignedIn) -> None:
    response.set_cookie(
        COOKIE,
        secret,
        expires=signed.expires,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def _clear_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https")


def _from_this_site(request: Request) -> None:
    if not same_origin(request):  # another site's page signing a browser in to an account of its choosing
        raise ApiError(403, "cross_origin", "signing in and registering are done on this site's own pages")


@router.post("/register", status_code=201, response_model=Me)
async def register(
    body: Credentials, request: Request, response: Response, srv: ServerDep, address: ClientDep
) -> dict[str, Any]:
    """A new account, signed in at once (the session cookie is set): the account and its CSRF token."""
    _from_this_site(request)
    account = await asyncio.to_thread(srv.accounts.register, body.name, body.password, address=address)
    secret, signed = await asyncio.to_thread(srv.accounts.open_session, account)
    _set_cookie(request, response, secret, signed)
    return _me(signed)


@router.post("/signin", response_model=Me)
async def sign_in(
    body: Credentials, request: Request, response: Response, srv: ServerDep, address: ClientDep
) -> dict[str, Any]:
    """Sign in (the session cookie is set): the account and its CSRF token. A wrong password and a name nobody
    has are answered alike (401 ``bad_credentials``); failed attempts are limited per name and per address (429
    ``rate_limited`` with ``Retry-After``)."""
    _from_this_site(request)
    account = await asyncio.to_thread(srv.accounts.sign_in, body.name, body.password, address=address)
    secret, signed = await asyncio.to_thread(srv.accounts.open_session, account)
    _set_cookie(request, response, secret, signed)
    return _me(signed)


@router.post("/signout", response_model=Done)
async def sign_out(request: Request, response: Response, srv: ServerDep, signed: AccountDep) -> dict[str, Any]:
    """End this browser's session (nothing to do when it has none)."""
    if signed is not None:
        await asyncio.to_thread(srv.accounts.close_session, signed)
    _clear_cookie(request, response)
    return {"done": True}


@router.get("/me", response_model=Me)
async def me(signed: AccountDep) -> dict[str, Any]:
    """The signed-in account (to its owner only: it is the cookie's) and the CSRF token its requests carry; nulls
    when the browser is not signed in."""
    return _me(signed)


@router.post("/password", response_model=Done)
async def change_password(body: NewPassword, srv: ServerDep, signed: SignedInDep, address: ClientDep) -> dict[str, Any]:
    """Change the password (the current one given again); the account's other sessions end, this one stays."""
    await asyncio.to_thread(srv.accounts.change_password, signed, body.current, body.new, address=address)
    return {"done": True}


@router.post("/delete", response_model=Done)
async def delete_account(
    body: PasswordAgain, request: Request, response: Response, srv: ServerDep, signed: SignedInDep, address: ClientDep
) -> dict[str, Any]:
    """Delete the account (its password given again). Its games stay, anonymised: its seats' names become
    "Deleted player"; its name is free again; every session of it ends."""
    await asyncio.to_thread(srv.accounts.delete, signed, body.password, address=address)
    await srv.tables.rename_account(signed.account.id, DELETED)
    _clear_cookie(request, response)
    return {"done": True}


@router.get("/me/games", response_model=list[AccountGame])
async def my_games(srv: ServerDep, signed: SignedInDep) -> list[dict[str, Any]]:
    """The account's games in progress (open or running, newest first), each with its seat's page: from any
    browser signed in to the account, that page connects as the seat."""
    statuses = (GameStatus.OPEN, GameStatus.RUNNING)
    rows = await asyncio.to_thread(srv.store.list_games, statuses, account=signed.account.id)
    out = []
    for row in rows:
        seat = next((s for s in row.seats if s.account == signed.account.id and s.kind == SeatKind.HUMAN), None)
        if seat is None:  # handed to an AI: the account's no longer to play
            continue
        out.append(
            {
                "key": row.key,
                "game": row.game,
                "title": game_class(row.game).name,
                "status": str(row.status),
                "seat": seat.seat,
                "play": f"/play/{row.key}#account",
            }
        )
    return out
