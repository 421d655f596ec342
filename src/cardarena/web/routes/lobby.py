"""The lobby's routes: the catalogue, making and listing games, taking and leaving seats, rematches and "Play
anyone" (docs/web.md, REST). Bodies are checked by their models (:mod:`.models`), a game's own rules by
:mod:`cardarena.web.lobby`."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from fastapi import APIRouter, Request

from ...agents.levels import LEVELS, model_key
from ..accounts import SignedIn
from ..capacity import read_page
from ..clocks import fresh, read_clock
from ..lobby import (
    ApiError,
    account_seat,
    bad_request,
    catalogue,
    invitation_links,
    invitation_url,
    load_game,
    new_game,
    rematch_request,
    seat_of_secret,
)
from ..match import offer_rematch
from ..mine import account_status, seats_status
from ..store import GameRow, GameStatus, SeatRow
from .deps import AccountDep, ClientDep, ServerDep
from .models import (
    Catalogue,
    GameSummary,
    HandedOver,
    HandoverRequest,
    HeldSeats,
    Invitations,
    JoinRequest,
    Left,
    MatchRequest,
    MatchStatus,
    MyGame,
    NewGame,
    Rematch,
    SeatRef,
    SeatSecret,
    SitRequest,
    Ticket,
)

router = APIRouter(prefix="/api", tags=["lobby"])

#: the clock of a rated game created without one: 5 minutes a move, then the easy AI plays on and the seat has lost
RATED_CLOCK: dict[str, Any] = {"kind": "move", "seconds": 300, "then": "easy"}


def _own_seat(row: GameRow, token: str | None, signed: SignedIn | None) -> SeatRow:
    """The caller's seat: the one whose secret ``token`` is, or without one the seat bound to the caller's account
    (a browser signed in that does not hold the secret)."""
    if token is None:
        return account_seat(row, _account_id(signed))
    return seat_of_secret(row, token)


def _account_id(signed: SignedIn | None) -> int | None:
    """The account a seat taken by this request is bound to: the signed-in caller's, if any."""
    return None if signed is None else signed.account.id


def _body(model: NewGame | Any) -> dict[str, Any]:
    """A request model as the plain object the lobby's checks read (fields not given are left out)."""
    body: dict[str, Any] = model.model_dump(exclude_unset=True)
    return body


@router.get("/catalogue", response_model=Catalogue)
async def get_catalogue(srv: ServerDep) -> dict[str, Any]:
    """The games a browser may start, their options and the AI strengths offered."""
    return catalogue(agent_specs=srv.allow_agent_specs)


@router.post("/games", status_code=201, response_model=Invitations)
async def create_game(body: NewGame, srv: ServerDep, creator: ClientDep) -> dict[str, Any]:
    """A new game: its key, the spectators' link, and one invitation link per human seat."""
    plain = _body(body)
    # loading a game reads its data files: in a thread, never on the event loop
    row, invitations = await asyncio.to_thread(new_game, plain, allow_agent_specs=srv.allow_agent_specs)
    asked = plain.get("clock")
    if row.rated and (asked is None or asked.get("kind") == "none"):
        asked = RATED_CLOCK  # a rated game always has a clock: nobody escapes a loss by walking away from it
    clock = read_clock(asked, len(row.seats))
    if row.rated:  # its AI seats are their strengths' bot accounts
        row = await asyncio.to_thread(srv.ratings.bind_bots, row)
    await srv.tables.create(replace(row, clock=None if clock is None else clock.to_json(), creator=creator))
    return invitation_links(row.key, invitations)


@router.get("/games", response_model=list[GameSummary])
async def list_games(srv: ServerDep, limit: str | None = None, before: str | None = None) -> list[dict[str, Any]]:
    """One page of the open and running listed games, newest first (docs/web.md, REST)."""
    size, older = read_page(limit, before)
    statuses = (GameStatus.OPEN, GameStatus.RUNNING)
    rows = await asyncio.to_thread(srv.store.list_games, statuses, limit=size, before=older, listed_only=True)
    return await srv.tables.listing(rows)


@router.get("/games/{key}", response_model=GameSummary)
async def get_game(key: str, srv: ServerDep) -> dict[str, Any]:
    """One game as the lobby shows it."""
    return (await srv.tables.get(key)).summary()


@router.post("/games/{key}/join", response_model=SeatSecret)
async def join(key: str, body: JoinRequest, srv: ServerDep, signed: AccountDep) -> dict[str, Any]:
    """An invitation takes its seat: the answer's ``secret`` (given only here) is the seat's from now on. Signed in,
    the seat is bound to the account (a rated game's seats are for signed-in people only: 403
    ``sign_in_required``)."""
    table = await srv.tables.get(key)
    seat, secret = await srv.tables.join(table, body.token, body.name, account=_account_id(signed))
    return {"seat": seat, "secret": secret}


@router.post("/games/{key}/sit", response_model=SeatSecret)
async def sit(key: str, body: SitRequest, srv: ServerDep, signed: AccountDep) -> dict[str, Any]:
    """Anyone takes an open human seat of a listed game (not a private one) from the lobby: ``{seat, name}`` ->
    ``{seat, secret}`` as ``join`` answers, the secret given to the sitter only; bound to the sitter's account as
    ``join`` binds it."""
    table = await srv.tables.get(key)
    seat, secret = await srv.tables.sit(table, body.seat, body.name, account=_account_id(signed))
    return {"seat": seat, "secret": secret}


