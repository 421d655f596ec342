"""The one runner for parallel work: ``simulate``, ``tournament`` and ``strength`` hand it their games.

A job is a list of *items* (say game numbers) and a module-level function ``work(context, items) -> results``
that plays them. The runner cuts the items into chunks, sends each chunk with the (small) ``context`` to a
worker, and gives every finished chunk's results to ``on_results`` in the parent, in the order chunks finish.
Callers key their results by item (the game's index), so nothing they compute depends on that order, on the
backend or on the number of workers: the same seed gives the same output everywhere.

Backends:

- ``process`` (default): ``jobs`` worker processes on this machine (all cores by default); ``jobs=1`` plays in
  the parent itself, with no pool.
- ``ray``: Ray tasks, one CPU each. With no ``address`` the runner starts a local Ray runtime of ``jobs`` CPUs
  (and stops it at the end); with ``address`` it joins a running cluster (``ray start --head`` on one machine,
  ``ray start --address HEAD:6379`` on the others). If Ray is already initialised in this process (a test, a
  notebook), the runner uses that runtime and leaves it running.

**Chunking.** The parent must never be the bottleneck, and a killed run should lose little: the first chunk of
every worker holds one item, and later chunks are sized from the measured time per item so that a chunk takes
about ``target_seconds`` (0.5 s by default; at most ``max_chunk`` items), growing at most twofold from one chunk
to the next (a slow start: a run that mixes cheap and expensive games, say random against heuristic and then
against IS-MCTS, is measured on a few games before a big chunk is cut). Cheap games travel in hundreds per
message; an expensive game travels alone, so its result is stored as soon as it ends. Two chunks per worker are
kept in flight so that no worker waits for the parent. Items are pulled lazily from the iterable, so a caller may
stop producing them (sequential stopping) as results come in.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

from ..engine import Game, OptionError, load

T = TypeVar("T")
R = TypeVar("R")

Work = Callable[[Any, list[Any]], list[Any]]

TARGET_SECONDS = 0.5
MAX_CHUNK = 256
POLL_SECONDS = 0.25  # the parent wakes this often while waiting, so Ctrl-C is seen at once


class Backend(StrEnum):
    """Where the games are played."""

    PROCESS = "process"
    RAY = "ray"


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


@dataclass
class _Chunker:
    """Cuts items into chunks sized from the measured seconds per item (see the module's docstring)."""

    items: Iterator[Any]
    target_seconds: float
    max_chunk: int
    per_item: float | None = None
    last_size: int = 1
    exhausted: bool = False

    def next_chunk(self) -> list[Any]:
        size = 1
        if self.per_item is not None:
            size = int(self.target_seconds / max(self.per_item, 1e-6))
            size = max(1, min(self.max_chunk, 2 * self.last_size, size))
        self.last_size = size
        chunk: list[Any] = []
        for item in self.items:
            chunk.append(item)
            if len(chunk) >= size:
                break
        else:
            self.exhausted = True
        return chunk

    def measured(self, count: int, seconds: float) -> None:
        if count:
            sample = seconds / count
            self.per_item = sample if self.per_item is None else 0.5 * self.per_item + 0.5 * sample


_GAMES: dict[str, Game] = {}


def load_cached(game_id: str, options: dict[str, Any]) -> Game:
    """``load(game_id, **options)`` once per worker process: a chunk of one game should not re-read data files."""
    key = repr((game_id, sorted((k, str(v)) for k, v in options.items())))
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = load(game_id, **options)
    return game


def _timed(work: Work, context: Any, chunk: list[Any]) -> tuple[list[Any], float]:
    """Run one chunk in a worker; return its results and the seconds it took there."""
    start = time.perf_counter()
    results = work(context, chunk)
    return results, time.perf_counter() - start


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the parent, which stops them (no tracebacks from every worker); SIGTERM, which the
    parent sends when it stops them, ends a worker at once (a forked worker would otherwise inherit the command's
    handler, which unwinds, and the mask under which it was forked)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})


