"""The WebSocket of a game (docs/web.md, Protocol): one per seat or spectator. A client says ``hello`` (with its
seat's secret, or none to watch), then acts, undoes, chats and asks for advice; the table pushes what it may see."""

from __future__ import annotations

import asyncio
import json
import logging
from contextlib import suppress
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from .. import protocol
from ..lobby import ApiError, account_seat, check_text, seat_of_secret
from ..tables import ActError, Conn, Table
from .deps import Server, same_origin, server, session_of

log = logging.getLogger("cardarena.web")

router = APIRouter()

HELLO_TIMEOUT = 10.0  # seconds for a new WebSocket to say hello


@router.websocket("/ws/{key}")
async def websocket(ws: WebSocket, key: str) -> None:
    srv = server(ws)
    await ws.accept()
    try:
        table = await srv.tables.get(key)
        conn, since = await _hello(ws, table)
    except (ApiError, protocol.ProtocolError) as e:
        code = "not_found" if isinstance(e, ApiError) and e.status == 404 else getattr(e, "code", "malformed")
        with suppress(Exception):
            await ws.send_text(json.dumps(protocol.error(code, e.message)))
            await ws.close(4000 + (e.status if isinstance(e, ApiError) else 400))
        return
    except (TimeoutError, WebSocketDisconnect):
        with suppress(Exception):
            await ws.close(1008)
        return
    writer = asyncio.create_task(_write(ws, conn))
    srv.tables.attach(table, conn, since=since)
    try:
        await _read(srv, ws, table, conn)
    finally:
        srv.tables.detach(table, conn)
        with suppress(Exception):
            await asyncio.wait_for(writer, 5)
        writer.cancel()


async def _hello(ws: WebSocket, table: Table) -> tuple[Conn, int]:
    message = protocol.parse(await asyncio.wait_for(ws.receive(), HELLO_TIMEOUT))
    if message["type"] != "hello":
        raise protocol.ProtocolError("malformed", "the first message is hello")
    since = protocol.whole_number(message, "since", default=0)
    token = message.get("token")
    if message.get("account") is True:
        if token is not None:
            raise protocol.ProtocolError("malformed", "a hello gives a seat's token or the account, not both")
        return Conn(await _account_seat(ws, table)), since
    if token is None:
        return Conn(None), since
    try:  # a seat's secret; an invitation (a seat nobody took yet) may not look at the dealt hand
        seat = seat_of_secret(table.row, token)
    except ApiError as e:
        raise protocol.ProtocolError(e.code, e.message) from None
    return Conn(seat.seat), since


async def _account_seat(ws: WebSocket, table: Table) -> int:
    """The seat of ``table`` bound to the account the socket's cookie signs in (the player coming back from
    another browser). The upgrade must come from this site's pages (``Origin``): another site's page could open a
    socket that carries the cookie, and would then read the seat's hand."""
    if not same_origin(ws):
        raise protocol.ProtocolError("cross_origin", "a signed-in connection comes from this site's own pages")
    signed = await asyncio.to_thread(session_of, ws)
    if signed is None:
        raise protocol.ProtocolError("not_signed_in", "sign in to open your seat by your account")
    try:
        return account_seat(table.row, signed.account.id).seat
    except ApiError as e:
        raise protocol.ProtocolError(e.code, e.message) from None


async def _read(srv: Server, ws: WebSocket, table: Table, conn: Conn) -> None:
    rate = protocol.RateLimit(srv.ws_rate)
    while not conn.closed:
        raw = await ws.receive()
        if raw["type"] == "websocket.disconnect":
            return
        verdict = rate.check()
        if verdict == "disconnect":
            log.warning("a client flooded game %s; disconnecting it", table.key)
            conn.push(protocol.error("rate_limited", "too many messages: disconnected"))
            conn.close()
            return
        if verdict != "ok":
            if verdict == "warn":
                conn.push(protocol.error("rate_limited", f"at most {srv.ws_rate} messages a second; excess dropped"))
            continue
        try:
            await _handle(srv, table, conn, protocol.parse(raw))
        except (protocol.ProtocolError, ActError) as e:
            conn.push(protocol.error(e.code, e.message))
        except ApiError as e:
            conn.push(protocol.error("malformed", e.message))


async def _handle(srv: Server, table: Table, conn: Conn, message: dict[str, Any]) -> None:
    kind = message["type"]
    if kind == "ping":
        conn.push({"type": "pong"})
    elif kind == "act":
        ply = protocol.whole_number(message, "ply")
        await srv.tables.act(table, conn, ply, protocol.text_field(message, "action"))
    elif kind == "undo":
        await srv.tables.undo(table, conn, protocol.whole_number(message, "ply"))
    elif kind == "chat":
        text = check_text(message.get("text"), what="a chat line", longest=300)
        srv.tables.chat(table, conn, text)
    elif kind in ("hint", "odds"):
        srv.tables.advise(table, conn, kind)  # answered later, by a message of the same type
    else:
        raise protocol.ProtocolError("malformed", "hello is the first message only")


async def _write(ws: WebSocket, conn: Conn) -> None:
    """Send the connection's queued messages in order; close the socket when the connection closes."""
    try:
        while True:
            message = await conn.queue.get()
            if message is None:
                break
            await ws.send_text(json.dumps(message, ensure_ascii=False))
            if conn.closed and conn.queue.empty():
                break
    except Exception:  # the client went away: the reader sees the disconnect
        return
    with suppress(Exception):
        await ws.close(1008 if conn.closed else 1000)