@router.post("/games/{key}/leave", response_model=Left)
async def leave(key: str, body: SeatRef, srv: ServerDep, signed: AccountDep) -> dict[str, Any]:
    """A seat is given up: open again, with a new invitation for the leaver to pass on (or to come back). Without
    a token, signed in: the account's seat."""
    table = await srv.tables.get(key)
    seat, invitation = await srv.tables.leave(table, body.token, account=_account_id(signed))
    return {"seat": seat, "invitation": invitation_url(table.key, invitation)}


@router.post("/games/{key}/handover", response_model=HandedOver)
async def handover(key: str, body: HandoverRequest, srv: ServerDep, signed: AccountDep) -> dict[str, Any]:
    """A seat leaves a running game and an AI of the strength it names plays on for it. Without a token, signed
    in: the account's seat."""
    table = await srv.tables.get(key)
    seat = _own_seat(table.row, body.token, signed)
    if body.strength not in LEVELS:
        raise bad_request(f"strength must be one of {', '.join(LEVELS)}, not {body.strength!r}")
    await srv.tables.hand_over(table, seat.seat, body.strength, why="left")
    return {"seat": seat.seat, "strength": body.strength}


@router.post("/games/{key}/rematch", status_code=201, response_model=Rematch)
async def rematch(key: str, body: SeatRef, srv: ServerDep, creator: ClientDep, signed: AccountDep) -> dict[str, Any]:
    """A new game like a finished one, with the caller seated at once in their own seat (answered with its secret,
    as ``join`` answers it). Each other human seat's invitation goes to the caller to pass on, and to that seat's
    own page on the finished table, which offers it the rematch. Without a token, signed in: the account's seat."""
    table = await srv.tables.get(key)
    mine = _own_seat(table.row, body.token, signed)
    if table.row.status != GameStatus.FINISHED:
        raise ApiError(409, "not_finished", "a rematch follows a finished game")
    request = rematch_request(table.row)
    request["seats"][mine.seat] = {"kind": "human"}  # the asker plays it, even where an AI finished the game
    row, invitations = await asyncio.to_thread(
        new_game, request, rematch_of=table.row, allow_agent_specs=srv.allow_agent_specs
    )
    if row.rated:
        row = await asyncio.to_thread(srv.ratings.bind_bots, row)
    new = await srv.tables.create(replace(row, clock=fresh(table.row.clock, len(row.seats)), creator=creator))
    own = next(i for i in invitations if i["seat"] == mine.seat)
    seat, secret = await srv.tables.join(new, own["token"], mine.name or "player", account=_account_id(signed))
    others = [i for i in invitations if i["seat"] != mine.seat]
    offer_rematch(table, mine.seat, row.key, others)
    return {**invitation_links(row.key, others), "seat": seat, "secret": secret, "play": f"/play/{row.key}#seat={seat}"}


@router.post("/seats/status", response_model=list[MyGame])
async def my_games(body: HeldSeats, srv: ServerDep, signed: AccountDep) -> list[dict[str, Any]]:
    """The games of the seats a browser holds, and which of them wait for it now (the lobby's "Your games", the
    unread count in its title): a POST, so that the secrets travel in the body, never in a URL. Signed in, the
    account's seats in games in progress too, those this browser does not hold opening by the account
    (``play``: ``/play/KEY#account``)."""
    out = await seats_status(srv.tables, [(s.key, s.secret) for s in body.seats])
    if signed is not None:
        known = {g["key"] for g in out if g.get("status") != "unknown"}
        out += await account_status(srv.tables, signed.account.id, known=known)
    return out


# -- "Play anyone" (docs/web.md, Finding an opponent) ----------------------------------------------------------
@router.post("/match", status_code=201, response_model=Ticket)
async def match_enter(body: MatchRequest, srv: ServerDep, address: ClientDep, signed: AccountDep) -> dict[str, Any]:
    """Wait for an opponent in a game: a ticket to ask about (``GET /api/match/{ticket}``). Signed in, the waiter
    is paired by the account's rating in the game (its default options) and the seat the match gives is bound to
    the account."""
    rating = None
    if signed is not None:
        game = await asyncio.to_thread(load_game, body.game, {})  # reads the game's data files: in a thread
        found = await asyncio.to_thread(srv.ratings.rating_of, signed.account.id, model_key(game))
        rating = found.rating
    return await srv.matchmaker.enter(_body(body), address, rating=rating, account=_account_id(signed))


@router.get("/match/{ticket}", response_model=MatchStatus)
async def match_poll(ticket: str, request: Request, srv: ServerDep) -> dict[str, Any]:
    """Whether the ticket's game is made (then its seat and secret), answered when it is or after a while."""
    return await srv.matchmaker.poll(ticket, request.is_disconnected)


@router.post("/match/{ticket}/cancel", response_model=MatchStatus)
async def match_cancel(ticket: str, srv: ServerDep) -> dict[str, Any]:
    """Stop waiting."""
    return await srv.matchmaker.cancel(ticket)
