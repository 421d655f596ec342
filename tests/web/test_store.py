"""The Store contract, one suite for every implementation: MemoryStore, SqlStore on an SQLite file and SqlStore on
a throwaway PostgreSQL server (tests/web/conftest.py); then what only the SQL store has: reopening, atomic writes,
migrations, surviving kill -9."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, event, inspect
from sqlalchemy import text as sql_text

from cardarena.web.sql import MIGRATIONS, Base, SqlStore, alembic_config, migrate
from cardarena.web.store import (
    GameRow,
    GameStatus,
    MemoryStore,
    SeatKind,
    SeatRow,
    StaleWrite,
    Store,
    StoreError,
    UnknownGame,
    default_database_url,
    open_store,
)

HOSTILE = "<script>alert('x')</script> & \"quotes\" ü 漢字 🃏\ttab\nnewline \\ %s %% ' OR 1=1 --"
T0 = datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)


def seats(n: int = 2) -> tuple[SeatRow, ...]:
    human = SeatRow(seat=0, kind=SeatKind.HUMAN, name="", token_hash="ab" * 32)
    ais = tuple(
        SeatRow(seat=i, kind=SeatKind.AI, name="normal AI", agent="ismcts:iterations=300", label="normal")
        for i in range(1, n)
    )
    return (human, *ais)


def game(key: str, *, created: datetime = T0, **fields: Any) -> GameRow:
    defaults: dict[str, Any] = {"game": "torabato", "options": {}, "seed": 7, "seats": seats()}
    return GameRow(key=key, created=created, updated=created, **{**defaults, **fields})


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'db' / 'cardarena.db'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def sql_url(request: pytest.FixtureRequest) -> str:
    """The URL of a new, empty database of each SQL kind."""
    name = "sqlite_url" if request.param == "sqlite" else "postgres_url"
    url: str = request.getfixturevalue(name)
    return url


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def make_store(request: pytest.FixtureRequest) -> Iterator[Callable[[], Store]]:
    """Opens the store under test; for the SQL kinds every call opens a new SqlStore on the same database."""
    opened: list[Store] = []
    if request.param == "memory":
        memory = MemoryStore()

        def opener() -> Store:
            return memory
    else:
        url = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "postgres_url")

        def opener() -> Store:
            opened.append(open_store(url))
            assert isinstance(opened[-1], SqlStore)
            return opened[-1]

    yield opener
    for store in opened:
        store.close()


@pytest.fixture
def store(make_store: Callable[[], Store]) -> Store:
    return make_store()


# The conformance suite: every Store.


def test_create_and_get_round_trip(store: Store) -> None:
    row = game("k1", options={"max_turns": 40, "deck": ["a", "b"]}, private=True, rematch_of="k0")
    store.create_game(row)
    assert store.get_game("k1") == row
    assert store.actions("k1") == []


def test_create_refuses_an_existing_key(store: Store) -> None:
    store.create_game(game("k1"))
    with pytest.raises(StoreError, match="exists"):
        store.create_game(game("k1", seed=8))
    assert store.get_game("k1").seed == 7


def test_unknown_game_everywhere(store: Store) -> None:
    store.create_game(game("k1"))
    with pytest.raises(UnknownGame):
        store.get_game("nope")
    with pytest.raises(UnknownGame):
        store.actions("nope")
    with pytest.raises(UnknownGame):
        store.append_action("nope", 0, 0, "pass", result=None)
    with pytest.raises(UnknownGame):
        store.update_seat("nope", seats()[0], ply=0)
    with pytest.raises(UnknownGame):
        store.set_status("nope", GameStatus.RUNNING)
    assert store.get_game("k1") == game("k1")


def test_list_games_newest_first_by_status(store: Store) -> None:
    for i, status in enumerate([GameStatus.OPEN, GameStatus.RUNNING, GameStatus.FINISHED, GameStatus.OPEN]):
        store.create_game(game(f"k{i}", created=T0 + timedelta(seconds=i), status=status))
    listed = store.list_games((GameStatus.OPEN, GameStatus.RUNNING))
    assert [g.key for g in listed] == ["k3", "k1", "k0"]
    assert [g.key for g in store.list_games((GameStatus.FINISHED,))] == ["k2"]
    assert store.list_games((GameStatus.ABANDONED,)) == []
    assert listed[0] == store.get_game("k3")


def test_list_games_pages_newest_first_listed_only(store: Store) -> None:
    # the lobby's page (issue 27, point 5): newest first, at most `limit`, older than `before`, private ones left out
    for i in range(12):
        store.create_game(game(f"k{i:02}", created=T0 + timedelta(seconds=i), private=i % 4 == 0))
    store.create_game(game("done", created=T0 + timedelta(seconds=99), status=GameStatus.FINISHED))
    statuses = (GameStatus.OPEN, GameStatus.RUNNING)
    first = store.list_games(statuses, limit=5, listed_only=True)
    assert [g.key for g in first] == ["k11", "k10", "k09", "k07", "k06"]
    after = store.list_games(statuses, limit=5, before=first[-1].created, listed_only=True)
    assert [g.key for g in after] == ["k05", "k03", "k02", "k01"]
    assert [g.key for g in store.list_games(statuses, limit=2)] == ["k11", "k10"]  # private ones too
    assert [g.key for g in store.list_games(statuses, before=T0 + timedelta(seconds=2))] == ["k01", "k00"]
    assert len(store.list_games(statuses)) == 12  # no limit: all of them


def test_list_games_with_a_limit_reads_only_that_many_rows(make_store: Callable[[], Store]) -> None:
    store = make_store()
    for i in range(40):
        store.create_game(game(f"k{i:02}", created=T0 + timedelta(seconds=i)))
    statements: list[str] = []
    if isinstance(store, SqlStore):  # the page is cut in SQL (LIMIT), not after reading every row

        def record(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
            statements.append(statement)

        event.listen(store.engine, "before_cursor_execute", record)
    page = store.list_games((GameStatus.OPEN,), limit=3)
    if isinstance(store, SqlStore):
        event.remove(store.engine, "before_cursor_execute", record)
    assert [g.key for g in page] == ["k39", "k38", "k37"]
    assert page[0] == store.get_game("k39")
    if isinstance(store, SqlStore):
        games_query = [s for s in statements if "FROM games" in s]
        assert len(games_query) == 1 and "LIMIT" in games_query[0].upper(), statements


def test_count_games_by_creator(store: Store) -> None:
    for i, (creator, status) in enumerate(
        [
            ("1.2.3.4", GameStatus.OPEN),
            ("1.2.3.4", GameStatus.OPEN),
            ("1.2.3.4", GameStatus.RUNNING),
            ("::1", GameStatus.OPEN),
            (None, GameStatus.OPEN),
        ]
    ):
        store.create_game(game(f"k{i}", created=T0 + timedelta(seconds=i), status=status, creator=creator))
    assert store.count_games((GameStatus.OPEN,), creator="1.2.3.4") == 2
    assert store.count_games((GameStatus.OPEN, GameStatus.RUNNING), creator="1.2.3.4") == 3
    assert store.count_games((GameStatus.OPEN,), creator="::1") == 1
    assert store.count_games((GameStatus.OPEN,), creator="5.6.7.8") == 0
    store.set_status("k0", GameStatus.ABANDONED)
    assert store.count_games((GameStatus.OPEN,), creator="1.2.3.4") == 1
    assert store.get_game("k1").creator == "1.2.3.4"


def test_append_in_order_and_refuse_stale_plies(store: Store) -> None:
    store.create_game(game("k1"))
    store.append_action("k1", 0, 0, "play 3", result=None)
    store.append_action("k1", 1, None, "chance", result=None)
    for ply in (0, 1, 3, -1):
        with pytest.raises(StaleWrite):
            store.append_action("k1", ply, 1, "late", result=None)
    row = store.get_game("k1")
    assert (row.ply, row.status, row.result) == (2, GameStatus.OPEN, None)
    assert store.actions("k1") == ["play 3", "chance"]
    assert row.updated >= T0


def test_the_last_action_finishes_the_game(store: Store) -> None:
    store.create_game(game("k1", status=GameStatus.RUNNING))
    store.append_action("k1", 0, 0, "attack", result=None)
    with pytest.raises(StaleWrite):  # a stale final action finishes nothing
        store.append_action("k1", 0, 1, "concede", result=[-1.0, 1.0])
    assert store.get_game("k1").status == GameStatus.RUNNING
    store.append_action("k1", 1, 1, "finish", result=[1.0, -1.0])
    row = store.get_game("k1")
    assert (row.ply, row.status, row.result) == (2, GameStatus.FINISHED, [1.0, -1.0])
    assert store.actions("k1") == ["attack", "finish"]
    assert [g.key for g in store.list_games((GameStatus.FINISHED,))] == ["k1"]


def test_update_seat(store: Store) -> None:
    store.create_game(game("k1"))
    claimed = SeatRow(seat=0, kind=SeatKind.HUMAN, name=HOSTILE, token_hash="cd" * 32, claimed=True)
    store.update_seat("k1", claimed, ply=0)
    row = store.get_game("k1")
    assert row.seats == (claimed, seats()[1])
    assert row.updated > T0
    with pytest.raises(StoreError, match="no seat 5"):
        store.update_seat("k1", SeatRow(seat=5, kind=SeatKind.HUMAN, name="x"), ply=0)
    assert store.get_game("k1").seats == (claimed, seats()[1])


def test_a_seat_or_clock_written_for_an_older_position_is_refused(store: Store) -> None:
    """Issue 27, point 8: a seat or a clock is written for the position at a ply, like an action; a writer whose
    game has moved on (a second server's stale copy) is refused, and nothing changes."""
    clock = {"kind": "game", "limit": 60.0, "then": "easy", "used": [0.0, 0.0], "since": None}
    store.create_game(game("k1", clock=clock))
    store.append_action("k1", 0, 0, "play 3", result=None)
    before = store.get_game("k1")
    stale_seat = SeatRow(seat=0, kind=SeatKind.AI, name="stale AI", agent="random", label="easy", claimed=True)
    for ply in (0, 2, -1):
        with pytest.raises(StaleWrite, match="is at ply 1"):
            store.update_seat("k1", stale_seat, ply=ply)
        with pytest.raises(StaleWrite, match="is at ply 1"):
            store.update_clock("k1", {**clock, "used": [9.0, 0.0]}, ply=ply)
    assert store.get_game("k1") == before
    store.update_clock("k1", {**clock, "used": [1.5, 0.0]}, ply=1)
    store.update_seat("k1", stale_seat, ply=1)
    row = store.get_game("k1")
    assert row.clock == {**clock, "used": [1.5, 0.0]} and row.seats[0] == stale_seat
    with pytest.raises(UnknownGame):
        store.update_seat("nope", stale_seat, ply=1)


def test_set_status(store: Store) -> None:
    store.create_game(game("k1"))
    store.set_status("k1", GameStatus.RUNNING)
    assert store.get_game("k1").status == GameStatus.RUNNING
    store.set_status("k1", GameStatus.ABANDONED)
    row = store.get_game("k1")
    assert (row.status, row.ply) == (GameStatus.ABANDONED, 0)
    assert store.list_games((GameStatus.OPEN, GameStatus.RUNNING)) == []


@pytest.mark.parametrize("seed", [0, 2**31, 2**63 - 1, 2**63, 2**64 - 1])
def test_seeds_round_trip(store: Store, seed: int) -> None:
    store.create_game(game("k1", seed=seed))
    assert store.get_game("k1").seed == seed
    assert store.list_games((GameStatus.OPEN,))[0].seed == seed


def test_unicode_and_html_round_trip_unchanged(store: Store) -> None:
    row = game("k1", options={HOSTILE: HOSTILE, "n": [1, 2.5, None, True]})
    row = replace(row, seats=(SeatRow(seat=0, kind=SeatKind.HUMAN, name=HOSTILE), *row.seats[1:]))
    store.create_game(row)
    store.append_action("k1", 0, 0, HOSTILE, result=None)
    stored = store.get_game("k1")
    assert stored == replace(row, ply=1, updated=stored.updated)
    assert store.actions("k1") == [HOSTILE]


def test_concurrent_appends_at_one_ply_exactly_one_wins(make_store: Callable[[], Store]) -> None:
    store = make_store()
    store.create_game(game("k1"))
    writers = 6

    def race(ply: int) -> dict[int, str]:
        barrier = threading.Barrier(writers, timeout=60)
        outcomes: dict[int, str] = {}

        def write(i: int) -> None:
            barrier.wait()
            try:
                store.append_action("k1", ply, i % 2, f"writer {i} at {ply}", result=None)
                outcomes[i] = "won"
            except StaleWrite:
                outcomes[i] = "stale"

        threads = [threading.Thread(target=write, args=(i,)) for i in range(writers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        return outcomes

    for ply in range(3):
        outcomes = race(ply)
        assert sorted(outcomes.values()) == ["stale"] * (writers - 1) + ["won"]
        (winner,) = (i for i, outcome in outcomes.items() if outcome == "won")
        assert store.actions("k1")[ply] == f"writer {winner} at {ply}"
    assert store.get_game("k1").ply == 3
    assert len(store.actions("k1")) == 3


def test_an_analysis_is_kept_per_game_seat_and_analyst(store: Store) -> None:
    store.create_game(game("k1", status=GameStatus.FINISHED))
    assert store.get_analysis("k1", 0, "expert") is None
    store.put_analysis("k1", 0, "expert", {"decisions": [{"ply": 3, "swing": 0.25}], "text": HOSTILE})
    store.put_analysis("k1", 1, "expert", {"decisions": []})
    assert store.get_analysis("k1", 0, "expert") == {"decisions": [{"ply": 3, "swing": 0.25}], "text": HOSTILE}
    assert store.get_analysis("k1", 0, "expert:iterations=8") is None
    store.put_analysis("k1", 0, "expert", {"decisions": []})  # replaced, not added
    assert store.get_analysis("k1", 0, "expert") == {"decisions": []}
    with pytest.raises(UnknownGame):
        store.get_analysis("nope", 0, "expert")
    with pytest.raises(UnknownGame):
        store.put_analysis("nope", 0, "expert", {})


# The SQL store only.


def test_a_reopened_store_sees_everything(sql_url: str) -> None:
    first = SqlStore(sql_url)
    first.create_game(game("k1", seed=2**64 - 1, status=GameStatus.RUNNING))
    first.create_game(game("k2", created=T0 + timedelta(seconds=1)))
    first.append_action("k1", 0, 0, HOSTILE, result=None)
    first.append_action("k1", 1, 1, "end", result=[0.5, 0.5])
    first.update_seat("k2", SeatRow(seat=0, kind=SeatKind.HUMAN, name="Ann", claimed=True), ply=0)
    first.put_analysis("k1", 1, "expert", {"seats": [1], "decisions": []})
    expected = [first.get_game("k2"), first.get_game("k1")]
    first.close()
    second = SqlStore(sql_url)
    try:
        assert second.list_games(tuple(GameStatus)) == expected
        assert second.actions("k1") == [HOSTILE, "end"]
        assert second.get_game("k1").status == GameStatus.FINISHED
        assert second.get_analysis("k1", 1, "expert") == {"seats": [1], "decisions": []}
    finally:
        second.close()


def test_a_failed_append_writes_nothing(sql_url: str) -> None:
    """The action row, the ply and the status are one transaction: when the action's INSERT fails after the game's
    UPDATE went through, neither is kept."""
    store = SqlStore(sql_url)
    store.create_game(game("k1", status=GameStatus.RUNNING))

    def fail_on_action_insert(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().upper().startswith("INSERT INTO ACTIONS"):
            raise RuntimeError("disk on fire")

    event.listen(store.engine, "before_cursor_execute", fail_on_action_insert)
    try:
        with pytest.raises(RuntimeError, match="disk on fire"):
            store.append_action("k1", 0, 0, "last", result=[1.0, -1.0])
    finally:
        event.remove(store.engine, "before_cursor_execute", fail_on_action_insert)
    row = store.get_game("k1")
    assert (row.ply, row.status, row.result) == (0, GameStatus.RUNNING, None)
    assert store.actions("k1") == []
    store.append_action("k1", 0, 0, "last", result=[1.0, -1.0])
    assert store.get_game("k1").status == GameStatus.FINISHED
    store.close()


def test_migrations_match_the_models_and_upgrading_again_does_nothing(sql_url: str) -> None:
    store = SqlStore(sql_url)
    store.create_game(game("k1"))
    head = ScriptDirectory.from_config(alembic_config(sql_url)).get_current_head()
    with store.engine.connect() as connection:
        context = MigrationContext.configure(connection)
        assert context.get_current_revision() == head == "0005"
        assert compare_metadata(context, Base.metadata) == []
        assert set(inspect(connection).get_table_names()) == {
            "alembic_version",
            "games",
            "seats",
            "actions",
            "analyses",
            "accounts",
            "sessions",
            "ratings",
            "rating_events",
        }
    written: list[str] = []

    def record(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if not statement.lstrip().upper().startswith(("SELECT", "BEGIN", "PRAGMA", "SHOW", "COMMIT")):
            written.append(statement)

    event.listen(store.engine, "before_cursor_execute", record)
    migrate(store.engine)
    event.remove(store.engine, "before_cursor_execute", record)
    assert written == []
    assert store.get_game("k1") == game("k1")
    store.close()


def test_migration_files_are_in_the_package() -> None:
    assert (MIGRATIONS / "env.py").is_file()
    assert (MIGRATIONS / "script.py.mako").is_file()
    assert sorted(p.name for p in (MIGRATIONS / "versions").glob("0*.py")) == [
        "0001_games_seats_actions.py",
        "0002_game_clock.py",
        "0003_game_creator.py",
        "0004_analyses.py",
        "0005_accounts_ratings.py",
    ]


# Opening stores by URL.


def test_open_store_sqlite_creates_the_directory(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "cardarena.db"
    store = open_store(f"sqlite:///{path}")
    assert isinstance(store, SqlStore)
    with store.engine.connect() as connection:
        pragmas = {p: connection.exec_driver_sql(f"PRAGMA {p}").scalar() for p in ("journal_mode", "synchronous")}
        pragmas["foreign_keys"] = connection.exec_driver_sql("PRAGMA foreign_keys").scalar()
        pragmas["busy_timeout"] = connection.exec_driver_sql("PRAGMA busy_timeout").scalar()
    store.close()
    assert path.is_file()
    assert pragmas == {"journal_mode": "wal", "synchronous": 2, "foreign_keys": 1, "busy_timeout": 15000}


@pytest.mark.parametrize(
    "url",
    ["mysql://u@h/db", "postgresql://u:secret@h/db", "sqlite://", "sqlite:///:memory:", "", "data/cardarena.db"],
)
def test_open_store_refuses_other_urls(url: str) -> None:
    with pytest.raises(StoreError) as refused:
        open_store(url)
    assert "secret" not in str(refused.value)


def test_open_store_unreachable_postgres_hides_the_password(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="cannot open the database") as refused:
        open_store(f"postgresql+psycopg://u:secret@/db?host={tmp_path}&connect_timeout=5")
    assert "secret" not in str(refused.value)


def test_default_database_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CARDARENA_DATA", raising=False)
    assert default_database_url() == f"sqlite:///{tmp_path.resolve() / 'data' / 'cardarena.db'}"
    monkeypatch.setenv("CARDARENA_DATA", str(tmp_path / "elsewhere"))
    assert default_database_url() == f"sqlite:///{tmp_path / 'elsewhere' / 'cardarena.db'}"


# kill -9 while writing.

WRITER = """
import sys
from cardarena.web.store import open_store
store = open_store(sys.argv[1])
for ply in range(1_000_000):
    store.append_action("k1", ply, ply % 2, f"action {ply} " + "x" * (ply % 300), result=None)
    print(ply, flush=True)
"""


def test_kill_9_loses_no_acknowledged_action(sql_url: str) -> None:
    """A writer process prints each ply once append_action has returned; SIGKILL lands in the middle of its writes.
    Every printed ply is in the reopened store, and what is stored is whole: plies 0..n-1, the game's ply n."""
    store = SqlStore(sql_url)
    store.create_game(game("k1", status=GameStatus.RUNNING))
    store.close()
    writer = subprocess.Popen([sys.executable, "-c", WRITER, sql_url], stdout=subprocess.PIPE)
    assert writer.stdout is not None
    printed: list[int] = []
    buffer = b""
    try:
        while len(printed) < 40:
            ready, _, _ = select.select([writer.stdout], [], [], 120)
            assert ready, f"the writer printed nothing for 120 s (exit code {writer.poll()})"
            chunk = os.read(writer.stdout.fileno(), 4096)
            assert chunk, f"the writer ended early (exit code {writer.wait(timeout=60)})"
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            printed += [int(line) for line in lines]
        os.kill(writer.pid, signal.SIGKILL)
        assert writer.wait(timeout=60) == -signal.SIGKILL
        buffer += writer.stdout.read()
        printed += [int(line) for line in buffer.split(b"\n") if line]
    finally:
        if writer.poll() is None:
            writer.kill()
            writer.wait(timeout=60)
        writer.stdout.close()
    reopened = SqlStore(sql_url)
    try:
        stored = reopened.actions("k1")
        assert printed == list(range(len(printed)))
        assert len(stored) >= len(printed)
        assert stored == [f"action {ply} " + "x" * (ply % 300) for ply in range(len(stored))]
        assert reopened.get_game("k1").ply == len(stored)
        reopened.append_action("k1", len(stored), 0, "after the crash", result=None)
    finally:
        reopened.close()


def test_a_database_of_before_accounts_keeps_its_games_after_the_migration(tmp_path: Path) -> None:
    """Issue 32: today's databases (schema 0004) upgrade in place; their games keep working, their seats are
    bound to no account and their games are unrated."""
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    engine = create_engine(url)
    with engine.begin() as connection:
        command.upgrade(alembic_config(url, connection), "0004")
        connection.execute(
            sql_text(
                "INSERT INTO games (key, game, options, seed, status, private, ply, created, updated) "
                "VALUES ('old1', 'laplaplace', '{}', '7', 'running', 0, 1, '2026-11-01 10:00:00', "
                "'2026-11-01 10:00:00')"
            )
        )
        connection.execute(
            sql_text(
                "INSERT INTO seats (game_key, seat, kind, name, claimed) VALUES "
                "('old1', 0, 'human', 'Aki', 1), ('old1', 1, 'ai', 'easy AI', 0)"
            )
        )
        connection.execute(
            sql_text(
                "INSERT INTO actions (game_key, ply, seat, text, time) VALUES "
                "('old1', 0, 0, 'pass', '2026-11-01 10:00:01')"
            )
        )
    engine.dispose()
    store = SqlStore(url)
    row = store.get_game("old1")
    assert [s.name for s in row.seats] == ["Aki", "easy AI"]
    assert [s.account for s in row.seats] == [None, None]
    assert row.rated is False
    assert store.actions("old1") == ["pass"]
    store.append_action("old1", 1, 1, "next", result=None)
    assert store.get_game("old1").ply == 2
    store.close()


def test_an_accounts_games_are_those_with_a_seat_bound_to_it(store: Store) -> None:
    """Issue 32: a profile lists the games of its account, whatever the seat's name was."""
    if isinstance(store, SqlStore):  # a seat binds to an account row
        with store.engine.begin() as connection:
            for number in (1, 2):
                connection.execute(
                    sql_text("INSERT INTO accounts (id, name, name_key, created) VALUES (:id, :name, :name, :created)"),
                    {"id": number, "name": f"a{number}", "created": T0},
                )
    bound = replace(seats()[0], account=1, name="Aki", claimed=True)
    store.create_game(game("mine", seats=(bound, *seats()[1:]), status=GameStatus.FINISHED, rated=True))
    store.create_game(game("other", created=T0 + timedelta(seconds=1)))
    store.create_game(game("later", created=T0 + timedelta(seconds=2), status=GameStatus.RUNNING))
    store.update_seat("later", replace(seats()[0], account=1, claimed=True), ply=0)
    statuses = (GameStatus.RUNNING, GameStatus.FINISHED)
    assert [g.key for g in store.list_games(statuses, account=1)] == ["later", "mine"]
    assert store.list_games(statuses, account=2) == []
    mine = store.get_game("mine")
    assert (mine.seats[0].account, mine.rated) == (1, True)
