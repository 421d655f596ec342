"""The ASGI app (FastAPI): the REST lobby, one WebSocket per seat or spectator, the pages. Routes are thin: the
lobby's checks are in :mod:`.lobby`, message limits in :mod:`.protocol`, the games in :mod:`.tables`."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import replace
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, Response, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from starlette.requests import ClientDisconnect
from starlette.websockets import WebSocketDisconnect

from ..agents.analysis import DEFAULT_AGENT as DEFAULT_ANALYST
from ..agents.levels import LEVELS
from ..engine import load
from . import protocol
from .ai import DEFAULT_BUDGET, DEFAULT_GRACE, AIPool
from .analyses import RETRY_AFTER as ANALYSIS_RETRY
from .analyses import Analyses
from .capacity import Capacity, client_address, read_page
from .clocks import fresh, read_clock
from .lobby import (
    ApiError,
    bad_request,
    catalogue,
    check_text,
    invitation_links,
    invitation_url,
    new_game,
    rematch_request,
    seat_of_secret,
)
from .match import Matchmaker, MatchRules, offer_rematch
from .replays import RETRY_AFTER, ReplayBusy, Replays
from .rules_page import rules_page
from .store import GameStatus, Store, StoreError
from .tables import ActError, Conn, Table, Tables

log = logging.getLogger("cardarena.web")

STATIC = Path(__file__).parent / "static"
MAX_BODY = 16 * 1024  # bytes of a REST request
HELLO_TIMEOUT = 10.0  # seconds for a new WebSocket to say hello
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    # the pages use no inline script or style (docs/web.md, Browser pages): nothing but this origin may run
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:",
}


class RestLimit:
    """A token bucket per client address for the REST API (``rate`` requests a second, bursts of ``burst``)."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.buckets: dict[str, tuple[float, float]] = {}

    def allow(self, client: str) -> bool:
        now = time.monotonic()
        if len(self.buckets) > 10_000:  # forget idle clients
            self.buckets = {k: v for k, v in self.buckets.items() if now - v[1] < 60}
        tokens, then = self.buckets.get(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < 1:
            self.buckets[client] = (tokens, now)
            return False
        self.buckets[client] = (tokens - 1, now)
        return True


async def _json_body(request: Request) -> Any:
    """The request's JSON body, read up to :data:`MAX_BODY` bytes (413 beyond, 400 if it is not JSON).

    A client that hangs up before its body is complete has closed the request: nothing is done, and the answer
    (400 ``closed``) goes nowhere; it is an ordinary event on a network, logged quietly, not a server error."""
    data = bytearray()
    try:
        async for chunk in request.stream():
            data += chunk
            if len(data) > MAX_BODY:
                raise ApiError(413, "too_large", f"a request body is at most {MAX_BODY} bytes")
    except ClientDisconnect:
        log.info("%s %s: the client closed the request before its body was complete", request.method, request.url.path)
        raise ApiError(400, "closed", "the request was closed before its body was complete") from None
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        raise bad_request("the request body is not JSON") from None


def create_app(
    store: Store,
    *,
    ai_workers: int | None = None,
    ai_timeout: float = 120.0,
    ai_budget: float = DEFAULT_BUDGET,
    ai_grace: float = DEFAULT_GRACE,
    allow_agent_specs: bool = False,
    static_dir: Path = STATIC,
    rest_rate: float = 20.0,
    rest_burst: float = 200.0,
    ws_rate: int = protocol.RATE,
    capacity: Capacity | None = None,
    replay_workers: int = 1,
    matching: MatchRules | None = None,
    analysis_agent: str = DEFAULT_ANALYST,
    analysis_workers: int = 1,
) -> FastAPI:
    """The server over ``store``. ``ai_workers``: processes for AI searches (default min(4, cores); one more is
    kept for the cheap agents; 0 thinks in a thread). ``ai_budget``: seconds an AI decision may think (a worker
    silent ``ai_grace`` seconds longer is replaced); ``ai_timeout``: seconds a decision may wait and think in all
    before the seat's fallback answers it. ``allow_agent_specs``: a new game's AI seats may give an agent spec
    instead of a strength label. ``capacity``: the open games one address may have, when they expire, when idle
    tables leave memory (:class:`~cardarena.web.capacity.Capacity`'s defaults). ``replay_workers``: 1 builds replay
    steps in a process of their own, 0 in a thread. ``matching``: the "Play anyone" queue's times and bound
    (:class:`~cardarena.web.match.MatchRules`'s defaults). ``analysis_agent``: the analyst of finished games
    (:mod:`cardarena.web.analyses`); ``analysis_workers``: 1 runs its searches in a process of their own, 0 in a
    thread. The caller owns ``store`` (closes it after the app)."""
    tables = Tables(
        store, AIPool(ai_workers, budget=ai_budget, grace=ai_grace), ai_timeout=ai_timeout, capacity=capacity
    )
    limiter = RestLimit(rest_rate, rest_burst)
    replays = Replays(tables, store, processes=replay_workers)
    analyses = Analyses(replays, store, agent=analysis_agent, processes=analysis_workers)
    matchmaker = Matchmaker(tables, matching)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await tables.start()
        try:
            yield
        finally:
            analyses.close()
            replays.close()
            await tables.close()

    app = FastAPI(title="cardarena", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.tables = tables
    app.state.matchmaker = matchmaker
    app.state.analyses = analyses

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(StoreError)
    async def store_error(request: Request, exc: StoreError) -> JSONResponse:
        log.error("store error on %s: %s", request.url.path, exc)
        return JSONResponse(ApiError(503, "unavailable", "the database is unavailable").body(), status_code=503)

    @app.middleware("http")
    async def limits(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        if request.url.path.startswith("/api/") and not limiter.allow(request.client.host if request.client else ""):
            error = ApiError(429, "rate_limited", "too many requests; slow down")
            return JSONResponse(error.body(), status_code=429, headers={"Retry-After": "1"})
        response = await call_next(request)
        response.headers.update(SECURITY_HEADERS)
        return response

    # -- the lobby --------------------------------------------------------------------------------------------
    @app.get("/api/catalogue")
    async def get_catalogue() -> dict[str, Any]:
        return catalogue(agent_specs=allow_agent_specs)

    @app.post("/api/games", status_code=201)
    async def create_game(request: Request) -> dict[str, Any]:
        body = await _json_body(request)
        # loading a game reads its data files: in a thread, never on the event loop
        row, invitations = await asyncio.to_thread(new_game, body, allow_agent_specs=allow_agent_specs)
        clock = read_clock(body.get("clock"), len(row.seats))
        creator = client_address(request.client.host if request.client else None)
        await tables.create(replace(row, clock=None if clock is None else clock.to_json(), creator=creator))
        return invitation_links(row.key, invitations)

    @app.get("/api/games")
    async def list_games(limit: str | None = None, before: str | None = None) -> list[dict[str, Any]]:
        """One page of the open and running listed games, newest first (docs/web.md, REST)."""
        size, older = read_page(limit, before)
        statuses = (GameStatus.OPEN, GameStatus.RUNNING)
        rows = await asyncio.to_thread(store.list_games, statuses, limit=size, before=older, listed_only=True)
        return await tables.listing(rows)

    @app.get("/api/games/{key}")
    async def get_game(key: str) -> dict[str, Any]:
        return (await tables.get(key)).summary()

    async def _token_body(request: Request) -> dict[str, Any]:
        body = await _json_body(request)
        if not isinstance(body, dict):
            raise bad_request("the request is a JSON object with the seat's token")
        return body

    @app.post("/api/games/{key}/join")
    async def join(key: str, request: Request) -> dict[str, Any]:
        """An invitation takes its seat: the answer's ``secret`` (given only here) is the seat's from now on."""
        table = await tables.get(key)
        body = await _token_body(request)
        seat, secret = await tables.join(table, body.get("token"), body.get("name"))
        return {"seat": seat, "secret": secret}

    @app.post("/api/games/{key}/sit")
    async def sit(key: str, request: Request) -> dict[str, Any]:
        """Anyone takes an open human seat of a listed game (not a private one) from the lobby: ``{seat, name}``
        -> ``{seat, secret}`` as ``join`` answers, the secret given to the sitter only."""
        table = await tables.get(key)
        body = await _token_body(request)
        seat, secret = await tables.sit(table, body.get("seat"), body.get("name"))
        return {"seat": seat, "secret": secret}

    @app.post("/api/games/{key}/leave")
    async def leave(key: str, request: Request) -> dict[str, Any]:
        """A seat is given up: open again, with a new invitation for the leaver to pass on (or to come back)."""
        table = await tables.get(key)
        seat, invitation = await tables.leave(table, (await _token_body(request)).get("token"))
        return {"seat": seat, "invitation": invitation_url(table.key, invitation)}

    @app.post("/api/games/{key}/handover")
    async def handover(key: str, request: Request) -> dict[str, Any]:
        """A seat leaves a running game and an AI of the strength it names plays on for it."""
        table = await tables.get(key)
        body = await _token_body(request)
        seat = seat_of_secret(table.row, body.get("token"))
        strength = body.get("strength", "easy")
        if strength not in LEVELS:
            raise bad_request(f"strength must be one of {', '.join(LEVELS)}, not {strength!r}")
        await tables.hand_over(table, seat.seat, str(strength), why="left")
        return {"seat": seat.seat, "strength": strength}

    @app.post("/api/games/{key}/rematch", status_code=201)
    async def rematch(key: str, request: Request) -> dict[str, Any]:
        """A new game like a finished one, with the caller seated at once in their own seat (answered with its
        secret, as ``join`` answers it). Each other human seat's invitation goes to the caller to pass on, and to
        that seat's own page on the finished table, which offers it the rematch."""
        table = await tables.get(key)
        mine = seat_of_secret(table.row, (await _token_body(request)).get("token"))
        if table.row.status != GameStatus.FINISHED:
            raise ApiError(409, "not_finished", "a rematch follows a finished game")
        row, invitations = await asyncio.to_thread(
            new_game, rematch_request(table.row), rematch_of=table.row, allow_agent_specs=allow_agent_specs
        )
        creator = client_address(request.client.host if request.client else None)
        new = await tables.create(replace(row, clock=fresh(table.row.clock, len(row.seats)), creator=creator))
        own = next(i for i in invitations if i["seat"] == mine.seat)
        seat, secret = await tables.join(new, own["token"], mine.name or "player")
        others = [i for i in invitations if i["seat"] != mine.seat]
        offer_rematch(table, mine.seat, row.key, others)
        return {
            **invitation_links(row.key, others),
            "seat": seat,
            "secret": secret,
            "play": f"/play/{row.key}#seat={seat}",
        }

    # -- "Play anyone" (docs/web.md, Finding an opponent) ------------------------------------------------------
    @app.post("/api/match", status_code=201)
    async def match_enter(request: Request) -> dict[str, Any]:
        body = await _json_body(request)
        return await matchmaker.enter(body, client_address(request.client.host if request.client else None))

    @app.get("/api/match/{ticket}")
    async def match_poll(ticket: str, request: Request) -> dict[str, Any]:
        return await matchmaker.poll(ticket, request.is_disconnected)

    @app.post("/api/match/{ticket}/cancel")
    async def match_cancel(ticket: str) -> dict[str, Any]:
        return await matchmaker.cancel(ticket)

    async def _replayed(request: Request, build: Callable[[], Awaitable[bytes]]) -> Response:
        """The JSON the replay worker builds for ``request``, within its client's bound on replay requests (a
        client with too many waiting is told to retry)."""
        try:
            async with replays.gate.slot(request.client.host if request.client else ""):
                answer = await build()
        except ReplayBusy as e:
            return JSONResponse(e.body(), status_code=e.status, headers={"Retry-After": RETRY_AFTER})
        return Response(answer, media_type="application/json")

    @app.get("/api/games/{key}/record")
    async def record(key: str, request: Request) -> Response:
        """A finished game's record; that of a game not in memory is built by the replay worker (it costs a replay
        of the whole game), under the same bound per client as replay steps."""
        return await _replayed(request, lambda: replays.record(key))

    @app.get("/api/games/{key}/replay")
    async def replay(key: str, request: Request, seat: str | None = None, ply: str | None = None) -> Response:
        """One step of a finished game's replay, as ``seat`` saw it (docs/web.md, Replays), built off the server
        process."""
        return await _replayed(request, lambda: replays.step(key, seat, ply))

    async def _analysis(key: str, seat: str | None, *, start: bool) -> Response:
        try:
            return JSONResponse(await analyses.status(key, seat, start=start))
        except ApiError as e:
            headers = {"Retry-After": ANALYSIS_RETRY} if e.code == "busy" else None
            return JSONResponse(e.body(), status_code=e.status, headers=headers)

    @app.get("/api/games/{key}/analysis")
    async def analysis(key: str, seat: str | None = None) -> Response:
        """How far the analysis of ``seat``'s decisions in a finished game is, and the analysis once done
        (docs/web.md, Post-game analysis). Asking does not start it."""
        return await _analysis(key, seat, start=False)

    @app.post("/api/games/{key}/analysis")
    async def analysis_start(key: str, seat: str | None = None) -> Response:
        """Start the analysis of ``seat``'s decisions in a finished game (if it is neither kept nor under way),
        in the background; answers as the ``GET``."""
        return await _analysis(key, seat, start=True)

    @app.get("/api/games/{key}/rules")
    async def rules(key: str) -> PlainTextResponse:
        """The game's rules page. A finished game not in memory is not rebuilt for it: its game and options are
        enough (an open or running one is loaded, as its players will come)."""
        table = tables.live(key)
        if table is None:
            row = await tables.stored_row(key)
            if row.status == GameStatus.FINISHED:
                return PlainTextResponse(await asyncio.to_thread(_rules_text, row.game, row.options))
            table = await tables.get(key)
        return PlainTextResponse(table.state.game.rules_text())

    # -- the pages --------------------------------------------------------------------------------------------
    def page(name: str) -> Response:
        path = static_dir / name
        if not path.is_file():
            return PlainTextResponse(f"the browser pages are not installed ({name} is missing)", status_code=404)
        return FileResponse(path, media_type="text/html")

    @app.get("/")
    async def lobby_page() -> Response:
        return page("lobby.html")

    @app.get("/play/{key}")
    async def play_page(key: str) -> Response:
        return page("table.html")

    @app.get("/watch/{key}")
    async def watch_page(key: str) -> Response:
        return page("table.html")

    @app.get("/replay/{key}")
    async def replay_page(key: str) -> Response:
        return page("replay.html")

    @app.get("/rules/{game_id}")
    async def rules_page_route(game_id: str) -> Response:
        """A game's player's page for the browser (docs/web.md, Browser pages), the same for every table."""
        text = rules_page(game_id)
        if text is None:
            return PlainTextResponse("no such game", status_code=404)
        return HTMLResponse(text)

    app.mount("/static", StaticFiles(directory=static_dir, check_dir=False), name="static")

    # -- the WebSocket ----------------------------------------------------------------------------------------
    @app.websocket("/ws/{key}")
    async def websocket(ws: WebSocket, key: str) -> None:
        await ws.accept()
        try:
            table = await tables.get(key)
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
        tables.attach(table, conn, since=since)
        try:
            await _read(ws, table, conn)
        finally:
            tables.detach(table, conn)
            with suppress(Exception):
                await asyncio.wait_for(writer, 5)
            writer.cancel()

    async def _hello(ws: WebSocket, table: Table) -> tuple[Conn, int]:
        message = protocol.parse(await asyncio.wait_for(ws.receive(), HELLO_TIMEOUT))
        if message["type"] != "hello":
            raise protocol.ProtocolError("malformed", "the first message is hello")
        since = protocol.whole_number(message, "since", default=0)
        token = message.get("token")
        if token is None:
            return Conn(None), since
        try:  # a seat's secret; an invitation (a seat nobody took yet) may not look at the dealt hand
            seat = seat_of_secret(table.row, token)
        except ApiError as e:
            raise protocol.ProtocolError(e.code, e.message) from None
        return Conn(seat.seat), since

    async def _read(ws: WebSocket, table: Table, conn: Conn) -> None:
        rate = protocol.RateLimit(ws_rate)
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
                    conn.push(protocol.error("rate_limited", f"at most {ws_rate} messages a second; excess dropped"))
                continue
            try:
                await _handle(table, conn, protocol.parse(raw))
            except (protocol.ProtocolError, ActError) as e:
                conn.push(protocol.error(e.code, e.message))
            except ApiError as e:
                conn.push(protocol.error("malformed", e.message))

    async def _handle(table: Table, conn: Conn, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "ping":
            conn.push({"type": "pong"})
        elif kind == "act":
            ply = protocol.whole_number(message, "ply")
            await tables.act(table, conn, ply, protocol.text_field(message, "action"))
        elif kind == "undo":
            await tables.undo(table, conn, protocol.whole_number(message, "ply"))
        elif kind == "chat":
            text = check_text(message.get("text"), what="a chat line", longest=300)
            tables.chat(table, conn, text)
        elif kind in ("hint", "odds"):
            tables.advise(table, conn, kind)  # answered later, by a message of the same type
        else:
            raise protocol.ProtocolError("malformed", "hello is the first message only")

    return app


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


def _rules_text(game: str, options: dict[str, Any]) -> str:
    return load(game, **options).rules_text()


def serve(
    *,
    host: str,
    port: int,
    db: str,
    ai_workers: int | None,
    echo: Callable[[str], None],
    ai_budget: float = DEFAULT_BUDGET,
    allow_agent_specs: bool = False,
    capacity: Capacity | None = None,
    analysis_agent: str = DEFAULT_ANALYST,
) -> None:
    """Run the server with uvicorn until interrupted (``cardarena serve``). The server's own log (``cardarena.*``:
    games rebuilt, expired, handed to an AI at a clock's end, requests closed early; warnings and errors) goes to
    standard error beside uvicorn's, at INFO."""
    import uvicorn
    from uvicorn.logging import DefaultFormatter

    from .store import open_store

    handler = logging.StreamHandler()
    handler.setFormatter(DefaultFormatter("%(levelprefix)s %(name)s: %(message)s"))
    server_log = logging.getLogger("cardarena")
    server_log.addHandler(handler)
    server_log.setLevel(logging.INFO)
    server_log.propagate = False  # not twice where the root logger has a handler too

    store = open_store(db)
    try:
        store.hold_for_server()  # a second server on this database stops here (DatabaseInUse), before serving
        app = create_app(
            store,
            ai_workers=ai_workers,
            ai_budget=ai_budget,
            allow_agent_specs=allow_agent_specs,
            capacity=capacity,
            analysis_agent=analysis_agent,
        )
        echo(f"cardarena: the lobby is at http://{host}:{port}/ (database {_safe_url(db)}); Ctrl-C stops")
        uvicorn.run(app, host=host, port=port, ws_max_size=64 * 1024, log_level="info")
    finally:
        store.close()


def _safe_url(url: str) -> str:
    """A database URL without its password, for printing."""
    scheme, sep, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    if not at or ":" not in credentials:
        return url
    return f"{scheme}{sep}{credentials.split(':', 1)[0]}:***@{host}"
