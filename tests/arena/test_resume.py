"""An interrupted tournament resumes: killed with SIGKILL half-way, or stopped with Ctrl-C (SIGINT), the same
command finishes it with exactly the JSON of an uninterrupted run. The runs are real subprocesses."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

ARGS = ["tournament", "dicebattle", "--agents", "random,flatmc:worlds=2", "-n", "60", "--seed", "7"]
DEADLINE = 120.0  # seconds for any one wait: a loaded machine is slow, but nothing may hang


def _command(out: Path, jobs: int) -> list[str]:
    return [sys.executable, "-m", "cardarena.cli.main", *ARGS, "--jobs", str(jobs), "--out", str(out), "--json"]


def _stored(out: Path) -> int:
    if not out.exists():
        return 0
    try:
        with sqlite3.connect(out, timeout=1) as db:
            return int(db.execute("SELECT count(*) FROM results").fetchone()[0])
    except sqlite3.OperationalError:  # not created yet
        return 0


def _default_sigint() -> None:
    """Ctrl-C as a terminal gives it: a pytest-xdist worker ignores SIGINT, and a child would inherit that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start_and_stop(out: Path, jobs: int, sig: signal.Signals) -> subprocess.CompletedProcess[str] | None:
    """Start the tournament, wait until a few games are stored, then send ``sig`` to its process group."""
    process = subprocess.Popen(
        _command(out, jobs),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_default_sigint,
    )
    try:
        start = time.monotonic()
        while _stored(out) < 4:
            assert process.poll() is None, "the tournament ended before it could be interrupted"
            assert time.monotonic() - start < DEADLINE, "no games were stored in time"
            time.sleep(0.05)
        os.killpg(process.pid, sig)
        stdout, stderr = process.communicate(timeout=DEADLINE)
        return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=DEADLINE)


def _finish(out: Path, jobs: int) -> dict:  # type: ignore[type-arg]
    done = subprocess.run(_command(out, jobs), capture_output=True, text=True, timeout=10 * DEADLINE, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_a_killed_or_interrupted_tournament_resumes_to_the_same_result(tmp_path: Path) -> None:
    reference = _finish(tmp_path / "whole.sqlite", jobs=2)
    assert reference["games"] == 60

    killed = tmp_path / "killed.sqlite"
    _start_and_stop(killed, jobs=2, sig=signal.SIGKILL)
    assert 4 <= _stored(killed) < 60, "the kill must land half-way"
    assert _finish(killed, jobs=1) == reference

    interrupted = tmp_path / "interrupted.sqlite"
    stopped = _start_and_stop(interrupted, jobs=2, sig=signal.SIGINT)  # the workers are stopped by the parent
    assert stopped is not None and stopped.returncode == 130, stopped.stderr
    assert "run the same command again to resume" in stopped.stderr and "Traceback" not in stopped.stderr
    assert 4 <= _stored(interrupted) < 60
    assert _finish(interrupted, jobs=1) == reference
