"""What an operator and a load balancer ask (:mod:`cardarena.web.metrics`): ``/health`` and ``/metrics``."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Response
from fastapi.responses import JSONResponse

from ..metrics import CONTENT_TYPE
from ..store import GameStatus, StoreError
from .deps import ServerDep
from .models import Health

router = APIRouter(tags=["operations"])


@router.get("/health", responses={200: {"model": Health}, 503: {"model": Health}})
async def health(srv: ServerDep) -> Response:
    """200 ``{"status": "ok"}`` when this process serves and its database answers a read; 503 otherwise."""
    try:
        await asyncio.to_thread(srv.store.list_games, (GameStatus.OPEN,), limit=1)
    except StoreError:
        return JSONResponse({"status": "unavailable", "database": "unavailable"}, status_code=503)
    return JSONResponse({"status": "ok", "database": "ok"})


@router.get(
    "/metrics",
    response_class=Response,
    responses={200: {"content": {"text/plain": {}}, "description": "Prometheus' text format"}},
)
async def metrics(srv: ServerDep) -> Response:
    """This process's figures in Prometheus' text format: games live by status, connections, actions committed
    (``cardarena_actions_total``), the act-to-acknowledgement latency histogram (``cardarena_act_seconds``), the AI
    queue and the AI decisions under way."""
    return Response(srv.tables.metrics.exposition(), media_type=CONTENT_TYPE)
