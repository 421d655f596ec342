"""What N open games cost the server (issue 27, point 5): the memory of the tables after ``Tables.start()`` and the
latency of ``GET /api/games``, with N open ToraBato games of two human seats in a throwaway SQLite file.

    PYTHONPATH=src .venv/bin/python scripts/open_games_capacity.py [N] [--serve]      # N = 500 by default

It measures whatever ``cardarena`` is on the path (a checkout of an older commit's ``src`` too), so a change can
be measured before and after on one machine. Memory: ``tracemalloc`` (the Python objects kept) and the growth of
the resident set; latency: the median and the maximum of 30 requests through FastAPI's TestClient. ``--serve``
also asks a real ``cardarena serve`` on a loopback port over the same database (40 requests over HTTP) and reports
that server's resident set afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import statistics
import tempfile
import time
import tracemalloc
import urllib.request
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from fastapi.testclient import TestClient

import cardarena
from cardarena.web.ai import AIPool
from cardarena.web.app import create_app
from cardarena.web.load import HOST, Server, free_port
from cardarena.web.lobby import new_game
from cardarena.web.sql import SqlStore
from cardarena.web.tables import Tables


def rss_kib(pid: int | str = "self") -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def startup(store: SqlStore, n: int) -> None:
    gc.collect()
    rss = rss_kib()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    tables = Tables(store, AIPool(0))
    await tables.start()
    gc.collect()
    traced = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    grown = rss_kib() - rss
    print(
        f"after start with {n} open games: {len(tables._tables)} tables in memory; {traced / 1024:.0f} KiB traced"
        f" ({traced / n / 1024:.1f} KiB a game); RSS +{grown} KiB ({grown / n:.1f} KiB a game)"
    )
    await tables.close()


def over_http(db: str, tmp: Path) -> None:
    server = Server(db, free_port(), ai_workers=0, log=tmp / "server.log")
    server.start()
    try:
        for path in ("/api/games", "/api/games?limit=200"):
            times = []
            for _ in range(40):
                start = time.perf_counter()
                with urllib.request.urlopen(f"http://{HOST}:{server.port}{path}", timeout=30) as answer:
                    listed = json.loads(answer.read())
                times.append((time.perf_counter() - start) * 1000)
            print(
                f"cardarena serve, GET {path}: {len(listed)} listed, median {statistics.median(times):.1f} ms,"
                f" max {max(times):.1f} ms"
            )
        assert server.process is not None
        print(f"cardarena serve's resident set after that: {rss_kib(server.process.pid) / 1024:.1f} MiB")
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("n", nargs="?", type=int, default=500, help="open games (default 500)")
    parser.add_argument("--serve", action="store_true", help="also measure a real cardarena serve over HTTP")
    args = parser.parse_args()
    n = args.n
    print(f"cardarena from {cardarena.__file__}")
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{tmp}/capacity.db"
        store = SqlStore(db)
        t0 = datetime.now(UTC) - timedelta(minutes=5)
        for i in range(n):
            row, _ = new_game({"game": "torabato", "seats": [{"kind": "human"}, {"kind": "human"}]})
            moment = t0 + timedelta(milliseconds=i)
            store.create_game(replace(row, created=moment, updated=moment))
        asyncio.run(startup(store, n))
        with TestClient(create_app(store, ai_workers=0)) as client:
            for path in ("/api/games", "/api/games?limit=200"):
                times = []
                for _ in range(30):
                    start = time.perf_counter()
                    answer = client.get(path)
                    times.append((time.perf_counter() - start) * 1000)
                    assert answer.status_code == 200, answer.text
                print(
                    f"GET {path}: {len(answer.json())} listed, median {statistics.median(times):.1f} ms,"
                    f" max {max(times):.1f} ms"
                )
        store.close()
        if args.serve:
            over_http(db, Path(tmp))


if __name__ == "__main__":
    main()