def _start_pool(jobs: int) -> Any:
    """A pool of ``jobs`` workers, forked with SIGTERM held back: a SIGTERM that arrived in the middle of a fork would
    run the command's handler inside the fork hooks, where its exception is ignored (and the command would go on);
    held back, it is handled as soon as the pool stands."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    try:
        return multiprocessing.get_context().Pool(processes=jobs, initializer=_ignore_sigint)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def run(
    work: Work,
    context: Any,
    items: Iterable[Any],
    on_results: Callable[[list[Any]], None],
    *,
    backend: Backend | str = Backend.PROCESS,
    jobs: int | None = None,
    address: str | None = None,
    target_seconds: float = TARGET_SECONDS,
    max_chunk: int = MAX_CHUNK,
) -> None:
    """Play every item of ``items`` with ``work(context, chunk)``; give each chunk's results to ``on_results``.

    ``work`` must be a module-level function (it is pickled by reference) and ``context`` picklable. An exception
    raised by ``work`` stops the run and is raised here (the callers catch a game's own errors per game, so this
    means a bug in the runner's caller). ``KeyboardInterrupt`` stops the workers and is raised again.
    """
    try:
        backend = Backend(backend)
    except ValueError:
        raise OptionError(f"unknown backend {backend!r}; valid backends: process, ray") from None
    if jobs is not None and jobs < 1:
        raise OptionError(f"jobs must be at least 1, got {jobs}")
    if address is not None and backend is not Backend.RAY:
        raise OptionError("--address joins a Ray cluster: use it with --backend ray")
    chunker = _Chunker(iter(items), target_seconds, max_chunk)
    if backend is Backend.RAY:
        _run_ray(work, context, chunker, on_results, jobs=jobs, address=address)
    elif (jobs or default_jobs()) == 1:
        _run_inline(work, context, chunker, on_results)
    else:
        _run_processes(work, context, chunker, on_results, jobs=jobs or default_jobs())


def _run_inline(work: Work, context: Any, chunker: _Chunker, on_results: Callable[[list[Any]], None]) -> None:
    while not chunker.exhausted:
        chunk = chunker.next_chunk()
        if not chunk:
            break
        results, seconds = _timed(work, context, chunk)
        chunker.measured(len(chunk), seconds)
        on_results(results)


def _run_processes(
    work: Work, context: Any, chunker: _Chunker, on_results: Callable[[list[Any]], None], *, jobs: int
) -> None:
    done: queue.Queue[tuple[int, Any, BaseException | None]] = queue.Queue()
    pool = _start_pool(jobs)
    pending: dict[int, int] = {}  # chunk number -> its size
    number = 0
    try:

        def submit() -> None:
            nonlocal number
            chunk = chunker.next_chunk()
            if not chunk:
                return
            key = number
            number += 1
            pending[key] = len(chunk)

            def finished(value: Any, key: int = key) -> None:
                done.put((key, value, None))

            def failed(error: BaseException, key: int = key) -> None:
                done.put((key, None, error))

            pool.apply_async(_timed, (work, context, chunk), callback=finished, error_callback=failed)

        while len(pending) < 2 * jobs and not chunker.exhausted:
            submit()
        while pending:
            try:
                key, value, error = done.get(timeout=POLL_SECONDS)
            except queue.Empty:
                continue
            size = pending.pop(key)
            if error is not None:
                raise error
            results, seconds = value
            chunker.measured(size, seconds)
            on_results(results)
            while len(pending) < 2 * jobs and not chunker.exhausted:
                submit()
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


def _run_ray(
    work: Work,
    context: Any,
    chunker: _Chunker,
    on_results: Callable[[list[Any]], None],
    *,
    jobs: int | None,
    address: str | None,
) -> None:
    try:
        import ray
    except ImportError:  # pragma: no cover - the arena extra installs it
        raise OptionError("--backend ray needs Ray: pip install 'cardarena[arena]'") from None
    started = False
    if not ray.is_initialized():
        if address is None:
            ray.init(num_cpus=jobs or default_jobs(), include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
        started = True
    try:
        workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        remote = ray.remote(num_cpus=1)(_timed)
        context_ref = ray.put(context)
        pending: dict[Any, int] = {}

        def submit() -> None:
            chunk = chunker.next_chunk()
            if chunk:
                pending[remote.remote(work, context_ref, chunk)] = len(chunk)

        while len(pending) < 2 * workers and not chunker.exhausted:
            submit()
        try:
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1, timeout=POLL_SECONDS)
                for ref in ready:
                    size = pending.pop(ref)
                    results, seconds = ray.get(ref)
                    chunker.measured(size, seconds)
                    on_results(results)
                while len(pending) < 2 * workers and not chunker.exhausted:
                    submit()
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
    finally:
        if started:
            ray.shutdown()
