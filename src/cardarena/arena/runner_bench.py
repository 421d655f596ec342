"""The runner's own cost: ``python -m cardarena.arena.runner_bench [--items N] [--jobs J] [--game-ms MS]``.

Plays ``N`` items of work that takes ``MS`` milliseconds of CPU each (a busy loop on the process's CPU clock,
standing in for a game) on each backend, first one item per chunk (the cost of one task, which a game of seconds
pays), then with the runner's time-sized chunks (what a tournament of cheap games pays). Prints, per backend, the
wall time, the overhead per item (``wall × jobs / N - MS``: meaningful on a quiet machine only), the parent's CPU
time per item (what makes the parent a bottleneck, or not; it holds under load too) and the seconds to start the
local Ray runtime, which a command pays once.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from . import runner


def busy(context: float, items: list[int]) -> list[int]:
    """Spin ``context`` CPU seconds per item (no sleeping: a worker must hold its core as a game does)."""
    for _ in items:
        end = time.process_time() + context
        while time.process_time() < end:
            pass
    return items


def measure(backend: str, *, items: int, jobs: int, seconds: float, max_chunk: int) -> dict[str, Any]:
    got: list[int] = []
    start, cpu = time.perf_counter(), time.process_time()
    runner.run(busy, seconds, range(items), got.extend, backend=backend, jobs=jobs, max_chunk=max_chunk)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    assert sorted(got) == list(range(items))
    return {
        "backend": backend,
        "chunks": "one item" if max_chunk == 1 else "sized",
        "wall_s": round(wall, 3),
        "overhead_ms_per_item": round((wall * jobs / items - seconds) * 1000, 3),
        "parent_cpu_ms_per_item": round(cpu / items * 1000, 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=4000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--game-ms", type=float, default=5.0)
    args = parser.parse_args()
    import ray

    start = time.perf_counter()
    ray.init(num_cpus=args.jobs, include_dashboard=False, log_to_driver=False)
    ray_start = time.perf_counter() - start
    rows = []
    try:
        for backend in ("process", "ray"):
            for max_chunk in (1, runner.MAX_CHUNK):
                rows.append(
                    measure(backend, items=args.items, jobs=args.jobs, seconds=args.game_ms / 1000, max_chunk=max_chunk)
                )
    finally:
        ray.shutdown()
    print(json.dumps({"ray_start_s": round(ray_start, 2), "jobs": args.jobs, "game_ms": args.game_ms, "rows": rows}))


if __name__ == "__main__":
    main()
