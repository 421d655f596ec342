""" "Play anyone": people waiting for the same game are paired, and each is seated in a new game of theirs
(issue 28, part 8; docs/web.md, Finding an opponent).

A waiter asks for a game (``POST /api/match {game, name}``) and is given a **ticket**: a random token that only
they hold, with which they ask, again and again, whether they were matched (``GET /api/match/{ticket}``, a long
poll that answers when a match is made or after :attr:`MatchRules.poll_wait` seconds). When as many people wait
for a game as it has seats (its default options), the server creates the game with them all as human seats, joins
each seat for its waiter, and answers each ticket with *its own* seat and secret only: nobody is ever given
another player's secret, nor an invitation (there is none left to use: every seat is joined at once).

**Close ratings first.** Each waiter has a rating (their account's in that game, issue 32; 1500, the rating of a new
account, for a person without one). A waiter is matched only with people whose rating is within a window of theirs
that widens the longer they wait (:attr:`MatchRules.window` points at first, :attr:`MatchRules.widen` more each
second), so close ratings meet first and nobody waits long for want of an equal: after half a minute the window
takes in nearly everyone. The oldest waiter is served first, with the closest ratings its window allows.

The queue is in memory (a restart forgets it; the waiters' pages simply ask again) and bounded: an address may
hold :attr:`MatchRules.per_address` tickets at once; a ticket nobody asks about for
:attr:`MatchRules.stale_after` seconds (the page was closed), or whose long poll's client went away, leaves the
queue; nobody waits longer than :attr:`MatchRules.longest` seconds. The REST rate limit applies as to every call.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from .lobby import MAX_TOKEN, ApiError, bad_request, check_name, invitation_url, load_game, new_game, new_token
from .store import StoreError
from .tables import Table, Tables


@dataclass(frozen=True)
class MatchRules:
    """How long and how many: seconds a long poll waits at most, seconds an unasked ticket lives, seconds anyone
    waits at most, tickets one address may hold at once."""

    poll_wait: float = 20.0
    stale_after: float = 30.0
    longest: float = 900.0
    per_address: int = 4
    window: float = 100.0  # rating points apart two waiters may be at first
    widen: float = 15.0  # points the window grows each second a waiter waits


#: the rating of a waiter without one (a new account's, on the Glicko scale)
UNRATED = 1500.0


@dataclass
class Ticket:
    """One waiter: what they wait for, and once matched, their own seat's ``{key, seat, secret}``."""

    token: str
    game: str
    seats: int
    name: str
    address: str
    created: float
    seen: float
    rating: float = UNRATED
    polls: int = 0
    result: dict[str, Any] | None = None
    error: ApiError | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)
    #: the waiter's account when signed in: the seat they are given is bound to it
    account: int | None = None


