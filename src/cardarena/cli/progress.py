"""The live progress bar of long runs (``simulate``, ``tournament``): games done, games/s and the time left.

It draws on standard error, so ``--json`` on standard output stays clean, and only when standard error is a
terminal (a log gets the summary alone). Games found already played when a run resumes count as done but not
into the speed, which is measured over the games of this session.
"""

from __future__ import annotations

import time
from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text


class _Speed(ProgressColumn):
    """Games per second over this session (rich's own speed forgets all but the last 30 s)."""

    def __init__(self, bar: GameProgress) -> None:
        super().__init__()
        self.bar = bar

    def render(self, task: Task) -> Text:
        speed = self.bar.speed()
        return Text("-- games/s" if speed is None else f"{speed:,.1f} games/s", style="progress.data.speed")


class GameProgress:
    """``with GameProgress("tournament") as bar: ... bar(done, total)``: a callback for the arena's runs."""

    def __init__(self, label: str, *, console: Console | None = None) -> None:
        self.console = console or Console(stderr=True)
        self.enabled = self.console.is_terminal
        self.label = label
        self._start = time.perf_counter()
        self._first: int | None = None
        self._done = 0
        self._progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            _Speed(self),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=self.console,
            disable=not self.enabled,
        )
        self._task = self._progress.add_task(label, total=None)
        self._phase: TaskID | None = None

    def speed(self) -> float | None:
        """Games per second since the first report of this session."""
        elapsed = time.perf_counter() - self._start
        if self._first is None or elapsed <= 0 or self._done == self._first:
            return None
        return (self._done - self._first) / elapsed

    def played(self) -> int:
        """Games finished in this session."""
        return 0 if self._first is None else self._done - self._first

    def __call__(self, done: int, total: int, phase: str = "games") -> None:
        if phase != "games":  # a later phase (the report's statistics): its own line, the games' bar kept
            if self._phase is None:
                self._phase = self._progress.add_task(f"computing {phase}", total=total)
            self._progress.update(self._phase, completed=done, total=total)
            return
        if self._first is None:
            self._first = done
            self._start = time.perf_counter()
        self._done = done
        self._progress.update(self._task, completed=done, total=total)

    def __enter__(self) -> GameProgress:
        self._progress.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._progress.stop()
