"""The durable store: SQLAlchemy 2 on SQLite (a file, the default) or PostgreSQL, migrated by Alembic on open.

Three tables (``games``, ``seats``, ``actions``) hold exactly what :class:`~cardarena.web.store.GameRow` holds and
the record's action texts; a fourth (``analyses``) keeps finished games' post-game analyses. The models are typed
declarative classes: mypy checks every column against the rows the server sees, and the same metadata drives the
migrations' check (``tests/web/test_store.py``).

Writes never read first: :meth:`SqlStore.append_action` is one transaction that moves the game's ply forward only
where it is still the ply the writer answered (``UPDATE games ... WHERE ply = :ply``) and inserts the action at the
primary key ``(game, ply)``. Two writers at one ply therefore cannot both succeed: the second finds the ply moved
(:class:`StaleWrite`), on both databases. The transaction is committed before ``append_action`` returns. A seat's
or the clock's write names the ply too, and is refused the same way once the game has moved on.

One server per database: a server holds the database for itself while it runs (:meth:`SqlStore.hold_for_server`:
a lock file beside an SQLite file, an advisory lock on PostgreSQL), and a second one is refused at start.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Protocol

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    JSON,
    CursorResult,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    TypeDecorator,
    create_engine,
    delete,
    event,
    func,
    select,
    update,
)
from sqlalchemy import (
    false as sql_false,
)
from sqlalchemy import text as sql_text
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship
from sqlalchemy.pool import NullPool, StaticPool

from cardarena.web.rows import (
    DatabaseInUse,
    GameRow,
    GameStatus,
    SeatKind,
    SeatRow,
    StaleWrite,
    Store,
    StoreError,
    UnknownGame,
)

MIGRATIONS = Path(__file__).with_name("migrations")
#: The PostgreSQL advisory lock key a server holds (:meth:`SqlStore.hold_for_server`): "cardarna" as a bigint.
SERVER_LOCK_KEY = int.from_bytes(b"cardarna", "big")
SQLITE_BUSY_TIMEOUT_MS = 15_000


class Seed(TypeDecorator[int]):
    """A game's seed (0 .. 2**64-1) as its decimal text: SQLite's integers stop at 2**63-1 (larger ones become
    floats) and PostgreSQL's bigint too, while text round-trips every seed on both."""

    impl = String(20)
    cache_ok = True

    def process_bind_param(self, value: int | None, dialect: Any) -> str | None:
        return None if value is None else str(value)

    def process_result_value(self, value: str | None, dialect: Any) -> int | None:
        return None if value is None else int(value)


class UtcDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and read back aware (SQLite keeps no time zone; PostgreSQL answers in the
    session's)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        return None if value is None else value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    pass


class GameModel(Base):
    __tablename__ = "games"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(Seed)
    status: Mapped[str] = mapped_column(String(16), index=True)
    private: Mapped[bool]
    ply: Mapped[int] = mapped_column(Integer)
    result: Mapped[list[float] | None] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(UtcDateTime, index=True)
    updated: Mapped[datetime] = mapped_column(UtcDateTime)
    rematch_of: Mapped[str | None] = mapped_column(String(64))
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    creator: Mapped[str | None] = mapped_column(String(64), index=True)
    rated: Mapped[bool] = mapped_column(default=False, server_default=sql_false())
    seats: Mapped[list[SeatModel]] = relationship(
        order_by="SeatModel.seat", lazy="selectin", cascade="all, delete-orphan"
    )


class SeatModel(Base):
    __tablename__ = "seats"

    game_key: Mapped[str] = mapped_column(ForeignKey("games.key", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(String(8))
    name: Mapped[str] = mapped_column(Text)
    agent: Mapped[str | None] = mapped_column(Text)
    label: Mapped[str | None] = mapped_column(String(32))
    token_hash: Mapped[str | None] = mapped_column(String(64))
    claimed: Mapped[bool]
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"), index=True)


class ActionModel(Base):
    __tablename__ = "actions"

    game_key: Mapped[str] = mapped_column(ForeignKey("games.key", ondelete="CASCADE"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seat: Mapped[int | None] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    time: Mapped[datetime] = mapped_column(UtcDateTime)


class AnalysisModel(Base):
    """A finished game's analysis for one seat by one analyst (``cardarena.web.analyses``), kept across restarts."""

    __tablename__ = "analyses"

    game_key: Mapped[str] = mapped_column(ForeignKey("games.key", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    agent: Mapped[str] = mapped_column(String(200), primary_key=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(UtcDateTime)


class AccountModel(Base):
    """A person's account (issue 32), or a bot's: ``bot`` names the strength it plays (``easy`` ... ``expert``).

    ``name_key`` is the name as compared (NFKC, case-folded): unique, so two accounts never differ by case or by a
    compatibility form only; ``skeleton`` is unique too, so they never differ by look-alike characters only. A
    deleted account keeps its row (games and ratings refer to it) with its name replaced, its password gone and
    ``deleted`` set."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(64), unique=True)
    #: the name with look-alike characters made one (``account_names.skeleton``): unique, so no two people's names
    #: look alike (``paul`` and ``pauI``); ``None`` for a bot or a deleted account
    skeleton: Mapped[str | None] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str | None] = mapped_column(Text)
    bot: Mapped[str | None] = mapped_column(String(32))
    created: Mapped[datetime] = mapped_column(UtcDateTime)
    deleted: Mapped[datetime | None] = mapped_column(UtcDateTime)


class SessionModel(Base):
    """A signed-in browser: the sha256 of its cookie's secret (the secret itself is never stored), the account,
    the CSRF token its forms carry, and when it expires."""

    __tablename__ = "sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created: Mapped[datetime] = mapped_column(UtcDateTime)
    expires: Mapped[datetime] = mapped_column(UtcDateTime)


class RatingModel(Base):
    """An account's Glicko-2 rating in one game configuration (``key``: :func:`cardarena.agents.levels.model_key`,
    so each Tash-Kalar mode has its own), on the Glicko scale (rating, deviation, volatility)."""

    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated: Mapped[datetime] = mapped_column(UtcDateTime)


class RatingEventModel(Base):
    """One change of a rating, after a rated game (its history, for the profile's plot)."""

    __tablename__ = "rating_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    key: Mapped[str] = mapped_column(String(64))
    game_key: Mapped[str | None] = mapped_column(ForeignKey("games.key", ondelete="SET NULL"))
    before: Mapped[float] = mapped_column(Float)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(UtcDateTime)


def _seat_row(m: SeatModel) -> SeatRow:
    return SeatRow(
        seat=m.seat,
        kind=SeatKind(m.kind),
        name=m.name,
        agent=m.agent,
        label=m.label,
        token_hash=m.token_hash,
        claimed=m.claimed,
        account=m.account_id,
    )


def _game_row(m: GameModel) -> GameRow:
    return GameRow(
        key=m.key,
        game=m.game,
        options=m.options,
        seed=m.seed,
        seats=tuple(_seat_row(s) for s in m.seats),
        status=GameStatus(m.status),
        private=m.private,
        ply=m.ply,
        result=m.result,
        created=m.created,
        updated=m.updated,
        rematch_of=m.rematch_of,
        clock=m.clock,
        creator=m.creator,
        rated=m.rated,
    )


def _seat_values(seat: SeatRow) -> dict[str, Any]:
    return {
        "kind": SeatKind(seat.kind).value,
        "name": seat.name,
        "agent": seat.agent,
        "label": seat.label,
        "token_hash": seat.token_hash,
        "claimed": seat.claimed,
        "account_id": seat.account,
    }


def alembic_config(url: str | URL, connection: Connection | None = None) -> Config:
    """The Alembic configuration of the store, built in code (no alembic.ini): the migrations shipped in this
    package, and either an open ``connection`` to run them on or the database ``url``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    url_text = make_url(url).render_as_string(hide_password=False)
    config.set_main_option("sqlalchemy.url", url_text.replace("%", "%%"))
    config.attributes["connection"] = connection
    return config


def migrate(engine: Engine) -> None:
    """Bring the database to the latest schema (a no-op when it is there already)."""
    with engine.begin() as connection:
        command.upgrade(alembic_config(engine.url, connection), "head")


def _sqlite_engine(url: URL) -> Engine:
    database = url.database or ""
    if database in ("", ":memory:") or database.startswith("file:"):
        raise StoreError("an SQLite store needs a file (sqlite:///PATH); use memory:// for a throwaway store")
    Path(database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # The driver's own transaction handling is switched off so that SQLAlchemy's BEGIN below starts every
        # transaction (reads see one snapshot; DDL is transactional), as SQLAlchemy's pysqlite docs advise.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")  # a commit is on disk when it returns
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN")

    return engine


def accounts_engine(store: Store) -> Engine:
    """The database of ``store``'s accounts, sessions and ratings (issue 32): the SQL store's own, or, for a
    :class:`~cardarena.web.store.MemoryStore` (tests, ``--db memory://``), a private in-memory SQLite database with
    the same tables, gone with the process like the games. There the games' rows are not in that database, so its
    foreign keys are not enforced: code that deletes deletes what refers to it itself, as it must on any store."""
    if isinstance(store, SqlStore):
        return store.engine
    # SQLite's default: foreign keys not enforced, since the games they refer to are in the memory store, not here
    engine = create_engine("sqlite://", connect_args={"check_same_thread": False}, poolclass=StaticPool)
    Base.metadata.create_all(engine)
    return engine


class SqlStore(Store):
    """A :class:`Store` on an SQL database: ``sqlite:///PATH`` or ``postgresql+psycopg://...``. Opening it
    creates the SQLite file's directory and migrates the schema to the latest version. Thread-safe: every call
    takes its own connection from the engine's pool and runs in its own transaction."""

    def __init__(self, url: str) -> None:
        parsed = make_url(url)
        self._hold: _Hold | None = None  # the server's hold on the database (hold_for_server), while held
        if parsed.get_backend_name() == "sqlite":
            self.engine = _sqlite_engine(parsed)
        else:
            self.engine = create_engine(parsed, pool_pre_ping=True)
        try:
            migrate(self.engine)
        except OperationalError as error:
            self.engine.dispose()
            shown = parsed.render_as_string(hide_password=True)
            raise StoreError(f"cannot open the database {shown}: {error.orig}") from error

    def create_game(self, row: GameRow) -> None:
        game = GameModel(
            key=row.key,
            game=row.game,
            options=row.options,
            seed=row.seed,
            status=GameStatus(row.status).value,
            private=row.private,
            ply=row.ply,
            result=row.result,
            created=row.created,
            updated=row.updated,
            rematch_of=row.rematch_of,
            clock=row.clock,
            creator=row.creator,
            rated=row.rated,
            seats=[SeatModel(seat=s.seat, **_seat_values(s)) for s in row.seats],
        )
        try:
            with Session(self.engine) as session, session.begin():
                session.add(game)
        except IntegrityError:
            raise StoreError(f"game {row.key!r} exists already") from None

    def get_game(self, key: str) -> GameRow:
        with Session(self.engine) as session, session.begin():
            game = session.get(GameModel, key)
            if game is None:
                raise UnknownGame(f"no game {key!r}")
            return _game_row(game)

    def list_games(
        self,
        statuses: tuple[GameStatus, ...],
        *,
        limit: int | None = None,
        before: datetime | None = None,
        listed_only: bool = False,
        account: int | None = None,
    ) -> list[GameRow]:
        query = (
            select(GameModel)
            .where(GameModel.status.in_([s.value for s in statuses]))
            .order_by(GameModel.created.desc(), GameModel.key)
        )
        if before is not None:
            query = query.where(GameModel.created < before)
        if listed_only:
            query = query.where(GameModel.private.is_(False))
        if account is not None:
            bound = select(SeatModel.game_key).where(SeatModel.account_id == account)
            query = query.where(GameModel.key.in_(bound))
        if limit is not None:
            query = query.limit(limit)  # in SQL: a page reads its rows only (their seats in one more query)
        with Session(self.engine) as session, session.begin():
            return [_game_row(g) for g in session.scalars(query)]

    def count_games(self, statuses: tuple[GameStatus, ...], *, creator: str) -> int:
        query = select(func.count()).where(
            GameModel.status.in_([s.value for s in statuses]), GameModel.creator == creator
        )
        with Session(self.engine) as session, session.begin():
            return int(session.scalar(query) or 0)

    def actions(self, key: str) -> list[str]:
        with Session(self.engine) as session, session.begin():
            if session.get(GameModel, key) is None:
                raise UnknownGame(f"no game {key!r}")
            query = select(ActionModel.text).where(ActionModel.game_key == key).order_by(ActionModel.ply)
            return list(session.scalars(query))

    def append_action(self, key: str, ply: int, seat: int | None, text: str, *, result: list[float] | None) -> None:
        now = datetime.now(UTC)
        moved: dict[str, Any] = {"ply": ply + 1, "result": result, "updated": now}
        if result is not None:
            moved["status"] = GameStatus.FINISHED.value
        try:
            with Session(self.engine) as session, session.begin():
                # The write comes first: the transaction holds the game's row (PostgreSQL) or the database's write
                # lock (SQLite) from here on, so the ply it checks cannot move under it.
                step = update(GameModel).where(GameModel.key == key, GameModel.ply == ply).values(**moved)
                if _rowcount(session.execute(step)) == 0:
                    current = session.scalar(select(GameModel.ply).where(GameModel.key == key))
                    if current is None:
                        raise UnknownGame(f"no game {key!r}")
                    raise StaleWrite(f"game {key!r} is at ply {current}, not {ply}")
                session.add(ActionModel(game_key=key, ply=ply, seat=seat, text=text, time=now))
        except IntegrityError:  # another writer inserted this ply (the UPDATE's guard makes this unreachable)
            raise StaleWrite(f"game {key!r} has an action at ply {ply} already") from None

    def retract_action(self, key: str, ply: int) -> None:
        now = datetime.now(UTC)
        with Session(self.engine) as session, session.begin():
            # as in append_action, the write comes first and checks the ply: one transaction, no read before it
            step = (
                update(GameModel)
                .where(GameModel.key == key, GameModel.ply == ply + 1, GameModel.status != GameStatus.FINISHED.value)
                .values(ply=ply, updated=now)
            )
            if _rowcount(session.execute(step)) == 0:
                current = session.execute(select(GameModel.ply, GameModel.status).where(GameModel.key == key)).first()
                if current is None:
                    raise UnknownGame(f"no game {key!r}")
                if current.status == GameStatus.FINISHED.value:
                    raise StoreError(f"game {key!r} is finished: its record is final")
                raise StaleWrite(f"game {key!r} is at ply {current.ply}: its last action is not at ply {ply}")
            gone = delete(ActionModel).where(ActionModel.game_key == key, ActionModel.ply == ply)
            if _rowcount(session.execute(gone)) != 1:
                raise StoreError(f"game {key!r} has no action at ply {ply}")

    def update_clock(self, key: str, clock: dict[str, Any] | None, *, ply: int) -> None:
        with Session(self.engine) as session, session.begin():
            self._touch(session, key, ply=ply, clock=clock)

    def update_seat(self, key: str, seat: SeatRow, *, ply: int) -> None:
        with Session(self.engine) as session, session.begin():
            self._touch(session, key, ply=ply)
            step = (
                update(SeatModel)
                .where(SeatModel.game_key == key, SeatModel.seat == seat.seat)
                .values(**_seat_values(seat))
            )
            if _rowcount(session.execute(step)) == 0:
                raise StoreError(f"game {key!r} has no seat {seat.seat}")

    def set_status(self, key: str, status: GameStatus) -> None:
        with Session(self.engine) as session, session.begin():
            self._touch(session, key, status=status.value)

    def get_analysis(self, key: str, seat: int, agent: str) -> dict[str, Any] | None:
        with Session(self.engine) as session, session.begin():
            if session.get(GameModel, key) is None:
                raise UnknownGame(f"no game {key!r}")
            found = session.get(AnalysisModel, (key, seat, agent))
            return None if found is None else found.data

    def put_analysis(self, key: str, seat: int, agent: str, analysis: dict[str, Any]) -> None:
        with Session(self.engine) as session, session.begin():
            if session.get(GameModel, key) is None:
                raise UnknownGame(f"no game {key!r}")
            session.merge(AnalysisModel(game_key=key, seat=seat, agent=agent, data=analysis, created=datetime.now(UTC)))

    def hold_for_server(self) -> None:
        """SQLite: an exclusive ``flock`` on ``PATH.lock`` beside the database file, held by an open file;
        PostgreSQL: a session-level advisory lock (``pg_try_advisory_lock``) held by a connection of its own. Both
        go when :meth:`close` releases them or the process dies (the kernel closes its files; the database ends a
        session whose connection is gone), so a server killed with SIGKILL can be restarted at once."""
        if self._hold is not None:
            return
        shown = self.engine.url.render_as_string(hide_password=True)
        if self.engine.dialect.name == "sqlite":
            database = Path(self.engine.url.database or "")
            self._hold = _lock_file(database.with_name(f"{database.name}.lock"), shown)
        else:
            self._hold = _advisory_lock(self.engine, shown)

    def close(self) -> None:
        if self._hold is not None:
            self._hold.close()
            self._hold = None
        self.engine.dispose()

    @staticmethod
    def _touch(session: Session, key: str, *, ply: int | None = None, **values: Any) -> None:
        """Set the game's ``updated`` time (and ``values``); :class:`UnknownGame` if there is no such game. With
        ``ply``: only while the game is at that ply (the write is for that position), else :class:`StaleWrite`."""
        where = [GameModel.key == key] if ply is None else [GameModel.key == key, GameModel.ply == ply]
        step = update(GameModel).where(*where).values(updated=datetime.now(UTC), **values)
        if _rowcount(session.execute(step)) == 0:
            current = session.scalar(select(GameModel.ply).where(GameModel.key == key))
            if current is None:
                raise UnknownGame(f"no game {key!r}")
            raise StaleWrite(f"game {key!r} is at ply {current}, not {ply}: the write was for an older position")


class _Hold(Protocol):
    def close(self) -> None: ...


def _in_use(shown: str, holder: str) -> DatabaseInUse:
    return DatabaseInUse(
        f"another cardarena server is using the database {shown}{holder}: one server per database (each server keeps "
        "its games in memory, and a second one would serve stale copies of them); stop the other server first, or "
        "give this one another --db"
    )


def _lock_file(path: Path, shown: str) -> IO[str]:
    """An exclusive ``flock`` on ``path`` (created if missing), held while the returned file is open; the file
    tells the process id of its holder. The file stays: removing a lock file others may have open races them."""
    import fcntl  # POSIX: the server runs there (it signals process groups too)

    handle = path.open("a+", encoding="utf-8")  # Python's files are not inherited by the processes it starts
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        pid = handle.read().strip()
        handle.close()
        holder = f"process {pid}, " if pid.isdigit() else ""
        raise _in_use(shown, f" ({holder}lock file {path})") from None
    except BaseException:
        handle.close()
        raise
    handle.truncate(0)
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle


class _AdvisoryHold:
    """A PostgreSQL session-level advisory lock, held by a connection of its own (no pool: closing the connection
    ends the session, which releases the lock; so does the database when the process dies)."""

    def __init__(self, engine: Engine, connection: Connection) -> None:
        self.engine, self.connection = engine, connection

    def close(self) -> None:
        self.connection.close()
        self.engine.dispose()


def _advisory_lock(store_engine: Engine, shown: str) -> _AdvisoryHold:
    engine = create_engine(store_engine.url, poolclass=NullPool)
    connection = engine.connect()
    try:
        held = connection.scalar(sql_text("SELECT pg_try_advisory_lock(:key)"), {"key": SERVER_LOCK_KEY})
        connection.commit()  # the lock is the session's: it outlives this transaction
    except BaseException:
        connection.close()
        engine.dispose()
        raise
    if not held:
        connection.close()
        engine.dispose()
        raise _in_use(shown, " (a server holds its advisory lock)")
    return _AdvisoryHold(engine, connection)


def _rowcount(result: Any) -> int:
    assert isinstance(result, CursorResult)
    return result.rowcount
