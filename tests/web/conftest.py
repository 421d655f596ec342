"""Fixtures of the web tests: a throwaway PostgreSQL server, and fresh databases on it.

``postgres_server`` (session) runs ``initdb`` and ``pg_ctl start`` from the machine's PostgreSQL binaries into a
temporary directory: trust authentication, no TCP (it listens on a Unix socket in that directory only), stopped and
removed at the end of the session, also when a test fails. As root it runs them as the ``postgres`` user
(``initdb`` refuses root). Where no binaries are found the PostgreSQL tests skip, saying why; under CI (``CI`` set)
they fail instead. ``CARDARENA_PG_BIN`` names another directory of binaries.

``postgres_url`` (per test) is a new, empty database on that server, dropped after the test:
``postgresql+psycopg://postgres@/NAME?host=SOCKET_DIR``; any ``SqlStore``, ``open_store`` or
``cardarena serve --db`` takes it.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

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

    def psql(self, sql: str) -> None:
        command = [str(self.bin / "psql"), "-h", str(self.socket_dir), "-U", self.user, "-d", "postgres"]
        subprocess.run(
            [*command, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql],
            check=True,
            capture_output=True,
            timeout=TIMEOUT_S,
        )


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    pg_bin = _pg_bin()
    if pg_bin is None:
        _unavailable(f"no initdb/pg_ctl in {', '.join(PG_BIN_CANDIDATES)} or on PATH (set CARDARENA_PG_BIN)")
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
        subprocess.run(
            [*run_as, *initdb, "--no-sync"],
            check=True,
            capture_output=True,
            timeout=TIMEOUT_S,
        )
        settings = f"-c listen_addresses='' -c unix_socket_directories='{root}' -c shared_buffers=16MB -c fsync=on"
        started = True
        start = [str(pg_bin / "pg_ctl"), "start", "-w", "-t", "60", "-D", str(data), "-l", str(log), "-o", settings]
        result = subprocess.run(
            [*run_as, *start],
            capture_output=True,
            timeout=TIMEOUT_S,
        )
        if result.returncode != 0:
            server_log = log.read_text(errors="replace") if log.exists() else ""
            raise RuntimeError(f"pg_ctl start failed: {result.stderr.decode(errors='replace')}\n{server_log}")
        yield PostgresServer(bin=pg_bin, socket_dir=root, user=user, run_as=run_as)
    finally:
        if started:
            subprocess.run(
                [*run_as, str(pg_bin / "pg_ctl"), "stop", "-m", "fast", "-w", "-t", "60", "-D", str(root / "data")],
                capture_output=True,
                timeout=TIMEOUT_S,
            )
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """A new, empty PostgreSQL database for one test (dropped after it)."""
    name = f"t_{uuid.uuid4().hex[:16]}"
    postgres_server.psql(f"CREATE DATABASE {name}")
    try:
        yield postgres_server.url(name)
    finally:
        postgres_server.psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
