"""Fixtures of the web tests: a throwaway PostgreSQL server, and fresh databases on it.

``postgres_server`` (session) runs ``initdb`` and ``pg_ctl start`` from the machine's PostgreSQL binaries into a
temporary directory: trust authentication, no TCP (it listens on a Unix socket in that directory only), stopped and
removed at the end of the session, also when a test fails. As root it runs them as the ``postgres`` user
(``initdb`` refuses root). Where no binaries are found the PostgreSQL tests skip, saying why; under CI (``CI`` set)
they fail instead. ``CARDARENA_PG_BIN`` names another directory of binaries.

``postgres_url`` (per test) is a new, empty database on that server, dropped after the test:
``postgresql+psycopg://postgres@/NAME?host=SOCKET_DIR``; any ``SqlStore``, ``open_store`` or
``cardarena serve --db`` takes it. For a fixture of a wider scope: ``postgres_server.create_database()`` and
``postgres_server.drop_database(url)``.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

PG_BIN_CANDIDATES = ("/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/17/bin")
TIMEOUT_S = 120


def _pg_bin() -> Path | None:
    named = os.environ.get("CARDARENA_PG_BIN")
    candidates = [named] if named else list(PG_BIN_CANDIDATES)
    if not named and shutil.which("pg_ctl"):
        candidates.append(str(Path(shutil.which("pg_ctl") or "").parent))
    for candidate in candidates:
        if (Path(candidate) / "initdb").is_file() and (Path(candidate) / "pg_ctl").is_file():
            return Path(candidate)
    return None


def _unavailable(reason: str) -> None:
    message = f"PostgreSQL tests cannot run: {reason}"
    if os.environ.get("CI"):
        pytest.fail(f"{message} (CI is set: the PostgreSQL tests must run there)", pytrace=False)
    pytest.skip(f"SKIPPED LOUDLY - {message}")


@dataclass(frozen=True)
class PostgresServer:
    bin: Path
    socket_dir: Path
    user: str  # the superuser (the owner of the cluster's files)
    run_as: tuple[str, ...]  # the prefix running a command as that user ("runuser -u postgres --" as root)

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://{self.user}@/{database}?host={self.socket_dir}"

    def create_database(self) -> str:
        """A new, empty database; its URL (for fixtures of any scope: drop it with :meth:`drop_database`)."""
        name = f"t_{uuid.uuid4().hex[:16]}"
        self.psql(f"CREATE DATABASE {name}")
        return self.url(name)

    def drop_database(self, url: str) -> None:
        name = make_url(url).database
        self.psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def psql(self, sql: str) -> None:
        command = [str(self.bin / "psql"), "-h", str(self.socket_dir), "-U", self.user, "-d", "postgres"]
        done = subprocess.run(
            [*command, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql], capture_output=True, timeout=TIMEOUT_S
        )
        if done.returncode != 0:
            raise RuntimeError(f"psql -c {sql!r} failed: {done.stderr.decode(errors='replace')}")


def _run(command: list[str], *, log: Path | None) -> None:
    done = subprocess.run(command, capture_output=True, timeout=TIMEOUT_S)
    if done.returncode != 0:
        server_log = log.read_text(errors="replace") if log is not None and log.exists() else ""
        raise RuntimeError(f"{command[-1]!r} failed: {done.stderr.decode(errors='replace')}{server_log}")


def _stop(run_as: tuple[str, ...], pg_bin: Path, data: Path) -> None:
    """Stop the server; if pg_ctl cannot, kill its postmaster (the first line of postmaster.pid)."""
    pid_file = data / "postmaster.pid"
    pid = int(pid_file.read_text().split()[0]) if pid_file.exists() else None
    try:
        subprocess.run(
            [*run_as, str(pg_bin / "pg_ctl"), "stop", "-m", "fast", "-w", "-t", "60", "-D", str(data)],
            capture_output=True,
            timeout=TIMEOUT_S,
        )
    finally:
        if pid is not None and pid_file.exists():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    pg_bin = _pg_bin()
    if pg_bin is None:
        named = os.environ.get("CARDARENA_PG_BIN")
        searched = f"CARDARENA_PG_BIN={named}" if named else f"{', '.join(PG_BIN_CANDIDATES)} or on PATH"
        _unavailable(f"no initdb and pg_ctl in {searched} (install PostgreSQL's server or set CARDARENA_PG_BIN)")
        raise AssertionError  # unreachable: skip or fail raised
    run_as: tuple[str, ...] = ()
    user = pwd.getpwuid(os.geteuid()).pw_name
    if os.geteuid() == 0:  # initdb refuses to run as root
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            _unavailable("running as root and there is no 'postgres' user to run initdb as")
            raise AssertionError from None
        run_as, user = ("runuser", "-u", "postgres", "--"), "postgres"
    root = Path(tempfile.mkdtemp(prefix="cardarena-pg-"))
    started = False
    try:
        if run_as:
            os.chown(root, owner.pw_uid, owner.pw_gid)
        data, log = root / "data", root / "server.log"
        initdb = [str(pg_bin / "initdb"), "-D", str(data), "-U", user, "--auth=trust", "-E", "UTF8", "--locale=C"]
        _run([*run_as, *initdb, "--no-sync"], log=None)
        settings = f"-c listen_addresses='' -c unix_socket_directories='{root}' -c shared_buffers=16MB"
        started = True
        _run(
            [
                *run_as,
                str(pg_bin / "pg_ctl"),
                "start",
                "-w",
                "-t",
                "60",
                "-D",
                str(data),
                "-l",
                str(log),
                "-o",
                settings,
            ],
            log=log,
        )
        yield PostgresServer(bin=pg_bin, socket_dir=root, user=user, run_as=run_as)
    finally:
        if started:
            _stop(run_as, pg_bin, root / "data")
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """A new, empty PostgreSQL database for one test (dropped after it)."""
    url = postgres_server.create_database()
    try:
        yield url
    finally:
        postgres_server.drop_database(url)
