"""What routes depend on: the server's parts (:class:`Server`, on ``app.state.server``) and the caller's address."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy import Engine
from starlette.requests import HTTPConnection

from ..analyses import Analyses
from ..capacity import client_address
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