class Matchmaker:
    """The waiting queues, one per game, and the tickets by token."""

    def __init__(self, tables: Tables, rules: MatchRules | None = None) -> None:
        self.tables = tables
        self.rules = rules or MatchRules()
        self.tickets: dict[str, Ticket] = {}
        self.queues: dict[str, list[Ticket]] = {}
        self._pairing = asyncio.Lock()

    async def enter(
        self, body: object, address: str, *, rating: float | None = None, account: int | None = None
    ) -> dict[str, Any]:
        """A new waiter for ``body``'s game (its default options), of ``rating`` (``None``: unrated): their ticket.
        409 ``too_many_waiting`` when the address holds :attr:`MatchRules.per_address` tickets already.
        ``account``: the signed-in waiter's, which their seat will be bound to."""
        if not isinstance(body, dict):
            raise bad_request("the request is a JSON object {game, name}")
        name = check_name(body.get("name"))
        game = await asyncio.to_thread(load_game, body.get("game"), {})  # loading reads data files: in a thread
        now = time.monotonic()
        async with self._pairing:
            self._drop_stale(now)
            held = sum(1 for t in self.tickets.values() if t.address == address and t.result is None)
            if self.rules.per_address and held >= self.rules.per_address:
                raise ApiError(
                    409,
                    "too_many_waiting",
                    f"you are waiting for {held} games already (the most one address may): stop waiting for one "
                    "before asking for another",
                )
            ticket = Ticket(new_token(), game.id, game.num_players, name, address, now, now, account=account)
            ticket.rating = UNRATED if rating is None else float(rating)
            self.tickets[ticket.token] = ticket
            self.queues.setdefault(game.id, []).append(ticket)
            await self._pair(game.id, now)
        if ticket.error is not None:  # the match this waiter completed could not be made: told at once
            self._remove(ticket)
            raise ticket.error
        status = "matched" if ticket.result is not None else "waiting"
        return {"ticket": ticket.token, "status": status, "game": game.id, "seats": game.num_players}

    def window(self, ticket: Ticket, now: float) -> float:
        """How far from ``ticket``'s rating its opponents may be, having waited since it came."""
        return self.rules.window + self.rules.widen * max(0.0, now - ticket.created)

    def _group(self, queue: list[Ticket], now: float) -> list[Ticket] | None:
        """The players of the next game of ``queue``: its oldest waiter that can be served, with the waiters closest
        to its rating, each within the other's window; ``None`` when nobody can be matched yet."""
        for anchor in queue:
            seats = anchor.seats
            near = sorted(
                (t for t in queue if t is not anchor),
                key=lambda t: (abs(t.rating - anchor.rating), t.created),
            )
            chosen = [
                t for t in near if abs(t.rating - anchor.rating) <= min(self.window(anchor, now), self.window(t, now))
            ][: seats - 1]
            if len(chosen) == seats - 1:
                return [anchor, *chosen]
        return None

    async def _pair(self, game: str, now: float) -> None:
        """Start every game the queue of ``game`` can make now (``_pairing`` held)."""
        queue = self.queues.get(game, [])
        while (group := self._group(queue, now)) is not None:
            for ticket in group:
                queue.remove(ticket)
            await self._start(group)

    async def _start(self, players: list[Ticket]) -> None:
        """Create the game of ``players`` (in random seats) and join each seat for its player: each ticket keeps its
        own seat's secret. A game that cannot be made is each ticket's error (its waiters are told, not left
        waiting in no queue)."""
        order = list(players)
        secrets.SystemRandom().shuffle(order)
        body = {
            "game": order[0].game,
            "options": {},
            "seats": [{"kind": "human", "name": t.name} for t in order],
            "private": True,  # the players asked for an opponent, not for an audience
        }
        try:
            row, invitations = await asyncio.to_thread(new_game, body)
            # every seat is joined below at once: the game never waits for players, so no open-games cap applies
            table = await self.tables.create(replace(row, creator=None))
            for ticket, invitation in zip(order, invitations, strict=True):
                seat, secret = await self.tables.join(table, invitation["token"], ticket.name, account=ticket.account)
                ticket.result = {
                    "key": table.key,
                    "seat": seat,
                    "secret": secret,
                    "play": f"/play/{table.key}#seat={seat}",
                }
        except (ApiError, StoreError) as e:
            refusal = e if isinstance(e, ApiError) else ApiError(503, "unavailable", "the database is unavailable")
            for ticket in order:
                ticket.error = refusal
        for ticket in order:
            ticket.done.set()

    async def poll(self, token: str, gone: Callable[[], Awaitable[bool]]) -> dict[str, Any]:
        """What ``token``'s waiter is told: ``{status: "matched", key, seat, secret, play}`` (then the ticket is
        spent) or, after at most :attr:`MatchRules.poll_wait` seconds, ``{status: "waiting"}``. ``gone``: whether
        the client hung up, asked every second; a waiter who hung up leaves the queue."""
        ticket = self._ticket(token)
        ticket.polls += 1
        try:
            await self._widened(ticket)
            deadline = time.monotonic() + self.rules.poll_wait
            while not ticket.done.is_set() and time.monotonic() < deadline:
                try:
                    await asyncio.wait_for(ticket.done.wait(), min(1.0, max(0.0, deadline - time.monotonic())))
                except TimeoutError:
                    if await gone():
                        self._remove(ticket)
                        break
                    await self._widened(ticket)
        finally:
            ticket.polls -= 1
            ticket.seen = time.monotonic()
        return self._answer(ticket)

    async def _widened(self, ticket: Ticket) -> None:
        """The windows have widened since ``ticket`` last looked: someone may be near enough now."""
        async with self._pairing:
            if ticket.token in self.tickets and not ticket.done.is_set():
                await self._pair(ticket.game, time.monotonic())

    async def cancel(self, token: str) -> dict[str, Any]:
        """The waiter stops waiting: ``{status: "cancelled"}``, or the match if it was made already (the page then
        goes to the table rather than lose the seat it was given)."""
        async with self._pairing:
            ticket = self._ticket(token)
            if ticket.result is None and ticket.error is None:
                self._remove(ticket)
                return {"status": "cancelled"}
        return self._answer(ticket)

    def _answer(self, ticket: Ticket) -> dict[str, Any]:
        if ticket.error is not None:
            self._remove(ticket)
            raise ticket.error
        if ticket.result is not None:
            self._remove(ticket)
            return {"status": "matched", **ticket.result}
        if ticket.token not in self.tickets:
            return {"status": "cancelled"}
        waiting = len(self.queues.get(ticket.game, []))
        return {"status": "waiting", "waiting": waiting, "seats": ticket.seats}

    def _ticket(self, token: object) -> Ticket:
        self._drop_stale(time.monotonic())
        ticket = self.tickets.get(token) if isinstance(token, str) and 0 < len(token) <= MAX_TOKEN else None
        if ticket is None:
            raise ApiError(
                404, "not_found", "no such ticket: it was cancelled, answered already, or not asked about for too long"
            )
        return ticket

    def _remove(self, ticket: Ticket) -> None:
        self.tickets.pop(ticket.token, None)
        queue = self.queues.get(ticket.game)
        if queue is not None and ticket in queue:
            queue.remove(ticket)

    def _drop_stale(self, now: float) -> None:
        """Forget the tickets nobody asks about (no poll under way for :attr:`MatchRules.stale_after` seconds) and
        those waiting longer than :attr:`MatchRules.longest`."""
        for ticket in list(self.tickets.values()):
            stale = ticket.polls == 0 and now - ticket.seen > self.rules.stale_after
            if stale or (ticket.result is None and now - ticket.created > self.rules.longest):
                self._remove(ticket)


def offer_rematch(table: Table, by: int, key: str, invitations: list[dict[str, Any]]) -> int:
    """Offer each other human seat of the finished ``table`` its own seat of the rematch ``key``: a ``rematch``
    message with that seat's invitation, sent to that seat's connections only (its page shows "Play the
    rematch"). The caller of the rematch, seated already, is sent nothing. How many seats were offered."""
    name = next((s.name for s in table.row.seats if s.seat == by), "") or "The other player"
    offered = 0
    for invitation in invitations:
        seat = invitation["seat"]
        conns = [c for c in table.conns if c.seat == seat and c.seat != by and not c.closed]
        for conn in conns:
            url = invitation_url(key, invitation["token"])
            conn.push({"type": "rematch", "key": key, "by": name, "invitation": url})
        offered += bool(conns)
    return offered
