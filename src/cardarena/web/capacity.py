"""What one client may hold on the server, and how much the server keeps (issue 27, point 5).

- **Open games per address.** A client address may have at most ``open_per_address`` games waiting for players
  (``open``: not every human seat joined yet); one more is refused with 409 ``too_many_open``, saying what to do.
  The count comes from the store (each game keeps the address that created it), so a restart does not reset it.
- **AI-only games per address.** A game whose seats are all AIs starts at once and is never open, but its AIs
  think in the workers every game shares: an address may have at most ``open_per_address`` of them running too
  (409 ``too_many_ai_games``). They are always in memory (an AI is to act), so they are counted there.
- **Expiry.** An open game that has not started within ``expire_open_after`` seconds of its creation is abandoned
  (``GameStatus.ABANDONED``): its status is stored, its table leaves memory, its links answer 410 ``expired``.
- **Idle tables.** A table with no connection, no AI seat to act and no running clock, untouched for
  ``unload_idle_after`` seconds, leaves memory; the next access rebuilds it from its record.
- **Lobby pages.** ``GET /api/games`` reads one page of listed games (newest first, at most :data:`MAX_PAGE`) from
  the store, never every row.

The numbers are the server operator's (``create_app``, ``cardarena serve --open-games-per-address`` ...). Behind a
reverse proxy every client has the proxy's address unless the server is told to trust its forwarded header
(docs/web.md, Deployment).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from datetime import datetime

from .lobby import ApiError, bad_request

DEFAULT_PAGE = 50  # games in one page of the lobby's list
MAX_PAGE = 200
MAX_ADDRESS = 64  # characters of a client address kept with a game
SWEEP_PERIOD = 60.0  # seconds between two sweeps at most (shorter when the limits are shorter)


@dataclass(frozen=True)
class Capacity:
    """The server's limits on open games and on the tables it keeps in memory (seconds for times)."""

    open_per_address: int = 5  # 0: no cap
    expire_open_after: float = 3600.0
    unload_idle_after: float = 600.0

    def __post_init__(self) -> None:
        if self.open_per_address < 0:
            raise ValueError(f"open_per_address is 0 (no cap) or more, not {self.open_per_address}")
        if not self.expire_open_after > 0 or not self.unload_idle_after > 0:
            raise ValueError("expire_open_after and unload_idle_after are positive numbers of seconds")

    @property
    def sweep_period(self) -> float:
        """How often the server looks for expired open games and idle tables: a quarter of the shorter time (so
        a game expires at most a quarter late), at most :data:`SWEEP_PERIOD`."""
        return max(0.05, min(SWEEP_PERIOD, self.expire_open_after / 4, self.unload_idle_after / 4))

    def capped(self, waiting: int) -> bool:
        """Whether an address that has ``waiting`` open games may not open another."""
        return self.open_per_address > 0 and waiting >= self.open_per_address

    def too_many_open(self, waiting: int) -> ApiError:
        return ApiError(
            409,
            "too_many_open",
            f"you have {waiting} games waiting for players (the most one address may have): start one (every human "
            f"seat joined) or let it expire ({_duration(self.expire_open_after)} after its creation) before "
            "creating another",
        )

    def too_many_ai_games(self, running: int) -> ApiError:
        return ApiError(
            409,
            "too_many_ai_games",
            f"you have {running} games that only AIs play running (the most one address may have: their AIs share "
            "the server's workers with every other game); wait for one to end before starting another",
        )

    def expired(self) -> ApiError:
        return ApiError(
            410,
            "expired",
            f"this game expired: its seats were not all taken within {_duration(self.expire_open_after)} of its "
            "creation; create a new game",
        )


def _duration(seconds: float) -> str:
    if seconds >= 120 and seconds % 60 == 0:
        return f"{seconds / 60:g} minutes"
    return f"{seconds:g} seconds"


def client_address(host: str | None) -> str:
    """The address a game's creator is counted by: the peer's, as the ASGI server reports it, but for IPv6 its
    /64 network, since one household or server is commonly given a whole /64 and could otherwise count as
    billions of clients."""
    try:
        address = ipaddress.ip_address(host or "")
    except ValueError:
        return (host or "unknown")[:MAX_ADDRESS]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def read_page(limit: str | None, before: str | None) -> tuple[int, datetime | None]:
    """The page ``GET /api/games?limit=&before=`` asks for: how many games (1..:data:`MAX_PAGE`, default
    :data:`DEFAULT_PAGE`) and the ``created`` time (ISO 8601, with its zone) the listed games are older than."""
    size = DEFAULT_PAGE
    if limit is not None:
        if not (limit.isdigit() and len(limit) <= 3) or not 1 <= int(limit) <= MAX_PAGE:
            raise bad_request(f"limit is a whole number from 1 to {MAX_PAGE}, not {limit[:20]!r}")
        size = int(limit)
    if before is None:
        return size, None
    try:
        moment = datetime.fromisoformat(before)
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise bad_request(
            f"before is the 'created' time of the last game of a page (ISO 8601 with its zone), not {before[:40]!r}"
        )
    return size, moment
