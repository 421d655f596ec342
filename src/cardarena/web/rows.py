"""What the server stores, and the interface of a store: the rows (a game, its seats), the statuses, the errors and
:class:`Store`. Both implementations build on this module: :class:`~cardarena.web.store.MemoryStore` and
:class:`~cardarena.web.sql.SqlStore` (``cardarena.web.store`` re-exports every name, and picks a store from a URL).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any


class GameStatus(StrEnum):
    OPEN = "open"  # waiting for human seats to be claimed
    RUNNING = "running"  # every human seat claimed at least once; actions are being played
    FINISHED = "finished"  # terminal: the record is complete and may be replayed
    ABANDONED = "abandoned"  # closed without an end (clean-up of stale games)


class SeatKind(StrEnum):
    HUMAN = "human"
    AI = "ai"


class StoreError(Exception):
    """A store operation that cannot be done (no such game, a stale write)."""


class UnknownGame(StoreError):
    pass


class StaleWrite(StoreError):
    """A write that names a ply the game is no longer at (an action appended at a ply that is not the game's next
    one, a seat or clock written for a position that has moved on): someone else wrote first."""


class DatabaseInUse(StoreError):
    """Another server holds the database (:meth:`Store.hold_for_server`): one server per database."""


@dataclass(frozen=True)
class SeatRow:
    seat: int
    kind: SeatKind
    name: str  # the player's chosen name, or the AI's label ("normal AI"); "" for an unclaimed human seat
    agent: str | None = None  # AI seats: the agent spec
    label: str | None = None  # AI seats: the strength label (easy, normal, hard) or None for a raw spec
    token_hash: str | None = None  # human seats: sha256 hex of the seat token
    claimed: bool = False  # a human has joined the seat (and not left)
    #: the account the seat is bound to (issue 32: its player comes back to it from any browser), or None
    account: int | None = None


@dataclass(frozen=True)
class GameRow:
    key: str  # the public, unguessable game key
    game: str  # the game id (torabato, ...)
    options: dict[str, Any]  # options as recorded (record_options(): only those different from the defaults)
    seed: int
    seats: tuple[SeatRow, ...]
    status: GameStatus = GameStatus.OPEN
    private: bool = False
    ply: int = 0  # number of actions stored
    result: list[float] | None = None
    created: datetime = field(default_factory=lambda: datetime.now(UTC))
    updated: datetime = field(default_factory=lambda: datetime.now(UTC))
    rematch_of: str | None = None
    clock: dict[str, Any] | None = None  # the turn clock (cardarena.web.clocks.Clock.to_json), or None
    #: the client address that created the game (its open games are capped); never shown to anyone
    creator: str | None = None
    #: a rated game: its result updates the accounts' ratings (``cardarena.web.ratings``)
    rated: bool = False


class Store(ABC):
    """The storage interface the server uses. Implementations are thread-safe: the server calls them from a
    thread pool (``anyio.to_thread``), never on the event loop."""

    @abstractmethod
    def create_game(self, row: GameRow) -> None:
        """Store a new game (``row.ply`` is 0, no actions)."""

    @abstractmethod
    def get_game(self, key: str) -> GameRow:
        """The game's row; :class:`UnknownGame` if there is none."""

    @abstractmethod
    def list_games(
        self,
        statuses: tuple[GameStatus, ...],
        *,
        limit: int | None = None,
        before: datetime | None = None,
        listed_only: bool = False,
        account: int | None = None,
    ) -> list[GameRow]:
        """Games with one of ``statuses``, newest first (by ``created``, then key): at most ``limit`` of them (all
        when ``None``), only those created before ``before`` when given (the next page after a game of that time),
        only the listed ones (not ``private``) when ``listed_only``, and only those with a seat bound to
        ``account`` when given (an account's games, for its profile)."""

    @abstractmethod
    def count_games(self, statuses: tuple[GameStatus, ...], *, creator: str) -> int:
        """How many games with one of ``statuses`` the client address ``creator`` created."""

    @abstractmethod
    def actions(self, key: str) -> list[str]:
        """The game's action texts in order (its record's ``actions``)."""

    @abstractmethod
    def append_action(self, key: str, ply: int, seat: int | None, text: str, *, result: list[float] | None) -> None:
        """Durably append the action played at ``ply`` (0-based: the game's ``ply`` before it) by ``seat``.
        ``result``: the returns when this action ended the game (the game becomes finished, in the same
        transaction). Raises :class:`StaleWrite` if ``ply`` is not the game's current ply."""

    @abstractmethod
    def retract_action(self, key: str, ply: int) -> None:
        """Durably remove the game's last action, the one played at ``ply`` (an undo): the game goes back to
        ``ply``, as if the action had never been taken. Raises :class:`StaleWrite` if the game's last action is
        not at ``ply`` (another action came first), :class:`StoreError` if the game is finished."""

    @abstractmethod
    def update_clock(self, key: str, clock: dict[str, Any] | None, *, ply: int) -> None:
        """Replace the game's clock (time used, when the running turn began), computed for the position at ``ply``
        (the number of actions the writer believes stored): :class:`StaleWrite` if the game is at another ply."""

    @abstractmethod
    def update_seat(self, key: str, seat: SeatRow, *, ply: int) -> None:
        """Replace one seat's row (join, leave, rename, hand-over), written for the position at ``ply`` (as for
        :meth:`update_clock`: :class:`StaleWrite` if the game has moved); :class:`StoreError` if the game has no
        such seat."""

    @abstractmethod
    def set_status(self, key: str, status: GameStatus) -> None:
        """Change a game's status (open -> running, abandoning a stale game)."""

    @abstractmethod
    def get_analysis(self, key: str, seat: int, agent: str) -> dict[str, Any] | None:
        """The stored analysis of seat ``seat``'s decisions in finished game ``key`` by analyst ``agent`` (an agent
        spec), or ``None`` (:class:`UnknownGame` if there is no such game)."""

    @abstractmethod
    def put_analysis(self, key: str, seat: int, agent: str, analysis: dict[str, Any]) -> None:
        """Keep (or replace) that analysis: JSON-ready, as :meth:`GameAnalysis.to_json
        <cardarena.agents.analysis.GameAnalysis.to_json>` gives it. It survives a restart in the SQL store."""

    def hold_for_server(self) -> None:  # noqa: B027 - optional hook: a store no other process can open needs none
        """Hold the database for this process alone until :meth:`close` (a server calls it on start), or raise
        :class:`DatabaseInUse` when another process holds it.

        A server keeps each unfinished game's state in memory and writes through it: a second server on the same
        database would serve its own stale copies, whose writes the ply guards then refuse (its players would get
        ``unavailable`` for good). The hold is released by :meth:`close` and, should the process die, by the
        operating system (a lock on a file) or the database (a session lock on a connection)."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release connections (and the server's hold on the database)."""
