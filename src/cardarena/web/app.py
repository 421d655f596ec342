"""The ASGI app (FastAPI): one router per area (:mod:`cardarena.web.routes`), the limits every request passes
(body size, requests a second per client), the API's one error format, and the OpenAPI schema (``/openapi.json``,
``/docs``) that documents every REST route from its pydantic models."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..agents.analysis import DEFAULT_AGENT as DEFAULT_ANALYST
from . import protocol
from .accounts import Accounts, TooManyAttempts
from .ai import DEFAULT_BUDGET, DEFAULT_GRACE, AIPool
from .analyses import Analyses
from .capacity import Capacity
from .lobby import ApiError
from .match import Matchmaker, MatchRules
from .metrics import Metrics
from .ratings import Ratings
from .replays import Replays
from .routes import accounts as account_routes
from .routes import games, live, lobby, ops, pages, players, ratings
from .routes.deps import Server
from .routes.models import Error
from .sql import accounts_engine
from .store import Store, StoreError
from .tables import Tables

log = logging.getLogger("cardarena.web")

STATIC = Path(__file__).parent / "static"
MAX_BODY = 16 * 1024  # bytes of a REST request
CLOSED = "the client closed the request before its body was complete"
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    # the pages use no inline script or style (docs/web.md, Browser pages): nothing but this origin may run
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:",
}
#: ``/docs`` (Swagger UI) loads its script and style from a CDN and starts them inline: that page alone may.
DOCS_CSP = (
    "default-src 'self'; connect-src 'self'; img-src 'self' data: https://fastapi.tiangolo.com; "
    "script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net"
)


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


#: The codes of the errors Starlette and FastAPI answer themselves, in the API's error format.
HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}


class RequestBodies:
    """ASGI middleware for requests' bodies. A body declared longer than :data:`MAX_BODY` is refused at once (413
    in the API's error format; one that streams past it is stopped by FastAPI's own ``max_body_size``, set on each
    router). A client that hangs up before its body is complete has closed the request: nothing is done and the
    answer goes nowhere. That is an ordinary event on a network: one quiet line in the log, not a traceback."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > MAX_BODY:
            error = ApiError(413, "too_large", f"a request body is at most {MAX_BODY} bytes")
            await JSONResponse(error.body(), status_code=413, headers=SECURITY_HEADERS)(scope, receive, send)
            return
        complete = False

        async def watched() -> Message:
            nonlocal complete
            message = await receive()
            if message["type"] == "http.request":
                complete = not message.get("more_body", False)
            elif message["type"] == "http.disconnect" and not complete:
                complete = True  # said once
                log.info("%s %s: %s", scope["method"], scope["path"], CLOSED)
            return message

        try:
            await self.app(scope, watched, send)
        except ClientDisconnect:
            if not complete:
                log.info("%s %s: %s", scope["method"], scope["path"], CLOSED)


def _validation_message(exc: RequestValidationError) -> str:
    """A request that does not fit its model, in words: where and what, for each problem (at most three)."""
    parts = []
    for problem in exc.errors()[:3]:
        kind = problem.get("type", "")
        where = ".".join(str(p) for p in problem.get("loc", ()) if p != "body")
        if kind == "json_invalid":
            return "the request body is not JSON"
        if not where and kind in ("model_type", "dict_type", "model_attributes_type"):
            return "the request body is a JSON object (its fields: see /docs)"
        if kind == "missing":
            parts.append(f"{where} is missing")
        else:
            parts.append(f"{where}: {problem.get('msg', 'invalid')}" if where else str(problem.get("msg", "invalid")))
    return "; ".join(parts) or "the request does not fit its schema (see /docs)"


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
    accounts: Accounts | None = None,
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
    thread. ``accounts``: the accounts service (:mod:`cardarena.web.accounts`; by default over the store's
    database, with argon2's recommended parameters; given, the ratings use its database). The caller owns
    ``store`` (closes it after the app)."""
    # one database (a memory store's is made here, once)
    engine = accounts.engine if accounts is not None else accounts_engine(store)
    if accounts is None:
        accounts = Accounts(engine)
    rating = Ratings(engine)
    pool = AIPool(ai_workers, budget=ai_budget, grace=ai_grace)
    metrics = Metrics()
    tables = Tables(store, pool, ai_timeout=ai_timeout, capacity=capacity, ratings=rating, metrics=metrics)
    metrics.watch(games=tables.live_counts, connections=tables.connections, queued=pool.queued, thinking=pool.thinking)
    limiter = RestLimit(rest_rate, rest_burst)
    replays = Replays(tables, store, processes=replay_workers)
    analyses = Analyses(replays, store, agent=analysis_agent, processes=analysis_workers)
    matchmaker = Matchmaker(tables, matching)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(rating.ensure_bots)  # the bots' accounts, made on the first start
        await tables.start()
        try:
            yield
        finally:
            analyses.close()
            replays.close()
            await tables.close()

    app = FastAPI(
        title="cardarena",
        summary="Play and watch five tabletop card games in the browser, against people and AI.",
        description="The REST API of a cardarena server (docs/web.md). Live play is on the WebSocket `/ws/{key}`. "
        'Every refusal answers `{"error": {"code", "message"}}`.',
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        responses={400: {"model": Error}, 404: {"model": Error}, 409: {"model": Error}, 429: {"model": Error}},
    )
    app.state.server = Server(
        store=store,
        tables=tables,
        accounts=accounts,
        replays=replays,
        analyses=analyses,
        matchmaker=matchmaker,
        ratings=rating,
        allow_agent_specs=allow_agent_specs,
        static_dir=static_dir,
        ws_rate=ws_rate,
        accounts_engine=engine,
    )
    app.state.tables = tables
    app.state.matchmaker = matchmaker
    app.state.analyses = analyses

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, TooManyAttempts) else None
        return JSONResponse(exc.body(), status_code=exc.status, headers=headers)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        message = f"a request body is at most {MAX_BODY} bytes" if exc.status_code == 413 else str(exc.detail)
        error = ApiError(exc.status_code, HTTP_CODES.get(exc.status_code, "http_error"), message)
        return JSONResponse(error.body(), status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        error = ApiError(400, "bad_request", _validation_message(exc))
        return JSONResponse(error.body(), status_code=400)

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
        if request.url.path == "/docs":
            response.headers["Content-Security-Policy"] = DOCS_CSP
        return response

    app.add_middleware(RequestBodies)

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        """The REST API's schema to read and try (Swagger UI)."""
        return get_swagger_ui_html(openapi_url="/openapi.json", title="cardarena API")

    routers = (lobby.router, games.router, account_routes.router, ratings.router, players.router, ops.router)
    for router in (*routers, pages.router, live.router):
        app.include_router(router, max_body_size=MAX_BODY)
    app.mount("/static", StaticFiles(directory=static_dir, check_dir=False), name="static")
    return app


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
