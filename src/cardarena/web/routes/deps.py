"""What routes depend on: the server's parts (:class:`Server`, on ``app.state.server``), the caller's address, and
the caller's account (:data:`AccountDep`: the session of the request's cookie, if any; :data:`SignedInDep`: one is
required).

A request that the cookie signs in and that changes something (any method but GET, HEAD, OPTIONS) must carry the
session's CSRF token in the ``X-CSRF-Token`` header, and an ``Origin``, where it has one, of this server: another
site's page can make a browser send the cookie, but it can neither read the token nor forge the header. Such a
request is refused (403 ``csrf``, ``cross_origin``), not served as anonymous, so a page that forgot the token finds
out. A cookie that signs nobody in (forged, expired, ended) is as no cookie."""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy import Engine
from starlette.requests import HTTPConnection

from ..accounts import Accounts, SignedIn
from ..analyses import Analyses
from ..capacity import client_address
from ..lobby import ApiError
from ..match import Matchmaker
from ..ratings import Ratings
from ..replays import Replays
from ..store import Store
from ..tables import Tables


@dataclass(frozen=True)
class Server:
    """The parts of one server that routes use (built once by :func:`cardarena.web.app.create_app`)."""

    store: Store
    tables: Tables
    accounts: Accounts
    replays: Replays
    analyses: Analyses
    matchmaker: Matchmaker
    ratings: Ratings
    allow_agent_specs: bool
    static_dir: Path
    ws_rate: int
    #: the database of accounts, sessions and ratings (``web.sql.accounts_engine``)
    accounts_engine: Engine


def server(connection: HTTPConnection) -> Server:
    found: Server = connection.app.state.server
    return found


def client(request: Request) -> str:
    """The caller's address as the server keeps it (capacity per address; never shown)."""
    return client_address(request.client.host if request.client else None)


ServerDep = Annotated[Server, Depends(server)]
ClientDep = Annotated[str, Depends(client)]


#: the session cookie (its value: the session's secret, whose sha256 alone is stored)
COOKIE = "cardarena_session"
CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def same_origin(connection: HTTPConnection) -> bool:
    """Whether the request's ``Origin`` (browsers send one with every POST and WebSocket) is this server, as the
    request reached it (its scheme, which uvicorn takes from a trusted proxy's ``X-Forwarded-Proto``, and its
    ``Host``). A request without one (not from a browser's page) passes: it carries no other site's intent."""
    origin = connection.headers.get("origin")
    if origin is None:
        return True
    scheme = {"ws": "http", "wss": "https"}.get(connection.url.scheme, connection.url.scheme)
    return origin == f"{scheme}://{connection.headers.get('host', '')}"


def session_of(connection: HTTPConnection) -> SignedIn | None:
    """The live session of the connection's cookie, or ``None`` (blocking: a database read)."""
    secret = connection.cookies.get(COOKIE)
    if not secret:
        return None
    return server(connection).accounts.session(secret)


def account(request: Request) -> SignedIn | None:
    """The caller's session, checked for CSRF where the request changes something (see the module). A plain
    ``def``: FastAPI runs it in a thread, off the event loop."""
    signed = session_of(request)
    if signed is None or request.method in SAFE_METHODS:
        return signed
    if not same_origin(request):
        raise ApiError(403, "cross_origin", "a signed-in request comes from this site's own pages")
    given = request.headers.get(CSRF_HEADER, "")
    if not hmac.compare_digest(given.encode("utf-8"), signed.csrf.encode("utf-8")):
        raise ApiError(
            403,
            "csrf",
            f"a signed-in request that changes something carries the {CSRF_HEADER} header: the token "
            "/api/accounts/me gives",
        )
    return signed


AccountDep = Annotated[SignedIn | None, Depends(account)]


def signed_in(signed: AccountDep) -> SignedIn:
    if signed is None:
        raise ApiError(401, "not_signed_in", "sign in first")
    return signed


SignedInDep = Annotated[SignedIn, Depends(signed_in)]
